//! Why the relevance vector machine is sparse (PRML §7.2.2, 7.92–7.101).
//!
//! The log marginal likelihood L(α) = ln p(t|α) = ln N(t | 0, C) with
//! C = β⁻¹I + Σⱼ αⱼ⁻¹φⱼφⱼᵀ splits into the part without basis vector i and the part that
//! depends on its precision αᵢ alone (PRML 7.94–7.96):
//!
//! ```text
//! L(α) = L(α₋ᵢ) + λ(αᵢ),   λ(αᵢ) = ½[ln αᵢ − ln(αᵢ + sᵢ) + qᵢ²/(αᵢ + sᵢ)]   (PRML 7.97)
//! ```
//!
//! where the sparsity sᵢ = φᵢᵀC₋ᵢ⁻¹φᵢ and the quality qᵢ = φᵢᵀC₋ᵢ⁻¹t (PRML 7.98–7.99).
//! λ has one stationary point, αᵢ = sᵢ²/(qᵢ² − sᵢ), a maximum, when qᵢ² > sᵢ (PRML 7.101);
//! otherwise λ increases all the way to λ(∞) = 0 and the basis vector is pruned.
//!
//! - [`SparsityQuality`]: λ, θ = q² − s and the most probable α of one basis vector.
//! - [`TwoPointModel`]: PRML Fig 7.10 — two targets, one basis vector: the covariance, the
//!   log evidence, the ellipse of C and the noise circle.

use nalgebra::{DMatrix, DVector, SymmetricEigen};

use crate::error::{Error, Result, ensure_finite, ensure_non_negative, ensure_positive};
use crate::linalg::CholeskyFactor;

/// λ(α) as α → ∞: the basis vector contributes nothing to ln p(t|α) once it is pruned.
pub const LAMBDA_AT_INFINITY: f64 = 0.0;

/// Sparsity s and quality q of one basis vector (PRML 7.98–7.99), given every other
/// basis vector: s measures how much φ overlaps the rest of the model, q how well it
/// aligns with the error of the model without it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparsityQuality {
    /// Sparsity s = φᵀC₋ᵢ⁻¹φ > 0.
    pub s: f64,
    /// Quality q = φᵀC₋ᵢ⁻¹t.
    pub q: f64,
}

impl SparsityQuality {
    /// Checked s and q.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for s ≤ 0; [`Error::NotFinite`] for NaN or ±∞.
    pub fn new(s: f64, q: f64) -> Result<Self> {
        Ok(Self { s: ensure_positive("s", s)?, q: ensure_finite("q", q)? })
    }

    /// From s and q² (λ depends on q only through q²; q is taken ≥ 0).
    ///
    /// # Errors
    /// As [`SparsityQuality::new`], and [`Error::OutOfRange`] for q² < 0.
    pub fn from_q_squared(s: f64, q_squared: f64) -> Result<Self> {
        Self::new(s, ensure_non_negative("q²", q_squared)?.sqrt())
    }

    /// The values checked again: the fields are public, so a value built by hand may be
    /// anything.
    ///
    /// # Errors
    /// As [`SparsityQuality::new`].
    pub fn checked(self) -> Result<Self> {
        Self::new(self.s, self.q)
    }

    /// q².
    pub fn q_squared(&self) -> f64 {
        self.q * self.q
    }

    /// θ = q² − s: positive exactly when the basis vector belongs in the model
    /// (Tipping & Faul 2003, §4 steps 4–6).
    pub fn theta(&self) -> f64 {
        self.q_squared() - self.s
    }

    /// λ(α) = ½[ln α − ln(α + s) + q²/(α + s)] (PRML 7.97), the part of ln p(t|α) that
    /// depends on this basis vector's precision α > 0; α = ∞ gives
    /// [`LAMBDA_AT_INFINITY`]. Written with ln α − ln(α + s) = −ln(1 + s/α), which stays
    /// accurate for α ≫ s.
    pub fn lambda(&self, alpha: f64) -> f64 {
        0.5 * (-(self.s / alpha).ln_1p() + self.q_squared() / (alpha + self.s))
    }

    /// The α that maximises λ: s²/(q² − s) when q² > s (PRML 7.101); `None` when q² ≤ s,
    /// meaning α = ∞ — λ increases for every α (its derivative, PRML 7.100, has the sign
    /// of s²/α − (q² − s) > 0), so the most probable model prunes the basis vector.
    ///
    /// A θ within rounding of 0 (|θ| ≤ 4εs, e.g. q² = s given as q = √s) counts as 0: the α
    /// it would give, beyond s/4ε ≈ 10¹⁵s, is ∞ for every practical purpose.
    pub fn optimal_alpha(&self) -> Option<f64> {
        let theta = self.theta();
        (theta > 4.0 * f64::EPSILON * self.s).then(|| self.s * self.s / theta)
    }

    /// λ at its maximiser: λ(α*), or [`LAMBDA_AT_INFINITY`] when α* = ∞.
    pub fn max_lambda(&self) -> f64 {
        self.optimal_alpha().map_or(LAMBDA_AT_INFINITY, |alpha| self.lambda(alpha))
    }
}

/// Checks a precision that may be +∞ (a pruned basis vector).
///
/// # Errors
/// [`Error::OutOfRange`] for α ≤ 0; [`Error::NotFinite`] for NaN or −∞.
pub fn ensure_precision(name: &'static str, alpha: f64) -> Result<f64> {
    if alpha == f64::INFINITY { Ok(alpha) } else { ensure_positive(name, alpha) }
}

/// The covariance of PRML 7.92 as a formula, for error messages.
const COVARIANCE: &str = "C = β⁻¹I + α⁻¹φφᵀ";

/// PRML Fig 7.10: N = 2 targets t ∈ ℝ², one basis vector φ = (φ(x₁), φ(x₂)) ∈ ℝ², noise
/// precision β and the basis vector's weight precision α (∞: no basis vector).
///
/// The marginal likelihood is p(t|α) = N(t | 0, C), C = β⁻¹I + α⁻¹φφᵀ (PRML 7.92). Without
/// φ the model is C₋ᵢ = β⁻¹I, so s = β‖φ‖² and q = βφᵀt (PRML 7.98–7.99).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwoPointModel {
    target: [f64; 2],
    basis: [f64; 2],
    beta: f64,
}

impl TwoPointModel {
    /// Checked t, φ and β.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN or ±∞ in t or φ; [`Error::OutOfRange`] for β ≤ 0 or
    /// φ = 0 (a zero basis vector has no sparsity and nothing to prune).
    pub fn new(target: [f64; 2], basis: [f64; 2], beta: f64) -> Result<Self> {
        crate::error::ensure_all_finite("t", &target)?;
        crate::error::ensure_all_finite("φ", &basis)?;
        let norm = basis[0].hypot(basis[1]);
        if norm == 0.0 {
            return Err(Error::OutOfRange {
                name: "‖φ‖", value: "0".into(), bound: crate::error::Bound::Positive
            });
        }
        Ok(Self { target, basis, beta: ensure_positive("β", beta)? })
    }

    /// The target t.
    pub fn target(&self) -> [f64; 2] {
        self.target
    }

    /// The basis vector φ.
    pub fn basis(&self) -> [f64; 2] {
        self.basis
    }

    /// The noise precision β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// C = β⁻¹I + α⁻¹φφᵀ (PRML 7.92 with N = 2 and one basis vector); α = ∞ gives β⁻¹I.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for α ≤ 0, [`Error::NotFinite`] for NaN.
    pub fn covariance(&self, alpha: f64) -> Result<DMatrix<f64>> {
        let alpha = ensure_precision("α", alpha)?;
        let phi = DVector::from_column_slice(&self.basis);
        Ok(DMatrix::identity(2, 2) / self.beta + &phi * phi.transpose() / alpha)
    }

    /// ln p(t|α) = ln N(t | 0, C) = −ln 2π − ½ln|C| − ½tᵀC⁻¹t (natural logarithm), through
    /// the Cholesky factor of C.
    ///
    /// # Errors
    /// As [`TwoPointModel::covariance`]; [`Error::NotPositiveDefinite`] when α is so small
    /// that β⁻¹I vanishes beside α⁻¹φφᵀ in floating point.
    pub fn log_evidence(&self, alpha: f64) -> Result<f64> {
        let c = CholeskyFactor::new(self.covariance(alpha)?, COVARIANCE)?;
        let t = DVector::from_column_slice(&self.target);
        Ok(-std::f64::consts::TAU.ln() - 0.5 * c.ln_determinant() - 0.5 * c.solve_lower(&t).norm_squared())
    }

    /// s = β‖φ‖² and q = βφᵀt: PRML 7.98–7.99 with C₋ᵢ = β⁻¹I.
    pub fn sparsity_quality(&self) -> SparsityQuality {
        let [p1, p2] = self.basis;
        let [t1, t2] = self.target;
        SparsityQuality { s: self.beta * (p1 * p1 + p2 * p2), q: self.beta * (p1 * t1 + p2 * t2) }
    }

    /// The α that maximises p(t|α) (PRML 7.101), `None` for α = ∞.
    pub fn optimal_alpha(&self) -> Option<f64> {
        self.sparsity_quality().optimal_alpha()
    }

    /// ln p(t|∞) = ln N(t | 0, β⁻¹I) = −ln 2π + ln β − ½β‖t‖²: the model without φ, which
    /// ln p(t|α) exceeds by λ(α) (PRML 7.96).
    pub fn log_evidence_without_basis(&self) -> f64 {
        let [t1, t2] = self.target;
        -std::f64::consts::TAU.ln() + self.beta.ln() - 0.5 * self.beta * (t1 * t1 + t2 * t2)
    }

    /// Radius β^{-1/2} of the noise circle, the unit-Mahalanobis contour of β⁻¹I.
    pub fn noise_radius(&self) -> f64 {
        self.beta.sqrt().recip()
    }

    /// `points` points (the first repeated at the end) of the ellipse xᵀC⁻¹x = 1, the
    /// contour of N(x | 0, C) at unit Mahalanobis distance: x = Σₖ √μₖ cos/sin(θ) uₖ for
    /// the eigenpairs (μₖ, uₖ) of C.
    ///
    /// # Errors
    /// As [`TwoPointModel::covariance`]; [`Error::NotConverged`] if the eigenvalue
    /// iteration exceeds its budget (never seen on finite input).
    pub fn ellipse(&self, alpha: f64, points: usize) -> Result<Vec<(f64, f64)>> {
        let iterations = 64;
        let eigen = SymmetricEigen::try_new(self.covariance(alpha)?, f64::EPSILON, iterations)
            .ok_or(Error::NotConverged { algorithm: "eigendecomposition of C", iterations })?;
        let axis = |k: usize| {
            let r = eigen.eigenvalues[k].max(0.0).sqrt();
            (r * eigen.eigenvectors[(0, k)], r * eigen.eigenvectors[(1, k)])
        };
        let (a, b) = (axis(0), axis(1));
        let n = points.max(4) - 1;
        Ok((0..=n)
            .map(|k| {
                let (sin, cos) = (std::f64::consts::TAU * (k % n) as f64 / n as f64).sin_cos();
                (a.0 * cos + b.0 * sin, a.1 * cos + b.1 * sin)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The α with the largest λ on a grid of ln α from −20 to 20 (step 10⁻³).
    fn grid_argmax(sq: &SparsityQuality) -> f64 {
        let grid = (-20_000..=20_000).map(|k| f64::from(k) * 1e-3);
        grid.map(|l| (l, sq.lambda(l.exp()))).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0.exp()
    }

    #[test]
    fn fig_7_11_left_has_its_maximum_at_one_third() {
        // q² = 4, s = 1: α* = s²/(q² − s) = 1/3 (PRML Fig 7.11, left).
        let sq = SparsityQuality::from_q_squared(1.0, 4.0).unwrap();
        assert_eq!(sq.theta(), 3.0);
        let alpha = sq.optimal_alpha().unwrap();
        assert!((alpha - 1.0 / 3.0).abs() < 1e-15);
        // A brute-force grid agrees to its step, and λ rises before and falls after α*.
        assert!((grid_argmax(&sq).ln() - alpha.ln()).abs() < 1e-3);
        let h = 1e-4;
        assert!(sq.lambda(alpha * (1.0 - h)) < sq.lambda(alpha) && sq.lambda(alpha * (1.0 + h)) < sq.lambda(alpha));
        let slope = |a: f64| (sq.lambda(a * (1.0 + h)) - sq.lambda(a * (1.0 - h))) / (2.0 * h * a);
        assert!(slope(0.3) > 0.0 && slope(0.36) < 0.0);
        // λ(1/3) = ½[ln(1/3) − ln(4/3) + 4/(4/3)] = ½(3 − ln 4), above λ(∞) = 0.
        assert!((sq.max_lambda() - 0.5 * (3.0 - 4f64.ln())).abs() < 1e-15);
        assert!(sq.max_lambda() > LAMBDA_AT_INFINITY);
    }

    #[test]
    fn fig_7_11_right_has_its_maximum_at_infinity() {
        // q² = 1, s = 2: λ increases for every α, towards 0 (PRML Fig 7.11, right).
        let sq = SparsityQuality::from_q_squared(2.0, 1.0).unwrap();
        assert_eq!(sq.theta(), -1.0);
        assert_eq!(sq.optimal_alpha(), None);
        let values: Vec<f64> = (-200..=300).map(|k| sq.lambda((f64::from(k) * 0.1).exp())).collect();
        assert!(values.windows(2).all(|w| w[0] < w[1]), "monotone increasing");
        assert!(values.iter().all(|&v| v < LAMBDA_AT_INFINITY));
        assert!(values.last().unwrap().abs() < 1e-12);
        assert_eq!(sq.lambda(f64::INFINITY), LAMBDA_AT_INFINITY);
        assert_eq!(sq.max_lambda(), LAMBDA_AT_INFINITY);
        // On the boundary q² = s the maximum is at ∞ too.
        assert_eq!(SparsityQuality::from_q_squared(2.0, 2.0).unwrap().optimal_alpha(), None);
    }

    #[test]
    fn lambda_matches_its_formula_and_refuses_bad_values() {
        let sq = SparsityQuality { s: 1.5, q: -2.0 };
        let alpha: f64 = 0.7;
        let direct = 0.5 * (alpha.ln() - (alpha + 1.5).ln() + 4.0 / (alpha + 1.5));
        assert!((sq.lambda(alpha) - direct).abs() < 1e-15);
        assert_eq!(SparsityQuality::new(0.0, 1.0).unwrap_err().code(), "out-of-range");
        assert_eq!(SparsityQuality::new(1.0, f64::NAN).unwrap_err().code(), "not-finite");
        assert_eq!(SparsityQuality::from_q_squared(1.0, -1.0).unwrap_err().code(), "out-of-range");
        assert_eq!(SparsityQuality { s: -1.0, q: 0.0 }.checked().unwrap_err().code(), "out-of-range");
        assert_eq!(ensure_precision("α", f64::INFINITY).unwrap(), f64::INFINITY);
        assert_eq!(ensure_precision("α", 0.0).unwrap_err().code(), "out-of-range");
        assert_eq!(ensure_precision("α", f64::NEG_INFINITY).unwrap_err().code(), "not-finite");
    }

    fn model() -> TwoPointModel {
        TwoPointModel::new([1.0, 1.2], [1.0, 0.5], 4.0).unwrap()
    }

    /// ln N(t|0, C) by the explicit 2×2 determinant and inverse.
    fn explicit_log_density(t: [f64; 2], c: [[f64; 2]; 2]) -> f64 {
        let det = c[0][0] * c[1][1] - c[0][1] * c[1][0];
        let quad = (c[1][1] * t[0] * t[0] - 2.0 * c[0][1] * t[0] * t[1] + c[0][0] * t[1] * t[1]) / det;
        -(2.0 * std::f64::consts::PI).ln() - 0.5 * det.ln() - 0.5 * quad
    }

    #[test]
    fn log_evidence_is_the_log_density_of_the_explicit_two_by_two_gaussian() {
        let m = model();
        for alpha in [0.01, 0.3, 1.0, 7.0, 1e4] {
            // C = ¼I + α⁻¹φφᵀ written out by hand.
            let c = [[0.25 + 1.0 / alpha, 0.5 / alpha], [0.5 / alpha, 0.25 + 0.25 / alpha]];
            let want = explicit_log_density([1.0, 1.2], c);
            assert!((m.log_evidence(alpha).unwrap() - want).abs() < 1e-13, "α = {alpha}");
        }
        let want = explicit_log_density([1.0, 1.2], [[0.25, 0.0], [0.0, 0.25]]);
        assert!((m.log_evidence(f64::INFINITY).unwrap() - want).abs() < 1e-14);
        assert!((m.log_evidence_without_basis() - want).abs() < 1e-14);
        assert_eq!(m.log_evidence(0.0).unwrap_err().code(), "out-of-range");
        assert_eq!(m.log_evidence(1e-300).unwrap_err().code(), "not-positive-definite");
    }

    #[test]
    fn the_evidence_splits_into_the_model_without_phi_and_lambda() {
        // PRML 7.94–7.97: ln p(t|α) − ln p(t|∞) = λ(α) − λ(∞) with s = β‖φ‖², q = βφᵀt.
        let m = model();
        let sq = m.sparsity_quality();
        assert!((sq.s - 5.0).abs() < 1e-15 && (sq.q - 6.4).abs() < 1e-15);
        let without = m.log_evidence(f64::INFINITY).unwrap();
        for alpha in [0.05, 0.5, 0.6950, 3.0, 100.0] {
            let gain = m.log_evidence(alpha).unwrap() - without;
            assert!((gain - (sq.lambda(alpha) - LAMBDA_AT_INFINITY)).abs() < 1e-13, "α = {alpha}");
        }
        // The most probable α of the 2-D model maximises its evidence on a grid.
        let best = m.optimal_alpha().unwrap();
        assert!((best - 25.0 / (6.4f64.powi(2) - 5.0)).abs() < 1e-14);
        let grid = (-5000..=5000).map(|k| f64::from(k) * 1e-3);
        let argmax =
            grid.max_by(|a, b| m.log_evidence(a.exp()).unwrap().total_cmp(&m.log_evidence(b.exp()).unwrap())).unwrap();
        assert!((argmax - best.ln()).abs() < 1e-3);
    }

    #[test]
    fn a_target_orthogonal_to_phi_prunes_it() {
        // q = βφᵀt = 0 < s: every finite α lowers p(t|α) (PRML Fig 7.10).
        let m = TwoPointModel::new([-0.5, 1.0], [1.0, 0.5], 4.0).unwrap();
        assert_eq!(m.sparsity_quality().q, 0.0);
        assert_eq!(m.optimal_alpha(), None);
        let without = m.log_evidence(f64::INFINITY).unwrap();
        assert!([0.1, 1.0, 10.0].iter().all(|&a| m.log_evidence(a).unwrap() < without));
    }

    #[test]
    fn the_ellipse_is_the_unit_mahalanobis_contour() {
        let m = model();
        for alpha in [0.2, 1.0, f64::INFINITY] {
            let c = m.covariance(alpha).unwrap();
            let inverse = c.clone().try_inverse().unwrap();
            let points = m.ellipse(alpha, 97).unwrap();
            assert_eq!(points.len(), 97);
            assert_eq!(points[0], points[96], "closed");
            for &(x, y) in &points {
                let v = DVector::from_vec(vec![x, y]);
                assert!((v.dot(&(&inverse * &v)) - 1.0).abs() < 1e-12, "α = {alpha}: ({x}, {y})");
            }
            // Its longest radius is √(β⁻¹ + ‖φ‖²/α) along φ, its shortest β^{-1/2}.
            let radii: Vec<f64> = points.iter().map(|p| p.0.hypot(p.1)).collect();
            let longest = radii.iter().copied().fold(0.0, f64::max);
            let shortest = radii.iter().copied().fold(f64::INFINITY, f64::min);
            assert!((longest - (0.25 + 1.25 / alpha).sqrt()).abs() < 1e-3, "α = {alpha}: {longest}");
            assert!((shortest - m.noise_radius()).abs() < 1e-3);
        }
        assert_eq!(m.noise_radius(), 0.5);
    }

    #[test]
    fn bad_models_are_refused() {
        let phi_zero = TwoPointModel::new([1.0, 1.0], [0.0, 0.0], 1.0).unwrap_err();
        assert_eq!(phi_zero.to_string(), "‖φ‖ must be > 0, but is 0");
        assert_eq!(TwoPointModel::new([1.0, f64::NAN], [1.0, 0.0], 1.0).unwrap_err().code(), "not-finite");
        assert_eq!(
            TwoPointModel::new([1.0, 1.0], [1.0, 0.0], -1.0).unwrap_err().to_string(),
            "β must be > 0, but is -1"
        );
    }
}
