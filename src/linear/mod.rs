//! Linear basis-function regression without priors: maximum likelihood, gradient descent
//! and regularised least squares (001 eq 4–21; PRML §1.1, §3.1).
//!
//! Everything works on the N × M design matrix Φ (Φₙⱼ = φⱼ(xₙ), PRML 3.16) and the
//! targets t, with the lecture's sum-of-squares error
//!
//! ```text
//! E_D(w) = ½ Σₙ (φₙᵀw − tₙ)² = ½‖Φw − t‖²          (001 eq 3, 10; PRML 3.12)
//! ```
//!
//! - [`least_squares`]: w_ML = Φ†t by SVD, β_ML, E_RMS (001 eq 4–8).
//! - [`gradient`]: batch, stochastic and mini-batch gradient descent as a steppable
//!   solver (001 eq 9–10 and the BGD/SGD/MBGD updates), optionally with the ridge term.
//! - [`regularised`]: ridge in closed form (Cholesky; the SVD for tiny λ), lasso by ISTA
//!   with soft thresholding, and the coefficient paths against ln λ (001 eq 11–21).

use nalgebra::{DMatrix, DVector, Dyn, SVD};

use crate::error::{Bound, Error, Result, ensure_all_finite};

pub mod gradient;
pub mod least_squares;
pub mod regularised;

/// Sweeps of the implicit-shift QR iteration the SVD may spend per singular value before
/// it gives up with [`Error::NotConverged`]. LAPACK's `dbdsqr` allows 6, so the cap only
/// ever stops a pathological loop instead of freezing the page.
pub const SVD_SWEEPS_PER_VALUE: usize = 100;

/// Checks a regression problem: N ≥ 1 targets, one row of Φ per target, M ≥ 1 columns,
/// everything finite.
///
/// # Errors
/// [`Error::NoData`] for N = 0; [`Error::DimensionMismatch`] if Φ has not one row per
/// target; [`Error::OutOfRange`] for M = 0; [`Error::NotFinite`] for NaN/∞ in Φ or t.
pub fn check_design(phi: &DMatrix<f64>, t: &[f64]) -> Result<()> {
    if t.is_empty() {
        return Err(Error::NoData);
    }
    if phi.nrows() != t.len() {
        return Err(Error::DimensionMismatch { what: "design matrix rows", expected: t.len(), got: phi.nrows() });
    }
    if phi.ncols() == 0 {
        return Err(Error::OutOfRange { name: "M", value: "0".to_owned(), bound: Bound::Positive });
    }
    ensure_all_finite("Φ", phi.as_slice())?;
    ensure_all_finite("t", t)
}

/// Checks that a weight vector `w` (named `what` in messages) has M finite entries.
///
/// # Errors
/// [`Error::DimensionMismatch`] for a length other than `m`, [`Error::NotFinite`] for NaN/∞.
pub fn check_weights(what: &'static str, w: &DVector<f64>, m: usize) -> Result<()> {
    if w.len() != m {
        return Err(Error::DimensionMismatch { what, expected: m, got: w.len() });
    }
    ensure_all_finite(what, w.as_slice())
}

/// `Ok` when `min ≤ value ≤ max`, else [`Error::OutOfRange`] naming the range.
pub(crate) fn check_whole(name: &'static str, value: usize, min: usize, max: usize) -> Result<()> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        let bound = Bound::WholeBetween { min: min as u64, max: max as u64 };
        Err(Error::OutOfRange { name, value: value.to_string(), bound })
    }
}

/// E_D(w) = ½‖Φw − t‖² (001 eq 10), unchecked: the callers have validated the sizes.
fn sum_of_squares(phi: &DMatrix<f64>, t: &DVector<f64>, w: &DVector<f64>) -> f64 {
    0.5 * (phi * w - t).norm_squared()
}

/// The thin SVD Φ = UΣVᵀ, singular values σ₁ ≥ σ₂ ≥ … ≥ 0.
struct Decomposition {
    u: DMatrix<f64>,
    singular_values: DVector<f64>,
    v_t: DMatrix<f64>,
}

impl Decomposition {
    /// Decomposes `phi`, which must be non-empty and finite ([`check_design`]).
    ///
    /// # Errors
    /// [`Error::NotConverged`] if the QR iteration exceeds [`SVD_SWEEPS_PER_VALUE`] sweeps
    /// per singular value.
    fn new(phi: &DMatrix<f64>) -> Result<Self> {
        let (svd, iterations) = bounded_svd(phi, true)?;
        match (svd.u, svd.v_t) {
            (Some(u), Some(v_t)) => Ok(Self { u, singular_values: svd.singular_values, v_t }),
            // nalgebra returns both factors when asked for them; kept as an error, not a panic.
            _ => Err(Error::NotConverged { algorithm: SVD_NAME, iterations }),
        }
    }

    /// c = max(N, M) · ε · σ_max: singular values up to c are indistinguishable from zero
    /// (the cut-off of NumPy's `lstsq` and `matrix_rank`).
    fn cutoff(&self) -> f64 {
        let sigma_max = self.singular_values.iter().fold(0.0_f64, |m, &s| m.max(s));
        self.u.nrows().max(self.v_t.ncols()) as f64 * f64::EPSILON * sigma_max
    }

    /// The numerical rank: the number of singular values above [`Decomposition::cutoff`].
    fn rank(&self) -> usize {
        let cutoff = self.cutoff();
        self.singular_values.iter().filter(|&&sigma| sigma > cutoff).count()
    }

    /// w = Σ_{σᵢ > c} f(σᵢ) (uᵢᵀt) vᵢ: Φw ≈ t solved with filter factors f(σ) (1/σ for the
    /// pseudo-inverse, σ/(σ² + λ) for ridge); directions with σ ≤ c ([`Decomposition::cutoff`])
    /// are left out, as for an exactly zero σ.
    fn filter_solve(&self, t: &DVector<f64>, filter: impl Fn(f64) -> f64) -> DVector<f64> {
        let cutoff = self.cutoff();
        let mut coefficients = self.u.tr_mul(t);
        for (c, &sigma) in coefficients.iter_mut().zip(self.singular_values.iter()) {
            *c *= if sigma > cutoff { filter(sigma) } else { 0.0 };
        }
        self.v_t.tr_mul(&coefficients)
    }
}

/// How the SVD is named in [`Error::NotConverged`].
const SVD_NAME: &str = "SVD of Φ";

/// nalgebra's SVD with at most [`SVD_SWEEPS_PER_VALUE`] × min(N, M) sweeps; also returns
/// that budget.
fn bounded_svd(phi: &DMatrix<f64>, vectors: bool) -> Result<(SVD<f64, Dyn, Dyn>, usize)> {
    let iterations = SVD_SWEEPS_PER_VALUE * phi.nrows().min(phi.ncols()).max(1);
    SVD::try_new(phi.clone(), vectors, vectors, 5.0 * f64::EPSILON, iterations)
        .map(|svd| (svd, iterations))
        .ok_or(Error::NotConverged { algorithm: SVD_NAME, iterations })
}

/// The singular values of `phi` (non-empty, finite), in descending order.
///
/// # Errors
/// [`Error::NotConverged`] as for [`Decomposition::new`].
fn singular_values(phi: &DMatrix<f64>) -> Result<DVector<f64>> {
    Ok(bounded_svd(phi, false)?.0.singular_values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_checks_name_the_problem() {
        let phi = DMatrix::from_element(2, 1, 1.0);
        assert_eq!(check_design(&phi, &[]).unwrap_err(), Error::NoData);
        assert_eq!(check_design(&phi, &[1.0]).unwrap_err().code(), "dimension-mismatch");
        assert_eq!(check_design(&DMatrix::zeros(2, 0), &[1.0, 2.0]).unwrap_err().code(), "out-of-range");
        assert_eq!(
            check_design(&phi, &[1.0, f64::NAN]).unwrap_err().to_string(),
            "t[1] must be a finite number, but is NaN"
        );
        assert!(check_design(&phi, &[1.0, 2.0]).is_ok());
        let w = DVector::from_vec(vec![1.0, 2.0]);
        assert_eq!(check_weights("w", &w, 3).unwrap_err().code(), "dimension-mismatch");
    }

    #[test]
    fn filter_one_over_sigma_inverts_a_diagonal() {
        // Φ = diag(2, 4): w = (t₀/2, t₁/4).
        let phi = DMatrix::from_diagonal(&DVector::from_vec(vec![2.0, 4.0]));
        let w = Decomposition::new(&phi).unwrap().filter_solve(&DVector::from_vec(vec![1.0, 1.0]), |s| 1.0 / s);
        assert!((w[0] - 0.5).abs() < 1e-15 && (w[1] - 0.25).abs() < 1e-15, "{w}");
    }
}
