//! Linear basis function models: the functions φⱼ(x) and the design matrix Φ.
//!
//! A model y(x, w) = Σⱼ wⱼ φⱼ(x) = wᵀφ(x) (PRML 3.3) is linear in `w` whatever the
//! φⱼ are; everything downstream only sees the N × M design matrix
//! Φₙⱼ = φⱼ(xₙ) (PRML 3.16).

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use crate::error::{Bound, Error, Result, ensure_all_finite, ensure_positive};

/// Largest number of basis functions a model may have (keeps M × M solves interactive).
pub const MAX_BASIS_FUNCTIONS: usize = 200;

/// Which kind of functions φⱼ a [`Basis`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// φⱼ(x) = xʲ (PRML 3.4 context, 001 "多项式").
    Polynomial,
    /// φⱼ(x) = exp(−(x − μⱼ)² / 2s²) (PRML 3.4).
    Gaussian,
}

impl Family {
    /// Every family, in the order the page lists them.
    pub const ALL: [Family; 2] = [Family::Polynomial, Family::Gaussian];

    /// The name used in URLs and the wasm API.
    pub fn name(self) -> &'static str {
        match self {
            Family::Polynomial => "polynomial",
            Family::Gaussian => "gaussian",
        }
    }

    /// The family called `name`, if any.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the family has centres μⱼ (that can be dragged).
    pub fn has_centres(self) -> bool {
        matches!(self, Family::Gaussian)
    }

    /// Whether the width s shapes the functions.
    pub fn uses_width(self) -> bool {
        matches!(self, Family::Gaussian)
    }

    /// Whether the family has a degree (B-splines).
    pub fn uses_degree(self) -> bool {
        false
    }

    /// Whether M can be chosen (the kernel basis has one function per data point).
    pub fn count_is_free(self) -> bool {
        true
    }
}

/// What a [`Basis`] is made of: family, M (the bias included), width s, degree, bias.
#[derive(Debug, Clone, PartialEq)]
pub struct BasisSpec {
    /// The family of the non-bias functions.
    pub family: Family,
    /// Number of functions M, the bias included.
    pub m: usize,
    /// Width s (Gaussian, sigmoid, wavelet, kernel).
    pub width: f64,
    /// Degree (B-splines).
    pub degree: usize,
    /// Whether φ₀(x) = 1 comes first.
    pub bias: bool,
}

/// The functions of one family, without the bias.
#[derive(Debug, Clone, PartialEq)]
enum Functions {
    /// xᵖ for p = 1..=degree.
    Polynomial { degree: usize },
    /// Gaussian bumps at `centres` with common width `width` (s).
    Gaussian { centres: Vec<f64>, width: f64 },
}

/// A set of M basis functions: optionally the bias φ₀(x) = 1, then the family's functions.
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    bias: bool,
    functions: Functions,
}

impl Basis {
    /// M polynomial functions: 1, x, …, x^(M−1) with the bias, x, …, x^M without.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] unless 1 ≤ M ≤ [`MAX_BASIS_FUNCTIONS`].
    pub fn polynomial(m: usize, bias: bool) -> Result<Self> {
        check_count(m)?;
        let degree = if bias { m - 1 } else { m };
        Ok(Self { bias, functions: Functions::Polynomial { degree } })
    }

    /// Gaussian bumps φⱼ(x) = exp(−(x − μⱼ)²/2s²) at the given centres μⱼ, width s.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for s ≤ 0 or a count outside 1..=[`MAX_BASIS_FUNCTIONS`];
    /// [`Error::NotFinite`] for a non-finite centre or width.
    pub fn gaussian(centres: Vec<f64>, width: f64, bias: bool) -> Result<Self> {
        check_count(centres.len() + usize::from(bias))?;
        ensure_positive("s", width)?;
        ensure_all_finite("μ", &centres)?;
        Ok(Self { bias, functions: Functions::Gaussian { centres, width } })
    }

    /// M functions of `family` spread over `[lo, hi]`: with the bias, M − 1 Gaussians.
    /// Gaussian centres are evenly spaced, end points included (one centre: the middle).
    pub fn spread(family: Family, m: usize, width: f64, bias: bool, (lo, hi): (f64, f64)) -> Result<Self> {
        match family {
            Family::Polynomial => Self::polynomial(m, bias),
            Family::Gaussian => {
                check_count(m)?;
                let k = m - usize::from(bias);
                Self::gaussian(evenly_spaced(lo, hi, k), width, bias)
            }
        }
    }

    /// Builds the basis for inputs in `domain`; `training_x` is used only by the kernel family.
    ///
    /// # Errors
    /// As [`Basis::spread`].
    pub fn from_spec(spec: &BasisSpec, domain: (f64, f64), _training_x: &[f64]) -> Result<Self> {
        Self::spread(spec.family, spec.m, spec.width, spec.bias, domain)
    }

    /// Centres μⱼ of the non-bias functions (Gaussian), `None` otherwise.
    pub fn centres(&self) -> Option<&[f64]> {
        match &self.functions {
            Functions::Gaussian { centres, .. } => Some(centres),
            Functions::Polynomial { .. } => None,
        }
    }

    /// A copy with the centre of non-bias function `j` moved to `mu`.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for a non-finite `mu`; [`Error::OutOfRange`] for a bad `j` or
    /// a family without centres.
    pub fn with_centre(&self, j: usize, mu: f64) -> Result<Self> {
        let mut copy = self.clone();
        let Functions::Gaussian { centres, .. } = &mut copy.functions else {
            return Err(Error::UnknownParameter { key: "centre".into() });
        };
        let count = centres.len() as u64;
        let slot = centres.get_mut(j).ok_or(Error::OutOfRange {
            name: "j",
            value: j.to_string(),
            bound: Bound::AtMost { max: count.saturating_sub(1) },
        })?;
        *slot = crate::error::ensure_finite("μ", mu)?;
        Ok(copy)
    }

    /// Whether φ₀(x) = 1 is the first function.
    pub fn bias(&self) -> bool {
        self.bias
    }

    /// M, the number of functions including the bias.
    pub fn len(&self) -> usize {
        usize::from(self.bias)
            + match &self.functions {
                Functions::Polynomial { degree } => *degree,
                Functions::Gaussian { centres, .. } => centres.len(),
            }
    }

    /// A basis always has at least one function.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Writes φ(x) = (φ₀(x), …, φ_{M−1}(x)) into `out` (length M).
    fn eval_into(&self, x: f64, out: &mut [f64]) {
        let (head, rest) = out.split_at_mut(usize::from(self.bias));
        head.fill(1.0);
        match &self.functions {
            Functions::Polynomial { .. } => {
                let mut power = 1.0;
                for slot in rest {
                    power *= x;
                    *slot = power;
                }
            }
            Functions::Gaussian { centres, width } => {
                for (slot, mu) in rest.iter_mut().zip(centres) {
                    let z = (x - mu) / width;
                    *slot = (-0.5 * z * z).exp();
                }
            }
        }
    }

    /// φ(x) as a column vector of length M.
    pub fn features(&self, x: f64) -> DVector<f64> {
        let mut v = DVector::zeros(self.len());
        self.eval_into(x, v.as_mut_slice());
        v
    }

    /// The design matrix Φ with Φₙⱼ = φⱼ(xₙ) (PRML 3.16), N × M.
    ///
    /// # Errors
    /// [`Error::NotFinite`] naming the first non-finite input `x[n]`.
    pub fn design_matrix(&self, x: &[f64]) -> Result<DMatrix<f64>> {
        ensure_all_finite("x", x)?;
        let m = self.len();
        let mut phi = DMatrix::zeros(x.len(), m);
        let mut row = vec![0.0; m];
        for (n, &xn) in x.iter().enumerate() {
            self.eval_into(xn, &mut row);
            phi.row_mut(n).copy_from_slice(&row);
        }
        Ok(phi)
    }
}

fn check_count(m: usize) -> Result<()> {
    if (1..=MAX_BASIS_FUNCTIONS).contains(&m) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            name: "M",
            value: m.to_string(),
            bound: Bound::WholeBetween { min: 1, max: MAX_BASIS_FUNCTIONS as u64 },
        })
    }
}

/// `k` points evenly spaced on `[lo, hi]`, both ends included; one point sits in the middle.
pub fn evenly_spaced(lo: f64, hi: f64, k: usize) -> Vec<f64> {
    match k {
        0 => vec![],
        1 => vec![0.5 * (lo + hi)],
        _ => (0..k).map(|i| lo + (hi - lo) * i as f64 / (k - 1) as f64).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomial_by_hand() {
        let b = Basis::polynomial(4, true).unwrap();
        assert_eq!(b.features(2.0).as_slice(), &[1.0, 2.0, 4.0, 8.0]);
        let b = Basis::polynomial(3, false).unwrap();
        assert_eq!(b.features(-0.5).as_slice(), &[-0.5, 0.25, -0.125]);
    }

    #[test]
    fn gaussian_by_hand() {
        // exp(−(1 − 0)²/(2·0.5²)) = e⁻², exp(0) = 1.
        let b = Basis::gaussian(vec![0.0, 1.0], 0.5, true).unwrap();
        let f = b.features(1.0);
        assert_eq!(f.len(), 3);
        assert_eq!(f[0], 1.0);
        assert!((f[1] - (-2.0_f64).exp()).abs() < 1e-16);
        assert_eq!(f[2], 1.0);
    }

    #[test]
    fn spread_counts_the_bias_in_m() {
        let b = Basis::spread(Family::Gaussian, 5, 0.1, true, (0.0, 1.0)).unwrap();
        assert_eq!(b.len(), 5);
        let Functions::Gaussian { centres, .. } = &b.functions else { panic!() };
        assert_eq!(centres, &vec![0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
        assert_eq!(evenly_spaced(0.0, 1.0, 1), vec![0.5]);
    }

    #[test]
    fn design_matrix_rows_are_features() {
        let b = Basis::polynomial(3, true).unwrap();
        let phi = b.design_matrix(&[0.0, 1.0, 3.0]).unwrap();
        assert_eq!(phi.row(2).iter().copied().collect::<Vec<_>>(), vec![1.0, 3.0, 9.0]);
        assert_eq!(
            b.design_matrix(&[0.0, f64::NAN]).unwrap_err().to_string(),
            "x[1] must be a finite number, but is NaN"
        );
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert_eq!(Basis::polynomial(0, true).unwrap_err().code(), "out-of-range");
        assert_eq!(Basis::polynomial(MAX_BASIS_FUNCTIONS + 1, true).unwrap_err().code(), "out-of-range");
        assert_eq!(Basis::gaussian(vec![0.0], 0.0, true).unwrap_err().to_string(), "s must be > 0, but is 0");
        assert_eq!(Basis::gaussian(vec![0.0], f64::NAN, true).unwrap_err().code(), "not-finite");
    }
}
