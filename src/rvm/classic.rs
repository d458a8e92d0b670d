//! The classic RVM (Tipping 2001; PRML 7.87–7.88, and 9.67–9.68 for EM): every sweep
//! computes the posterior of all remaining weights and re-estimates every αᵢ (and β) at
//! once, pruning the basis functions whose αᵢ runs off to ∞.

use std::sync::Arc;

use super::{ActivePosterior, NoiseFit, Problem, RvmFit, Sweep};
use crate::error::{Result, ensure_finite, ensure_positive};
use crate::linalg::MULTIPLY_ADDS_PER_UNIT;
use crate::solver::{Solver, Status, Termination};

/// A weight is pruned once γᵢ = 1 − αᵢΣᵢᵢ = sᵢ/(αᵢ + sᵢ) falls below this, i.e. αᵢ > 999sᵢ.
/// Restoring such a basis function to its best αᵢ could raise L by at most (θᵢ/sᵢ)²/4 <
/// 2.5·10⁻⁷, the most λ(α*) − λ(∞) is when α* > 999s (PRML 7.97, 7.101).
pub const PRUNE_GAMMA: f64 = 1e-3;

/// The re-estimation rule of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// MacKay's fixed point αᵢ = γᵢ/μᵢ², β = (N − Σγᵢ)/‖t − Φμ‖² (PRML 7.87–7.88).
    MacKay,
    /// EM: αᵢ = 1/(μᵢ² + Σᵢᵢ), 1/β = (‖t − Φμ‖² + β⁻¹Σγᵢ)/N (PRML 9.67–9.68); slower, but
    /// never lowers L.
    Em,
}

/// The options of a classic run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassicSettings {
    /// The re-estimation rule.
    pub rule: Rule,
    /// Re-estimate β or keep it fixed.
    pub estimate_noise: bool,
    /// The starting (or only) β; `None`: [`Problem::initial_beta`].
    pub beta: Option<f64>,
    /// Converged when no |Δ ln αᵢ| nor |Δ ln β| exceeds this and no weight was pruned.
    pub tolerance: f64,
    /// Most sweeps: the run then ends [`crate::solver::Termination::MaxIterations`].
    pub max_sweeps: usize,
    /// The least gain in L (nats: the same in any units) a sweep must make for the run to go
    /// on; a sweep that gains less ends it [`crate::solver::Termination::Stalled`]. 0 (the
    /// default): never. A comparison beside the fast method sets it (EM creeps: a dying
    /// weight's α grows by about s per sweep, and L by ever less).
    pub min_gain: f64,
}

impl ClassicSettings {
    /// The settings with `rule` and the defaults otherwise.
    pub fn with_rule(rule: Rule) -> Self {
        Self { rule, estimate_noise: true, beta: None, tolerance: 1e-6, max_sweeps: 100_000, min_gain: 0.0 }
    }
}

/// The classic RVM, one sweep per [`Solver::step`].
#[derive(Debug, Clone)]
pub struct ClassicRvm {
    problem: Arc<Problem>,
    settings: ClassicSettings,
    /// Remaining basis functions (columns of Φ), ascending.
    active: Vec<usize>,
    /// Their αᵢ.
    alpha: Vec<f64>,
    beta: f64,
    /// Σ, μ and L at the current α, β.
    posterior: ActivePosterior,
    sweeps: usize,
    converged: bool,
    /// Whether the last sweep gained less than [`ClassicSettings::min_gain`].
    stalled: bool,
}

impl ClassicRvm {
    /// Every non-zero basis function in the model, with the starting αᵢ of
    /// [`initial_alpha`].
    ///
    /// # Errors
    /// [`crate::Error::OutOfRange`] for a given β ≤ 0; [`crate::Error::NotPositiveDefinite`]
    /// if the first Σ⁻¹ is singular.
    pub fn new(problem: Arc<Problem>, settings: ClassicSettings) -> Result<Self> {
        let beta = match settings.beta {
            Some(beta) => ensure_positive("β", ensure_finite("β", beta)?)?,
            None => problem.initial_beta(),
        };
        let active: Vec<usize> = (0..problem.m()).filter(|&m| problem.norms_sq[m] > 0.0).collect();
        if active.is_empty() {
            return Err(crate::Error::NoData);
        }
        let alpha: Vec<f64> = active.iter().map(|&m| initial_alpha(&problem, m)).collect();
        let posterior = ActivePosterior::compute(&problem, &active, &alpha, beta)?;
        Ok(Self { problem, settings, active, alpha, beta, posterior, sweeps: 0, converged: false, stalled: false })
    }

    /// The options of the run.
    pub fn settings(&self) -> &ClassicSettings {
        &self.settings
    }

    /// Remaining basis functions, ascending.
    pub fn active(&self) -> &[usize] {
        &self.active
    }

    /// Their αᵢ.
    pub fn alpha(&self) -> &[f64] {
        &self.alpha
    }

    /// The noise precision β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// L = ln p(t|α, β) at the current α, β.
    pub fn log_ml(&self) -> f64 {
        self.posterior.log_ml
    }

    /// The posterior of the remaining weights.
    pub fn posterior(&self) -> &ActivePosterior {
        &self.posterior
    }

    /// The fit as it stands.
    pub fn fit(&self) -> RvmFit {
        let p = &self.posterior;
        RvmFit::new(&self.active, p.mu.as_slice(), &self.alpha, self.beta, p.log_ml, self.sweeps, self.converged)
    }
}

impl Solver for ClassicRvm {
    type Event = Sweep;

    /// One sweep: new αᵢ for every remaining weight and a new β by [`Rule`], pruning weights
    /// with γᵢ < [`PRUNE_GAMMA`], then Σ, μ and L recomputed. Converged when no weight was
    /// pruned and no |Δ ln αᵢ| nor |Δ ln β| exceeds [`ClassicSettings::tolerance`]; stalled
    /// when L gained less than [`ClassicSettings::min_gain`].
    ///
    /// # Errors
    /// [`crate::Error::NotPositiveDefinite`] if the new Σ⁻¹ is singular; the model is then
    /// as before the sweep.
    fn next_iter(&mut self) -> Result<Sweep> {
        let p = &self.posterior;
        let gamma = p.gamma(&self.alpha);
        let new_alpha = |j: usize| match self.settings.rule {
            Rule::MacKay => gamma[j] / (p.mu[j] * p.mu[j]),
            Rule::Em => 1.0 / (p.mu[j] * p.mu[j] + p.sigma[(j, j)]),
        };
        let beta = if self.settings.estimate_noise {
            let fit = NoiseFit::new(&self.problem, &self.active, &self.alpha, &p.sigma, &p.mu);
            let proposal = match self.settings.rule {
                Rule::MacKay => fit.mackay(),
                Rule::Em => fit.em(self.beta),
            };
            proposal.unwrap_or(self.beta)
        } else {
            self.beta
        };
        let mut change = (beta.ln() - self.beta.ln()).abs();
        let (mut active, mut alpha) = (vec![], vec![]);
        for (j, &g) in gamma.iter().enumerate() {
            let a = new_alpha(j);
            // An exactly zero μᵢ (or γᵢ → 0) sends αᵢ to ∞: that, too, is a pruning.
            if g >= PRUNE_GAMMA && a.is_finite() && a > 0.0 {
                change = change.max((a.ln() - self.alpha[j].ln()).abs());
                active.push(self.active[j]);
                alpha.push(a);
            }
        }
        let pruned = active.len() < self.active.len();
        if active.is_empty() {
            // Everything would go: keep the strongest weight, as the fast method keeps its
            // last basis function.
            let j = (0..self.active.len()).max_by(|&a, &b| gamma[a].total_cmp(&gamma[b])).unwrap_or(0);
            active.push(self.active[j]);
            alpha.push(new_alpha(j).clamp(f64::MIN_POSITIVE, f64::MAX));
        }
        let posterior = ActivePosterior::compute(&self.problem, &active, &alpha, beta)?;
        let gain = posterior.log_ml - self.posterior.log_ml;
        (self.active, self.alpha, self.beta, self.posterior) = (active, alpha, beta, posterior);
        self.sweeps += 1;
        self.converged = !pruned && change < self.settings.tolerance;
        self.stalled = !self.converged && self.settings.min_gain > 0.0 && gain < self.settings.min_gain;
        Ok(Sweep { log_marginal_likelihood: self.posterior.log_ml, relevant: self.active.len(), irls_iterations: 0 })
    }

    fn status(&self) -> Status {
        if self.stalled {
            return Status::Terminated(Termination::Stalled { iterations: self.sweeps });
        }
        Status::of_budgeted(self.converged, self.sweeps, self.settings.max_sweeps)
    }

    fn iterations(&self) -> usize {
        self.sweeps
    }

    /// A sweep forms Φ_𝒜ᵀΦ_𝒜 of the P remaining weights (N·P² multiply-adds), factorises Σ⁻¹
    /// (P³/3) and inverts it (about P³ more): a unit being [`MULTIPLY_ADDS_PER_UNIT`], so that
    /// a page's slice reads its clock as often as the work needs (EM at N = 50 keeps all 51
    /// weights: a sweep was one unit, and a 10 ms slice ran to 25 ms).
    fn cost(&self) -> usize {
        let (n, p) = (self.problem.n(), self.active.len());
        // (usize is 32 bits in the browser: a large problem's count saturates, as its budget does.)
        let cube = p.saturating_pow(3);
        n.saturating_mul(p * p).saturating_add(cube.saturating_mul(4) / 3) / MULTIPLY_ADDS_PER_UNIT + 1
    }
}

/// The starting αᵢ of column m: M‖φₘ‖²/‖t‖², so that the prior's predictive variance
/// Σᵢ‖φᵢ‖²/αᵢ equals the targets' energy ‖t‖² (1 if t = 0): scale-free, unlike a
/// constant.
pub fn initial_alpha(problem: &Problem, m: usize) -> f64 {
    let energy = problem.targets().norm_squared();
    if energy > 0.0 { problem.m() as f64 * problem.norms_sq[m] / energy } else { 1.0 }
}
