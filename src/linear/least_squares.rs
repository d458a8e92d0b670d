//! Maximum likelihood for the linear-Gaussian model: least squares (lecture notes on linear
//! models, eq 4–8, PRML 3.15, 3.21).
//!
//! With tₙ = wᵀφ(xₙ) + ε, ε ~ N(0, β⁻¹), the log likelihood is N/2 ln β − N/2 ln 2π − β
//! E_D(w) (lecture notes on linear models, eq 2), so w_ML minimises E_D(w) = ½‖Φw − t‖² and
//! β_ML follows from the residual.

use nalgebra::{DMatrix, DVector};

use super::Decomposition;
use crate::error::{Result, ensure_all_finite};
use crate::error::{check_design, check_weights};

/// A least-squares fit: w_ML, β_ML and the numerical rank of Φ.
#[derive(Debug, Clone, PartialEq)]
pub struct LeastSquares {
    weights: DVector<f64>,
    beta: f64,
    rank: usize,
    singular_values: DVector<f64>,
}

/// Fits w_ML = Φ†t by the singular value decomposition Φ = UΣVᵀ:
///
/// ```text
/// w_ML = Φ†t = Σ_{σᵢ > c} (uᵢᵀt / σᵢ) vᵢ          (lecture notes on linear models, eq 4–6, PRML 3.15, 3.17)
/// c    = max(N, M) · ε · σ_max                   (relative singular-value cut-off)
/// ```
///
/// Singular values at or below the cut-off c (ε = 2.2·10⁻¹⁶, as NumPy's `lstsq` and
/// `matrix_rank` do) are treated as zero, so a rank-deficient Φ — M > N, duplicate inputs,
/// a high-degree polynomial — gets the minimum-norm least-squares solution, which lies in
/// the row space of Φ. The normal equations ΦᵀΦw = Φᵀt of the lecture notes on linear
/// models' eq 4 are never formed: squaring Φ would square its condition number.
///
/// # Errors
/// [`crate::Error::NoData`], [`crate::Error::DimensionMismatch`],
/// [`crate::Error::OutOfRange`] (M = 0) and [`crate::Error::NotFinite`] as
/// [`crate::error::check_design`]; [`crate::Error::NotConverged`] if the SVD does not converge;
/// [`crate::Error::NotFinite`] if w_ML overflows.
pub fn fit(phi: &DMatrix<f64>, t: &[f64]) -> Result<LeastSquares> {
    check_design(phi, t)?;
    let t = DVector::from_column_slice(t);
    let svd = Decomposition::new(phi, &t)?;
    let weights = svd.filter_solve(|sigma| 1.0 / sigma);
    ensure_all_finite("w_ML", weights.as_slice())?;
    let rank = svd.rank();
    let beta = beta_ml(phi, &t, &weights, rank);
    Ok(LeastSquares { weights, beta, rank, singular_values: svd.singular_values })
}

/// 1/β_ML = (1/N) Σₙ (φₙᵀw_ML − tₙ)² (lecture notes on linear models, eq 8, PRML 3.21), and
/// +∞ for an exact fit.
fn beta_ml(phi: &DMatrix<f64>, t: &DVector<f64>, w: &DVector<f64>, rank: usize) -> f64 {
    let n = t.len();
    let mean_square = (phi * w - t).norm_squared() / n as f64;
    if rank == n || mean_square == 0.0 { f64::INFINITY } else { 1.0 / mean_square }
}

impl LeastSquares {
    /// w_ML = Φ†t (lecture notes on linear models, eq 6), minimum-norm when Φ is rank-deficient.
    pub fn weights(&self) -> &DVector<f64> {
        &self.weights
    }

    /// The noise precision β_ML, 1/β_ML = (1/N) Σₙ (φₙᵀw_ML − tₙ)² (lecture notes on linear
    /// models, eq 8, PRML 3.21).
    ///
    /// `f64::INFINITY` when the fit is exact: when the residual is exactly zero, and
    /// whenever rank(Φ) = N (then Φw_ML = t in exact arithmetic, and the computed residual
    /// is rounding noise only). Never NaN.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The numerical rank of Φ: the number of singular values above the cut-off
    /// max(N, M) · ε · σ_max (see [`fit`]).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The singular values σ₁ ≥ … ≥ σ_min(N,M) of Φ.
    pub fn singular_values(&self) -> &DVector<f64> {
        &self.singular_values
    }
}

/// The root-mean-square error of weights `w` on (Φ, t):
///
/// ```text
/// E_RMS = √(2E_D(w)/N) = √((1/N) Σₙ (φₙᵀw − tₙ)²)          (PRML 1.3)
/// ```
///
/// On the training set at w_ML, E_RMS² = 1/β_ML.
///
/// # Errors
/// As [`crate::error::check_design`] for Φ and t; [`crate::Error::DimensionMismatch`] unless `w`
/// has M entries; [`crate::Error::NotFinite`] for NaN/∞ in `w`.
pub fn rms_error(phi: &DMatrix<f64>, t: &[f64], w: &DVector<f64>) -> Result<f64> {
    check_design(phi, t)?;
    check_weights("weights w", w, phi.ncols())?;
    let t = DVector::from_column_slice(t);
    Ok((2.0 * super::sum_of_squares(phi, &t, w) / t.len() as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Φ for the line w₀ + w₁x.
    fn line(x: &[f64]) -> DMatrix<f64> {
        DMatrix::from_fn(x.len(), 2, |n, j| if j == 0 { 1.0 } else { x[n] })
    }

    #[test]
    fn three_points_by_hand() {
        // x = (0, 1, 2), t = (0, 1, 3): slope Σ(x−x̄)(t−t̄)/Σ(x−x̄)² = 3/2, intercept
        // t̄ − 3/2·x̄ = −1/6; residuals (1/6, −1/3, 1/6), mean square 1/18, so β_ML = 18.
        let phi = line(&[0.0, 1.0, 2.0]);
        let fit = fit(&phi, &[0.0, 1.0, 3.0]).unwrap();
        assert!((fit.weights()[0] + 1.0 / 6.0).abs() < 1e-14, "{}", fit.weights());
        assert!((fit.weights()[1] - 1.5).abs() < 1e-14);
        assert!((fit.beta() - 18.0).abs() < 1e-12, "β = {}", fit.beta());
        assert_eq!(fit.rank(), 2);
        let rms = rms_error(&phi, &[0.0, 1.0, 3.0], fit.weights()).unwrap();
        assert!((rms - (1.0_f64 / 18.0).sqrt()).abs() < 1e-15);
    }

    #[test]
    fn exact_fit_has_infinite_beta() {
        let fit = fit(&line(&[0.0, 2.0]), &[1.0, 5.0]).unwrap();
        assert_eq!(fit.beta(), f64::INFINITY);
        // Φ = 0, t = 0: rank 0, residual exactly zero, w = 0.
        let zero = fit_zero();
        assert_eq!((zero.rank(), zero.beta(), zero.weights().norm()), (0, f64::INFINITY, 0.0));
    }

    fn fit_zero() -> LeastSquares {
        fit(&DMatrix::zeros(3, 2), &[0.0, 0.0, 0.0]).unwrap()
    }

    #[test]
    fn duplicate_column_splits_the_weight() {
        // Φ = [x x]: minimum norm puts half the slope on each copy.
        let phi = DMatrix::from_fn(3, 2, |n, _| n as f64 + 1.0);
        let fit = fit(&phi, &[2.0, 4.0, 6.0]).unwrap();
        assert_eq!(fit.rank(), 1);
        assert!((fit.weights()[0] - 1.0).abs() < 1e-14 && (fit.weights()[1] - 1.0).abs() < 1e-14);
    }

    #[test]
    fn wrong_weight_length_is_an_error() {
        let e = rms_error(&line(&[0.0, 1.0]), &[0.0, 1.0], &DVector::zeros(3)).unwrap_err();
        assert_eq!(e.code(), "dimension-mismatch");
    }
}
