//! Regularised least squares: ridge in closed form and lasso by proximal gradient
//! (lecture notes on linear models, eq 11–21, PRML §3.1.4).
//!
//! The lecture adds λE_R(w) to E_D(w) = ½‖Φw − t‖² (lecture notes on linear models, eq 11) with
//!
//! ```text
//! ridge:  E(w) = ½‖Φw − t‖² + λ/2 ‖w‖²₂      (lecture notes on linear models, eq 12, 14; PRML 3.27)
//! lasso:  E(w) = ½‖Φw − t‖² + λ ‖w‖₁         (lecture notes on linear models, eq 13, 16)
//! ```
//!
//! Ridge's λ/2 makes its gradient Φᵀ(Φw − t) + λw and its normal equations (ΦᵀΦ + λI)w =
//! Φᵀt (lecture notes on linear models, eq 15, PRML 3.28) — the same λ as the `ridge` term
//! of [`super::gradient::GradientDescentSettings`]. Lasso's λ multiplies ‖w‖₁ without the
//! ½.

use std::sync::Arc;

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use super::least_squares;
use super::{Decomposition, singular_values};
use crate::error::{Result, ensure_all_finite, ensure_non_negative, ensure_positive, ensure_result};
use crate::error::{check_design, check_weights, check_whole};
use crate::linalg::CholeskyFactor;
use crate::solver::{Solver, Status};

/// The ridge system matrix, as error messages name it.
const RIDGE_MATRIX: &str = "ΦᵀΦ + λI";

/// [`ridge`] solves by Cholesky for λ ≥ this × tr(ΦᵀΦ), and by the SVD below.
pub const CHOLESKY_MIN_LAMBDA: f64 = 1e-6;

/// Largest [`LassoSettings::max_iterations`] accepted.
pub const MAX_LASSO_ITERATIONS: usize = 1_000_000;

/// The ridge weights: the solution of
///
/// ```text
/// (ΦᵀΦ + λI) w = Φᵀt                      (lecture notes on linear models, eq 15, PRML 3.28)
/// ```
///
/// minimising ½‖Φw − t‖² + λ/2‖w‖² (lecture notes on linear models, eq 14), never through
/// an inverse:
///
/// - λ ≥ [`CHOLESKY_MIN_LAMBDA`] · tr(ΦᵀΦ) (the usual case): by the Cholesky factorisation
///   of ΦᵀΦ + λI ([`CholeskyFactor`]). Its condition number is then at most
///   (σ_max² + λ)/λ ≤ 10⁶ + 1, since σ_max² ≤ tr(ΦᵀΦ) = ‖Φ‖²_F, so ~10 digits survive.
/// - 0 < λ below that: from the SVD Φ = UΣVᵀ, w = Σ_{σᵢ > c} σᵢ/(σᵢ² + λ) (uᵢᵀt) vᵢ, with
///   the cut-off c of [`least_squares::fit`]. For such λ, ΦᵀΦ + λI may be numerically
///   singular (a rank-deficient Φ), and singular values at rounding level (which are zero
///   in exact arithmetic) would otherwise be amplified by up to 1/(2√λ).
/// - λ = 0 is plain least squares: [`least_squares::fit`]'s minimum-norm w = Φ†t, the
///   limit of the SVD form as λ → 0.
///
/// # Errors As [`crate::error::check_design`]; [`crate::Error::OutOfRange`] for λ < 0,
/// [`crate::Error::NotFinite`] for a non-finite λ or when ΦᵀΦ overflows;
/// [`crate::Error::NotConverged`] if an SVD does not converge.
pub fn ridge(phi: &DMatrix<f64>, t: &[f64], lambda: f64) -> Result<DVector<f64>> {
    Normal::new(phi, t)?.ridge(lambda)
}

/// The ridge weights for λ = e^{ln λ} for each entry of `ln_lambdas`, in the same order:
/// the coefficient paths against ln λ. ΦᵀΦ and Φᵀt are formed once.
///
/// # Errors
/// As [`ridge`]; [`crate::Error::NotFinite`] for a non-finite ln λ, or λ = e^{ln λ} = ∞.
pub fn ridge_path(phi: &DMatrix<f64>, t: &[f64], ln_lambdas: &[f64]) -> Result<Vec<DVector<f64>>> {
    let normal = Normal::new(phi, t)?;
    lambdas(ln_lambdas)?.into_iter().map(|lambda| normal.ridge(lambda)).collect()
}

/// The soft-thresholding function (lecture notes on linear models, eq 21), the minimiser of
/// ½(x − z)² + λ|x|:
///
/// ```text
/// soft(z, λ) = z + λ   if z < −λ
///              0       if |z| ≤ λ
///              z − λ   if z > λ
/// ```
///
/// A negative or NaN λ counts as 0 (soft(z, 0) = z); a NaN z gives NaN.
pub fn soft_threshold(z: f64, lambda: f64) -> f64 {
    let lambda = lambda.max(0.0);
    if z < -lambda {
        z + lambda
    } else if z > lambda {
        z - lambda
    } else if z.is_nan() {
        z
    } else {
        0.0
    }
}

/// The Lipschitz constant of ∇f for f(w) = ½‖Φw − t‖² (lecture notes on linear models, eq
/// 17): the largest eigenvalue of the Hessian ΦᵀΦ, L = σ_max(Φ)², from the singular values
/// of Φ (so ΦᵀΦ is never formed).
///
/// 0 for an empty Φ; +∞ if Φ has a NaN or ±∞ entry (no finite constant exists). Should the
/// SVD not converge, the Frobenius bound ‖Φ‖²_F ≥ σ_max² is returned, which is still a
/// valid Lipschitz constant.
pub fn lipschitz(phi: &DMatrix<f64>) -> f64 {
    if phi.is_empty() {
        0.0
    } else if phi.iter().any(|v| !v.is_finite()) {
        f64::INFINITY
    } else {
        match singular_values(phi) {
            Ok(sigma) => sigma.iter().fold(0.0_f64, |m, &s| m.max(s)).powi(2),
            Err(_) => phi.norm_squared(),
        }
    }
}

/// λ_max = ‖Φᵀt‖_∞: the smallest λ for which the lasso solution is w = 0 (zero is optimal
/// iff |Φᵀt|ⱼ ≤ λ for every j, the subgradient condition at w = 0).
///
/// # Errors
/// As [`crate::error::check_design`].
pub fn lasso_lambda_max(phi: &DMatrix<f64>, t: &[f64]) -> Result<f64> {
    Ok(Normal::new(phi, t)?.lambda_max())
}

/// When an [`Ista`] run stops.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LassoSettings {
    /// Most ISTA iterations, 1..=[`MAX_LASSO_ITERATIONS`].
    pub max_iterations: usize,
    /// Converged when ‖w_{k+1} − w_k‖ ≤ tolerance · ‖w_{k+1}‖ (tolerance > 0).
    pub tolerance: f64,
}

impl Default for LassoSettings {
    /// 10 000 iterations, relative change 10⁻¹⁰.
    fn default() -> Self {
        Self { max_iterations: 10_000, tolerance: 1e-10 }
    }
}

impl LassoSettings {
    /// # Errors
    /// [`crate::Error::OutOfRange`] for max iterations outside 1..=[`MAX_LASSO_ITERATIONS`] or a
    /// tolerance ≤ 0; [`crate::Error::NotFinite`] for a non-finite tolerance.
    fn check(&self) -> Result<()> {
        check_whole("max iterations", self.max_iterations, 1, MAX_LASSO_ITERATIONS)?;
        ensure_positive("tolerance", self.tolerance).map(|_| ())
    }
}

/// The result of [`lasso`].
#[derive(Debug, Clone, PartialEq)]
pub struct LassoFit {
    /// The weights w (entries exactly 0 where soft thresholding set them so).
    pub weights: DVector<f64>,
    /// ISTA iterations taken (0 when λ ≥ λ_max gave w = 0 at once).
    pub iterations: usize,
    /// Whether the relative change fell to the tolerance before `max_iterations`.
    pub converged: bool,
}

/// The lasso weights, minimising ½‖t − Φw‖² + λ‖w‖₁ (lecture notes on linear models, eq
/// 16), by [`Ista`] from `warm_start` or w₀ = 0 until it converges or reaches
/// `settings.max_iterations`.
///
/// # Errors
/// As [`crate::error::check_design`]; [`crate::Error::OutOfRange`] for λ < 0 or bad settings;
/// [`crate::Error::NotFinite`] for a non-finite λ, or an L or w that overflows;
/// [`crate::Error::DimensionMismatch`] / [`crate::Error::NotFinite`] for a warm start that is not M
/// finite numbers; [`crate::Error::NotConverged`] if the SVD for L does not converge.
pub fn lasso(
    phi: &DMatrix<f64>,
    t: &[f64],
    lambda: f64,
    settings: &LassoSettings,
    warm_start: Option<&DVector<f64>>,
) -> Result<LassoFit> {
    let mut run = Ista::new(Arc::new(LassoProblem::new(phi, t)?), lambda, settings, warm_start)?;
    run.run()?;
    Ok(run.fit())
}

/// The lasso weights for λ = e^{ln λ} for each entry of `ln_lambdas`, in the same order.
///
/// The fits are computed from the largest λ down, each starting from the previous one's
/// weights (warm starts: neighbouring λ have nearby solutions, and the largest starts from
/// w = 0, which is exact above λ_max). L, ΦᵀΦ and Φᵀt are computed once.
///
/// # Errors
/// As [`lasso`]; [`crate::Error::NotFinite`] for a non-finite ln λ, or λ = e^{ln λ} = ∞.
pub fn lasso_path(
    phi: &DMatrix<f64>,
    t: &[f64],
    ln_lambdas: &[f64],
    settings: &LassoSettings,
) -> Result<Vec<LassoFit>> {
    let problem = Arc::new(LassoProblem::new(phi, t)?);
    settings.check()?;
    let lambdas = lambdas(ln_lambdas)?;
    let mut order: Vec<usize> = (0..lambdas.len()).collect();
    order.sort_by(|&a, &b| lambdas[b].total_cmp(&lambdas[a]));
    let zero = LassoFit { weights: DVector::zeros(phi.ncols()), iterations: 0, converged: true };
    let mut fits = vec![zero.clone(); lambdas.len()];
    let mut previous = zero;
    for i in order {
        let mut run = Ista::new(Arc::clone(&problem), lambdas[i], settings, Some(&previous.weights))?;
        run.run()?;
        previous = run.fit();
        fits[i] = previous.clone();
    }
    Ok(fits)
}

/// What every λ of a lasso problem shares: ΦᵀΦ, Φᵀt and the Lipschitz constant
/// L = σ_max(Φ)² of the gradient ([`lipschitz`]), computed once for all the [`Ista`] runs
/// of a path.
#[derive(Debug, Clone)]
pub struct LassoProblem {
    gram: DMatrix<f64>,
    phi_t_t: DVector<f64>,
    lipschitz: f64,
}

impl LassoProblem {
    /// ΦᵀΦ, Φᵀt and L of a checked problem.
    ///
    /// # Errors
    /// As [`crate::error::check_design`]; [`crate::Error::NotFinite`] if L overflows.
    pub fn new(phi: &DMatrix<f64>, t: &[f64]) -> Result<Self> {
        let normal = Normal::new(phi, t)?;
        let lipschitz = lipschitz_of_checked(phi)?;
        Ok(Self { gram: normal.gram, phi_t_t: normal.phi_t_t, lipschitz })
    }

    /// λ_max = ‖Φᵀt‖_∞ ([`lasso_lambda_max`]).
    pub fn lambda_max(&self) -> f64 {
        self.phi_t_t.amax()
    }

    /// Number of weights M.
    pub fn m(&self) -> usize {
        self.phi_t_t.len()
    }
}

/// What one ISTA iteration did.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct IstaStep {
    /// Number of this iteration, counting from 1.
    pub iteration: usize,
    /// ‖w_{k+1} − w_k‖, the length of the step.
    pub change: f64,
}

/// The lasso at one λ by the iterative shrinkage-thresholding algorithm (ISTA, proximal
/// gradient, lecture notes on linear models, eq 17–21), one iteration per [`Solver::step`]:
///
/// ```text
/// z       = w_k − (1/L) Φᵀ(Φw_k − t)            (gradient step, lecture notes on linear models, eq 19)
/// w_{k+1} = soft(z, λ/L)  componentwise          (proximal step, lecture notes on linear models, eq 20–21)
/// ```
///
/// with L = σ_max(Φ)² ([`lipschitz`]). It converges once
/// ‖w_{k+1} − w_k‖ ≤ tolerance · ‖w_{k+1}‖ and gives up after `max_iterations`
/// ([`LassoSettings`]). For λ ≥ λ_max = ‖Φᵀt‖_∞ ([`lasso_lambda_max`]) the answer is w = 0
/// exactly, and the run has converged before its first step. The objective never increases
/// along the iterates (step 1/L); on an ill-conditioned Φ convergence can be slow (O(1/k)).
#[derive(Debug, Clone)]
pub struct Ista {
    problem: Arc<LassoProblem>,
    threshold: f64,
    settings: LassoSettings,
    w: DVector<f64>,
    iterations: usize,
    converged: bool,
}

impl Ista {
    /// A run at `lambda` from `start` (w₀ = 0 if `None`).
    ///
    /// # Errors
    /// [`crate::Error::OutOfRange`] for λ < 0 or bad settings; [`crate::Error::NotFinite`]
    /// for a non-finite λ; [`crate::Error::DimensionMismatch`] / [`crate::Error::NotFinite`]
    /// for a start that is not M finite numbers.
    pub fn new(
        problem: Arc<LassoProblem>,
        lambda: f64,
        settings: &LassoSettings,
        start: Option<&DVector<f64>>,
    ) -> Result<Self> {
        let lambda = ensure_non_negative("λ", lambda)?;
        settings.check()?;
        let m = problem.m();
        let mut w = match start {
            Some(w) => {
                check_weights("warm start", w, m)?;
                w.clone()
            }
            None => DVector::zeros(m),
        };
        // λ ≥ λ_max also covers L = 0: then Φ = 0 and λ_max = 0.
        let converged = lambda >= problem.lambda_max();
        if converged {
            w = DVector::zeros(m);
        }
        let threshold = lambda / problem.lipschitz;
        Ok(Self { problem, threshold, settings: *settings, w, iterations: 0, converged })
    }

    /// The current weights (entries exactly 0 where soft thresholding set them so).
    pub fn weights(&self) -> &DVector<f64> {
        &self.w
    }

    /// The fit as it stands.
    pub fn fit(&self) -> LassoFit {
        LassoFit { weights: self.w.clone(), iterations: self.iterations, converged: self.converged }
    }
}

impl Solver for Ista {
    type Event = IstaStep;

    /// One ISTA iteration.
    ///
    /// # Errors
    /// [`crate::Error::NotFinite`] if the new w overflows (the run is then as before).
    fn next_iter(&mut self) -> Result<IstaStep> {
        let p = &self.problem;
        let gradient = &p.gram * &self.w - &p.phi_t_t;
        let next = (&self.w - gradient / p.lipschitz).map(|z| soft_threshold(z, self.threshold));
        ensure_all_finite("w", next.as_slice())?;
        let change = (&next - &self.w).norm();
        self.w = next;
        self.iterations += 1;
        self.converged = change <= self.settings.tolerance * self.w.norm();
        Ok(IstaStep { iteration: self.iterations, change })
    }

    fn status(&self) -> Status {
        Status::of_budgeted(self.converged, self.iterations, self.settings.max_iterations)
    }

    fn iterations(&self) -> usize {
        self.iterations
    }
}

/// L = σ_max(Φ)² for a Φ that passed [`check_design`].
fn lipschitz_of_checked(phi: &DMatrix<f64>) -> Result<f64> {
    ensure_result("L = σ_max(Φ)²", lipschitz(phi))
}

/// λ = e^{ln λ} for each entry, each finite.
fn lambdas(ln_lambdas: &[f64]) -> Result<Vec<f64>> {
    ensure_all_finite("ln λ", ln_lambdas)?;
    ln_lambdas.iter().map(|&ln| ensure_result("λ", ln.exp())).collect()
}

/// A checked problem with the pieces every λ shares: ΦᵀΦ and Φᵀt.
struct Normal<'a> {
    phi: &'a DMatrix<f64>,
    t: DVector<f64>,
    gram: DMatrix<f64>,
    phi_t_t: DVector<f64>,
}

impl<'a> Normal<'a> {
    /// # Errors
    /// As [`crate::error::check_design`].
    fn new(phi: &'a DMatrix<f64>, t: &[f64]) -> Result<Self> {
        check_design(phi, t)?;
        let t = DVector::from_column_slice(t);
        Ok(Self { phi, gram: phi.tr_mul(phi), phi_t_t: phi.tr_mul(&t), t })
    }

    /// ‖Φᵀt‖_∞.
    fn lambda_max(&self) -> f64 {
        self.phi_t_t.amax()
    }

    /// See [`ridge`].
    fn ridge(&self, lambda: f64) -> Result<DVector<f64>> {
        let lambda = ensure_non_negative("λ", lambda)?;
        if lambda == 0.0 {
            return Ok(least_squares::fit(self.phi, self.t.as_slice())?.weights().clone());
        }
        let w = if lambda >= CHOLESKY_MIN_LAMBDA * self.gram.trace() {
            let mut a = self.gram.clone();
            a.set_diagonal(&(a.diagonal().add_scalar(lambda)));
            CholeskyFactor::new(a, RIDGE_MATRIX)?.solve(&self.phi_t_t)
        } else {
            Decomposition::new(self.phi, &self.t)?.filter_solve(|sigma| sigma / (sigma * sigma + lambda))
        };
        ensure_all_finite("w", w.as_slice())?;
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_threshold_three_cases() {
        // The lecture notes on linear models, eq 21, with λ = 1: z < −λ shifts up, |z| ≤ λ is 0,
        // z > λ shifts down.
        assert_eq!(soft_threshold(-3.0, 1.0), -2.0);
        assert_eq!(soft_threshold(-1.0, 1.0), 0.0);
        assert_eq!(soft_threshold(0.5, 1.0), 0.0);
        assert_eq!(soft_threshold(1.0, 1.0), 0.0);
        assert_eq!(soft_threshold(2.5, 1.0), 1.5);
        assert_eq!(soft_threshold(2.5, -1.0), 2.5);
        assert!(soft_threshold(f64::NAN, 1.0).is_nan());
    }

    #[test]
    fn ridge_one_weight_by_hand() {
        // Φ = [1; 1], t = (1, 3), λ = 2: (2 + 2)w = 4, w = 1.
        let w = ridge(&DMatrix::from_element(2, 1, 1.0), &[1.0, 3.0], 2.0).unwrap();
        assert!((w[0] - 1.0).abs() < 1e-15);
    }

    #[test]
    fn lasso_one_weight_by_hand() {
        // Φ = [1; 1], t = (1, 3): ½Σ(tₙ − w)² + λ|w| is minimised at w = (Σt − λ)/2 = 1.5
        // for λ = 1, and at 0 from λ = Σt = 4 on.
        let phi = DMatrix::from_element(2, 1, 1.0);
        let fit = lasso(&phi, &[1.0, 3.0], 1.0, &LassoSettings::default(), None).unwrap();
        assert!((fit.weights[0] - 1.5).abs() < 1e-12 && fit.converged, "{fit:?}");
        let zero = lasso(&phi, &[1.0, 3.0], 4.0, &LassoSettings::default(), None).unwrap();
        assert_eq!((zero.weights[0], zero.iterations), (0.0, 0));
    }

    #[test]
    fn lipschitz_of_a_diagonal() {
        let phi = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, -3.0, 2.0]));
        assert!((lipschitz(&phi) - 9.0).abs() < 1e-13);
        assert_eq!(lipschitz(&DMatrix::zeros(0, 0)), 0.0);
        assert_eq!(lipschitz(&DMatrix::from_element(1, 1, f64::NAN)), f64::INFINITY);
    }

    #[test]
    fn bad_settings_are_errors() {
        let phi = DMatrix::from_element(2, 1, 1.0);
        let zero_iterations = LassoSettings { max_iterations: 0, ..LassoSettings::default() };
        assert_eq!(lasso(&phi, &[1.0, 3.0], 1.0, &zero_iterations, None).unwrap_err().code(), "out-of-range");
        let bad_tolerance = LassoSettings { tolerance: f64::NAN, ..LassoSettings::default() };
        assert_eq!(lasso(&phi, &[1.0, 3.0], 1.0, &bad_tolerance, None).unwrap_err().code(), "not-finite");
        assert_eq!(ridge(&phi, &[1.0, 3.0], -1.0).unwrap_err().to_string(), "λ must be ≥ 0, but is -1");
        assert_eq!(ridge_path(&phi, &[1.0, 3.0], &[1000.0]).unwrap_err().code(), "overflow");
    }
}
