//! Bayesian linear regression with a Gaussian prior (PRML §3.3, lecture notes on linear
//! models, eq 22–35).
//!
//! Prior p(w|α) = N(w | 0, α⁻¹I), likelihood p(t|w, β) = Πₙ N(tₙ | wᵀφ(xₙ), β⁻¹).
//! The posterior is Gaussian, N(w | m_N, S_N), and is held as the Cholesky factor of its
//! precision A = S_N⁻¹, never as an explicit inverse.

use nalgebra::{DMatrix, DVector};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, ensure_all_finite, ensure_positive};
use crate::linalg::CholeskyFactor;

/// The two precisions of the model: prior precision α and noise precision β = 1/σ².
///
/// Only [`Hyperparameters::new`] makes one, so α > 0 and β > 0 always hold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Hyperparameters {
    alpha: f64,
    beta: f64,
}

impl Hyperparameters {
    /// Checked α and β.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for α ≤ 0 or β ≤ 0, [`Error::NotFinite`] for NaN or ±∞.
    pub fn new(alpha: f64, beta: f64) -> Result<Self> {
        Ok(Self { alpha: ensure_positive("α", alpha)?, beta: ensure_positive("β", beta)? })
    }

    /// Prior precision α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Noise precision β.
    pub fn beta(&self) -> f64 {
        self.beta
    }
}

/// Mean and variance of the predictive distribution at one input.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// m_Nᵀφ(x) (PRML 3.58).
    pub mean: f64,
    /// σ²_N(x) = 1/β + φ(x)ᵀS_Nφ(x) (PRML 3.59).
    pub variance: f64,
}

/// The posterior N(w | m_N, S_N) of a linear-Gaussian model given Φ and t.
#[derive(Debug, Clone)]
pub struct Posterior {
    hyper: Hyperparameters,
    /// Cholesky factor of A = S_N⁻¹ = αI + βΦᵀΦ.
    precision: CholeskyFactor,
    /// m_N.
    mean: DVector<f64>,
    log_evidence: f64,
}

/// The posterior precision, as error messages name it.
const PRECISION: &str = "A = αI + βΦᵀΦ";

impl Posterior {
    /// Conditions the prior on the targets `t` seen through the design matrix `phi`:
    ///
    /// ```text
    /// S_N⁻¹ = αI + βΦᵀΦ            (PRML 3.54, lecture notes on linear models, eq 31)
    /// m_N   = βS_NΦᵀt              (PRML 3.53, lecture notes on linear models, eq 32)
    /// ```
    ///
    /// m_N comes from the Cholesky solve of A m_N = βΦᵀt.
    ///
    /// # Errors
    /// [`Error::NoData`] for N = 0; [`Error::DimensionMismatch`] if Φ has not one row per
    /// target; [`Error::NotFinite`] for NaN/∞ in Φ or t; [`Error::NotPositiveDefinite`]
    /// when A is numerically singular (tiny α with a rank-deficient Φ).
    pub fn fit(phi: &DMatrix<f64>, t: &[f64], hyper: Hyperparameters) -> Result<Self> {
        if t.is_empty() {
            return Err(Error::NoData);
        }
        if phi.nrows() != t.len() {
            return Err(Error::DimensionMismatch { what: "design matrix rows", expected: t.len(), got: phi.nrows() });
        }
        ensure_all_finite("Φ", phi.as_slice())?;
        ensure_all_finite("t", t)?;
        let (alpha, beta) = (hyper.alpha, hyper.beta);
        let t = DVector::from_column_slice(t);
        let mut a = phi.tr_mul(phi) * beta;
        for i in 0..a.nrows() {
            a[(i, i)] += alpha;
        }
        let precision = CholeskyFactor::new(a, PRECISION)?;
        let mean = precision.solve(&(phi.tr_mul(&t) * beta));
        let log_evidence = log_evidence(phi, &t, hyper, &precision, &mean);
        Ok(Self { hyper, precision, mean, log_evidence })
    }

    /// The prior N(w | 0, α⁻¹I) over M weights: the posterior before any data (PRML 3.52),
    /// whose evidence is 1 (ln p = 0: there is nothing to explain).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for M = 0.
    pub fn prior(m: usize, hyper: Hyperparameters) -> Result<Self> {
        if m == 0 {
            let bound = crate::error::Bound::WholeBetween { min: 1, max: crate::basis::MAX_BASIS_FUNCTIONS as u64 };
            return Err(Error::OutOfRange { name: "M", value: "0".into(), bound });
        }
        let precision = CholeskyFactor::new(DMatrix::identity(m, m) * hyper.alpha, PRECISION)?;
        Ok(Self { hyper, precision, mean: DVector::zeros(m), log_evidence: 0.0 })
    }

    /// ln N(w | m_N, S_N) = −½(w − m_N)ᵀA(w − m_N) + ½ ln|A| − M/2 ln 2π, with A = S_N⁻¹.
    pub fn log_density(&self, w: &DVector<f64>) -> f64 {
        let m = self.mean.len() as f64;
        -0.5 * self.precision.quadratic_form(&(w - &self.mean)) + 0.5 * self.precision.ln_determinant()
            - 0.5 * m * std::f64::consts::TAU.ln()
    }

    /// The hyperparameters the posterior was computed with.
    pub fn hyperparameters(&self) -> Hyperparameters {
        self.hyper
    }

    /// The posterior mean m_N (PRML 3.53).
    pub fn mean(&self) -> &DVector<f64> {
        &self.mean
    }

    /// The posterior covariance S_N = A⁻¹ (PRML 3.54), formed explicitly for display.
    pub fn covariance(&self) -> DMatrix<f64> {
        self.precision.inverse()
    }

    /// The predictive distribution at an input with features `phi_x` = φ(x):
    ///
    /// ```text
    /// p(t | x, t, α, β) = N(t | m_Nᵀφ(x), σ²_N(x))           (PRML 3.58, lecture notes on linear models, eq 25)
    /// σ²_N(x) = 1/β + φ(x)ᵀ S_N φ(x) = 1/β + ‖L⁻¹φ(x)‖²     (PRML 3.59)
    /// ```
    ///
    /// where A = LLᵀ, so the variance is never below the noise floor 1/β.
    pub fn predict(&self, phi_x: &DVector<f64>) -> Prediction {
        Prediction {
            mean: self.mean.dot(phi_x),
            variance: 1.0 / self.hyper.beta + self.precision.solve_lower(phi_x).norm_squared(),
        }
    }

    /// One weight vector drawn from the posterior: w = m_N + L⁻ᵀz with z ~ N(0, I),
    /// whose covariance is L⁻ᵀL⁻¹ = A⁻¹ = S_N.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> DVector<f64> {
        let z = DVector::from_fn(self.mean.len(), |_, _| StandardNormal.sample(rng));
        &self.mean + self.precision.solve_upper_transpose(&z)
    }

    /// The log marginal likelihood (log evidence), PRML 3.86:
    ///
    /// ```text
    /// ln p(t|α,β) = M/2 ln α + N/2 ln β − E(m_N) − ½ ln|A| − N/2 ln 2π
    /// E(m_N)      = β/2 ‖t − Φm_N‖² + α/2 m_Nᵀm_N          (PRML 3.82)
    /// ```
    ///
    /// (The seed's eq 35 prints −M/2 ln 2π; −N/2 ln 2π is right: the density is over N targets.)
    pub fn log_evidence(&self) -> f64 {
        self.log_evidence
    }
}

/// PRML 3.86, from the pieces [`Posterior::fit`] has at hand.
fn log_evidence(
    phi: &DMatrix<f64>,
    t: &DVector<f64>,
    hyper: Hyperparameters,
    precision: &CholeskyFactor,
    mean: &DVector<f64>,
) -> f64 {
    let (n, m) = (phi.nrows() as f64, phi.ncols() as f64);
    let (alpha, beta) = (hyper.alpha, hyper.beta);
    let residual = t - phi * mean;
    let e_mn = 0.5 * beta * residual.norm_squared() + 0.5 * alpha * mean.norm_squared();
    0.5 * m * alpha.ln() + 0.5 * n * beta.ln()
        - e_mn
        - 0.5 * precision.ln_determinant()
        - 0.5 * n * (std::f64::consts::TAU).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_weight_by_hand() {
        // Φ = [1; 1], t = (1, 3), α = 1, β = 1: A = 3, m = (1 + 3)/3, variance at φ = 1 is 1 + 1/3.
        let phi = DMatrix::from_element(2, 1, 1.0);
        let post = Posterior::fit(&phi, &[1.0, 3.0], Hyperparameters::new(1.0, 1.0).unwrap()).unwrap();
        assert!((post.mean()[0] - 4.0 / 3.0).abs() < 1e-15);
        let p = post.predict(&DVector::from_element(1, 1.0));
        assert!((p.variance - 4.0 / 3.0).abs() < 1e-15);
        assert!((post.covariance()[(0, 0)] - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn prior_and_density_by_hand() {
        // Prior with α = 4 over M = 2: N(w | 0, I/4); at w = (1, 0): ln = −½·4 + ½ ln 16 − ln 2π.
        let prior = Posterior::prior(2, Hyperparameters::new(4.0, 1.0).unwrap()).unwrap();
        let w = DVector::from_vec(vec![1.0, 0.0]);
        let expected = -2.0 + 0.5 * 16f64.ln() - std::f64::consts::TAU.ln();
        assert!((prior.log_density(&w) - expected).abs() < 1e-14);
        assert_eq!(prior.log_evidence(), 0.0);
        assert_eq!(Posterior::prior(0, Hyperparameters::new(1.0, 1.0).unwrap()).unwrap_err().code(), "out-of-range");
    }

    #[test]
    fn hyperparameters_are_checked() {
        assert_eq!(Hyperparameters::new(0.0, 1.0).unwrap_err().to_string(), "α must be > 0, but is 0");
        assert_eq!(Hyperparameters::new(1.0, -2.0).unwrap_err().to_string(), "β must be > 0, but is -2");
        assert_eq!(Hyperparameters::new(f64::NAN, 1.0).unwrap_err().code(), "not-finite");
    }
}
