//! A Mexican-hat wavelet family at dyadic scales and shifts across the domain.
//!
//! # Formula
//! ```text
//! ψ(u) = (1 − u²) e^(−u²/2)
//! φᵢ(x) = ψ((x − cᵢ)/aᵢ),  ℓ = ⌊log₂(i + 1)⌋,  k = i + 1 − 2^ℓ,
//! cᵢ = lo + (k + ½)·P/2^ℓ,  aᵢ = s/2^ℓ,  i = 0, 1, …, K − 1
//! ```
//! where P = hi − lo and s is the width of the coarsest level. Level ℓ holds the 2^ℓ hats
//! centred on the midpoints of 2^ℓ equal cells of the domain, each of scale s/2^ℓ; the
//! functions run coarse to fine and left to right within a level: (ℓ, k) = (0, 0), (1, 0),
//! (1, 1), (2, 0), …, (2, 3), (3, 0), … The last level is filled only as far as K reaches.
//! ψ is the negative second derivative of the Gaussian e^(−u²/2), unnormalised so that
//! every function peaks at ψ(0) = 1 like the Gaussian basis (no 2^(ℓ/2) factor: the
//! prior on the weights, not the basis, sets their scale).

use super::Domain;

/// The Mexican hat (Ricker wavelet) ψ(u) = (1 − u²) e^(−u²/2).
///
/// ψ(0) = 1, ψ(±1) = 0, minimum ψ(±√3) = −2e^(−3/2). For |u| so large that u² overflows
/// the value is 0 (its limit), never the NaN of (1 − ∞)·0.
pub fn mexican_hat(u: f64) -> f64 {
    let u2 = u * u;
    if u2 == f64::INFINITY { 0.0 } else { (1.0 - u2) * (-0.5 * u2).exp() }
}

/// One hat: centre c and scale a.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Hat {
    centre: f64,
    scale: f64,
}

/// The first K hats of the dyadic layout.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Wavelet {
    hats: Vec<Hat>,
}

impl Wavelet {
    /// K hats over `domain` with coarsest scale s (> 0, checked by [`super::Basis`]).
    pub(super) fn new(count: usize, width: f64, domain: Domain) -> Self {
        Self { hats: (0..count).map(|i| hat(i, width, domain)).collect() }
    }

    /// K.
    pub(super) fn len(&self) -> usize {
        self.hats.len()
    }

    /// Writes ψ((x − cᵢ)/aᵢ) for each hat.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        for (slot, hat) in out.iter_mut().zip(&self.hats) {
            *slot = mexican_hat((x - hat.centre) / hat.scale);
        }
    }
}

/// Hat i: level ℓ = ⌊log₂(i + 1)⌋, shift k = i + 1 − 2^ℓ, c = lo + (k + ½)P/2^ℓ, a = s/2^ℓ.
fn hat(i: usize, width: f64, domain: Domain) -> Hat {
    let level = (i + 1).ilog2();
    let cells = 1usize << level;
    let shift = i + 1 - cells;
    let cells = cells as f64;
    Hat { centre: domain.lo + (shift as f64 + 0.5) * domain.length() / cells, scale: width / cells }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mexican_hat_by_hand() {
        // ψ(0) = 1·e⁰ = 1; ψ(1) = 0·e^(−½) = 0; ψ(√3) = (1 − 3)e^(−3/2) = −2e^(−3/2);
        // ψ(2) = −3e⁻²; ψ is even.
        assert_eq!(mexican_hat(0.0), 1.0);
        assert_eq!(mexican_hat(1.0), 0.0);
        assert_eq!(mexican_hat(-1.0), 0.0);
        let want = -2.0 * (-1.5_f64).exp();
        assert!((mexican_hat(3.0_f64.sqrt()) - want).abs() < 1e-15);
        assert!((mexican_hat(-2.0) + 3.0 * (-2.0_f64).exp()).abs() < 1e-16);
    }

    #[test]
    fn mexican_hat_is_never_nan_for_a_number() {
        for u in [1e9, -1e9, 1e200, f64::MAX, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(mexican_hat(u), 0.0, "ψ({u})");
        }
    }

    #[test]
    fn dyadic_layout_by_hand() {
        // Domain [0, 4], s = 1: (ℓ, k) = (0, 0) → c = 2, a = 1; (1, 0), (1, 1) → c = 1, 3,
        // a = ½; (2, 0..=3) → c = ½, 3/2, 5/2, 7/2, a = ¼; (3, 0) → c = ¼, a = ⅛.
        let w = Wavelet::new(8, 1.0, Domain { lo: 0.0, hi: 4.0 });
        let got: Vec<(f64, f64)> = w.hats.iter().map(|h| (h.centre, h.scale)).collect();
        let want =
            [(2.0, 1.0), (1.0, 0.5), (3.0, 0.5), (0.5, 0.25), (1.5, 0.25), (2.5, 0.25), (3.5, 0.25), (0.25, 0.125)];
        assert_eq!(got, want);
    }
}
