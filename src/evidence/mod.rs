//! The evidence approximation: choosing α and β by maximising the marginal likelihood
//! p(t|α,β) (lecture notes on linear models, eq 27–45; PRML §3.5, §9.3.4, 9.61–9.68).
//!
//! - [`Spectrum`]: one eigendecomposition of ΦᵀΦ, after which ln p(t|α,β), γ, m_Nᵀm_N,
//!   ‖t − Φm_N‖², Tr S_N and the gradient cost O(M) at any (α, β); the surface over
//!   (ln α, ln β) as an [`EvidenceGrid`].
//! - [`Reestimation`]: the lecture's three fixed-point schemes and EM as a steppable solver
//!   whose iterates form a path on that surface.
//! - [`maximise`]: run to convergence and return the maximising (α, β) with its posterior.

use nalgebra::{DMatrix, DVector};

use crate::bayes::{Hyperparameters, Posterior};
use crate::error::{Error, Result};
use crate::solver::{Solver, Termination};

mod reestimation;
mod spectrum;

pub use reestimation::{
    DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE, EvidenceEvent, MAX_ITERATIONS, Reestimation, Scheme,
};
pub use spectrum::{Evaluation, EvidenceGrid, GridMaximum, MAX_GRID_SIDE, MAX_LN_PRECISION, Spectrum};

/// [`maximise`] stops once an update changes ln α and ln β by less than this.
pub const TOLERANCE: f64 = DEFAULT_TOLERANCE;

/// [`maximise`] gives up after this many updates (EM can need thousands; each is O(M)).
pub const MAXIMISE_ITERATIONS: usize = DEFAULT_MAX_ITERATIONS;

/// The (α, β) that maximise the evidence, and the posterior there.
#[derive(Debug, Clone)]
pub struct EvidenceMaximum {
    /// The maximising prior precision α.
    pub alpha: f64,
    /// The maximising noise precision β.
    pub beta: f64,
    /// γ there (lecture notes on linear models, eq 39); α m_Nᵀm_N = γ and β‖t − Φm_N‖² = N
    /// − γ hold at the maximum.
    pub gamma: f64,
    /// ln p(t|α,β) there (PRML 3.86).
    pub log_evidence: f64,
    /// Updates the re-estimation made.
    pub iterations: usize,
    /// The scheme that found it.
    pub scheme: Scheme,
    /// N(w | m_N, S_N) at the maximum, by [`Posterior::fit`].
    pub posterior: Posterior,
}

impl EvidenceMaximum {
    /// m_N at the maximum (PRML 3.53).
    pub fn mean(&self) -> &DVector<f64> {
        self.posterior.mean()
    }

    /// S_N at the maximum (PRML 3.54), formed for display.
    pub fn covariance(&self) -> DMatrix<f64> {
        self.posterior.covariance()
    }
}

/// Re-estimates (α, β) from `start` by `scheme` until an update changes ln α and ln β by
/// less than [`TOLERANCE`], then fits the posterior there. [`Scheme::Both`] and
/// [`Scheme::Em`] find the joint maximum; [`Scheme::AlphaOnly`] ([`Scheme::BetaOnly`])
/// maximises over α (β) with the other held at its start value.
///
/// # Errors
/// Those of [`Spectrum::new`], [`Reestimation::new`] and [`Posterior::fit`];
/// [`Error::Degenerate`] when an update has no finite value (e.g. Φᵀt = 0, or t in the
/// span of Φ); [`Error::NotConverged`] after [`MAXIMISE_ITERATIONS`] updates.
pub fn maximise(phi: &DMatrix<f64>, t: &[f64], scheme: Scheme, start: Hyperparameters) -> Result<EvidenceMaximum> {
    let mut run = Reestimation::new(Spectrum::new(phi, t)?, scheme, start)?;
    let iterations = match run.stop_at(TOLERANCE, MAXIMISE_ITERATIONS)?.run()? {
        Termination::Converged { iterations } => iterations,
        Termination::Degenerate { iteration, reason } => return Err(Error::Degenerate { iteration, reason }),
        other => return Err(scheme.not_converged(other.iterations())),
    };
    let at = *run.current();
    let posterior = Posterior::fit(phi, t, run.hyperparameters()?)?;
    Ok(EvidenceMaximum {
        alpha: at.alpha,
        beta: at.beta,
        gamma: at.gamma,
        log_evidence: at.log_evidence,
        iterations,
        scheme,
        posterior,
    })
}

/// A start for [`maximise`] in the units of the data: α = β = 1/var(t), with var(t) as
/// [`crate::linalg::target_variance`] takes it (the mean square for constant targets, 1 for
/// zero ones) — scikit-learn's `BayesianRidge` start for β, and for α its α = 1 put in the
/// targets' units. Targets times c start at α/c², β/c², so every scheme takes the same path
/// in any units (the absolute α = 1 left EM stuck there for targets in units 10⁸ times
/// larger, and cost the fixed point up to three times the iterations).
///
/// # Errors
/// None in practice: the values are checked by [`Hyperparameters::new`] like any other.
pub fn initial_guess(t: &[f64]) -> Result<Hyperparameters> {
    let precision = 1.0 / crate::linalg::target_variance(t);
    let precision = if precision.is_finite() && precision > 0.0 { precision } else { 1.0 };
    Hyperparameters::new(precision, precision)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Degeneracy;

    #[test]
    fn maximum_of_two_points() {
        // Φ = [1; 1], t = (1, 3): at the maximum α m² = γ and β‖t − Φm‖² = N − γ.
        let phi = DMatrix::from_element(2, 1, 1.0);
        let best = maximise(&phi, &[1.0, 3.0], Scheme::Both, initial_guess(&[1.0, 3.0]).unwrap()).unwrap();
        let m = best.mean()[0];
        assert!((best.alpha * m * m - best.gamma).abs() < 1e-9, "{best:?}");
        let residual = (1.0 - m).powi(2) + (3.0 - m).powi(2);
        assert!((best.beta * residual - (2.0 - best.gamma)).abs() < 1e-9, "{best:?}");
        assert!((best.log_evidence - best.posterior.log_evidence()).abs() < 1e-12);
    }

    #[test]
    fn degenerate_data_is_an_error() {
        let phi = DMatrix::from_element(2, 1, 1.0);
        let e = maximise(&phi, &[1.0, -1.0], Scheme::Both, initial_guess(&[1.0, -1.0]).unwrap()).unwrap_err();
        assert_eq!(e, Error::Degenerate { iteration: 1, reason: Degeneracy::ZeroMean });
    }

    #[test]
    fn the_start_is_in_the_units_of_the_data() {
        // α = β = 1/var(t); constant targets by their mean square, zero ones by 1.
        let start = |t: &[f64]| {
            let h = initial_guess(t).unwrap();
            (h.alpha(), h.beta())
        };
        assert_eq!(start(&[1.0, 3.0]), (1.0, 1.0));
        assert_eq!(start(&[0.0, 1.0]), (4.0, 4.0));
        assert_eq!(start(&[2.0, 2.0]), (0.25, 0.25));
        assert_eq!(start(&[0.0, 0.0]), (1.0, 1.0));
        // Targets times 2⁴⁰ (exact in floating point): α and β times 2⁻⁸⁰, exactly.
        let big = 2f64.powi(40);
        assert_eq!(start(&[big, 3.0 * big]), (2f64.powi(-80), 2f64.powi(-80)));
    }
}
