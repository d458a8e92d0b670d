//! The relevance vector machine for regression (PRML §7.2; Tipping 2001; Tipping & Faul 2003).
//!
//! The model is t = Φw + ε with ε ~ N(0, β⁻¹I) and one prior precision per weight,
//! p(w|α) = Πᵢ N(wᵢ | 0, αᵢ⁻¹) (PRML 7.80). Maximising the marginal likelihood
//!
//! L(α, β) = ln p(t|α, β) = −½[N ln 2π + ln|C| + tᵀC⁻¹t],  C = β⁻¹I + ΦA⁻¹Φᵀ  (PRML 7.85)
//!
//! drives most αᵢ to ∞, pruning their basis functions; the survivors are the relevance
//! vectors.
//!
//! - [`fast`]: Tipping & Faul's sequential sparse Bayesian learning, one basis function at a
//!   time, every step an [`Event`];
//! - [`classic`]: Tipping's (2001) re-estimation of every αᵢ at once, and its EM variant;
//! - [`classification`]: the binary classifier σ(wᵀφ(x)) with the Laplace approximation,
//!   its mode by IRLS and the classic re-estimation (PRML §7.2.3);
//! - [`multiclass`]: K classes through the softmax, one αₖᵢ per weight, the IRLS mode with
//!   the MK × MK Hessian and the classic re-estimation (PRML 7.120–7.122);
//! - [`sparsity`]: the sparsity and quality of one basis function (PRML 7.97–7.101) and the
//!   two-point model of PRML Fig 7.10.

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use crate::error::{Error, Result, ensure_all_finite};
use crate::linalg::{CholeskyFactor, dots};

mod active_set;
pub mod classic;
pub mod classification;
pub mod event;
pub mod fast;
pub mod likelihood;
pub mod multiclass;
pub mod newton;
pub mod sparsity;

pub use classic::{ClassicRvm, ClassicSettings, Rule};
pub use event::{Action, Event};
pub use fast::{FastRvm, FastSettings, Selection};

/// The formula named when Σ⁻¹ = A + βΦᵀΦ is not positive definite (PRML 7.83).
const PRECISION: &str = "Σ⁻¹ = A + βΦᵀΦ";

/// A regression problem: the design matrix Φ (N × M) and the targets t, with the products
/// every method needs first.
#[derive(Debug, Clone)]
pub struct Problem {
    phi: DMatrix<f64>,
    t: DVector<f64>,
    /// ‖φₘ‖² for every column m.
    norms_sq: DVector<f64>,
    /// Φᵀt.
    phi_t: DVector<f64>,
}

impl Problem {
    /// The problem with design `phi` and targets `t`.
    ///
    /// # Errors
    /// [`Error::NoData`] for N = 0 or M = 0, [`Error::DimensionMismatch`] when t has not N
    /// entries, [`Error::NotFinite`] for NaN or ±∞ anywhere.
    pub fn new(phi: DMatrix<f64>, t: DVector<f64>) -> Result<Self> {
        if phi.nrows() == 0 || phi.ncols() == 0 {
            return Err(Error::NoData);
        }
        if t.len() != phi.nrows() {
            return Err(Error::DimensionMismatch {
                what: "targets t and rows of Φ",
                expected: phi.nrows(),
                got: t.len(),
            });
        }
        ensure_all_finite("t", t.as_slice())?;
        // ‖φₘ‖² and φₘᵀt in one pass over Φ.
        let (mut norms_sq, mut phi_t) = (DVector::zeros(phi.ncols()), DVector::zeros(phi.ncols()));
        let mut both = [0.0; 2];
        for (m, column) in phi.as_slice().chunks_exact(phi.nrows()).enumerate() {
            dots(column, &[column, t.as_slice()], &mut both);
            (norms_sq[m], phi_t[m]) = (both[0], both[1]);
        }
        // A NaN or ±∞ in Φ makes its column's ‖φₘ‖² NaN or ∞, so Φ is searched for one only
        // then, not in a pass of its own (a norm can also overflow from finite entries above
        // 10¹⁵⁴, which the search lets through, as before).
        if norms_sq.iter().any(|v| !v.is_finite()) {
            ensure_all_finite("Φ", phi.as_slice())?;
        }
        Ok(Self { phi, t, norms_sq, phi_t })
    }

    /// Number of data points N.
    pub fn n(&self) -> usize {
        self.phi.nrows()
    }

    /// Number of basis functions M.
    pub fn m(&self) -> usize {
        self.phi.ncols()
    }

    /// The design matrix Φ.
    pub fn design(&self) -> &DMatrix<f64> {
        &self.phi
    }

    /// The targets t.
    pub fn targets(&self) -> &DVector<f64> {
        &self.t
    }

    /// Φᵀφₘ for column m: one row of the Gram matrix, N·M operations.
    fn gram_column(&self, m: usize) -> DVector<f64> {
        let n = self.n();
        let phi = self.phi.as_slice();
        let columns: Vec<&[f64]> = phi.chunks_exact(n).collect();
        let mut gram = DVector::zeros(self.m());
        dots(columns[m], &columns, gram.as_mut_slice());
        gram
    }

    /// Φ_𝒜, the columns in `active`, in that order.
    fn columns(&self, active: &[usize]) -> DMatrix<f64> {
        self.phi.select_columns(active)
    }

    /// The spread of the targets in their own units, which sets the scale of β
    /// ([`crate::linalg::target_variance`]).
    pub fn target_variance(&self) -> f64 {
        crate::linalg::target_variance(self.t.as_slice())
    }

    /// The default starting noise precision of Tipping's reference implementation:
    /// β = 1/(0.1·std t)², i.e. noise a tenth of the targets' spread.
    pub fn initial_beta(&self) -> f64 {
        100.0 / self.target_variance()
    }
}

/// The posterior over the active weights at fixed α, β (PRML 7.82–7.83), computed from
/// scratch, with the marginal likelihood.
#[derive(Debug, Clone)]
pub struct ActivePosterior {
    /// Σ = (A + βΦ_𝒜ᵀΦ_𝒜)⁻¹.
    pub sigma: DMatrix<f64>,
    /// μ = βΣΦ_𝒜ᵀt.
    pub mu: DVector<f64>,
    /// L = ln p(t|α, β), natural log, −N/2 ln 2π included.
    pub log_ml: f64,
    /// The Cholesky factor of Σ⁻¹.
    pub factor: CholeskyFactor,
}

impl ActivePosterior {
    /// Σ, μ and L for the columns `active` of `problem` with precisions `alpha`, noise
    /// precision `beta`. L uses |C| = β⁻ᴺ|A|⁻¹|Σ⁻¹| and tᵀC⁻¹t = βtᵀt − βtᵀΦ_𝒜μ
    /// (the Woodbury identity on PRML 7.85), so C (N × N) is never formed.
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] if Σ⁻¹ is numerically singular.
    pub fn compute(problem: &Problem, active: &[usize], alpha: &[f64], beta: f64) -> Result<Self> {
        let phi_a = problem.columns(active);
        Self::from_gram(problem, active, alpha, beta, phi_a.tr_mul(&phi_a))
    }

    /// As [`ActivePosterior::compute`], given Φ_𝒜ᵀΦ_𝒜.
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] if Σ⁻¹ is numerically singular.
    pub fn from_gram(
        problem: &Problem,
        active: &[usize],
        alpha: &[f64],
        beta: f64,
        gram: DMatrix<f64>,
    ) -> Result<Self> {
        let mut precision = gram * beta;
        for (j, &a) in alpha.iter().enumerate() {
            precision[(j, j)] += a;
        }
        let factor = CholeskyFactor::new(precision, PRECISION)?;
        let phi_t = DVector::from_iterator(active.len(), active.iter().map(|&m| problem.phi_t[m]));
        let mu = factor.solve(&phi_t) * beta;
        let n = problem.n() as f64;
        let ln_det_c = -n * beta.ln() - alpha.iter().map(|a| a.ln()).sum::<f64>() + factor.ln_determinant();
        let data_fit = beta * problem.t.norm_squared() - beta * phi_t.dot(&mu);
        let log_ml = -0.5 * (n * (2.0 * std::f64::consts::PI).ln() + ln_det_c + data_fit);
        Ok(Self { sigma: factor.inverse(), mu, log_ml, factor })
    }

    /// γᵢ = 1 − αᵢΣᵢᵢ, how well determined each weight is by the data (PRML 7.89).
    pub fn gamma(&self, alpha: &[f64]) -> Vec<f64> {
        alpha.iter().enumerate().map(|(j, a)| 1.0 - a * self.sigma[(j, j)]).collect()
    }
}

/// The predictive mean μᵀφ and variance 1/β + φᵀΣφ at an input whose active basis
/// functions take the values `phi` (PRML 7.90–7.91).
pub fn predict(mu: &DVector<f64>, sigma: &DMatrix<f64>, beta: f64, phi: &DVector<f64>) -> (f64, f64) {
    (mu.dot(phi), 1.0 / beta + (sigma * phi).dot(phi))
}

/// What the re-estimates of the noise precision β need from the posterior: N, the
/// squared residual ‖t − Φ_𝒜μ‖² and Σγᵢ.
#[derive(Debug, Clone, Copy, PartialEq)]
struct NoiseFit {
    n: f64,
    residual_sq: f64,
    sum_gamma: f64,
}

impl NoiseFit {
    /// The residual of `mu` on the columns `active`, and Σγᵢ = Σ(1 − αᵢΣᵢᵢ) (PRML 7.89).
    fn new(problem: &Problem, active: &[usize], alpha: &[f64], sigma: &DMatrix<f64>, mu: &DVector<f64>) -> Self {
        let sum_gamma = alpha.iter().enumerate().map(|(j, a)| 1.0 - a * sigma[(j, j)]).sum();
        Self { n: problem.n() as f64, residual_sq: residual_sq(problem, active, mu), sum_gamma }
    }

    /// MacKay's fixed point β = (N − Σγᵢ)/‖t − Φμ‖² (PRML 7.88); `None` unless finite and
    /// positive.
    fn mackay(&self) -> Option<f64> {
        positive((self.n - self.sum_gamma) / self.residual_sq)
    }

    /// The EM update 1/β = (‖t − Φμ‖² + β⁻¹Σγᵢ)/N (PRML 9.68), which never lowers L;
    /// `None` unless finite and positive.
    fn em(&self, beta: f64) -> Option<f64> {
        positive(self.n / (self.residual_sq + self.sum_gamma / beta))
    }
}

/// `Some(value)` if it is finite and positive.
fn positive(value: f64) -> Option<f64> {
    (value.is_finite() && value > 0.0).then_some(value)
}

/// ‖t − Φ_𝒜μ‖², the squared residual of the posterior mean.
fn residual_sq(problem: &Problem, active: &[usize], mu: &DVector<f64>) -> f64 {
    let mut residual = problem.t.clone();
    for (&m, &w) in active.iter().zip(mu.iter()) {
        residual.axpy(-w, &problem.phi.column(m), 1.0);
    }
    residual.norm_squared()
}

/// One sweep of a classic method (regression, binary or multiclass classification), as
/// the lecture shows it: the event of its [`crate::solver::Solver::step`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sweep {
    /// The Laplace L ≈ ln p(t|α) after the sweep ([`Mode::laplace_log_ml`]).
    pub log_marginal_likelihood: f64,
    /// Basis functions left.
    pub relevant: usize,
    /// Newton steps IRLS took for the new mode (0 for regression, whose posterior is exact).
    pub irls_iterations: usize,
}

/// What a table comparing RVM methods reads from a run as it goes.
pub trait RelevanceModel {
    /// L = ln p(t|α, β) at the current α (a classifier's Laplace approximation).
    fn log_ml(&self) -> f64;
    /// The number of relevance vectors: basis functions with a finite α.
    fn relevance_vectors(&self) -> usize;
}

impl RelevanceModel for FastRvm {
    fn log_ml(&self) -> f64 {
        FastRvm::log_ml(self)
    }
    fn relevance_vectors(&self) -> usize {
        self.active().len()
    }
}

impl RelevanceModel for ClassicRvm {
    fn log_ml(&self) -> f64 {
        ClassicRvm::log_ml(self)
    }
    fn relevance_vectors(&self) -> usize {
        self.active().len()
    }
}

impl RelevanceModel for classification::FastRvmClassifier {
    fn log_ml(&self) -> f64 {
        classification::FastRvmClassifier::log_ml(self)
    }
    fn relevance_vectors(&self) -> usize {
        self.active().len()
    }
}

impl RelevanceModel for classification::ClassicRvmClassifier {
    fn log_ml(&self) -> f64 {
        classification::ClassicRvmClassifier::log_ml(self)
    }
    fn relevance_vectors(&self) -> usize {
        self.active().len()
    }
}

/// The result of a fit, as the command line prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RvmFit {
    /// The relevance vectors: 0-based column indices of Φ, ascending.
    pub relevant: Vec<usize>,
    /// Posterior mean weights μᵢ of the relevant columns.
    pub weights: Vec<f64>,
    /// Their precisions αᵢ.
    pub alpha: Vec<f64>,
    /// The noise precision β.
    pub beta: f64,
    /// L = ln p(t|α, β), natural log, −N/2 ln 2π included.
    pub log_marginal_likelihood: f64,
    /// Steps (fast) or sweeps (classic, EM) taken.
    pub iterations: usize,
    /// Whether the method met its convergence test (rather than its step budget).
    pub converged: bool,
}

impl RvmFit {
    /// The fit of the columns `active` (in model order) with means `mu` and precisions
    /// `alpha`, listed by ascending column index.
    fn new(
        active: &[usize],
        mu: &[f64],
        alpha: &[f64],
        beta: f64,
        log_ml: f64,
        iterations: usize,
        converged: bool,
    ) -> Self {
        let mut order: Vec<usize> = (0..active.len()).collect();
        order.sort_by_key(|&j| active[j]);
        Self {
            relevant: order.iter().map(|&j| active[j]).collect(),
            weights: order.iter().map(|&j| mu[j]).collect(),
            alpha: order.iter().map(|&j| alpha[j]).collect(),
            beta,
            log_marginal_likelihood: log_ml,
            iterations,
            converged,
        }
    }
}
