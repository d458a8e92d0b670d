//! Re-estimation of α and β to maximise the evidence, as a steppable solver: the three
//! fixed-point schemes of the lecture (lecture notes on linear models, eq 40, 43, 45) and
//! EM (PRML 9.63).
//!
//! Every step evaluates the current (α, β) on the [`Spectrum`] (O(M)), applies the update
//! of the chosen [`Scheme`], and reports the new point as an [`EvidenceEvent`]. With
//! dᵢ = α + βλᵢ, γ = Σᵢ βλᵢ/dᵢ and m_N, S_N at the current (α, β):
//!
//! ```text
//! fixed point, α:  α_new = γ / m_Nᵀm_N                         (lecture notes on linear models, eq 40, PRML 3.92)
//! fixed point, β:  1/β_new = ‖t − Φm_N‖² / (N − γ)              (lecture notes on linear models, eq 43, PRML 3.95)
//! EM, α:           α_new = M / (m_Nᵀm_N + Tr S_N)               (PRML 9.63)
//! EM, β:           1/β_new = (‖t − Φm_N‖² + Tr(ΦᵀΦ S_N)) / N
//!                          = (‖t − Φm_N‖² + γ/β) / N            (cf. PRML 9.68)
//! ```
//!
//! The EM β update maximises the expected complete-data log likelihood (PRML 9.62) over β:
//! its β part is N/2 ln β − β/2 E[‖t − Φw‖²] with w ~ N(m_N, S_N), and
//! E[‖t − Φw‖²] = ‖t − Φm_N‖² + Tr(Φ S_N Φᵀ); in the eigenbasis
//! Tr(ΦᵀΦ S_N) = Σᵢ λᵢ/dᵢ = γ/β. Setting the derivative to zero gives the line above — the
//! RVM's PRML 9.68 with Σᵢγᵢ replaced by γ. The EM pair is one M step, so the evidence
//! never decreases along its path; the fixed-point schemes have no such guarantee, but
//! reach the same stationary point, where α m_Nᵀm_N = γ (PRML 9.65) and β‖t − Φm_N‖² = N − γ.
//!
//! ## Guards
//! An update that has no finite positive value ends the run with
//! [`Termination::Degenerate`] instead of putting NaN or ∞ in the path:
//! m_Nᵀm_N = 0 (Φᵀt = 0: the evidence grows without bound as α → ∞),
//! N − γ ≤ 0, ‖t − Φm_N‖² = 0 (t lies in the span of Φ: β → ∞), or a new α or β (or any
//! quantity at it) that overflows or underflows. EM needs none of the first three (its
//! denominators include Tr S_N > 0 and γ/β > 0) but can still drift to ∞ when t is fitted
//! exactly.
//!
//! ## References Lecture notes on linear models, "最大化证据函数" (maximising the evidence), eq
//! 36–45; PRML §9.3.4, eq 9.61–9.68; Bishop, *PRML* §3.5.2.

use serde::Serialize;

use super::spectrum::{Evaluation, Spectrum};
use crate::bayes::Hyperparameters;
use crate::error::{Degeneracy, Error, Result, check_whole, ensure_positive};
use crate::solver::{Solver, Status, Termination};

/// Largest `max_iterations` [`Reestimation::stop_at`] accepts (each iterate keeps one
/// [`Evaluation`], 64 bytes).
pub const MAX_ITERATIONS: usize = 1_000_000;

/// A run converges once an update moves ln α and ln β each by less than this, unless
/// [`Reestimation::stop_at`] says otherwise.
pub const DEFAULT_TOLERANCE: f64 = 1e-12;

/// A run gives up after this many updates unless [`Reestimation::stop_at`] says otherwise.
pub const DEFAULT_MAX_ITERATIONS: usize = 100_000;

/// Which hyperparameters are re-estimated, and by which rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// β fixed; α = γ / m_Nᵀm_N (lecture notes on linear models, eq 40).
    AlphaOnly,
    /// α fixed; 1/β = ‖t − Φm_N‖² / (N − γ) (lecture notes on linear models, eq 43).
    BetaOnly,
    /// Both at once from the same m_N and γ (lecture notes on linear models, eq 45).
    Both,
    /// EM: α = M / (m_Nᵀm_N + Tr S_N) (PRML 9.63), 1/β = (‖t − Φm_N‖² + γ/β) / N.
    Em,
}

impl Scheme {
    /// Every scheme, in the lecture's order.
    pub const ALL: [Scheme; 4] = [Scheme::AlphaOnly, Scheme::BetaOnly, Scheme::Both, Scheme::Em];

    /// The stable name (`"alpha-only"`, `"beta-only"`, `"both"`, `"em"`), as serialised.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::AlphaOnly => "alpha-only",
            Scheme::BetaOnly => "beta-only",
            Scheme::Both => "both",
            Scheme::Em => "em",
        }
    }

    /// The scheme with this [`Scheme::name`].
    pub fn from_name(name: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.name() == name)
    }

    /// [`Error::NotConverged`] for a run of this scheme that made `iterations` updates.
    pub(super) fn not_converged(self, iterations: usize) -> Error {
        let algorithm = match self {
            Scheme::Em => "EM re-estimation of α, β",
            _ => "fixed-point re-estimation of α, β",
        };
        Error::NotConverged { algorithm, iterations }
    }
}

/// What one [`Solver::step`] of a [`Reestimation`] did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum EvidenceEvent {
    /// One update was made; the numbers are those at the new (α, β).
    Update {
        /// Number of this update, counting from 1.
        iteration: usize,
        /// The new α.
        alpha: f64,
        /// The new β.
        beta: f64,
        /// γ at the new (α, β).
        gamma: f64,
        /// ln p(t|α,β) at the new (α, β) (PRML 3.86).
        log_evidence: f64,
        /// |ln α_new − ln α_old|.
        delta_ln_alpha: f64,
        /// |ln β_new − ln β_old|.
        delta_ln_beta: f64,
    },
    /// Nothing was changed: the update had no finite positive value, and the run ended.
    Stopped {
        /// Why ([`Termination::Degenerate`]).
        termination: Termination,
    },
}

/// A re-estimation run of (α, β) on a [`Spectrum`], one update per [`Solver::step`];
/// see the module documentation for the update rules. It converges once an update moves
/// ln α and ln β each by less than its tolerance, gives up after its most updates
/// ([`Reestimation::stop_at`]), and ends [`Termination::Degenerate`] at an update with no
/// finite positive value.
///
/// Holds the whole path, every iterate with its [`Evaluation`] (index 0 the start); it
/// never contains NaN or ±∞.
#[derive(Debug, Clone)]
pub struct Reestimation {
    spectrum: Spectrum,
    scheme: Scheme,
    path: Vec<Evaluation>,
    tolerance: f64,
    max_iterations: usize,
    /// Set once an update converged or was refused.
    ended: Option<Termination>,
}

impl Reestimation {
    /// A run of `scheme` from `start`, converging at [`DEFAULT_TOLERANCE`] within
    /// [`DEFAULT_MAX_ITERATIONS`] updates.
    ///
    /// # Errors
    /// [`Error::Overflow`] if a quantity at `start` overflows (α or β near 10³⁰⁸).
    pub fn new(spectrum: Spectrum, scheme: Scheme, start: Hyperparameters) -> Result<Self> {
        let first = spectrum.evaluate(start.alpha(), start.beta());
        if !first.is_finite() {
            return Err(Error::overflow("ln p(t|α,β)", first.log_evidence));
        }
        Ok(Self {
            spectrum,
            scheme,
            path: vec![first],
            tolerance: DEFAULT_TOLERANCE,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            ended: None,
        })
    }

    /// Converged once an update changes both ln α and ln β by less than `tolerance`; given
    /// up once [`Reestimation::iteration`] reaches `max_iterations`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] / [`Error::NotFinite`] for a tolerance that is not a finite
    /// number > 0, or `max_iterations` outside 1..=[`MAX_ITERATIONS`]; the run is unchanged.
    pub fn stop_at(&mut self, tolerance: f64, max_iterations: usize) -> Result<&mut Self> {
        ensure_positive("tolerance", tolerance)?;
        check_whole("max iterations", max_iterations, 1, MAX_ITERATIONS)?;
        (self.tolerance, self.max_iterations) = (tolerance, max_iterations);
        Ok(self)
    }

    /// The current iterate: the last entry of [`Reestimation::path`].
    pub fn current(&self) -> &Evaluation {
        // `path` starts with the start point and only grows.
        &self.path[self.path.len() - 1]
    }

    /// The current (α, β).
    pub fn hyperparameters(&self) -> Result<Hyperparameters> {
        Hyperparameters::new(self.current().alpha, self.current().beta)
    }

    /// Every iterate with its evaluation: index 0 the start, index k after update k.
    pub fn path(&self) -> &[Evaluation] {
        &self.path
    }

    /// Number of updates made so far.
    pub fn iteration(&self) -> usize {
        self.path.len() - 1
    }

    /// [`Termination::Degenerate`] once an update has been refused, else `None`.
    pub fn degenerate(&self) -> Option<Termination> {
        self.ended.filter(|t| matches!(t, Termination::Degenerate { .. }))
    }

    /// The scheme of the run.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The spectrum the run evaluates on (for the surface under its path).
    pub fn spectrum(&self) -> &Spectrum {
        &self.spectrum
    }

    /// The next iterate from `at`, evaluated, or why there is none.
    fn update(&self, at: &Evaluation) -> Result<Evaluation, Degeneracy> {
        let (alpha, beta) = match self.scheme {
            Scheme::AlphaOnly => (alpha_fixed_point(at)?, at.beta),
            Scheme::BetaOnly => (at.alpha, self.beta_fixed_point(at)?),
            Scheme::Both => (alpha_fixed_point(at)?, self.beta_fixed_point(at)?),
            Scheme::Em => self.em(at),
        };
        let usable = |v: f64| v.is_finite() && v > 0.0;
        if !(usable(alpha) && usable(beta)) {
            return Err(Degeneracy::Overflow);
        }
        let next = self.spectrum.evaluate(alpha, beta);
        if next.is_finite() { Ok(next) } else { Err(Degeneracy::Overflow) }
    }

    /// 1/β = ‖t − Φm_N‖²/(N − γ) (lecture notes on linear models, eq 43).
    fn beta_fixed_point(&self, at: &Evaluation) -> Result<f64, Degeneracy> {
        let freedom = self.spectrum.n() as f64 - at.gamma;
        if freedom <= 0.0 {
            Err(Degeneracy::NoNoiseFreedom)
        } else if at.residual_sq <= 0.0 {
            Err(Degeneracy::ZeroResidual)
        } else {
            Ok(freedom / at.residual_sq)
        }
    }

    /// α = M/(m_Nᵀm_N + Tr S_N) (PRML 9.63), 1/β = (‖t − Φm_N‖² + γ/β)/N (after PRML 9.68).
    fn em(&self, at: &Evaluation) -> (f64, f64) {
        let (n, m) = (self.spectrum.n() as f64, self.spectrum.m() as f64);
        let alpha = m / (at.mean_norm_sq + at.trace_covariance);
        let beta = n / (at.residual_sq + at.gamma / at.beta);
        (alpha, beta)
    }
}

impl Solver for Reestimation {
    type Event = EvidenceEvent;

    /// Makes one update and says what it did: [`EvidenceEvent::Update`], or
    /// [`EvidenceEvent::Stopped`] when the update has no finite positive value (refused,
    /// ending the run). Never fails: a refused update is an event.
    fn next_iter(&mut self) -> Result<EvidenceEvent> {
        let old = *self.current();
        let iteration = self.iteration() + 1;
        let next = match self.update(&old) {
            Ok(next) => next,
            Err(reason) => {
                let termination = Termination::Degenerate { iteration, reason };
                self.ended = Some(termination);
                return Ok(EvidenceEvent::Stopped { termination });
            }
        };
        self.path.push(next);
        let (delta_ln_alpha, delta_ln_beta) =
            ((next.alpha.ln() - old.alpha.ln()).abs(), (next.beta.ln() - old.beta.ln()).abs());
        if delta_ln_alpha < self.tolerance && delta_ln_beta < self.tolerance {
            self.ended = Some(Termination::Converged { iterations: iteration });
        }
        Ok(EvidenceEvent::Update {
            iteration,
            alpha: next.alpha,
            beta: next.beta,
            gamma: next.gamma,
            log_evidence: next.log_evidence,
            delta_ln_alpha,
            delta_ln_beta,
        })
    }

    fn status(&self) -> Status {
        match self.ended {
            Some(termination) => Status::Terminated(termination),
            None if self.iteration() >= self.max_iterations => {
                Status::Terminated(Termination::MaxIterations { iterations: self.iteration() })
            }
            None => Status::Running,
        }
    }

    fn iterations(&self) -> usize {
        self.iteration()
    }
}

/// α = γ/m_Nᵀm_N (lecture notes on linear models, eq 40).
fn alpha_fixed_point(at: &Evaluation) -> Result<f64, Degeneracy> {
    if at.mean_norm_sq > 0.0 { Ok(at.gamma / at.mean_norm_sq) } else { Err(Degeneracy::ZeroMean) }
}

#[cfg(test)]
mod tests {
    use nalgebra::DMatrix;

    use super::*;

    /// Φ = [1; 1], t = (1, 3): λ = 2, q² = 16, tᵀt = 10.
    fn two_points(scheme: Scheme, alpha: f64, beta: f64) -> Reestimation {
        let spectrum = Spectrum::new(&DMatrix::from_element(2, 1, 1.0), &[1.0, 3.0]).unwrap();
        Reestimation::new(spectrum, scheme, Hyperparameters::new(alpha, beta).unwrap()).unwrap()
    }

    #[test]
    fn alpha_step_by_hand() {
        // α = β = 1: m = 4/3, γ = 2/3, so α_new = (2/3)/(16/9) = 3/8.
        let mut r = two_points(Scheme::AlphaOnly, 1.0, 1.0);
        let Ok(EvidenceEvent::Update { iteration, alpha, beta, delta_ln_alpha, delta_ln_beta, .. }) = r.step() else {
            panic!("no update");
        };
        assert_eq!((iteration, beta, delta_ln_beta), (1, 1.0, 0.0));
        assert!((alpha - 0.375).abs() < 1e-15);
        assert!((delta_ln_alpha - (8.0_f64 / 3.0).ln()).abs() < 1e-14);
        assert_eq!(r.path().len(), 2);
    }

    #[test]
    fn em_step_by_hand() {
        // α = β = 1: m² = 16/9, S = 1/3, residual 26/9, γ = 2/3:
        // α_new = 1/(16/9 + 1/3) = 9/19, β_new = 2/(26/9 + 2/3) = 9/16.
        let mut r = two_points(Scheme::Em, 1.0, 1.0);
        let Ok(EvidenceEvent::Update { alpha, beta, .. }) = r.step() else { panic!("no update") };
        assert!((alpha - 9.0 / 19.0).abs() < 1e-15 && (beta - 9.0 / 16.0).abs() < 1e-15, "{alpha} {beta}");
    }

    #[test]
    fn zero_mean_is_a_sticky_stop() {
        // Φᵀt = 0: m_N = 0 for every α, so α → ∞.
        let spectrum = Spectrum::new(&DMatrix::from_element(2, 1, 1.0), &[1.0, -1.0]).unwrap();
        let mut r = Reestimation::new(spectrum, Scheme::Both, Hyperparameters::new(1.0, 1.0).unwrap()).unwrap();
        let stop = Termination::Degenerate { iteration: 1, reason: Degeneracy::ZeroMean };
        assert_eq!(r.step(), Ok(EvidenceEvent::Stopped { termination: stop }));
        assert_eq!(r.stop_at(1e-9, 10).unwrap().run(), Ok(stop));
        assert_eq!((r.iteration(), r.degenerate()), (0, Some(stop)));
        assert_eq!(r.step(), Err(Error::RunOver { iterations: 0 }));
    }

    #[test]
    fn run_checks_its_settings() {
        let mut r = two_points(Scheme::Both, 1.0, 1.0);
        assert_eq!(r.stop_at(0.0, 10).unwrap_err().to_string(), "tolerance must be > 0, but is 0");
        assert_eq!(r.stop_at(1e-9, 0).unwrap_err().code(), "out-of-range");
        assert_eq!(r.stop_at(1e-9, 3).unwrap().run(), Ok(Termination::MaxIterations { iterations: 3 }));
        assert_eq!(Scheme::from_name("em"), Some(Scheme::Em));
        assert_eq!(Scheme::from_name("both"), Some(Scheme::Both));
        assert_eq!(Scheme::from_name("newton"), None);
    }
}
