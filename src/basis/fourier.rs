//! Fourier basis: sines and cosines whose periods divide the domain length.
//!
//! # Formula
//! ```text
//! φ₂ₖ₋₁(x) = cos(2πkx/P),  φ₂ₖ(x) = sin(2πkx/P),  k = 1, 2, …
//! ```
//! where P = hi − lo is the length of the domain, and the non-bias functions are taken in
//! the order cos₁, sin₁, cos₂, sin₂, … until there are K of them (an odd K ends on a
//! cosine). The argument is x itself, not x − lo; every function has period P/k, so all
//! of them are periodic on the domain. On N equally spaced points over one period
//! (N > 2k) the columns are orthogonal: Σ cos² = Σ sin² = N/2, every cross sum 0.
//! With the bias, the constant 1 plays the part of the k = 0 cosine.

use std::f64::consts::TAU;

/// The first K of cos₁, sin₁, cos₂, sin₂, … with fundamental period P.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Fourier {
    count: usize,
    period: f64,
}

impl Fourier {
    /// K functions of fundamental period P (> 0, checked by [`super::Basis`]).
    pub(super) fn new(count: usize, period: f64) -> Self {
        Self { count, period }
    }

    /// K.
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// Writes (cos, sin)(2πkx/P) pairwise for k = 1, 2, …, the last pair maybe cut short.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        for (i, pair) in out.chunks_mut(2).enumerate() {
            let k = (i + 1) as f64;
            let (sin, cos) = (TAU * k * x / self.period).sin_cos();
            pair[0] = cos;
            if let Some(slot) = pair.get_mut(1) {
                *slot = sin;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basis::test_support::assert_all_close;

    fn at(count: usize, period: f64, x: f64) -> Vec<f64> {
        let mut out = vec![0.0; count];
        Fourier::new(count, period).eval_into(x, &mut out);
        out
    }

    #[test]
    fn cos_sin_pairs_by_hand() {
        // P = 2, x = 1/2: 2πkx/P = kπ/2 → cos₁ = 0, sin₁ = 1, cos₂ = −1, sin₂ = 0, cos₃ = 0.
        assert_all_close(&at(5, 2.0, 0.5), &[0.0, 1.0, -1.0, 0.0, 0.0]);
        // P = 2, x = 1/4: kπ/4 → cos₁ = sin₁ = √2/2, cos₂ = 0, sin₂ = 1.
        let h = 0.5 * 2.0_f64.sqrt();
        assert_all_close(&at(4, 2.0, 0.25), &[h, h, 0.0, 1.0]);
        // x = 0: every cosine 1, every sine 0.
        assert_all_close(&at(3, 1.0, 0.0), &[1.0, 0.0, 1.0]);
    }

    #[test]
    fn the_argument_is_x_not_x_minus_lo() {
        // P = 4 (say domain [−1, 3]), x = −1: cos(−π/2) = 0, sin(−π/2) = −1.
        assert_all_close(&at(2, 4.0, -1.0), &[0.0, -1.0]);
    }
}
