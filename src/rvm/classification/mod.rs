//! The relevance vector machine for binary classification (PRML §7.2.3, 7.108–7.116;
//! Tipping 2001) and, with the same machinery, for counts (a Poisson likelihood; Tipping
//! 2001 §4, Tipping's SparseBayes).
//!
//! The model is y(x, w) = σ(wᵀφ(x)) with targets tₙ ∈ {0, 1} — or the rate
//! y(x, w) = exp(wᵀφ(x)) of counts tₙ ∈ {0, 1, 2, …} ([`Likelihood`]) — and the ARD prior
//! p(w|α) = Πᵢ N(wᵢ | 0, αᵢ⁻¹) (PRML 7.108, 7.80). The weights cannot be integrated out
//! exactly; at fixed α the posterior is replaced by its Laplace approximation around the
//! mode w*, found by [`irls`], and α is re-estimated from that Gaussian by
//! [`ClassicRvmClassifier`], one sweep at a time.
//!
//! Symbols: `phi` is the design Φ (N × M, Φₙᵢ = φᵢ(xₙ)), `t` the targets, `alpha` the
//! precisions αᵢ (A = diag αᵢ), `w` the weights, y = σ(Φw) (or exp(Φw)),
//! B = diag bₙ with bₙ = yₙ(1 − yₙ) (or yₙ), H = ΦᵀBΦ + A the Hessian of the negative log
//! posterior. Every function and type here takes the Bernoulli likelihood unless it is
//! given another (`*_with`, `with_likelihood`).

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use super::Sweep;
use super::classic::PRUNE_GAMMA;

pub mod fast;

use super::likelihood::mean_poisson_deviance;
pub use super::likelihood::{Likelihood, ln_sigmoid, sigmoid};

use super::newton::{Found, NewtonSearch, Posterior, SweepUnderWay, SweptInPieces, sweep_within, whole_sweep};
use crate::error::{Error, Result, ensure_all_finite, ensure_positive};
use crate::linalg::CholeskyFactor;
use crate::solver::{Budget, Solver, Status};
pub use fast::FastRvmClassifier;

/// The formula named when H = ΦᵀBΦ + A is not positive definite (PRML 7.111).
const HESSIAN: &str = "H = ΦᵀBΦ + A";

/// When [`irls`] stops, and how many Newton steps it may take: the search's own constants.
pub use super::newton::{IRLS_MAX_ITERATIONS, IRLS_TOLERANCE};

/// The Bernoulli log likelihood
///
/// ```text
/// ln p(t|w) = Σₙ tₙ ln yₙ + (1 − tₙ) ln(1 − yₙ),  yₙ = σ(aₙ), a = Φw   (PRML 4.90, 7.109)
/// ```
///
/// with ln(1 − σ(a)) = ln σ(−a), so that no logarithm of 0 is taken.
pub fn log_likelihood(phi: &DMatrix<f64>, t: &DVector<f64>, w: &DVector<f64>) -> f64 {
    log_likelihood_with(Likelihood::Bernoulli, phi, t, w)
}

/// ln p(t|w) = Σₙ ln p(tₙ|aₙ), a = Φw, of any [`Likelihood`].
pub fn log_likelihood_with(likelihood: Likelihood, phi: &DMatrix<f64>, t: &DVector<f64>, w: &DVector<f64>) -> f64 {
    let a = phi * w;
    a.iter().zip(t.iter()).map(|(&a, &t)| likelihood.log_density(a, t)).sum()
}

/// The objective of [`irls`],
///
/// ```text
/// Ψ(w) = ln p(t|w) − ½wᵀAw   (PRML 7.109 without its constant)
/// ```
///
/// equal to ln p(w|t, α) up to terms that do not depend on w.
pub fn log_posterior(phi: &DMatrix<f64>, t: &DVector<f64>, alpha: &[f64], w: &DVector<f64>) -> f64 {
    log_posterior_with(Likelihood::Bernoulli, phi, t, alpha, w)
}

/// Ψ(w) = ln p(t|w) − ½wᵀAw of any [`Likelihood`].
pub fn log_posterior_with(
    likelihood: Likelihood,
    phi: &DMatrix<f64>,
    t: &DVector<f64>,
    alpha: &[f64],
    w: &DVector<f64>,
) -> f64 {
    log_likelihood_with(likelihood, phi, t, w) - 0.5 * alpha.iter().zip(w.iter()).map(|(a, w)| a * w * w).sum::<f64>()
}

/// The gradient of the log posterior, ∇ ln p(w|t, α) = Φᵀ(t − y) − Aw (PRML 7.110).
pub fn gradient(phi: &DMatrix<f64>, t: &DVector<f64>, alpha: &[f64], w: &DVector<f64>) -> DVector<f64> {
    let residual = residual(Likelihood::Bernoulli, &(phi * w), t);
    let mut g = phi.tr_mul(&residual);
    for (i, a) in alpha.iter().enumerate() {
        g[i] -= a * w[i];
    }
    g
}

/// t − y at the predictors a ([`Likelihood::residual`]).
fn residual(likelihood: Likelihood, a: &DVector<f64>, t: &DVector<f64>) -> DVector<f64> {
    a.zip_map(t, |a, t| likelihood.residual(a, t))
}

/// The mode w* of the posterior at fixed α and what the Laplace approximation takes from
/// it (PRML 7.112–7.113).
#[derive(Debug, Clone)]
pub struct Mode {
    /// w*, the maximiser of ln p(w|t, α).
    pub w: DVector<f64>,
    /// The mean yₙ = σ(w*ᵀφ(xₙ)) (or exp(w*ᵀφ(xₙ))) at every training point.
    pub y: DVector<f64>,
    /// The Cholesky factor of H = ΦᵀBΦ + A at w*, B = diag bₙ: Σ = H⁻¹ (7.113).
    pub factor: CholeskyFactor,
    /// Ψ(w*) = ln p(t|w*) − ½w*ᵀAw* ([`log_posterior`]).
    pub log_posterior: f64,
    /// ln p(t|w*).
    pub log_likelihood: f64,
    /// Newton steps taken.
    pub iterations: usize,
}

impl Mode {
    /// The Laplace approximation of the log marginal likelihood (PRML 7.114, from 4.135):
    ///
    /// ```text
    /// ln p(t|α) ≈ ln p(t|w*) + ln p(w*|α) − ½ ln|H| + (M/2) ln 2π
    ///           = Ψ(w*) + ½ Σᵢ ln αᵢ − ½ ln|H|
    /// ```
    ///
    /// where ln p(w*|α) = Σᵢ [½ ln(αᵢ/2π) − ½αᵢwᵢ*²]: its −(M/2) ln 2π cancels the
    /// +(M/2) ln 2π of the Gaussian integral, and |H| = |Σ|⁻¹ comes from the factor.
    /// `alpha` must be the α the mode was found at.
    pub fn laplace_log_ml(&self, alpha: &[f64]) -> f64 {
        self.log_posterior + 0.5 * alpha.iter().map(|a| a.ln()).sum::<f64>() - 0.5 * self.factor.ln_determinant()
    }

    /// The diagonal of Σ = H⁻¹ (PRML 7.113): Σᵢᵢ = ‖L⁻¹eᵢ‖² for H = LLᵀ, since
    /// H⁻¹ = L⁻ᵀL⁻¹.
    pub fn sigma_diagonal(&self) -> DVector<f64> {
        self.factor.inverse_diagonal()
    }

    /// The linear predictor a = wᵀφ at an input whose basis functions (those of the mode,
    /// in its order) take the values `phi`, under the Laplace posterior N(w*, Σ): its mean
    /// and variance
    ///
    /// ```text
    /// μₐ = w*ᵀφ   (PRML 4.149),   σₐ² = φᵀΣφ = ‖L⁻¹φ‖²   (4.150, Σ = H⁻¹ of 7.113, H = LLᵀ)
    /// ```
    ///
    /// (for counts, the rate e^a then has the band e^(μₐ ± kσₐ)).
    pub fn predictor(&self, phi: &DVector<f64>) -> (f64, f64) {
        (self.w.dot(phi), self.factor.solve_lower(phi).norm_squared())
    }
}

/// Checks that every label tₙ is 0 or 1.
///
/// # Errors
/// [`Error::NotFinite`] for NaN or ±∞, [`Error::OutOfRange`] for any other value.
pub fn check_labels(t: &DVector<f64>) -> Result<()> {
    Likelihood::Bernoulli.check_targets(t)
}

/// Checks Φ, t and α: N, M ≥ 1, matching lengths, finite Φ, targets of the likelihood,
/// αᵢ > 0.
fn check(likelihood: Likelihood, phi: &DMatrix<f64>, t: &DVector<f64>, alpha: &[f64]) -> Result<()> {
    if phi.nrows() == 0 || phi.ncols() == 0 {
        return Err(Error::NoData);
    }
    if t.len() != phi.nrows() {
        return Err(Error::DimensionMismatch { what: "targets t and rows of Φ", expected: phi.nrows(), got: t.len() });
    }
    if alpha.len() != phi.ncols() {
        return Err(Error::DimensionMismatch {
            what: "precisions α and columns of Φ",
            expected: phi.ncols(),
            got: alpha.len(),
        });
    }
    ensure_all_finite("Φ", phi.as_slice())?;
    likelihood.check_targets(t)?;
    for &a in alpha {
        ensure_positive("α", a)?;
    }
    Ok(())
}

/// The mode of the posterior p(w|t, α) by iteratively reweighted least squares: Newton's
/// method on ln p(w|t, α) (PRML 7.109–7.111, §4.3.3),
///
/// ```text
/// w ← w + λ H⁻¹g,  g = Φᵀ(t − y) − Aw,  H = ΦᵀBΦ + A,  B = diag yₙ(1 − yₙ)
/// ```
///
/// from `start`, the step solved through the Cholesky factor of H, and λ = 1, ½, ¼, …
/// halved while the log posterior would fall (a tie is accepted; a step whose predicted
/// rise ½gᵀH⁻¹g is below 10⁻¹²(1 + |Ψ|) is taken whole, since Ψ's rounding could not judge
/// it). Stops when ‖g‖ ≤ [`IRLS_TOLERANCE`]·‖ |Φ|ᵀ|t − y| + |Aw| ‖, i.e. when
/// the two terms of 7.110 cancel to that relative accuracy.
///
/// # Errors
/// [`Error::NoData`], [`Error::DimensionMismatch`], [`Error::NotFinite`] or
/// [`Error::OutOfRange`] (tₙ ∉ {0, 1}, αᵢ ≤ 0) for bad input;
/// [`Error::NotPositiveDefinite`] if H is numerically singular; [`Error::NotConverged`]
/// after [`IRLS_MAX_ITERATIONS`] steps.
pub fn irls(phi: &DMatrix<f64>, t: &DVector<f64>, alpha: &[f64], start: &DVector<f64>) -> Result<Mode> {
    irls_with(Likelihood::Bernoulli, phi, t, alpha, start)
}

/// [`irls`] for any [`Likelihood`]: for Poisson g = Φᵀ(t − y) − Aw and B = diag yₙ with
/// yₙ = exp(aₙ).
///
/// # Errors
/// As [`irls`] (for Poisson, a target that is not a whole count from 0 to
/// [`super::likelihood::MAX_COUNT`] is [`Error::OutOfRange`]).
pub fn irls_with(
    likelihood: Likelihood,
    phi: &DMatrix<f64>,
    t: &DVector<f64>,
    alpha: &[f64],
    start: &DVector<f64>,
) -> Result<Mode> {
    ModeSearch::new(likelihood, phi.clone(), t.clone(), alpha.to_vec(), start.clone())?.run()
}

/// The search of [`irls`] one piece at a time ([`NewtonSearch`]): each Newton step is a
/// pass for y and the gradient, H = ΦᵀBΦ + A as one matrix product, and its factorisation
/// a column per piece.
#[derive(Debug, Clone)]
pub struct ModeSearch {
    search: NewtonSearch<GlmPosterior>,
}

impl ModeSearch {
    /// Starts the search of [`irls`] on the design `phi` from `start`.
    ///
    /// # Errors
    /// As [`irls`], for bad input.
    pub fn new(
        likelihood: Likelihood,
        phi: DMatrix<f64>,
        t: DVector<f64>,
        alpha: Vec<f64>,
        start: DVector<f64>,
    ) -> Result<Self> {
        check(likelihood, &phi, &t, &alpha)?;
        if start.len() != phi.ncols() {
            return Err(Error::DimensionMismatch {
                what: "starting weights and columns of Φ",
                expected: phi.ncols(),
                got: start.len(),
            });
        }
        ensure_all_finite("w", start.as_slice())?;
        let phi_abs = phi.abs();
        Ok(Self { search: NewtonSearch::new(GlmPosterior { likelihood, phi, phi_abs, t, alpha }, start) })
    }

    /// Works on the search within `budget` (at least one piece); the mode once found.
    ///
    /// # Errors
    /// As [`irls`]; the search is then over.
    pub fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Mode>> {
        let Some(found) = self.search.step_within(budget)? else { return Ok(None) };
        Ok(Some(self.mode(found)))
    }

    /// The search run to its end.
    ///
    /// # Errors
    /// As [`irls`].
    pub fn run(mut self) -> Result<Mode> {
        loop {
            if let Some(mode) = self.step_within(&mut Budget::unlimited())? {
                return Ok(mode);
            }
        }
    }

    fn mode(&self, found: Found<DVector<f64>>) -> Mode {
        let posterior = self.search.posterior();
        Mode {
            log_likelihood: log_likelihood_with(posterior.likelihood, &posterior.phi, &posterior.t, &found.v),
            w: found.v,
            y: found.at,
            factor: found.factor,
            log_posterior: found.log_posterior,
            iterations: found.iterations,
        }
    }
}

/// Ψ(w) = ln p(t|w) − ½wᵀAw for the likelihood, design, targets and precisions of a
/// search; the pass at w leaves the means y for H = ΦᵀBΦ + A.
#[derive(Debug, Clone)]
struct GlmPosterior {
    likelihood: Likelihood,
    phi: DMatrix<f64>,
    /// |Φ|, entry by entry, for the size of the gradient's terms at every Newton step.
    phi_abs: DMatrix<f64>,
    t: DVector<f64>,
    alpha: Vec<f64>,
}

impl Posterior for GlmPosterior {
    type At = DVector<f64>;
    const HESSIAN: &'static str = HESSIAN;

    fn log_posterior(&self, w: &DVector<f64>) -> f64 {
        log_posterior_with(self.likelihood, &self.phi, &self.t, &self.alpha, w)
    }

    /// y, the gradient Φᵀ(t − y) − Aw (PRML 7.110) and the size of its terms,
    /// |Φ|ᵀ|t − y| + |Aw|.
    fn at(&self, w: &DVector<f64>) -> (DVector<f64>, DVector<f64>, DVector<f64>) {
        let a = &self.phi * w;
        let r = residual(self.likelihood, &a, &self.t);
        let y = a.map(|a| self.likelihood.mean(a));
        let mut g = self.phi.tr_mul(&r);
        let mut scale = self.phi_abs.tr_mul(&r.abs());
        for (i, al) in self.alpha.iter().enumerate() {
            g[i] -= al * w[i];
            scale[i] += (al * w[i]).abs();
        }
        (y, g, scale)
    }

    fn pass_cost(&self) -> usize {
        4 * self.phi.nrows() * self.phi.ncols()
    }

    fn hessian_pieces(&self) -> usize {
        1
    }

    /// ΦᵀBΦ, B = diag bₙ (PRML 7.111), as one general matrix product
    /// (B^½Φ)ᵀ(B^½Φ) (nalgebra's `tr_mul` takes a dot product per entry: several times
    /// slower).
    fn hessian_piece(&self, y: &DVector<f64>, _piece: usize, h: &mut DMatrix<f64>) -> usize {
        let mut weighted = self.phi.clone();
        for (mut row, &yn) in weighted.row_iter_mut().zip(y.iter()) {
            row *= self.likelihood.weight(yn).sqrt();
        }
        *h = weighted.transpose() * &weighted;
        self.phi.nrows() * self.phi.ncols() * self.phi.ncols()
    }

    fn add_prior(&self, h: &mut DMatrix<f64>) {
        for (i, a) in self.alpha.iter().enumerate() {
            h[(i, i)] += a;
        }
    }
}

/// A weight is also pruned once αᵢ > 10¹²‖φᵢ‖²: its prior then holds the contribution
/// φᵢwᵢ to the logits below 10⁻⁶ in norm, nothing on the scale the sigmoid fixes. (A
/// weight the mode puts at 0 by symmetry, e.g. the bias on symmetric data, gets
/// αᵢ = γᵢ/wᵢ*² ≈ 10³⁴ with γᵢ well above [`PRUNE_GAMMA`]; kept, it would make H singular
/// in floating point.)
pub const PRUNE_ALPHA: f64 = 1e12;

/// The options of a [`ClassicRvmClassifier`] run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassifierSettings {
    /// The starting αᵢ of every basis function.
    pub initial_alpha: f64,
    /// Converged when no |Δ ln αᵢ| exceeds this and no weight was pruned.
    pub tolerance: f64,
    /// Most sweeps: the run then ends [`crate::solver::Termination::MaxIterations`].
    pub max_sweeps: usize,
}

impl Default for ClassifierSettings {
    fn default() -> Self {
        Self { initial_alpha: 1.0, tolerance: 1e-6, max_sweeps: 2000 }
    }
}

/// The result of a classifier fit (or of a fit to counts).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GlmFit {
    /// The relevance vectors: 0-based column indices of Φ, ascending.
    pub relevant: Vec<usize>,
    /// The mode weights wᵢ* of the relevant columns.
    pub weights: Vec<f64>,
    /// Their precisions αᵢ.
    pub alpha: Vec<f64>,
    /// The Laplace L ≈ ln p(t|α) (PRML 7.114).
    pub log_marginal_likelihood: f64,
    /// Sweeps taken.
    pub iterations: usize,
    /// Whether the convergence test was met (rather than the sweep budget).
    pub converged: bool,
    /// Classes: the fraction of training points with (yₙ ≥ ½) = tₙ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
    /// Counts: the mean Poisson deviance of the rates yₙ on the training counts
    /// ([`mean_poisson_deviance`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_deviance: Option<f64>,
}

impl GlmFit {
    /// The fit of the columns `active` with precisions `alpha` and mode `mode` (both in
    /// the order of `active`) on targets `t` of `likelihood`, listed by ascending column
    /// index.
    fn new(
        likelihood: Likelihood,
        (active, alpha): (&[usize], &[f64]),
        mode: &Mode,
        t: &DVector<f64>,
        iterations: usize,
        converged: bool,
    ) -> Self {
        let mut order: Vec<usize> = (0..active.len()).collect();
        order.sort_by_key(|&j| active[j]);
        Self {
            relevant: order.iter().map(|&j| active[j]).collect(),
            weights: order.iter().map(|&j| mode.w[j]).collect(),
            alpha: order.iter().map(|&j| alpha[j]).collect(),
            log_marginal_likelihood: mode.laplace_log_ml(alpha),
            iterations,
            converged,
            accuracy: (likelihood == Likelihood::Bernoulli).then(|| accuracy(&mode.y, t)),
            mean_deviance: (likelihood == Likelihood::Poisson).then(|| mean_poisson_deviance(&mode.y, t)),
        }
    }
}

/// The fraction of points with (yₙ ≥ ½) = (tₙ = 1).
pub fn accuracy(y: &DVector<f64>, t: &DVector<f64>) -> f64 {
    let correct = y.iter().zip(t.iter()).filter(|&(&y, &t)| (y >= 0.5) == (t == 1.0)).count();
    correct as f64 / t.len() as f64
}

/// The classic RVM classifier (Tipping 2001; PRML 7.113–7.116): every sweep re-estimates
/// all αᵢ from the Laplace approximation at the current mode,
///
/// ```text
/// γᵢ = 1 − αᵢΣᵢᵢ,  αᵢ ← γᵢ/wᵢ*²   (PRML 7.116),  Σ = (ΦᵀBΦ + A)⁻¹   (7.113)
/// ```
///
/// prunes the basis functions with γᵢ < [`PRUNE_GAMMA`] (as [`super::ClassicRvm`]) or
/// αᵢ > [`PRUNE_ALPHA`]‖φᵢ‖², and
/// finds the new mode by [`irls`] started from the old one.
#[derive(Debug, Clone)]
pub struct ClassicRvmClassifier {
    likelihood: Likelihood,
    phi: DMatrix<f64>,
    t: DVector<f64>,
    settings: ClassifierSettings,
    /// Remaining basis functions (columns of Φ), ascending.
    active: Vec<usize>,
    /// Their αᵢ.
    alpha: Vec<f64>,
    /// The mode at the current α, on the columns `active`.
    mode: Mode,
    /// L after every sweep, the starting α first.
    history: Vec<Sweep>,
    converged: bool,
    /// The sweep under way, when [`Solver::step_within`] left one unfinished.
    under_way: Option<SweepUnderWay<Proposal>>,
}

/// A sweep's re-estimate: the columns kept and their α, whether any was pruned, the
/// largest |Δ ln αᵢ|, and the search for the mode there.
#[derive(Debug, Clone)]
pub struct Proposal {
    active: Vec<usize>,
    alpha: Vec<f64>,
    pruned: bool,
    change: f64,
    search: ModeSearch,
}

/// The classic classifier before its first mode: the data checked and every non-zero
/// column at the starting α, the mode searched for a piece at a time
/// ([`ClassifierStart::step_within`]), so that a page can go on while the first fit (every
/// basis function in: the largest Hessian of the run) is computed.
#[derive(Debug, Clone)]
pub struct ClassifierStart {
    likelihood: Likelihood,
    phi: DMatrix<f64>,
    t: DVector<f64>,
    settings: ClassifierSettings,
    active: Vec<usize>,
    alpha: Vec<f64>,
    search: ModeSearch,
}

impl ClassifierStart {
    /// Every non-zero column of `phi`, each with αᵢ = `settings.initial_alpha`, and the
    /// search for the mode from w = 0.
    ///
    /// # Errors
    /// As [`irls`] for bad input; [`Error::OutOfRange`] for an initial α ≤ 0,
    /// [`Error::NoData`] if every column of Φ is 0.
    pub fn new(phi: DMatrix<f64>, t: DVector<f64>, settings: ClassifierSettings) -> Result<Self> {
        Self::with_likelihood(Likelihood::Bernoulli, phi, t, settings)
    }

    /// [`ClassifierStart::new`] for targets of any [`Likelihood`].
    ///
    /// # Errors
    /// As [`ClassifierStart::new`], the targets checked by the likelihood.
    pub fn with_likelihood(
        likelihood: Likelihood,
        phi: DMatrix<f64>,
        t: DVector<f64>,
        settings: ClassifierSettings,
    ) -> Result<Self> {
        let alpha0 = ensure_positive("α", settings.initial_alpha)?;
        check(likelihood, &phi, &t, &vec![alpha0; phi.ncols()])?;
        let active: Vec<usize> = (0..phi.ncols()).filter(|&m| phi.column(m).iter().any(|&v| v != 0.0)).collect();
        if active.is_empty() {
            return Err(Error::NoData);
        }
        let alpha = vec![alpha0; active.len()];
        let start = DVector::zeros(active.len());
        let search = ModeSearch::new(likelihood, phi.select_columns(&active), t.clone(), alpha.clone(), start)?;
        Ok(Self { likelihood, phi, t, settings, active, alpha, search })
    }

    /// Works on the first mode within `budget` (at least one piece); the run, at sweep 0,
    /// once it is found.
    ///
    /// # Errors
    /// As [`irls`].
    pub fn step_within(&mut self, budget: &mut Budget) -> Result<Option<ClassicRvmClassifier>> {
        let Some(mode) = self.search.step_within(budget)? else { return Ok(None) };
        let first = Sweep {
            log_marginal_likelihood: mode.laplace_log_ml(&self.alpha),
            relevant: self.active.len(),
            irls_iterations: mode.iterations,
        };
        Ok(Some(ClassicRvmClassifier {
            likelihood: self.likelihood,
            phi: std::mem::replace(&mut self.phi, DMatrix::zeros(0, 0)),
            t: std::mem::replace(&mut self.t, DVector::zeros(0)),
            settings: self.settings,
            active: std::mem::take(&mut self.active),
            alpha: std::mem::take(&mut self.alpha),
            mode,
            history: vec![first],
            converged: false,
            under_way: None,
        }))
    }
}

impl ClassicRvmClassifier {
    /// Every non-zero column of `phi`, each with αᵢ = `settings.initial_alpha`, and the mode
    /// from w = 0: [`ClassifierStart`] run to its end.
    ///
    /// # Errors
    /// As [`irls`]; [`Error::OutOfRange`] for an initial α ≤ 0.
    pub fn new(phi: DMatrix<f64>, t: DVector<f64>, settings: ClassifierSettings) -> Result<Self> {
        Self::with_likelihood(Likelihood::Bernoulli, phi, t, settings)
    }

    /// [`ClassicRvmClassifier::new`] for targets of any [`Likelihood`].
    ///
    /// # Errors
    /// As [`ClassicRvmClassifier::new`], the targets checked by the likelihood.
    pub fn with_likelihood(
        likelihood: Likelihood,
        phi: DMatrix<f64>,
        t: DVector<f64>,
        settings: ClassifierSettings,
    ) -> Result<Self> {
        let mut start = ClassifierStart::with_likelihood(likelihood, phi, t, settings)?;
        loop {
            if let Some(rvm) = start.step_within(&mut Budget::unlimited())? {
                return Ok(rvm);
            }
        }
    }

    /// Remaining basis functions, ascending.
    pub fn active(&self) -> &[usize] {
        &self.active
    }

    /// Their αᵢ.
    pub fn alpha(&self) -> &[f64] {
        &self.alpha
    }

    /// The mode and its Hessian at the current α.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The Laplace L at the current α.
    pub fn log_ml(&self) -> f64 {
        self.mode.laplace_log_ml(&self.alpha)
    }

    /// Every sweep so far, the starting point first.
    pub fn history(&self) -> &[Sweep] {
        &self.history
    }

    /// The fit as it stands.
    pub fn fit(&self) -> GlmFit {
        let (active, alpha) = (&self.active[..], &self.alpha[..]);
        GlmFit::new(self.likelihood, (active, alpha), &self.mode, &self.t, self.history.len() - 1, self.converged)
    }
}

impl Solver for ClassicRvmClassifier {
    type Event = Sweep;

    /// One sweep: γᵢ and αᵢ = γᵢ/wᵢ*² for every remaining weight (PRML 7.116), the weights
    /// with γᵢ < [`PRUNE_GAMMA`] or αᵢ > [`PRUNE_ALPHA`]‖φᵢ‖² pruned, then the mode by
    /// [`irls`] from the old weights and L recorded. Converged when no weight was pruned and
    /// no |Δ ln αᵢ| exceeds [`ClassifierSettings::tolerance`].
    ///
    /// # Errors
    /// As [`irls`]; the model is then as before the sweep.
    fn next_iter(&mut self) -> Result<Sweep> {
        whole_sweep(self)
    }

    fn status(&self) -> Status {
        Status::of_budgeted(self.converged, self.iterations(), self.settings.max_sweeps)
    }

    fn iterations(&self) -> usize {
        self.history.len() - 1
    }

    /// The sweep of [`Solver::step`] a piece at a time (an entry of Σ's diagonal, H, a
    /// column of its factor): [`sweep_within`].
    ///
    /// # Errors
    /// As [`Solver::step`]; the model is then as before the sweep.
    fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Sweep>> {
        sweep_within(self, budget)
    }
}

impl SweptInPieces for ClassicRvmClassifier {
    type Proposal = Proposal;
    type Mode = Mode;

    fn factor(&self) -> &CholeskyFactor {
        &self.mode.factor
    }

    fn under_way(&mut self) -> &mut Option<SweepUnderWay<Proposal>> {
        &mut self.under_way
    }

    /// γᵢ and the re-estimated αᵢ (7.116), the weights kept, and the search for the mode
    /// on them from the old weights.
    fn propose(&self, sigma: &DVector<f64>) -> Result<Proposal> {
        let gamma: Vec<f64> = self.alpha.iter().zip(sigma.iter()).map(|(a, s)| 1.0 - a * s).collect();
        let new_alpha = |j: usize| gamma[j] / (self.mode.w[j] * self.mode.w[j]);
        let (mut keep, mut alpha) = (vec![], vec![]);
        let mut change = 0.0_f64;
        for (j, &g) in gamma.iter().enumerate() {
            let a = new_alpha(j);
            let norm_sq = self.phi.column(self.active[j]).norm_squared();
            if g >= PRUNE_GAMMA && a.is_finite() && a > 0.0 && a <= PRUNE_ALPHA * norm_sq {
                change = change.max((a.ln() - self.alpha[j].ln()).abs());
                keep.push(j);
                alpha.push(a);
            }
        }
        let pruned = keep.len() < self.active.len();
        if keep.is_empty() {
            // Everything would go: keep the best-determined weight.
            let j = (0..gamma.len()).max_by(|&a, &b| gamma[a].total_cmp(&gamma[b])).unwrap_or(0);
            keep.push(j);
            alpha.push(new_alpha(j).clamp(f64::MIN_POSITIVE, f64::MAX));
        }
        let active: Vec<usize> = keep.iter().map(|&j| self.active[j]).collect();
        let start = DVector::from_iterator(keep.len(), keep.iter().map(|&j| self.mode.w[j]));
        let search =
            ModeSearch::new(self.likelihood, self.phi.select_columns(&active), self.t.clone(), alpha.clone(), start)?;
        Ok(Proposal { active, alpha, pruned, change, search })
    }

    fn search(proposal: &mut Proposal, budget: &mut Budget) -> Result<Option<Mode>> {
        proposal.search.step_within(budget)
    }

    fn commit(&mut self, proposal: Proposal, mode: Mode) -> Sweep {
        let sweep = Sweep {
            log_marginal_likelihood: mode.laplace_log_ml(&proposal.alpha),
            relevant: proposal.active.len(),
            irls_iterations: mode.iterations,
        };
        self.history.push(sweep);
        self.active = proposal.active;
        self.alpha = proposal.alpha;
        self.mode = mode;
        self.converged = !proposal.pruned && proposal.change < self.settings.tolerance;
        sweep
    }
}

/// The predicted probability p(t = 1|x) ≈ σ(w*ᵀφ(x)) at an input whose relevant basis
/// functions take the values `phi` (the mode's plug-in prediction; PRML 7.108).
pub fn predict_probability(weights: &[f64], phi: &[f64]) -> f64 {
    sigmoid(weights.iter().zip(phi).map(|(w, p)| w * p).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_and_its_log_are_stable() {
        assert_eq!(sigmoid(0.0), 0.5);
        assert!((sigmoid(2.0) - 1.0 / (1.0 + (-2.0_f64).exp())).abs() < 1e-16);
        assert!((sigmoid(-3.0) + sigmoid(3.0) - 1.0).abs() <= 2.0 * f64::EPSILON);
        assert_eq!(sigmoid(-800.0), 0.0);
        assert_eq!(sigmoid(800.0), 1.0);
        // ln σ(−800) = −800 − ln(1 + e⁻⁸⁰⁰) = −800 exactly; ln σ(800) = −e⁻⁸⁰⁰ ≈ −0.
        assert_eq!(ln_sigmoid(-800.0), -800.0);
        assert!(ln_sigmoid(800.0) <= 0.0 && ln_sigmoid(800.0) > -1e-300);
        assert!((ln_sigmoid(0.0) + std::f64::consts::LN_2).abs() < 1e-16);
        assert!((ln_sigmoid(1.5) - sigmoid(1.5).ln()).abs() < 1e-15);
        assert!((ln_sigmoid(-1.5) - sigmoid(-1.5).ln()).abs() < 1e-15);
    }

    #[test]
    fn one_weight_by_hand() {
        // Φ = [1, 1]ᵀ, t = (1, 0), α = 1: by symmetry w* = 0, y = ½, H = 2·¼ + 1 = 3/2,
        // L = 2 ln ½ + ½ ln 1 − ½ ln(3/2).
        let phi = DMatrix::from_element(2, 1, 1.0);
        let t = DVector::from_vec(vec![1.0, 0.0]);
        let mode = irls(&phi, &t, &[1.0], &DVector::from_element(1, 3.0)).unwrap();
        assert!(mode.w[0].abs() < 1e-12);
        assert!((mode.sigma_diagonal()[0] - 2.0 / 3.0).abs() < 1e-12);
        let want = -2.0 * std::f64::consts::LN_2 - 0.5 * 1.5_f64.ln();
        assert!((mode.laplace_log_ml(&[1.0]) - want).abs() < 1e-12);
        // At φ = 2: a = 2w* = 0, σₐ² = φ²/H = 4 · 2/3.
        let (a, variance) = mode.predictor(&DVector::from_element(1, 2.0));
        assert!(a.abs() < 1e-11 && (variance - 8.0 / 3.0).abs() < 1e-12, "{a}, {variance}");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let phi = DMatrix::from_element(2, 1, 1.0);
        let zero = DVector::zeros(1);
        let t = DVector::from_vec(vec![1.0, 0.5]);
        assert_eq!(irls(&phi, &t, &[1.0], &zero).unwrap_err().code(), "out-of-range");
        let t = DVector::from_vec(vec![1.0, 0.0]);
        assert_eq!(irls(&phi, &t, &[0.0], &zero).unwrap_err().code(), "out-of-range");
        assert_eq!(irls(&phi, &t, &[1.0, 1.0], &zero).unwrap_err().code(), "dimension-mismatch");
        let t = DVector::from_vec(vec![1.0, f64::NAN]);
        assert_eq!(irls(&phi, &t, &[1.0], &zero).unwrap_err().code(), "not-finite");
    }

    #[test]
    fn the_first_fit_and_the_sweeps_in_pieces_are_those_at_once() {
        let x: [f64; 8] = [0.0, 0.1, 0.2, 0.45, 0.5, 0.7, 0.9, 1.0];
        let t = DVector::from_vec(vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]);
        let phi = DMatrix::from_fn(8, 9, |n, m| if m == 0 { 1.0 } else { (-(x[n] - x[m - 1]).powi(2) / 0.05).exp() });
        let settings = ClassifierSettings::default();
        let mut whole = ClassicRvmClassifier::new(phi.clone(), t.clone(), settings).unwrap();
        let mut start = ClassifierStart::new(phi, t, settings).unwrap();
        let mut pieces = 1;
        let mut sliced = loop {
            if let Some(rvm) = start.step_within(&mut Budget::units(1)).unwrap() {
                break rvm;
            }
            pieces += 1;
        };
        assert!(pieces > 5, "{pieces}");
        assert_eq!(sliced.fit(), whole.fit());
        while whole.status().is_running() {
            let sweep = whole.step().unwrap();
            let event = loop {
                if let Some(event) = sliced.step_within(&mut Budget::units(1)).unwrap() {
                    break event;
                }
            };
            assert_eq!((event, sliced.fit()), (sweep, whole.fit()), "the same bits");
        }
        assert!(!sliced.status().is_running());
    }
}
