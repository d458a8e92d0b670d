//! One profile at several centres: Gaussian bumps (PRML 3.4), sigmoids (PRML 3.5–3.6)
//! and the kernel basis on the training inputs (Tipping 2001 §2).
//!
//! # Formula
//! ```text
//! φⱼ(x) = h((x − μⱼ)/s),  h(z) = exp(−z²/2)  (Gaussian, kernel)
//!                          h(z) = σ(z) = 1/(1 + e⁻ᶻ)  (sigmoid)
//! ```
//! where μⱼ is the centre of function j and s > 0 the common width.

/// The shape h(z) every function of the set shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Profile {
    /// h(z) = exp(−z²/2) (PRML 3.4 with z = (x − μⱼ)/s).
    Gaussian,
    /// h(z) = σ(z), the logistic sigmoid (PRML 3.5, 3.6).
    Sigmoid,
}

impl Profile {
    /// h(z); 0 or 1 (never NaN) as |z| → ∞, which is what a width s → 0 gives.
    fn at(self, z: f64) -> f64 {
        match self {
            Profile::Gaussian => (-0.5 * z * z).exp(),
            Profile::Sigmoid => logistic_sigmoid(z),
        }
    }
}

/// The logistic sigmoid σ(a) = 1/(1 + e⁻ᵃ) (PRML 3.6, 4.59).
///
/// Never NaN for a number: as a → −∞, e⁻ᵃ overflows to +∞ and σ = 1/∞ = 0; as a → +∞,
/// e⁻ᵃ → 0 and σ = 1. Where σ(a) is tiny (a ≪ 0) the quotient keeps full relative precision.
pub fn logistic_sigmoid(a: f64) -> f64 {
    1.0 / (1.0 + (-a).exp())
}

/// `profile` at each of `centres`, all of width s.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Centred {
    profile: Profile,
    centres: Vec<f64>,
    width: f64,
}

impl Centred {
    /// The set; [`super::Basis`] has checked the centres finite and s > 0.
    pub(super) fn new(profile: Profile, centres: Vec<f64>, width: f64) -> Self {
        Self { profile, centres, width }
    }

    /// K = number of centres.
    pub(super) fn len(&self) -> usize {
        self.centres.len()
    }

    /// The centres μⱼ.
    pub(super) fn centres(&self) -> &[f64] {
        &self.centres
    }

    /// The centres μⱼ, to move one.
    pub(super) fn centres_mut(&mut self) -> &mut [f64] {
        &mut self.centres
    }

    /// Writes h((x − μⱼ)/s) for each centre.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        for (slot, mu) in out.iter_mut().zip(&self.centres) {
            *slot = self.profile.at((x - mu) / self.width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_by_hand() {
        // σ(0) = 1/(1 + 1) = 1/2; σ(ln 3) = 1/(1 + 1/3) = 3/4; σ(−ln 3) = 1/(1 + 3) = 1/4.
        let ln3 = 3.0_f64.ln();
        assert_eq!(logistic_sigmoid(0.0), 0.5);
        assert!((logistic_sigmoid(ln3) - 0.75).abs() < 1e-15);
        assert!((logistic_sigmoid(-ln3) - 0.25).abs() < 1e-15);
        // σ(−40) = 1/(1 + e⁴⁰) = e⁻⁴⁰/(1 + e⁻⁴⁰) ≈ e⁻⁴⁰ (4.25e-18), to full relative precision.
        assert!((logistic_sigmoid(-40.0) / (-40.0_f64).exp() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn sigmoid_never_overflows_into_nan() {
        for (a, want) in [(f64::INFINITY, 1.0), (f64::NEG_INFINITY, 0.0), (1e308, 1.0), (-1e308, 0.0), (-800.0, 0.0)] {
            assert_eq!(logistic_sigmoid(a), want, "σ({a})");
        }
    }

    #[test]
    fn centres_and_width_enter_as_x_minus_mu_over_s() {
        // Sigmoid at μ = 1, s = 2: x = 1 → σ(0) = 1/2; x = 1 + 2 ln 3 → σ(ln 3) = 3/4.
        let set = Centred::new(Profile::Sigmoid, vec![1.0], 2.0);
        let mut out = [0.0];
        set.eval_into(1.0, &mut out);
        assert_eq!(out, [0.5]);
        set.eval_into(1.0 + 2.0 * 3.0_f64.ln(), &mut out);
        assert!((out[0] - 0.75).abs() < 1e-15);
        // Gaussian at μ = (0, 1), s = 0.5, x = 0.25: z = (0.5, −1.5) → (e^(−1/8), e^(−9/8)).
        let set = Centred::new(Profile::Gaussian, vec![0.0, 1.0], 0.5);
        let mut out = [0.0; 2];
        set.eval_into(0.25, &mut out);
        assert!((out[0] - (-0.125_f64).exp()).abs() < 1e-15 && (out[1] - (-1.125_f64).exp()).abs() < 1e-15);
    }

    #[test]
    fn a_tiny_width_gives_spikes_and_steps() {
        let mut out = [0.0; 3];
        Centred::new(Profile::Gaussian, vec![0.0, 0.5, 1.0], 1e-9).eval_into(0.5, &mut out);
        assert_eq!(out, [0.0, 1.0, 0.0]);
        Centred::new(Profile::Sigmoid, vec![0.0, 0.5, 1.0], 1e-9).eval_into(0.5, &mut out);
        assert_eq!(out, [1.0, 0.5, 0.0]);
        Centred::new(Profile::Sigmoid, vec![0.0], 1e-300).eval_into(1e300, &mut out[..1]);
        assert_eq!(out[0], 1.0);
    }
}
