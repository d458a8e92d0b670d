//! Linear basis function models: the functions φⱼ(x) and the design matrix Φ.
//!
//! A model y(x, w) = Σⱼ wⱼ φⱼ(x) = wᵀφ(x) (PRML 3.3; lecture notes on linear models, "线性基函数模型") is
//! linear in `w` whatever the φⱼ are; everything downstream only sees the N × M design
//! matrix Φₙⱼ = φⱼ(xₙ) (PRML 3.16).
//!
//! # Families (lecture notes on linear models, "基函数的选取")
//!
//! M always counts every function, the bias included. With the bias on, φ₀(x) = 1 comes
//! first and the family supplies the other K = M − 1 functions; without it, all K = M.
//! Every layout is fixed by the domain [lo, hi] (length P = hi − lo), K, the width s and,
//! for B-splines, the degree p:
//!
//! | family | the K non-bias functions, in column order | s | p |
//! |---|---|---|---|
//! | [`Family::Polynomial`] | xʲ for j = 1..=K (raw x; the domain is not used) | – | – |
//! | [`Family::Gaussian`] | exp(−(x − μⱼ)²/2s²) (PRML 3.4) | ✓ | – |
//! | [`Family::Sigmoid`] | σ((x − μⱼ)/s), σ(a) = 1/(1 + e⁻ᵃ) (PRML 3.5, 3.6) | ✓ | – |
//! | [`Family::Fourier`] | cos(2π·1·x/P), sin(2π·1·x/P), cos(2π·2·x/P), … (first K) | – | – |
//! | [`Family::BSpline`] | Bᵢ,ₚ on a clamped uniform knot vector over [lo, hi] | – | ✓ |
//! | [`Family::Wavelet`] | Mexican hats ψ((x − cₗ,ₖ)/aₗ), coarse to fine | ✓ | – |
//! | [`Family::Kernel`] | exp(−(x − xₙ)²/2s²) at each training input xₙ, K = N | ✓ | – |
//! | [`Family::Formula`] | f(x, μⱼ, s, j, K) for j = 1..=K, f typed by the user ([`Formula`]) | ✓ | – |
//!
//! Gaussian, sigmoid and formula centres μⱼ are [`crate::grid::evenly_spaced`] over [lo, hi],
//! end points included (one centre: the middle). The details of the Fourier, B-spline,
//! wavelet and formula layouts are documented in their modules and on [`Family`].
//!
//! Every family's functions are finite at every finite input but for a formula's (which may
//! divide by zero) and a high power of a huge x: [`Basis::design_matrix`] refuses a
//! non-finite value ([`Error::FunctionNotFinite`]); [`Basis::features`] does not check.

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use std::ops::Range;
use std::rc::Rc;

use crate::error::{
    Bound, Compact, Error, Fault, FormulaProblem, Result, ensure_all_finite, ensure_finite, ensure_index,
    ensure_positive,
};
use crate::grid::evenly_spaced;
use crate::linalg::subtract_combination;
use crate::solver::Budget;

mod bspline;
mod centred;
mod exponential;
// The formula family's parser and programs: here natively and in the formula module; the
// page's module reaches them in the formula module, through the page (formula_link).
#[cfg(any(not(target_arch = "wasm32"), feature = "formula-module"))]
mod formula;
#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
mod formula_link;
mod fourier;
mod polynomial;
mod wavelet;

pub use centred::logistic_sigmoid;
#[cfg(any(not(target_arch = "wasm32"), feature = "formula-module"))]
pub use formula::{Formula, FormulaSet, MAX_FORMULA_DEPTH, erf};
#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
pub use formula_link::{FormulaModule, install_formula_module};
pub use wavelet::mexican_hat;

use bspline::BSpline;
use centred::{Centred, Profile};
#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
use formula_link::FormulaSet;
use fourier::Fourier;
use polynomial::Polynomial;
use wavelet::Wavelet;

/// The formula of a new [`BasisSpec`]: the Gaussian family's functions.
pub const DEFAULT_FORMULA: &str = "exp(-(x - mu)^2/(2*s^2))";

/// Most characters of a formula.
pub const MAX_FORMULA_LEN: usize = 200;

/// `Ok` when a typed formula is at most [`MAX_FORMULA_LEN`] characters.
///
/// # Errors
/// [`Error::Formula`]: too long (`formula-too-long`).
pub fn ensure_formula_length(text: &str) -> Result<()> {
    let length = text.chars().count();
    if length > MAX_FORMULA_LEN {
        return Err(Error::Formula { problem: FormulaProblem::too_long(length, MAX_FORMULA_LEN), at: None });
    }
    Ok(())
}

/// Formulas the page offers to start from, by name: the built-in families a formula can
/// say (Gaussian PRML 3.4, sigmoid PRML 3.5, polynomial; each gives that family's design,
/// tests/bases.rs checks), then the Laplace bump, cosines of rising frequency and the
/// Gaussian's slope (a "Mexican hat"'s odd sister).
pub const FORMULA_PRESETS: &[(&str, &str)] = &[
    ("gaussian", DEFAULT_FORMULA),
    ("sigmoid", "sigmoid((x - mu)/s)"),
    ("polynomial", "x^j"),
    ("laplace", "exp(-abs(x - mu)/s)"),
    ("cosine", "cos(j*pi*x)"),
    ("slope", "(x - mu)*exp(-(x - mu)^2/s^2)"),
];

/// Largest number of basis functions a model may have (keeps M × M solves interactive).
pub const MAX_BASIS_FUNCTIONS: usize = 200;

/// Highest B-spline degree offered (quintic).
pub const MAX_BSPLINE_DEGREE: usize = 5;

/// The B-spline degree [`Basis::spread`] uses: cubic.
pub const DEFAULT_BSPLINE_DEGREE: usize = 3;

/// Which kind of functions φⱼ a [`Basis`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// φⱼ(x) = xʲ (lecture notes on linear models, "多项式").
    Polynomial,
    /// φⱼ(x) = exp(−(x − μⱼ)² / 2s²) (PRML 3.4), centres evenly spaced over the domain.
    Gaussian,
    /// φⱼ(x) = σ((x − μⱼ)/s) with σ(a) = 1/(1 + e⁻ᵃ) (PRML 3.5–3.6), centres as for
    /// [`Family::Gaussian`].
    Sigmoid,
    /// cos(2πkx/P), sin(2πkx/P) for k = 1, 2, … in the order cos₁, sin₁, cos₂, sin₂, …,
    /// cut after K functions (an odd K ends on a cosine); P = hi − lo.
    Fourier,
    /// B-splines of degree p on the clamped uniform knot vector
    /// (lo ×(p+1), lo + h, lo + 2h, …, hi − h, hi ×(p+1)), h = P/(K − p), by the
    /// Cox–de Boor recursion; they are 0 outside [lo, hi] and sum to 1 on all of it.
    #[serde(rename = "bspline")]
    BSpline,
    /// Mexican hats ψ(u) = (1 − u²)e^(−u²/2): function i = 0, 1, … sits on level
    /// ℓ = ⌊log₂(i + 1)⌋ at shift k = i + 1 − 2^ℓ, centre c = lo + (k + ½)P/2^ℓ, scale
    /// a = s/2^ℓ; so level 0 is one hat of scale s in the middle, level ℓ has 2^ℓ hats at
    /// the midpoints of 2^ℓ equal cells, and the last level may be partly filled.
    Wavelet,
    /// exp(−(x − xₙ)²/2s²) centred on each training input xₙ (the RVM's kernel basis,
    /// Tipping 2001 §2); K = N, so M = N (+1 with the bias) is not a free parameter.
    Kernel,
    /// φⱼ(x) = f(x, μⱼ, s, j, K) for j = 1, …, K, the formula f typed by the user
    /// ([`BasisSpec::formula`], `Formula`); centres μⱼ as for [`Family::Gaussian`].
    Formula,
}

impl Family {
    /// Every family, in the order the page lists them.
    pub const ALL: [Family; 8] = [
        Family::Polynomial,
        Family::Gaussian,
        Family::Sigmoid,
        Family::Fourier,
        Family::BSpline,
        Family::Wavelet,
        Family::Kernel,
        Family::Formula,
    ];

    /// The names of [`Family::ALL`], in the same order (for choice lists; a test checks).
    pub const NAMES: [&'static str; 8] =
        ["polynomial", "gaussian", "sigmoid", "fourier", "bspline", "wavelet", "kernel", "formula"];

    /// The name used in URLs and the wasm API.
    pub fn name(self) -> &'static str {
        match self {
            Family::Polynomial => "polynomial",
            Family::Gaussian => "gaussian",
            Family::Sigmoid => "sigmoid",
            Family::Fourier => "fourier",
            Family::BSpline => "bspline",
            Family::Wavelet => "wavelet",
            Family::Kernel => "kernel",
            Family::Formula => "formula",
        }
    }

    /// The family called `name`, if any, among [`Family::ALL`] (the families the page offers).
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether its functions have centres μⱼ that [`Basis::centres`] reports and
    /// [`Basis::with_centre`] moves.
    pub fn has_centres(self) -> bool {
        matches!(self, Family::Gaussian | Family::Sigmoid | Family::Kernel | Family::Formula)
    }

    /// Whether the width s of [`BasisSpec`] matters (and is checked).
    pub fn uses_width(self) -> bool {
        matches!(self, Family::Gaussian | Family::Sigmoid | Family::Wavelet | Family::Kernel | Family::Formula)
    }

    /// Whether the degree of [`BasisSpec`] matters (and is checked).
    pub fn uses_degree(self) -> bool {
        self == Family::BSpline
    }

    /// Whether M is chosen freely; the kernel basis has one function per training input.
    pub fn count_is_free(self) -> bool {
        self != Family::Kernel
    }
}

/// Everything that chooses a basis, as the user sets it.
#[derive(Debug, Clone, PartialEq)]
pub struct BasisSpec {
    /// Which functions.
    pub family: Family,
    /// Number of functions M, the bias included; ignored by [`Family::Kernel`] (M = N + bias).
    pub m: usize,
    /// Width s (Gaussian, sigmoid, kernel; the coarsest wavelet scale); ignored otherwise.
    pub width: f64,
    /// B-spline degree p in 0..=[`MAX_BSPLINE_DEGREE`]; ignored otherwise.
    pub degree: usize,
    /// Whether φ₀(x) = 1 comes first.
    pub bias: bool,
    /// The formula of [`Family::Formula`], as typed (at most [`MAX_FORMULA_LEN`]
    /// characters); ignored otherwise. Shared: the spec is cloned on every change.
    pub formula: Rc<str>,
}

impl Default for BasisSpec {
    /// PRML Fig 3.8's basis: the bias and eight Gaussians of width 0.1 (cubic if B-splines;
    /// the Gaussian's formula, [`DEFAULT_FORMULA`], if a formula).
    fn default() -> Self {
        Self {
            family: Family::Gaussian,
            m: 9,
            width: 0.1,
            degree: DEFAULT_BSPLINE_DEGREE,
            bias: true,
            formula: Rc::from(DEFAULT_FORMULA),
        }
    }
}

/// The interval [lo, hi] the functions are laid out on; lo < hi, both finite.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Domain {
    lo: f64,
    hi: f64,
}

impl Domain {
    /// The domain (lo, hi).
    ///
    /// # Errors
    /// [`Error::NotFinite`] naming `lo` or `hi`; [`Error::OutOfRange`] naming `hi − lo`
    /// unless the length is positive and finite.
    fn new((lo, hi): (f64, f64)) -> Result<Self> {
        ensure_finite("lo", lo)?;
        ensure_finite("hi", hi)?;
        ensure_positive("hi − lo", hi - lo)?;
        Ok(Self { lo, hi })
    }

    /// P = hi − lo.
    fn length(self) -> f64 {
        self.hi - self.lo
    }
}

/// The functions of one family, without the bias.
#[derive(Debug, Clone, PartialEq)]
enum Functions {
    Polynomial(Polynomial),
    /// Gaussian, sigmoid and kernel: one profile at several centres.
    Centred(Centred),
    Fourier(Fourier),
    BSpline(BSpline),
    Wavelet(Wavelet),
    Formula(FormulaSet),
}

impl Functions {
    /// K, the number of non-bias functions.
    fn len(&self) -> usize {
        match self {
            Functions::Polynomial(f) => f.len(),
            Functions::Centred(f) => f.len(),
            Functions::Fourier(f) => f.len(),
            Functions::BSpline(f) => f.len(),
            Functions::Wavelet(f) => f.len(),
            Functions::Formula(f) => f.len(),
        }
    }

    /// Writes the K values at `x` into `out`.
    fn eval_into(&self, x: f64, out: &mut [f64]) {
        match self {
            Functions::Polynomial(f) => f.eval_into(x, out),
            Functions::Centred(f) => f.eval_into(x, out),
            Functions::Fourier(f) => f.eval_into(x, out),
            Functions::BSpline(f) => f.eval_into(x, out),
            Functions::Wavelet(f) => f.eval_into(x, out),
            Functions::Formula(f) => f.eval_into(x, out),
        }
    }
}

/// A set of M basis functions: optionally the bias φ₀(x) = 1, then the family's functions.
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    family: Family,
    bias: bool,
    functions: Functions,
}

impl Basis {
    /// Builds the basis `spec` describes for inputs in `domain` (lo < hi), laid out as in
    /// the [module documentation](self); `training_x` is used only by the kernel family.
    ///
    /// With the bias on, the B-splines already sum to 1 (partition of unity), so φ₀ lies
    /// in their span and Φ has linearly dependent columns; the prior (α > 0) keeps the
    /// posterior well defined, so this is allowed.
    ///
    /// # Errors
    /// - [`Error::NotFinite`] for a non-finite `lo`, `hi`, width s or training input `x[n]`;
    /// - [`Error::OutOfRange`] for `hi − lo` ≤ 0, s ≤ 0 (families that use it), a degree
    ///   above [`MAX_BSPLINE_DEGREE`], M outside 1..=[`MAX_BASIS_FUNCTIONS`] (for the
    ///   kernel: N + bias above it), or fewer than p + 1 B-splines (M − bias < p + 1);
    /// - [`Error::NoData`] for the kernel family with no training inputs;
    /// - for a formula, [`Error::Formula`] if it does not parse or its functions would not
    ///   vary (no x; no mu or j with K ≥ 2), [`Error::FunctionNotFinite`] if a function has
    ///   no finite value at one of 601 evenly spaced points of [lo, hi] (which include the
    ///   grids of 101, 201 and 301 points the panels draw on).
    pub fn from_spec(spec: &BasisSpec, domain: (f64, f64), training_x: &[f64]) -> Result<Basis> {
        let domain = Domain::new(domain)?;
        let BasisSpec { family, m, width, degree, bias, .. } = *spec;
        if family.uses_width() {
            ensure_positive("s", width)?;
        }
        if family.count_is_free() {
            check_count(m)?;
        }
        let k = m.saturating_sub(usize::from(bias));
        let functions = match family {
            Family::Polynomial => return Self::polynomial(m, bias),
            Family::Gaussian => return Self::gaussian(evenly_spaced(domain.lo, domain.hi, k), width, bias),
            Family::Sigmoid => return Self::sigmoid(evenly_spaced(domain.lo, domain.hi, k), width, bias),
            Family::Kernel => return Self::kernel(training_x, width, bias),
            Family::Fourier => Functions::Fourier(Fourier::new(k, domain.length())),
            Family::BSpline => Functions::BSpline(BSpline::new(check_bspline(degree, m, bias)?, k, domain)),
            Family::Wavelet => Functions::Wavelet(Wavelet::new(k, width, domain)),
            Family::Formula => Functions::Formula(FormulaSet::new(
                &spec.formula,
                evenly_spaced(domain.lo, domain.hi, k),
                width,
                domain,
            )?),
        };
        Ok(Self { family, bias, functions })
    }

    /// M polynomial functions: 1, x, …, x^(M−1) with the bias, x, …, x^M without.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] unless 1 ≤ M ≤ [`MAX_BASIS_FUNCTIONS`].
    pub fn polynomial(m: usize, bias: bool) -> Result<Self> {
        check_count(m)?;
        let degree = if bias { m - 1 } else { m };
        Ok(Self { family: Family::Polynomial, bias, functions: Functions::Polynomial(Polynomial::new(degree)) })
    }

    /// Gaussian bumps φⱼ(x) = exp(−(x − μⱼ)²/2s²) (PRML 3.4) at the given centres μⱼ, width s.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for s ≤ 0 or a count outside 1..=[`MAX_BASIS_FUNCTIONS`];
    /// [`Error::NotFinite`] for a non-finite centre or width.
    pub fn gaussian(centres: Vec<f64>, width: f64, bias: bool) -> Result<Self> {
        Self::centred(Family::Gaussian, centres, width, bias)
    }

    /// Sigmoids φⱼ(x) = σ((x − μⱼ)/s) (PRML 3.5–3.6) at the given centres μⱼ, width s.
    ///
    /// # Errors
    /// As [`Basis::gaussian`].
    pub fn sigmoid(centres: Vec<f64>, width: f64, bias: bool) -> Result<Self> {
        Self::centred(Family::Sigmoid, centres, width, bias)
    }

    /// The kernel basis φₙ(x) = exp(−(x − xₙ)²/2s²), one Gaussian on each training input
    /// xₙ, so M = N (+1 with the bias).
    ///
    /// # Errors
    /// [`Error::NoData`] for no inputs; [`Error::NotFinite`] naming `x[n]` or s;
    /// [`Error::OutOfRange`] for s ≤ 0 or N + bias above [`MAX_BASIS_FUNCTIONS`] (named M).
    pub fn kernel(training_x: &[f64], width: f64, bias: bool) -> Result<Self> {
        if training_x.is_empty() {
            return Err(Error::NoData);
        }
        ensure_all_finite("x", training_x)?;
        Self::centred(Family::Kernel, training_x.to_vec(), width, bias)
    }

    /// One profile (Gaussian or sigmoid) at each centre, after checking count, width, centres.
    fn centred(family: Family, centres: Vec<f64>, width: f64, bias: bool) -> Result<Self> {
        check_count(centres.len() + usize::from(bias))?;
        ensure_positive("s", width)?;
        ensure_all_finite("μ", &centres)?;
        let profile = if family == Family::Sigmoid { Profile::Sigmoid } else { Profile::Gaussian };
        Ok(Self { family, bias, functions: Functions::Centred(Centred::new(profile, centres, width)) })
    }

    /// M functions of `family` spread over `[lo, hi]` as [`Basis::from_spec`] lays them out
    /// (with the bias, M − 1 Gaussians at evenly spaced centres, end points included; one
    /// centre: the middle), B-splines cubic. The kernel family needs training inputs: use
    /// [`Basis::from_spec`] (here it is [`Error::NoData`]).
    ///
    /// # Errors
    /// As [`Basis::from_spec`].
    pub fn spread(family: Family, m: usize, width: f64, bias: bool, domain: (f64, f64)) -> Result<Self> {
        Self::from_spec(&BasisSpec { family, m, width, bias, ..BasisSpec::default() }, domain, &[])
    }

    /// The family of the functions.
    pub fn family(&self) -> Family {
        self.family
    }

    /// M, the number of functions including the bias.
    pub fn len(&self) -> usize {
        usize::from(self.bias) + self.functions.len()
    }

    /// A basis always has at least one function.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether φ₀(x) = 1 comes first.
    pub fn bias(&self) -> bool {
        self.bias
    }

    /// Centres μⱼ of the non-bias functions (Gaussian, sigmoid, kernel, a formula that uses
    /// `mu`), `None` otherwise.
    pub fn centres(&self) -> Option<&[f64]> {
        match &self.functions {
            Functions::Centred(f) => Some(f.centres()),
            Functions::Formula(f) if f.uses_centres() => Some(f.centres()),
            _ => None,
        }
    }

    /// The formula of a formula basis (its `Display` is the canonical text), `None` otherwise.
    #[cfg(any(not(target_arch = "wasm32"), feature = "formula-module"))]
    pub fn formula(&self) -> Option<&Formula> {
        match &self.functions {
            Functions::Formula(f) => Some(f.formula()),
            _ => None,
        }
    }

    /// A copy with the centre of non-bias function `j` moved to `mu` (for dragging on the plot).
    ///
    /// # Errors
    /// [`Error::UnknownParameter`] (`μ[j]`) if the basis has no centres;
    /// [`Error::OutOfRange`] naming `j` past the last centre; [`Error::NotFinite`] for `mu`;
    /// for a formula, [`Error::FunctionNotFinite`] as [`Basis::from_spec`] checks it.
    pub fn with_centre(&self, j: usize, mu: f64) -> Result<Basis> {
        ensure_finite("μ", mu)?;
        let mut copy = self.clone();
        match &mut copy.functions {
            Functions::Centred(f) if f.len() > 0 => {
                ensure_index("j", j, f.len())?;
                f.centres_mut()[j] = mu;
            }
            Functions::Formula(f) if f.len() > 0 && f.uses_centres() => {
                ensure_index("j", j, f.len())?;
                f.move_centre(j, mu)?;
            }
            _ => return Err(Error::UnknownParameter { key: format!("μ[{j}]") }),
        }
        Ok(copy)
    }

    /// Writes φ(x) = (φ₀(x), …, φ_{M−1}(x)) into `out` (length M).
    fn eval_into(&self, x: f64, out: &mut [f64]) {
        let (head, rest) = out.split_at_mut(usize::from(self.bias));
        head.fill(1.0);
        self.functions.eval_into(x, rest);
    }

    /// φ(x) as a column vector of length M. Unchecked: a formula's function may be NaN or
    /// ±∞ at x (a division by zero); to draw curves on a grid, [`Basis::features_on`] (or
    /// [`Basis::design_matrix`]) of the grid checks every value (and evaluates a formula a
    /// column at a time, faster).
    pub fn features(&self, x: f64) -> DVector<f64> {
        let mut v = DVector::zeros(self.len());
        self.eval_into(x, v.as_mut_slice());
        v
    }

    /// φ(x) at each point of `grid` (the rows of [`Basis::design_matrix`]), to draw curves:
    /// every value checked finite, and a formula evaluated a column at a time.
    ///
    /// # Errors
    /// As [`Basis::design_matrix`].
    pub fn features_on(&self, grid: &[f64]) -> Result<Vec<DVector<f64>>> {
        Ok(self.design_matrix(grid)?.row_iter().map(|row| row.transpose()).collect())
    }

    /// The design matrix Φ with Φₙⱼ = φⱼ(xₙ) (PRML 3.16), N × M.
    ///
    /// # Errors
    /// [`Error::NotFinite`] naming the first non-finite input `x[n]`;
    /// [`Error::FunctionNotFinite`] naming the first function (by column) and input where
    /// Φ has NaN or ±∞.
    pub fn design_matrix(&self, x: &[f64]) -> Result<DMatrix<f64>> {
        ensure_all_finite("x", x)?;
        let (m, n, offset) = (self.len(), x.len(), usize::from(self.bias));
        let mut phi = DMatrix::from_element(n, m, 1.0);
        match &self.functions {
            Functions::Formula(f) => f.fill_columns(x, &mut phi.as_mut_slice()[offset * n..]),
            _ => {
                let mut row = vec![0.0; m];
                for (r, &xr) in x.iter().enumerate() {
                    self.eval_into(xr, &mut row);
                    phi.row_mut(r).copy_from_slice(&row);
                }
            }
        }
        ensure_functions_finite(&phi.as_slice()[offset * n..], x)?;
        Ok(phi)
    }
}

/// Points of the domain at which a formula basis's functions are checked finite: 601, so
/// that on [0, 1] they include the evenly spaced grids of 101, 201 and 301 points on which
/// the panels draw their curves (600 is a multiple of 100, 200 and 300, and i/100 = 6i/600
/// is the same correctly rounded number).
const FORMULA_CHECK_POINTS: usize = 601;

/// `Ok` when the functions `js` of a formula basis (counted from 0 among its K), whose
/// columns `fill` writes at given inputs, are finite at [`FORMULA_CHECK_POINTS`] evenly
/// spaced points of `domain`; else [`Error::FunctionNotFinite`] naming the first (j counted
/// from 1 among the K) and the input.
fn check_formula_functions(domain: Domain, js: Range<usize>, fill: impl FnOnce(&[f64], &mut [f64])) -> Result<()> {
    let grid = evenly_spaced(domain.lo, domain.hi, FORMULA_CHECK_POINTS);
    let mut values = vec![0.0; grid.len() * js.len()];
    fill(&grid, &mut values);
    ensure_functions_finite(&values, &grid).map_err(|e| match e {
        Error::FunctionNotFinite { j, x, value } => Error::FunctionNotFinite { j: j + js.start, x, value },
        e => e,
    })
}

/// A formula's functions' `error`, where it is [`Error::FunctionNotFinite`], as
/// [`Error::FormulaFault`]: with the operation that first gives no value there, which
/// `explain(j, x)` finds (j counted from 0);
/// any other error, or one `explain` cannot tell, as it is.
fn explained(error: Error, explain: impl FnOnce(usize, f64) -> Option<Fault>) -> Error {
    let Error::FunctionNotFinite { j, x, .. } = &error else { return error };
    match x.parse().ok().and_then(|at| explain(j - 1, at)) {
        Some(fault) => Error::FormulaFault { j: *j, x: x.clone(), fault: Box::new(fault) },
        None => error,
    }
}

/// `Ok` when every value of `columns` (the K non-bias columns of Φ, column after column,
/// each as long as `x`) is finite, else [`Error::FunctionNotFinite`] naming the first.
fn ensure_functions_finite(columns: &[f64], x: &[f64]) -> Result<()> {
    match columns.iter().position(|v| !v.is_finite()) {
        Some(i) => Err(Error::FunctionNotFinite {
            j: i / x.len() + 1,
            x: Compact(x[i % x.len()]).to_string(),
            value: Compact(columns[i]).to_string(),
        }),
        None => Ok(()),
    }
}

/// `Ok` when 1 ≤ M ≤ [`MAX_BASIS_FUNCTIONS`].
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

/// The degree p, once p ≤ [`MAX_BSPLINE_DEGREE`] and the M − bias ≥ p + 1 B-splines a
/// clamped knot vector of degree p needs are there.
fn check_bspline(degree: usize, m: usize, bias: bool) -> Result<usize> {
    if degree > MAX_BSPLINE_DEGREE {
        let bound = Bound::WholeBetween { min: 0, max: MAX_BSPLINE_DEGREE as u64 };
        return Err(Error::OutOfRange { name: "degree", value: degree.to_string(), bound });
    }
    let fewest = degree + 1 + usize::from(bias);
    if m < fewest {
        let bound = Bound::WholeBetween { min: fewest as u64, max: MAX_BASIS_FUNCTIONS as u64 };
        return Err(Error::OutOfRange { name: "M", value: m.to_string(), bound });
    }
    Ok(degree)
}

/// Helpers shared by the families' unit tests.
#[cfg(test)]
pub(crate) mod test_support {
    /// Asserts that `got` and `want` agree entry by entry to 1e-15.
    pub fn assert_all_close(got: &[f64], want: &[f64]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-15, "got {got:?}, want {want:?}");
        }
    }
}

/// Column m of the kernel design of [`kernel_design`] as a function of x: the bias (m = 0
/// with `bias`) or exp(−(x − xₙ)²/2s²) on training input xₙ.
pub fn kernel_column(training_x: &[f64], width: f64, bias: bool, m: usize, x: f64) -> f64 {
    match kernel_centre(training_x, bias, m) {
        Some(centre) => (-0.5 * ((x - centre) / width).powi(2)).exp(),
        None => 1.0,
    }
}

/// The training input column m of the kernel design is centred on (`None`: the bias).
pub fn kernel_centre(training_x: &[f64], bias: bool, m: usize) -> Option<f64> {
    let n = m.checked_sub(usize::from(bias))?;
    training_x.get(n).copied()
}

/// Largest N of [`kernel_design`]: the RVM panels and the command line go beyond
/// [`MAX_BASIS_FUNCTIONS`], which bounds the general-purpose bases.
pub const MAX_KERNEL_POINTS: usize = 4000;

/// The RVM's design matrix on the kernel basis: Φₙₘ = exp(−(xₙ − xₘ)²/2s²) for the N
/// training inputs (PRML 7.78 with the Gaussian kernel), after a column of ones if `bias`:
/// [`KernelDesignInSlices`] run to its end.
///
/// # Errors
/// [`Error::NoData`] for no inputs, [`Error::OutOfRange`] for s ≤ 0 or N above
/// [`MAX_KERNEL_POINTS`], [`Error::NotFinite`] for NaN or ±∞ inputs.
pub fn kernel_design(x: &[f64], width: f64, bias: bool) -> Result<DMatrix<f64>> {
    let mut slices = KernelDesignInSlices::new(x, width, bias)?;
    loop {
        if let Some(phi) = slices.step_within(&mut Budget::unlimited()) {
            return Ok(phi);
        }
    }
}

/// Entries of a kernel design per unit of [`Budget`] ([`KernelDesignInSlices`]): a table
/// exponential and two stores each, so that a unit is about a microsecond in the browser
/// and a first slice of 4096 units a few milliseconds (the whole design up to N ≈ 700).
pub const DESIGN_ENTRIES_PER_UNIT: usize = 64;

/// The kernel design of [`kernel_design`], a band of [`KERNEL_TILE`] columns at a time, so
/// that the N² / 2 exponentials of N = 2000 (tens of milliseconds in the browser) can be
/// spread over frames. The kernel block is symmetric, so each exponential is taken once, by
/// the table method of `exponential` (within 2 units in the last place of `f64::exp`, and
/// 3–4 times faster in the browser, where the exponentials were 80% of the time): a band
/// takes its entries on and below the diagonal, and copies those above it from the bands
/// before, in [`KERNEL_TILE`]-square tiles so that the transposed reads stay in the cache.
/// Φ's memory grows a band at a time, so that each slice touches only its band's pages
/// (zeroing all 32 MB of N = 2000 at the first band was a 75–110 ms task at 4× CPU).
#[derive(Debug, Clone)]
pub struct KernelDesignInSlices {
    x: Vec<f64>,
    /// −1/2s².
    scale: f64,
    offset: usize,
    /// Φ's columns so far (column-major): the bias column, then the bands done.
    data: Vec<f64>,
    /// The first column (of the kernel block) of the next band.
    next: usize,
    table: exponential::ExpTable,
}

impl KernelDesignInSlices {
    /// Starts the design of [`kernel_design`].
    ///
    /// # Errors
    /// As [`kernel_design`].
    pub fn new(x: &[f64], width: f64, bias: bool) -> Result<Self> {
        if x.is_empty() {
            return Err(Error::NoData);
        }
        if x.len() > MAX_KERNEL_POINTS {
            return Err(Error::OutOfRange {
                name: "N",
                value: x.len().to_string(),
                bound: Bound::AtMost { max: MAX_KERNEL_POINTS as u64 },
            });
        }
        ensure_all_finite("x", x)?;
        ensure_positive("s", width)?;
        Ok(Self {
            x: x.to_vec(),
            scale: -0.5 / (width * width),
            offset: usize::from(bias),
            data: vec![],
            next: 0,
            table: exponential::ExpTable::new(),
        })
    }

    /// Columns of the kernel block done, and N.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.x.len())
    }

    /// The units of [`Budget`] the whole design takes.
    pub fn units(&self) -> usize {
        let n = self.x.len();
        n * n / (2 * DESIGN_ENTRIES_PER_UNIT) + 1
    }

    /// Fills bands within `budget` (at least one; a unit per [`DESIGN_ENTRIES_PER_UNIT`]
    /// entries taken); Φ once the last is done.
    pub fn step_within(&mut self, budget: &mut Budget) -> Option<DMatrix<f64>> {
        let n = self.x.len();
        if self.next == 0 && self.data.is_empty() {
            // Reserved, not touched: the browser hands the pages over as the bands fill them.
            self.data.reserve_exact(n * (n + self.offset));
            self.data.resize(n * self.offset, 1.0);
        }
        let mut first = true;
        while self.next < n && (first || budget.allows()) {
            first = false;
            self.fill_band(self.next);
            budget.spend((n - self.next) * KERNEL_TILE / DESIGN_ENTRIES_PER_UNIT + 1);
            self.next += KERNEL_TILE;
        }
        (self.next >= n).then(|| DMatrix::from_vec(n, n + self.offset, std::mem::take(&mut self.data)))
    }

    /// The columns `first_m` … `first_m` + [`KERNEL_TILE`] of the kernel block, appended:
    /// rows above the band copied from the bands before (the block is symmetric), the rest
    /// taken.
    fn fill_band(&mut self, first_m: usize) {
        let (x, n, offset) = (&self.x, self.x.len(), self.offset);
        let ms = first_m..(first_m + KERNEL_TILE).min(n);
        // Column-major: entry (r, c) is at c·N + r; kernel column m is column m + offset.
        let start = self.data.len();
        self.data.resize(start + ms.len() * n, 0.0);
        let data = self.data.as_mut_slice();
        let at = |r: usize, m: usize| (m + offset) * n + r;
        // Above the band: (r, m) = (m, r), in the columns of the bands before, a tile at a
        // time.
        for first_r in (0..first_m).step_by(KERNEL_TILE) {
            for m in ms.clone() {
                for r in first_r..first_r + KERNEL_TILE {
                    data[at(r, m)] = data[at(m, r)];
                }
            }
        }
        // The band's own square: the diagonal, exp(0), and each entry below it, mirrored
        // above.
        for m in ms.clone() {
            data[at(m, m)] = 1.0;
            for r in m + 1..ms.end {
                let value = self.table.exp(self.scale * (x[r] - x[m]).powi(2));
                data[at(r, m)] = value;
                data[at(m, r)] = value;
            }
        }
        // Below the band.
        for first_r in (ms.end..n).step_by(KERNEL_TILE) {
            let last_r = (first_r + KERNEL_TILE).min(n);
            for m in ms.clone() {
                let xm = x[m];
                for r in first_r..last_r {
                    data[at(r, m)] = self.table.exp(self.scale * (x[r] - xm).powi(2));
                }
            }
        }
    }
}

/// The kernel design on inputs in the plane: Φₙₘ = exp(−‖xₙ − cₘ‖²/2s²) for the points
/// `x` against the centres `centres`, after a column of ones if `bias` (PRML 7.78 with the
/// Gaussian kernel). With `centres = x` it is the RVM classifier's N × (N + bias) design
/// ([`kernel_design_2d`]); with other inputs it evaluates the fitted basis there, e.g. on
/// the grid of a probability map.
///
/// # Errors
/// [`Error::NoData`] for no centres, [`Error::OutOfRange`] for s ≤ 0 or more than
/// [`MAX_KERNEL_POINTS`] points or centres, [`Error::NotFinite`] for NaN or ±∞
/// coordinates.
pub fn kernel_cross_2d(x: &[[f64; 2]], centres: &[[f64; 2]], width: f64, bias: bool) -> Result<DMatrix<f64>> {
    check_kernel_2d(x, centres, width)?;
    let offset = usize::from(bias);
    let scale = -0.5 / (width * width);
    Ok(DMatrix::from_fn(x.len(), centres.len() + offset, |n, m| match m.checked_sub(offset) {
        Some(m) => {
            let (dx, dy) = (x[n][0] - centres[m][0], x[n][1] - centres[m][1]);
            (scale * (dx * dx + dy * dy)).exp()
        }
        None => 1.0,
    }))
}

/// What [`kernel_cross_2d`] refuses.
fn check_kernel_2d(x: &[[f64; 2]], centres: &[[f64; 2]], width: f64) -> Result<()> {
    if centres.is_empty() {
        return Err(Error::NoData);
    }
    for points in [x, centres] {
        if points.len() > MAX_KERNEL_POINTS {
            return Err(Error::OutOfRange {
                name: "N",
                value: points.len().to_string(),
                bound: Bound::AtMost { max: MAX_KERNEL_POINTS as u64 },
            });
        }
        ensure_all_finite("x", points.as_flattened())?;
    }
    ensure_positive("s", width).map(|_| ())
}

/// The RVM's design matrix on the Gaussian kernel centred on the N training points in the
/// plane: Φₙₘ = exp(−‖xₙ − xₘ‖²/2s²), after a column of ones if `bias`. The kernel block is
/// symmetric with ones on its diagonal, so each exponential is taken once, by the table
/// method of `exponential` (as [`kernel_design`]; within 2 units in the last place of
/// [`kernel_cross_2d`]'s `f64::exp`, and the N²/2 of them several times faster in the
/// browser).
///
/// # Errors
/// As [`kernel_cross_2d`].
pub fn kernel_design_2d(x: &[[f64; 2]], width: f64, bias: bool) -> Result<DMatrix<f64>> {
    check_kernel_2d(x, x, width)?;
    let (n, offset) = (x.len(), usize::from(bias));
    let (scale, table) = (-0.5 / (width * width), exponential::ExpTable::new());
    let mut phi = DMatrix::from_element(n, n + offset, 1.0);
    for m in 0..n {
        for r in m + 1..n {
            let (dx, dy) = (x[r][0] - x[m][0], x[r][1] - x[m][1]);
            let value = table.exp(scale * (dx * dx + dy * dy));
            phi[(r, m + offset)] = value;
            phi[(m, r + offset)] = value;
        }
    }
    Ok(phi)
}

/// The kernel expansion f(x) = b + Σⱼ wⱼ exp(−‖x − cⱼ‖²/2s²) at every node (x₁, x₂) of the
/// grid `xs` × `ys`, row by row from `ys[0]` (index iy·|xs| + ix): the one-expansion case
/// of [`kernel_expansions_on_grid`].
pub fn kernel_expansion_on_grid(
    xs: &[f64],
    ys: &[f64],
    centres: &[[f64; 2]],
    weights: &[f64],
    bias: f64,
    width: f64,
) -> Vec<f64> {
    let weights = DMatrix::from_column_slice(weights.len(), 1, weights);
    kernel_expansions_on_grid(xs, ys, centres, &weights, &[bias], width).swap_remove(0)
}

/// K kernel expansions fₖ(x) = bₖ + Σⱼ wⱼₖ exp(−‖x − cⱼ‖²/2s²) on the same centres (one per
/// class: `weights` is J × K, `biases` has K entries), at every node of the grid `xs` ×
/// `ys`, each row by row from `ys[0]` (index iy·|xs| + ix). The Gaussian factorises,
/// exp(−‖x − c‖²/2s²) = exp(−(x₁ − c₁)²/2s²)·exp(−(x₂ − c₂)²/2s²), so with gⱼ(x₁) and hⱼ(x₂)
/// the factors along each axis, row iy of fₖ is
///
/// ```text
/// fₖ(·, ys[iy]) = bₖ + Σⱼ (wⱼₖ hⱼ(ys[iy]))·gⱼ(xs)
/// ```
///
/// a combination of the J rows gⱼ(xs) ([`crate::linalg::subtract_combination`]):
/// (|xs| + |ys|)·J exponentials and |xs|·|ys|·J multiply-adds per expansion, where evaluating
/// each node through [`kernel_cross_2d`] would take |xs|·|ys|·J exponentials.
pub fn kernel_expansions_on_grid(
    xs: &[f64],
    ys: &[f64],
    centres: &[[f64; 2]],
    weights: &DMatrix<f64>,
    biases: &[f64],
    width: f64,
) -> Vec<Vec<f64>> {
    let scale = -0.5 / (width * width);
    let factors = |values: &[f64], axis: usize| -> Vec<Vec<f64>> {
        centres.iter().map(|c| values.iter().map(|v| (scale * (v - c[axis]).powi(2)).exp()).collect()).collect()
    };
    let (along_x, along_y) = (factors(xs, 0), factors(ys, 1));
    weights
        .column_iter()
        .zip(biases)
        .map(|(w, &bias)| {
            let mut grid = vec![bias; xs.len() * ys.len()];
            for (iy, row) in grid.chunks_mut(xs.len().max(1)).enumerate() {
                let coefficient = |j: usize| -(w[j] * along_y[j][iy]);
                subtract_combination(row, centres.len(), coefficient, |j| &along_x[j]);
            }
            grid
        })
        .collect()
}

/// The side of the tiles in which [`kernel_design`] fills its symmetric block: two 32 × 32
/// tiles of f64 (16 KB) fit any L1 cache.
const KERNEL_TILE: usize = 32;

#[cfg(test)]
mod tests {
    #[test]
    fn kernel_expansion_on_a_grid_matches_the_cross_design() {
        let (xs, ys) = ([-0.4, 0.0, 0.3, 0.9], [0.1, -0.7, 0.5]);
        let centres = [[0.2, 0.1], [-0.5, 0.4]];
        let (weights, bias, width) = ([1.5, -2.0], 0.25, 0.6);
        let nodes: Vec<[f64; 2]> = ys.iter().flat_map(|&y| xs.iter().map(move |&x| [x, y])).collect();
        let design = super::kernel_cross_2d(&nodes, &centres, width, true).unwrap();
        let w = nalgebra::DVector::from_vec(vec![bias, weights[0], weights[1]]);
        let want = design * w;
        let got = super::kernel_expansion_on_grid(&xs, &ys, &centres, &weights, bias, width);
        assert_eq!(got.len(), 12);
        for (g, w) in got.iter().zip(want.iter()) {
            assert!((g - w).abs() < 1e-14, "{g} vs {w}");
        }
    }

    #[test]
    fn a_kernel_design_in_bands_is_the_whole_one() {
        let x: Vec<f64> = (0..100).map(|i| ((i * 37) % 101) as f64 / 101.0).collect();
        let whole = super::kernel_design(&x, 0.1, true).unwrap();
        let mut slices = super::KernelDesignInSlices::new(&x, 0.1, true).unwrap();
        let mut bands = 0;
        let phi = loop {
            bands += 1;
            if let Some(phi) = slices.step_within(&mut crate::solver::Budget::units(1)) {
                break phi;
            }
        };
        assert_eq!((bands, phi), (100_usize.div_ceil(super::KERNEL_TILE), whole.clone()));
        let (r, m) = (17, 63);
        let want = (-(x[r] - x[m]).powi(2) / (2.0 * 0.01)).exp();
        assert!((whole[(r, m + 1)] - want).abs() <= 4.0 * f64::EPSILON * want);
        assert_eq!(whole[(r, m + 1)], whole[(m, r + 1)]);
    }

    #[test]
    fn names_follow_all() {
        assert_eq!(super::Family::ALL.map(super::Family::name), super::Family::NAMES);
    }

    use super::*;

    fn spec(family: Family, m: usize) -> BasisSpec {
        BasisSpec { family, m, ..BasisSpec::default() }
    }

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
        assert_eq!(b.centres().unwrap(), &[0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]);
        assert_eq!(evenly_spaced(0.0, 1.0, 1), vec![0.5]);
    }

    #[test]
    fn every_family_has_its_name_and_m_functions() {
        let names: Vec<_> = Family::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names, ["polynomial", "gaussian", "sigmoid", "fourier", "bspline", "wavelet", "kernel", "formula"]);
        assert_eq!(names, Family::NAMES);
        for family in Family::ALL {
            assert_eq!(Family::from_name(family.name()), Some(family));
            let b = Basis::from_spec(&spec(family, 7), (-1.0, 2.0), &[0.0, 0.5, 1.0]).unwrap();
            assert_eq!(b.family(), family);
            assert!(b.bias());
            let want = if family.count_is_free() { 7 } else { 4 };
            assert_eq!((b.len(), b.features(0.3).len()), (want, want), "{family:?}");
            assert_eq!(b.centres().is_some(), family.has_centres(), "{family:?}");
        }
        assert_eq!(Family::from_name("spline"), None);
    }

    #[test]
    fn the_flags_follow_the_families() {
        let with = |p: fn(Family) -> bool| Family::ALL.into_iter().filter(|&f| p(f)).collect::<Vec<_>>();
        use Family::*;
        assert_eq!(with(Family::has_centres), [Gaussian, Sigmoid, Kernel, Formula]);
        assert_eq!(with(Family::uses_width), [Gaussian, Sigmoid, Wavelet, Kernel, Formula]);
        assert_eq!(with(Family::uses_degree), [BSpline]);
        assert_eq!(with(|f| !f.count_is_free()), [Kernel]);
    }

    #[test]
    fn the_bias_comes_first_and_counts_in_m() {
        for family in Family::ALL {
            let with = Basis::from_spec(&spec(family, 6), (0.0, 2.0), &[0.2, 1.1]).unwrap();
            let without =
                Basis::from_spec(&BasisSpec { bias: false, ..spec(family, 6) }, (0.0, 2.0), &[0.2, 1.1]).unwrap();
            assert_eq!(with.features(0.7)[0], 1.0, "{family:?}");
            assert_eq!(with.len(), without.len() + usize::from(!family.count_is_free()), "{family:?}");
        }
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
    fn with_centre_moves_one_centre() {
        let b = Basis::sigmoid(vec![0.0, 0.5, 1.0], 0.1, true).unwrap();
        let moved = b.with_centre(1, 0.8).unwrap();
        assert_eq!(moved.centres().unwrap(), &[0.0, 0.8, 1.0]);
        assert_eq!(b.centres().unwrap(), &[0.0, 0.5, 1.0]);
        assert_eq!(moved.family(), Family::Sigmoid);
        assert_eq!(b.with_centre(3, 0.0).unwrap_err().to_string(), "j must be a whole number from 0 to 2, but is 3");
        assert_eq!(b.with_centre(0, f64::NAN).unwrap_err().code(), "not-finite");
        let poly = Basis::polynomial(3, true).unwrap();
        assert_eq!(poly.with_centre(0, 0.0).unwrap_err(), Error::UnknownParameter { key: "μ[0]".into() });
        let bias_only = Basis::gaussian(vec![], 0.1, true).unwrap();
        assert_eq!(bias_only.with_centre(0, 0.0).unwrap_err().code(), "unknown-parameter");
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert_eq!(Basis::polynomial(0, true).unwrap_err().code(), "out-of-range");
        assert_eq!(Basis::polynomial(MAX_BASIS_FUNCTIONS + 1, true).unwrap_err().code(), "out-of-range");
        assert_eq!(Basis::gaussian(vec![0.0], 0.0, true).unwrap_err().to_string(), "s must be > 0, but is 0");
        assert_eq!(Basis::gaussian(vec![0.0], f64::NAN, true).unwrap_err().code(), "not-finite");
        let domain = |lo, hi| Basis::from_spec(&BasisSpec::default(), (lo, hi), &[]).unwrap_err().to_string();
        assert_eq!(domain(1.0, 1.0), "hi − lo must be > 0, but is 0");
        assert_eq!(domain(2.0, 1.0), "hi − lo must be > 0, but is -1");
        assert_eq!(domain(f64::NAN, 1.0), "lo must be a finite number, but is NaN");
        assert_eq!(domain(0.0, f64::INFINITY), "hi must be a finite number, but is inf");
        assert_eq!(domain(-f64::MAX, f64::MAX), "hi − lo must be a finite number, but is inf");
        let bspline = |m, degree, bias| {
            let spec = BasisSpec { family: Family::BSpline, m, width: 0.1, degree, bias, ..BasisSpec::default() };
            Basis::from_spec(&spec, (0.0, 1.0), &[])
        };
        assert_eq!(bspline(9, 6, true).unwrap_err().to_string(), "degree must be a whole number from 0 to 5, but is 6");
        assert_eq!(bspline(4, 3, true).unwrap_err().to_string(), "M must be a whole number from 5 to 200, but is 4");
        assert_eq!(bspline(3, 3, false).unwrap_err().to_string(), "M must be a whole number from 4 to 200, but is 3");
        assert_eq!(bspline(4, 3, false).unwrap().len(), 4);
    }

    #[test]
    fn unused_parameters_are_not_checked() {
        for family in [Family::Polynomial, Family::Fourier, Family::BSpline] {
            let bad_width = BasisSpec { family, width: f64::NAN, ..spec(family, 6) };
            assert!(Basis::from_spec(&bad_width, (0.0, 1.0), &[]).is_ok(), "{family:?}");
        }
        let bad_degree = BasisSpec { degree: 99, ..spec(Family::Wavelet, 6) };
        assert!(Basis::from_spec(&bad_degree, (0.0, 1.0), &[]).is_ok());
        let kernel = BasisSpec { m: 0, ..spec(Family::Kernel, 0) };
        assert_eq!(Basis::from_spec(&kernel, (0.0, 1.0), &[0.5]).unwrap().len(), 2);
    }

    #[test]
    fn kernel_design_matches_the_kernel_basis() {
        let x = [0.1, 0.5, 0.52, 0.9];
        let phi = kernel_design(&x, 0.3, true).unwrap();
        let basis = Basis::kernel(&x, 0.3, true).unwrap();
        for (r, &xr) in x.iter().enumerate() {
            let row = basis.features(xr);
            for m in 0..5 {
                assert!((phi[(r, m)] - row[m]).abs() < 1e-15, "({r}, {m})");
            }
        }
        // Several tiles, the last one partial, with and without the bias: every entry as
        // the kernel basis computes it, and the kernel block symmetric with a unit diagonal.
        let x: Vec<f64> = (0..2 * KERNEL_TILE + 5).map(|i| ((i * 37) % 71) as f64 / 7.0 - 5.0).collect();
        for bias in [true, false] {
            let phi = kernel_design(&x, 1.5, bias).unwrap();
            let basis = Basis::kernel(&x, 1.5, bias).unwrap();
            let offset = usize::from(bias);
            assert_eq!(phi.shape(), (x.len(), x.len() + offset));
            for (r, &xr) in x.iter().enumerate() {
                let row = basis.features(xr);
                for m in 0..phi.ncols() {
                    assert!((phi[(r, m)] - row[m]).abs() < 1e-15, "({r}, {m}), bias {bias}");
                }
                assert_eq!(phi[(r, r + offset)], 1.0);
                for (m, &xm) in x.iter().enumerate() {
                    assert_eq!(phi[(r, m + offset)], phi[(m, r + offset)]);
                    // The same argument through f64::exp: within 2 units in the last place.
                    let want = (-0.5 / (1.5 * 1.5) * (xr - xm).powi(2)).exp();
                    assert!((phi[(r, m + offset)] - want).abs() <= 2.0 * f64::EPSILON * want, "({r}, {m})");
                }
            }
        }
        assert_eq!(kernel_design(&[], 1.0, true).unwrap_err(), Error::NoData);
        assert_eq!(kernel_design(&x, 0.0, false).unwrap_err().code(), "out-of-range");
    }

    #[test]
    fn kernel_design_2d_by_hand() {
        // Points (0, 0), (3, 4), (1, 0), s = 5: ‖x₁ − x₂‖² = 25 → e^{−½}, ‖x₁ − x₃‖² = 1 →
        // e^{−1/50}, ‖x₂ − x₃‖² = 4 + 16 = 20 → e^{−2/5}.
        let x = [[0.0, 0.0], [3.0, 4.0], [1.0, 0.0]];
        let phi = kernel_design_2d(&x, 5.0, true).unwrap();
        assert_eq!(phi.shape(), (3, 4));
        assert!(phi.column(0).iter().all(|&v| v == 1.0));
        let want = [[1.0, (-0.5_f64).exp(), (-0.02_f64).exp()], [0.0, 1.0, (-0.4_f64).exp()]];
        for (r, row) in want.iter().enumerate() {
            for c in r..3 {
                assert!((phi[(r, c + 1)] - row[c]).abs() < 1e-15, "({r}, {c})");
                assert_eq!(phi[(r, c + 1)], phi[(c, r + 1)]);
            }
        }
        let plain = kernel_design_2d(&x, 5.0, false).unwrap();
        assert_eq!(plain, phi.columns(1, 3).into_owned());
        // One new point against the three centres: the same formula.
        let row = kernel_cross_2d(&[[0.0, 4.0]], &x, 5.0, false).unwrap();
        assert!((row[(0, 1)] - (-9.0_f64 / 50.0).exp()).abs() < 1e-15);
        assert_eq!(kernel_design_2d(&[], 1.0, true).unwrap_err(), Error::NoData);
        assert_eq!(kernel_design_2d(&x, 0.0, true).unwrap_err().code(), "out-of-range");
        assert_eq!(kernel_design_2d(&[[f64::NAN, 0.0]], 1.0, true).unwrap_err().code(), "not-finite");
    }
}
