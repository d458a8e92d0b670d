//! Fast sequential sparse Bayesian learning (Tipping & Faul 2003; PRML §7.2.2, 7.93–7.107;
//! Tipping & Faul 2003, §4 steps 1–8).
//!
//! The model starts with one basis function and changes one αᵢ per step. For every
//! candidate i the marginal likelihood depends on αᵢ only through
//! λ(αᵢ) = ½[ln αᵢ − ln(αᵢ + sᵢ) + qᵢ²/(αᵢ + sᵢ)] (PRML 7.97), whose maximum is at
//! αᵢ = sᵢ²/(qᵢ² − sᵢ) if θᵢ = qᵢ² − sᵢ > 0 and at αᵢ = ∞ otherwise (PRML 7.101). So a step
//! adds, re-estimates or deletes one basis function, or re-estimates the noise.
//!
//! Everything a step needs is kept up to date incrementally (Tipping & Faul 2003,
//! Appendix A): Σ and μ of the active weights, and for every basis function m
//!
//! Sₘ = φₘᵀC⁻¹φₘ = βφₘᵀφₘ − β²φₘᵀΦ_𝒜ΣΦ_𝒜ᵀφₘ,  Qₘ = φₘᵀC⁻¹t = βφₘᵀt − β²φₘᵀΦ_𝒜ΣΦ_𝒜ᵀt
//!
//! (PRML 7.102–7.103 with C₋ᵢ → C), from which sₘ = αₘSₘ/(αₘ − Sₘ), qₘ = αₘQₘ/(αₘ − Sₘ) for
//! active m and sₘ = Sₘ, qₘ = Qₘ for inactive m (PRML 7.104–7.105). The columns Φᵀφₖ of the
//! active basis functions are cached, so an addition costs one product Φᵀφᵢ (N·M) and
//! every step O(M·M_𝒜 + M_𝒜²); only a change of β recomputes everything.

use std::sync::Arc;

use nalgebra::{DMatrix, DVector};

pub use super::active_set::{ALIGNMENT_MAX_COSINE, FIRST_ALPHA_PER_SPARSITY, MIN_DELTA_LN_ALPHA, Selection};
use super::active_set::{ActiveSet, Candidate};
use super::event::{Action, Event};
use super::{ActivePosterior, NoiseFit, Problem, RvmFit};
use crate::error::{Error, Result};
use crate::solver::{Solver, Status};

/// With the noise estimated, convergence also needs |Δ ln β| below this.
pub const MIN_DELTA_LN_BETA: f64 = 1e-3;
/// The first step at which β is re-estimated (reference: `BetaUpdateStart`).
pub const NOISE_START: usize = 10;
/// β is re-estimated every this many steps from [`NOISE_START`] (reference:
/// `BetaUpdateFrequency`).
pub const NOISE_EVERY: usize = 5;
/// β never exceeds this multiple of 1/var(t) (reference: a cap of 10⁶/var t), so a model
/// that interpolates the data does not send it to ∞.
const MAX_BETA_TIMES_VARIANCE: f64 = 1e6;

/// The options of a fast run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FastSettings {
    /// How the next basis function is chosen.
    pub selection: Selection,
    /// Refuse candidates nearly parallel to an active basis function.
    pub alignment_test: bool,
    /// Re-estimate β (every [`NOISE_EVERY`] steps from [`NOISE_START`]) or keep it fixed.
    pub estimate_noise: bool,
    /// The starting (or, with the noise fixed, the only) β; `None`: [`Problem::initial_beta`].
    pub beta: Option<f64>,
    /// Seed of [`Selection::Random`].
    pub seed: u64,
    /// Most steps in [`FastRvm::run`].
    pub max_steps: usize,
}

impl Default for FastSettings {
    fn default() -> Self {
        Self {
            selection: Selection::Greedy,
            alignment_test: true,
            estimate_noise: true,
            beta: None,
            seed: 0,
            max_steps: 10_000,
        }
    }
}

/// The part of [`FastRvm`] that a change of β recomputes ([`FastRvm::full_statistics`]).
#[derive(Debug, Clone)]
struct NoiseState {
    beta: f64,
    sigma: DMatrix<f64>,
    mu: DVector<f64>,
    big_s: DVector<f64>,
    big_q: DVector<f64>,
    log_ml: f64,
}

/// The fast RVM, one step at a time.
#[derive(Debug, Clone)]
pub struct FastRvm {
    problem: Arc<Problem>,
    settings: FastSettings,
    beta: f64,
    /// The active basis functions, their αᵢ and Gram columns, Sₘ and Qₘ, the refusals.
    set: ActiveSet,
    /// Σ of the active weights.
    sigma: DMatrix<f64>,
    /// μ of the active weights.
    mu: DVector<f64>,
    /// L = ln p(t|α, β).
    log_ml: f64,
    events: Vec<Event>,
    converged: bool,
}

impl FastRvm {
    /// The model after initialisation (Tipping & Faul 2003, §4 step 2): the one basis function best
    /// aligned with t, maximising |φᵢᵀt|/‖φᵢ‖, with αᵢ = sᵢ²/(qᵢ² − sᵢ) (or, if θᵢ ≤ 0,
    /// αᵢ = [`FIRST_ALPHA_PER_SPARSITY`]·sᵢ). The initial event,
    /// step 0, is an [`Action::Add`] whose ΔL is measured from the empty model.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a given β ≤ 0 or ∞; [`Error::Degenerate`]-free:
    /// [`Error::NoData`] if every column of Φ is zero; [`Error::NotPositiveDefinite`] if
    /// the first Σ⁻¹ is singular.
    pub fn new(problem: Arc<Problem>, settings: FastSettings) -> Result<Self> {
        let beta = match settings.beta {
            Some(beta) => crate::error::ensure_positive("β", crate::error::ensure_finite("β", beta)?)?,
            None => problem.initial_beta(),
        };
        let first = best_aligned(&problem).ok_or(Error::NoData)?;
        let (s, q) = (beta * problem.norms_sq[first], beta * problem.phi_t[first]);
        let alpha = if q * q > s { s * s / (q * q - s) } else { FIRST_ALPHA_PER_SPARSITY * s };
        let set = ActiveSet::new(problem.m(), first, alpha, problem.gram_column(first), settings.seed);
        let mut rvm = Self {
            settings,
            beta,
            set,
            sigma: DMatrix::zeros(1, 1),
            mu: DVector::zeros(1),
            log_ml: 0.0,
            events: vec![],
            converged: false,
            problem,
        };
        rvm.full_statistics()?;
        let empty = empty_log_ml(&rvm.problem, beta);
        rvm.events.push(Event {
            step: 0,
            action: Action::Add,
            basis: Some(first),
            s: Some(s),
            q: Some(q),
            theta: Some(q * q - s),
            alpha_old: None,
            alpha_new: Some(alpha),
            delta_l: rvm.log_ml - empty,
            log_ml: rvm.log_ml,
            active: 1,
            beta: Some(beta),
            refused: vec![],
        });
        Ok(rvm)
    }

    /// The problem being solved.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The options of the run.
    pub fn settings(&self) -> &FastSettings {
        &self.settings
    }

    /// Every event so far, the initialisation first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Active basis functions in model order.
    pub fn active(&self) -> &[usize] {
        &self.set.active
    }

    /// Their αᵢ, in model order.
    pub fn alpha(&self) -> &[f64] {
        &self.set.alpha
    }

    /// Posterior mean μ of the active weights, in model order.
    pub fn mean(&self) -> &DVector<f64> {
        &self.mu
    }

    /// Posterior covariance Σ of the active weights, in model order.
    pub fn covariance(&self) -> &DMatrix<f64> {
        &self.sigma
    }

    /// The noise precision β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// L = ln p(t|α, β), natural log, −N/2 ln 2π included.
    pub fn log_ml(&self) -> f64 {
        self.log_ml
    }

    /// Sₘ and Qₘ for every column m (PRML 7.102–7.103 with C₋ᵢ → C).
    pub fn statistics(&self) -> (&DVector<f64>, &DVector<f64>) {
        (&self.set.big_s, &self.set.big_q)
    }

    /// The sparsity sₘ and quality qₘ of column m (PRML 7.104–7.105).
    pub fn sparsity_quality(&self, m: usize) -> (f64, f64) {
        self.set.sparsity_quality(m)
    }

    /// Columns refused by the alignment test and not reinstated since.
    pub fn refused(&self) -> impl Iterator<Item = usize> + '_ {
        self.set.refused()
    }

    /// The fit as it stands.
    pub fn fit(&self) -> RvmFit {
        RvmFit::new(
            &self.set.active,
            self.mu.as_slice(),
            &self.set.alpha,
            self.beta,
            self.log_ml,
            self.events.len() - 1,
            self.converged,
        )
    }

    fn advance(&mut self) -> Result<Event> {
        let step = self.events.len();
        let noise_due =
            self.settings.estimate_noise && step >= NOISE_START && (step - NOISE_START).is_multiple_of(NOISE_EVERY);
        let event = if noise_due {
            self.noise_step(step, vec![])?
        } else {
            let mut refused = vec![];
            let (selection, alignment_test) = (self.settings.selection, self.settings.alignment_test);
            match self.set.choose(selection, alignment_test, &self.problem.norms_sq, &mut refused) {
                Some(candidate) => self.apply(step, candidate, refused)?,
                None => self.finish(step, refused)?,
            }
        };
        self.events.push(event.clone());
        Ok(event)
    }

    /// Carries out `candidate` and reports it as the event of `step`.
    ///
    /// # Errors
    /// As [`FastRvm::add`]; the model is then unchanged.
    fn apply(&mut self, step: usize, candidate: Candidate, refused: Vec<usize>) -> Result<Event> {
        let i = candidate.basis;
        let alpha_old = self.set.slot(i).map(|j| self.set.alpha[j]);
        let delta_l = match (candidate.action, candidate.alpha_new) {
            (Action::Add, Some(alpha)) => self.add(i, alpha)?,
            (Action::Reestimate, Some(alpha)) => {
                self.reestimate(i, alpha);
                self.log_ml += candidate.delta_l;
                candidate.delta_l
            }
            _ => {
                self.delete(i);
                self.log_ml += candidate.delta_l;
                candidate.delta_l
            }
        };
        Ok(Event {
            step,
            action: candidate.action,
            basis: Some(i),
            s: Some(candidate.s),
            q: Some(candidate.q),
            theta: Some(candidate.q * candidate.q - candidate.s),
            alpha_old,
            alpha_new: candidate.alpha_new,
            delta_l,
            log_ml: self.log_ml,
            active: self.set.active.len(),
            beta: Some(self.beta),
            refused,
        })
    }

    /// Adds column i with precision α: one product Φᵀφᵢ (N·M) for its Gram column, then
    /// Σ, μ, S, Q and L from the Gram cache ([`FastRvm::full_statistics`], M·M_𝒜² more).
    ///
    /// Tipping & Faul's rank-one update for an addition (Appendix A, eq 49–52) is exact
    /// in exact arithmetic, but when φᵢ is close to the span of the active columns it
    /// subtracts nearly equal terms: in tests its Sₘ lost a decimal digit per addition of
    /// a neighbouring kernel column (and Σ's error grew tenfold per addition at
    /// cond Σ⁻¹ ≈ 10⁴). The refactorisation does not compound. If it fails, the column is
    /// not added. Returns the change of L.
    fn add(&mut self, i: usize, alpha: f64) -> Result<f64> {
        let before = self.log_ml;
        self.set.push(i, alpha, self.problem.gram_column(i));
        if let Err(e) = self.full_statistics() {
            // `full_statistics` changed nothing: only the column itself is taken back.
            self.set.pop();
            return Err(e);
        }
        Ok(self.log_ml - before)
    }

    /// Sets αᵢ of active column i to `alpha` (Appendix A, eq 45–48): with σ = Σ[:, j] and
    /// κ = 1/(Σⱼⱼ + 1/(α̃ − α)), Σ ← Σ − κσσᵀ, μ ← μ − κμⱼσ, and with v = βGσ:
    /// Sₘ ← Sₘ + κvₘ², Qₘ ← Qₘ + κμⱼvₘ.
    fn reestimate(&mut self, i: usize, alpha: f64) {
        let Some(j) = self.set.slot(i) else { return };
        let kappa = 1.0 / (self.sigma[(j, j)] + 1.0 / (alpha - self.set.alpha[j]));
        self.rank_one_downdate(j, kappa);
        self.set.alpha[j] = alpha;
    }

    /// Deletes active column i (Appendix A, eq 53–56): the re-estimation with α̃ = ∞, i.e.
    /// κ = 1/Σⱼⱼ, after which row and column j of Σ are zero and are removed.
    fn delete(&mut self, i: usize) {
        let Some(j) = self.set.slot(i) else { return };
        let kappa = 1.0 / self.sigma[(j, j)];
        self.rank_one_downdate(j, kappa);
        self.sigma = self.sigma.clone().remove_row(j).remove_column(j);
        self.mu = self.mu.clone().remove_row(j);
        self.set.remove(i);
    }

    /// Σ ← Σ − κσσᵀ, μ ← μ − κμⱼσ, S ← S + κv², Q ← Q + κμⱼv with σ = Σ[:, j], v = βGσ:
    /// the common core of re-estimation and deletion.
    fn rank_one_downdate(&mut self, j: usize, kappa: f64) {
        let column = self.sigma.column(j).into_owned();
        let mu_j = self.mu[j];
        let v = self.set.gram_times(&column) * self.beta;
        self.sigma -= &column * column.transpose() * kappa;
        self.mu -= &column * (kappa * mu_j);
        self.set.big_s += v.map(|x| x * x) * kappa;
        self.set.big_q += &v * (kappa * mu_j);
    }

    /// Σ, μ, L, S and Q recomputed for the current α and β, with Φ_𝒜ᵀΦ_𝒜 read from the
    /// Gram cache (no pass over the data): Σ⁻¹ = A + βΦ_𝒜ᵀΦ_𝒜 = LLᵀ, and with
    /// gₘ = Φ_𝒜ᵀφₘ, Sₘ = β‖φₘ‖² − β²‖L⁻¹gₘ‖² and Qₘ = βφₘᵀt − βgₘᵀμ (M·M_𝒜² operations).
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] if Σ⁻¹ is numerically singular; nothing changes.
    fn full_statistics(&mut self) -> Result<()> {
        let set = &self.set;
        let n = set.active.len();
        let gram = DMatrix::from_fn(n, n, |r, c| set.gram[c][set.active[r]]);
        let posterior = ActivePosterior::from_gram(&self.problem, &set.active, &set.alpha, self.beta, gram)?;
        let beta = self.beta;
        let whitened = posterior.factor.whitened_norms_sq(self.problem.m(), |k| set.gram[k].as_slice());
        let big_s =
            DVector::from_fn(self.problem.m(), |m, _| beta * self.problem.norms_sq[m] - beta * beta * whitened[m]);
        let big_q = (&self.problem.phi_t - set.gram_times(&posterior.mu)) * beta;
        (self.set.big_s, self.set.big_q) = (big_s, big_q);
        (self.sigma, self.mu, self.log_ml) = (posterior.sigma, posterior.mu, posterior.log_ml);
        Ok(())
    }

    /// The residual and Σγᵢ of the current posterior, for re-estimating β.
    fn noise_fit(&self) -> NoiseFit {
        NoiseFit::new(&self.problem, &self.set.active, &self.set.alpha, &self.sigma, &self.mu)
    }

    /// The cap on β: [`MAX_BETA_TIMES_VARIANCE`]/var(t).
    fn max_beta(&self) -> f64 {
        MAX_BETA_TIMES_VARIANCE / self.problem.target_variance()
    }

    /// Re-estimates β and recomputes everything (Tipping & Faul 2003, §4 step 7). The fixed
    /// point is tried first; if it lowered L, the EM update (which cannot) is taken
    /// instead, so L never falls from one step to the next.
    fn noise_step(&mut self, step: usize, refused: Vec<usize>) -> Result<Event> {
        let before = self.noise_state();
        let fit = self.noise_fit();
        for proposal in [fit.mackay(), fit.em(self.beta)].into_iter().flatten() {
            self.beta = proposal.min(self.max_beta());
            match self.full_statistics() {
                Ok(()) if self.log_ml >= before.log_ml - 1e-12 * before.log_ml.abs() => break,
                Ok(()) => self.restore(before.clone()),
                Err(e) => {
                    self.restore(before);
                    return Err(e);
                }
            }
        }
        Ok(self.model_event(step, Action::Noise, before.log_ml, refused))
    }

    /// The event of a step that acted on no basis function (noise, convergence), L having
    /// been `log_ml_before`.
    fn model_event(&self, step: usize, action: Action, log_ml_before: f64, refused: Vec<usize>) -> Event {
        let model = (self.set.active.len(), Some(self.beta));
        Event::without_basis(step, action, (log_ml_before, self.log_ml), model, refused)
    }

    /// What a change of β recomputes, to put back if the change is refused.
    fn noise_state(&self) -> NoiseState {
        NoiseState {
            beta: self.beta,
            sigma: self.sigma.clone(),
            mu: self.mu.clone(),
            big_s: self.set.big_s.clone(),
            big_q: self.set.big_q.clone(),
            log_ml: self.log_ml,
        }
    }

    /// Puts back the state saved by [`FastRvm::noise_state`].
    fn restore(&mut self, state: NoiseState) {
        NoiseState {
            beta: self.beta,
            sigma: self.sigma,
            mu: self.mu,
            big_s: self.set.big_s,
            big_q: self.set.big_q,
            log_ml: self.log_ml,
        } = state;
    }

    /// Nothing is worth a step on any basis function: re-estimate β if it would still move
    /// by [`MIN_DELTA_LN_BETA`], else converge.
    fn finish(&mut self, step: usize, refused: Vec<usize>) -> Result<Event> {
        let (beta, log_ml) = (self.beta, self.log_ml);
        let moves = |new: f64| (new.ln() - beta.ln()).abs() >= MIN_DELTA_LN_BETA;
        let proposal = self.noise_fit().mackay().map(|beta| beta.min(self.max_beta()));
        if self.settings.estimate_noise && proposal.is_some_and(moves) {
            let event = self.noise_step(step, refused.clone())?;
            // The safeguard may have taken the smaller EM move instead; only a real move
            // keeps the run going.
            if event.beta.is_some_and(moves) {
                return Ok(event);
            }
        }
        self.converged = true;
        Ok(self.model_event(step, Action::Converged, log_ml, refused))
    }
}

/// The column maximising |φᵢᵀt|/‖φᵢ‖ (zero columns excluded).
fn best_aligned(problem: &Problem) -> Option<usize> {
    (0..problem.m())
        .filter(|&m| problem.norms_sq[m] > 0.0)
        .map(|m| (m, problem.phi_t[m].abs() / problem.norms_sq[m].sqrt()))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(m, _)| m)
}

/// L of the empty model, ln N(t|0, β⁻¹I).
fn empty_log_ml(problem: &Problem, beta: f64) -> f64 {
    let n = problem.n() as f64;
    -0.5 * (n * (2.0 * std::f64::consts::PI).ln() - n * beta.ln() + beta * problem.targets().norm_squared())
}

impl Solver for FastRvm {
    type Event = Event;

    /// One step (Tipping & Faul 2003, §4 steps 3–8): re-estimate β when it is due, else act
    /// on the chosen basis function, else re-estimate β if that would still change it, else
    /// converge. Converged once no basis function is worth a step.
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] if the recomputation after a change of β meets a
    /// singular Σ⁻¹; the model is then as before the step.
    fn next_iter(&mut self) -> Result<Event> {
        self.advance()
    }

    fn status(&self) -> Status {
        Status::of_budgeted(self.converged, self.iterations(), self.settings.max_steps)
    }

    fn iterations(&self) -> usize {
        self.events.len() - 1
    }

    /// A step updates every candidate's sparsity and quality (PRML 7.102–7.103): work in
    /// proportion to the M candidates.
    fn cost(&self) -> usize {
        self.problem.m()
    }
}
