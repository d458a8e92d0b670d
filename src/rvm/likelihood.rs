//! The likelihoods of the RVM for targets that are not Gaussian (PRML §7.2.3; Tipping
//! 2001, §4): each target tₙ depends on the input through the linear predictor
//! aₙ = wᵀφ(xₙ) and a canonical link, so that
//!
//! ```text
//! ∂ ln p(tₙ|aₙ)/∂aₙ = tₙ − yₙ,   −∂² ln p(tₙ|aₙ)/∂aₙ² = bₙ,   yₙ = E[tₙ|aₙ]
//! ```
//!
//! and the mode search, the Laplace approximation and the fast method's linearised targets
//! are the same for every one of them with B = diag bₙ (PRML 7.109–7.119):
//!
//! | likelihood | targets | mean yₙ | weight bₙ | ln p(tₙ|aₙ) |
//! |---|---|---|---|---|
//! | Bernoulli (classes) | 0 or 1 | σ(aₙ) | yₙ(1 − yₙ) | tₙ ln σ(aₙ) + (1 − tₙ) ln σ(−aₙ) |
//! | Poisson (counts) | 0, 1, 2, … | e^aₙ | yₙ | tₙaₙ − e^aₙ − ln tₙ! |
//!
//! (Tipping's SparseBayes offers the same three: Gaussian, Bernoulli and Poisson.)

use std::sync::OnceLock;

use nalgebra::DVector;

use crate::error::{Bound, Error, Result, ensure_finite};

/// The largest count a Poisson target may be (e^a is finite far beyond it).
pub const MAX_COUNT: u64 = 1_000_000_000;

/// The distribution of a target given its linear predictor a = wᵀφ(x).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Likelihood {
    /// Two classes, tₙ ∈ {0, 1}, p(tₙ = 1|a) = σ(a) (PRML 7.108).
    Bernoulli,
    /// Counts tₙ ∈ {0, 1, 2, …} with rate e^a: p(tₙ|a) = e^{tₙa − e^a}/tₙ!.
    Poisson,
}

impl Likelihood {
    /// The mean yₙ = E[tₙ|a]: σ(a) (PRML 4.59) or the rate e^a.
    pub fn mean(self, a: f64) -> f64 {
        match self {
            Likelihood::Bernoulli => sigmoid(a),
            Likelihood::Poisson => a.exp(),
        }
    }

    /// t − y at a, the derivative of ln p(t|a) (PRML 7.110's residual); for Bernoulli
    /// without cancellation, since 1 − σ(a) = σ(−a).
    pub fn residual(self, a: f64, t: f64) -> f64 {
        match self {
            Likelihood::Bernoulli => t * sigmoid(-a) - (1.0 - t) * sigmoid(a),
            Likelihood::Poisson => t - a.exp(),
        }
    }

    /// The weight b = −∂² ln p(t|a)/∂a² at the mean y: y(1 − y) (PRML 7.111) or y.
    pub fn weight(self, y: f64) -> f64 {
        match self {
            Likelihood::Bernoulli => y * (1.0 - y),
            Likelihood::Poisson => y,
        }
    }

    /// ln p(t|a): t ln σ(a) + (1 − t) ln σ(−a) (PRML 4.90, with ln(1 − σ(a)) = ln σ(−a) so
    /// that no logarithm of 0 is taken), or ta − e^a − ln t!.
    pub fn log_density(self, a: f64, t: f64) -> f64 {
        match self {
            Likelihood::Bernoulli => t * ln_sigmoid(a) + (1.0 - t) * ln_sigmoid(-a),
            Likelihood::Poisson => t * a - a.exp() - ln_factorial(t),
        }
    }

    /// Checks every target: a label 0 or 1, or a whole count from 0 to [`MAX_COUNT`].
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN or ±∞, [`Error::OutOfRange`] (naming the admissible
    /// values) for any other value.
    pub fn check_targets(self, t: &DVector<f64>) -> Result<()> {
        if let Some(&bad) = t.iter().find(|&&v| !self.admits(v)) {
            ensure_finite("t", bad)?;
            return Err(Error::OutOfRange {
                name: "t",
                value: bad.to_string(),
                bound: Bound::WholeBetween { min: 0, max: self.largest_target() },
            });
        }
        Ok(())
    }

    /// Whether `t` is a target of this likelihood: a whole number from 0 to
    /// [`Likelihood::largest_target`] (NaN and ±∞ are not).
    pub fn admits(self, t: f64) -> bool {
        t.fract() == 0.0 && (0.0..=self.largest_target() as f64).contains(&t)
    }

    /// The largest target: 1 for a label, [`MAX_COUNT`] for a count.
    pub fn largest_target(self) -> u64 {
        match self {
            Likelihood::Bernoulli => 1,
            Likelihood::Poisson => MAX_COUNT,
        }
    }
}

/// The logistic sigmoid σ(a) = 1/(1 + e⁻ᵃ) (PRML 4.59), without overflow for large |a|.
pub fn sigmoid(a: f64) -> f64 {
    if a >= 0.0 {
        1.0 / (1.0 + (-a).exp())
    } else {
        let e = a.exp();
        e / (1.0 + e)
    }
}

/// ln σ(a) = −ln(1 + e⁻ᵃ), finite for every finite a: for a ≥ 0 through `ln_1p`, for
/// a < 0 as a − ln(1 + eᵃ), so neither e⁻ᵃ overflows nor ln(0) is taken.
pub fn ln_sigmoid(a: f64) -> f64 {
    if a >= 0.0 { -(-a).exp().ln_1p() } else { a - a.exp().ln_1p() }
}

/// ln k! for a whole k ≥ 0: the sum ln 2 + … + ln k below 20, else Stirling's series
/// k ln k − k + ½ ln 2πk + 1/12k − 1/360k³ + 1/1260k⁵, whose next term, 1/1680k⁷, is below
/// 10⁻¹² at k = 20 (a relative error under 10⁻¹³).
pub fn ln_factorial(k: f64) -> f64 {
    if k < 20.0 {
        // The sums for 0 … 19, made once: the Poisson log-likelihood asks for ln tₙ! of
        // every count at every evaluation of a mode search.
        static SMALL: OnceLock<[f64; 20]> = OnceLock::new();
        let small = SMALL.get_or_init(|| std::array::from_fn(|k| (2..=k as u32).map(|j| f64::from(j).ln()).sum()));
        return small[k as usize];
    }
    let k2 = k * k;
    k * k.ln() - k
        + 0.5 * (std::f64::consts::TAU * k).ln()
        + (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / (1260.0 * k2)) / k2) / k
}

/// The Poisson mean deviance (2/N) Σₙ [tₙ ln(tₙ/yₙ) − (tₙ − yₙ)] of rates `y` on counts
/// `t` (tₙ ln(tₙ/yₙ) = 0 for tₙ = 0): 0 for a perfect fit, the Poisson counterpart of
/// the mean squared error (scikit-learn's `mean_poisson_deviance`).
pub fn mean_poisson_deviance(y: &DVector<f64>, t: &DVector<f64>) -> f64 {
    let total: f64 =
        y.iter().zip(t.iter()).map(|(&y, &t)| if t > 0.0 { t * (t / y).ln() } else { 0.0 } - (t - y)).sum();
    2.0 * total / t.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_factorial_against_the_product() {
        let mut product = 1.0_f64;
        for k in 0..=170_u32 {
            if k > 0 {
                product *= f64::from(k);
            }
            let want = product.ln();
            let got = ln_factorial(f64::from(k));
            assert!((got - want).abs() <= 1e-13 * want.abs().max(1.0), "{k}: {got} vs {want}");
        }
    }

    #[test]
    fn derivatives_of_the_log_density_by_finite_differences() {
        for likelihood in [Likelihood::Bernoulli, Likelihood::Poisson] {
            for (a, t) in [(-1.3, 0.0), (0.4, 1.0), (2.1, 1.0)] {
                let t = if likelihood == Likelihood::Poisson { t * 3.0 } else { t };
                let h = 1e-5;
                let f = |a: f64| likelihood.log_density(a, t);
                let first = (f(a + h) - f(a - h)) / (2.0 * h);
                let second = (f(a + h) - 2.0 * f(a) + f(a - h)) / (h * h);
                assert!((first - likelihood.residual(a, t)).abs() < 1e-8, "{likelihood:?} {a}");
                assert!((second + likelihood.weight(likelihood.mean(a))).abs() < 1e-4, "{likelihood:?} {a}");
            }
        }
    }

    #[test]
    fn targets_are_checked() {
        let check =
            |l: Likelihood, t: &[f64]| l.check_targets(&DVector::from_column_slice(t)).map_err(|e| e.to_string());
        assert_eq!(check(Likelihood::Poisson, &[0.0, 3.0, 17.0]), Ok(()));
        assert_eq!(
            check(Likelihood::Poisson, &[1.0, 2.5]),
            Err("t must be a whole number from 0 to 1000000000, but is 2.5".into())
        );
        assert!(check(Likelihood::Poisson, &[-1.0]).is_err());
        assert_eq!(check(Likelihood::Poisson, &[f64::NAN]), Err("t must be a finite number, but is NaN".into()));
        assert!(check(Likelihood::Bernoulli, &[2.0]).is_err());
    }

    #[test]
    fn the_deviance_of_a_perfect_fit_is_zero() {
        let t = DVector::from_vec(vec![0.0, 2.0, 5.0]);
        assert_eq!(mean_poisson_deviance(&t, &t), 0.0);
        // One point, t = 0, y = 2: 2·(0 − (0 − 2)) = 4.
        assert_eq!(mean_poisson_deviance(&DVector::from_element(1, 2.0), &DVector::zeros(1)), 4.0);
    }
}
