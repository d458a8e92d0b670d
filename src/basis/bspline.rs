//! B-splines on a clamped uniform knot vector, by the Cox–de Boor recursion.
//!
//! # Formula
//! ```text
//! Bᵢ,₀(x) = 1 if tᵢ ≤ x < tᵢ₊₁, else 0
//! Bᵢ,ₖ(x) = (x − tᵢ)/(tᵢ₊ₖ − tᵢ) · Bᵢ,ₖ₋₁(x) + (tᵢ₊ₖ₊₁ − x)/(tᵢ₊ₖ₊₁ − tᵢ₊₁) · Bᵢ₊₁,ₖ₋₁(x)
//! ```
//! (de Boor, *A Practical Guide to Splines*, 1978, ch. IX; Piegl & Tiller, *The NURBS
//! Book*, eq. 2.5), with 0/0 read as 0 at repeated knots. K functions of degree p use the
//! K + p + 1 knots
//! ```text
//! t = (lo, …, lo, lo + h, lo + 2h, …, hi − h, hi, …, hi),  h = (hi − lo)/(K − p)
//! ```
//! with lo and hi each repeated p + 1 times (clamped), which needs K ≥ p + 1. The last
//! span is taken closed, [t_{K−1}, hi], so that x = hi has B_{K−1,p}(hi) = 1 and the
//! functions are non-negative and sum to 1 (partition of unity) on all of [lo, hi];
//! outside [lo, hi] every function is 0.

use super::Domain;
use crate::grid::evenly_spaced;

/// K B-splines of degree p on a clamped uniform knot vector over the domain.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BSpline {
    degree: usize,
    knots: Vec<f64>,
}

impl BSpline {
    /// K ≥ p + 1 B-splines of degree p over `domain` ([`super::Basis`] checks K and p).
    pub(super) fn new(degree: usize, count: usize, domain: Domain) -> Self {
        let Domain { lo, hi } = domain;
        let breaks = evenly_spaced(lo, hi, count.saturating_sub(degree) + 1);
        let knots = std::iter::repeat_n(lo, degree).chain(breaks).chain(std::iter::repeat_n(hi, degree)).collect();
        Self { degree, knots }
    }

    /// K = number of knots − p − 1.
    pub(super) fn len(&self) -> usize {
        self.knots.len() - self.degree - 1
    }

    /// The index s of the span [tₛ, tₛ₊₁) holding x ∈ [lo, hi]: the last s in p..K with
    /// tₛ ≤ x and tₛ < hi, so x = hi falls in the last non-empty span.
    fn span(&self, x: f64) -> usize {
        let hi = self.knots[self.knots.len() - 1];
        let p = self.degree;
        p + self.knots[p + 1..self.len()].partition_point(|&t| t <= x && t < hi)
    }

    /// Writes B₀,ₚ(x) … B_{K−1},ₚ(x): Bₛ,₀ = 1 on the span s of x, then the recursion
    /// raised one degree at a time, in place, over the p + 1 functions that can be non-zero.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        out.fill(0.0);
        let (lo, hi) = (self.knots[0], self.knots[self.knots.len() - 1]);
        if !(lo..=hi).contains(&x) {
            return;
        }
        let t = &self.knots;
        let span = self.span(x);
        let mut b = vec![0.0; t.len() - 1];
        b[span] = 1.0;
        for k in 1..=self.degree {
            for i in span - k..=span {
                let left = ratio(x - t[i], t[i + k] - t[i]);
                let right = ratio(t[i + k + 1] - x, t[i + k + 1] - t[i + 1]);
                b[i] = left * b[i] + right * b[i + 1];
            }
        }
        out.copy_from_slice(&b[..out.len()]);
    }
}

/// num/den, with 0 for the zero-length intervals of repeated knots (den = 0).
fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 { num / den } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basis::test_support::assert_all_close;

    fn at(degree: usize, count: usize, (lo, hi): (f64, f64), x: f64) -> Vec<f64> {
        let spline = BSpline::new(degree, count, Domain { lo, hi });
        let mut out = vec![f64::NAN; count];
        spline.eval_into(x, &mut out);
        out
    }

    #[test]
    fn knots_are_clamped_and_uniform() {
        let spline = BSpline::new(2, 5, Domain { lo: 0.0, hi: 3.0 });
        // K − p = 3 spans of h = 1, ends repeated p + 1 = 3 times: K + p + 1 = 8 knots.
        assert_eq!(spline.knots, [0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0]);
        assert_eq!(spline.len(), 5);
    }

    #[test]
    fn degree_0_is_the_indicator_of_each_span() {
        // Knots 0, ¼, ½, ¾, 1; the last span is closed.
        assert_all_close(&at(0, 4, (0.0, 1.0), 0.0), &[1.0, 0.0, 0.0, 0.0]);
        assert_all_close(&at(0, 4, (0.0, 1.0), 0.25), &[0.0, 1.0, 0.0, 0.0]);
        assert_all_close(&at(0, 4, (0.0, 1.0), 0.6), &[0.0, 0.0, 1.0, 0.0]);
        assert_all_close(&at(0, 4, (0.0, 1.0), 1.0), &[0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn degree_1_hats_by_hand() {
        // Knots 0, 0, ½, 1, 1: B₀ = 1 − 2x on [0, ½]; B₁ = 2x on [0, ½], 2 − 2x on [½, 1];
        // B₂ = 2x − 1 on [½, 1].
        assert_all_close(&at(1, 3, (0.0, 1.0), 0.0), &[1.0, 0.0, 0.0]);
        assert_all_close(&at(1, 3, (0.0, 1.0), 0.25), &[0.5, 0.5, 0.0]);
        assert_all_close(&at(1, 3, (0.0, 1.0), 0.5), &[0.0, 1.0, 0.0]);
        assert_all_close(&at(1, 3, (0.0, 1.0), 0.75), &[0.0, 0.5, 0.5]);
        assert_all_close(&at(1, 3, (0.0, 1.0), 1.0), &[0.0, 0.0, 1.0]);
    }

    #[test]
    fn degree_2_by_hand() {
        // Knots 0, 0, 0, ½, 1, 1, 1 (K = 4). At the knots: x = 0 → (1, 0, 0, 0);
        // x = ½: B₁,₂ = ½·B₂,₁ = ½·(1 − ½)/½ = ½, B₂,₂ = ½ likewise → (0, ½, ½, 0);
        // x = 1 → (0, 0, 0, 1). At x = ¼, degree 1 gives B₁,₁ = B₂,₁ = ½, so
        // B₀,₂ = (½ − ¼)/½ · ½ = ¼ (= (1 − 2x)²), B₁,₂ = (¼/½)·½ + (¾/1)·½ = 5/8,
        // B₂,₂ = (¼/1)·½ = 1/8.
        assert_all_close(&at(2, 4, (0.0, 1.0), 0.0), &[1.0, 0.0, 0.0, 0.0]);
        assert_all_close(&at(2, 4, (0.0, 1.0), 0.5), &[0.0, 0.5, 0.5, 0.0]);
        assert_all_close(&at(2, 4, (0.0, 1.0), 1.0), &[0.0, 0.0, 0.0, 1.0]);
        assert_all_close(&at(2, 4, (0.0, 1.0), 0.25), &[0.25, 0.625, 0.125, 0.0]);
    }

    #[test]
    fn degree_3_without_interior_knots_is_bernstein() {
        // K = p + 1 = 4 on [0, 1]: Bᵢ = C(3, i) xⁱ(1 − x)³⁻ⁱ; at ½: (1, 3, 3, 1)/8.
        assert_all_close(&at(3, 4, (0.0, 1.0), 0.5), &[0.125, 0.375, 0.375, 0.125]);
        // On [2, 6] at x = 3 (u = ¼): (27, 27, 9, 1)/64.
        assert_all_close(&at(3, 4, (2.0, 6.0), 3.0), &[27.0 / 64.0, 27.0 / 64.0, 9.0 / 64.0, 1.0 / 64.0]);
    }

    #[test]
    fn the_right_end_stays_in_the_last_non_empty_span() {
        // P = 4ε: most interior knots round onto lo or hi, so spans collapse; still Σ B = 1
        // at both ends and in the middle.
        let (lo, hi) = (1.0, 1.0 + 4.0 * f64::EPSILON);
        let spline = BSpline::new(2, 12, Domain { lo, hi });
        assert_eq!(spline.knots[spline.len() - 1], hi, "the test needs a knot rounded onto hi");
        for x in [lo, 1.0 + 2.0 * f64::EPSILON, hi] {
            let sum: f64 = at(2, 12, (lo, hi), x).iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "Σ B = {sum} at {x}");
        }
    }

    #[test]
    fn zero_outside_the_domain() {
        for x in [-0.001, 1.001, f64::NAN, f64::INFINITY] {
            assert_eq!(at(3, 6, (0.0, 1.0), x), [0.0; 6], "x = {x}");
        }
    }
}
