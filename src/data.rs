//! Built-in, seeded data sets, so that every panel runs with no input and a lecture
//! plays the same every time.

use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Normal};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use crate::error::{Bound, Compact, Error, Result, ensure_all_finite, ensure_finite, ensure_non_negative};

/// Largest data set the generators produce (keeps N × M work interactive).
pub const MAX_POINTS: usize = 10_000;

/// Paired inputs xₙ and targets tₙ.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Dataset {
    /// Inputs x₁ … x_N.
    pub x: Vec<f64>,
    /// Targets t₁ … t_N.
    pub t: Vec<f64>,
}

impl Dataset {
    /// A data set from two equally long, finite arrays.
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] if the lengths differ, [`Error::NotFinite`] for NaN/∞.
    pub fn new(x: Vec<f64>, t: Vec<f64>) -> Result<Self> {
        if x.len() != t.len() {
            return Err(Error::DimensionMismatch { what: "targets t", expected: x.len(), got: t.len() });
        }
        ensure_all_finite("x", &x)?;
        ensure_all_finite("t", &t)?;
        Ok(Self { x, t })
    }

    /// N, the number of points.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// Appends the point (x, t).
    ///
    /// # Errors
    /// [`Error::NotFinite`] if either coordinate is NaN or ±∞.
    pub fn push(&mut self, x: f64, t: f64) -> Result<()> {
        ensure_finite("x", x)?;
        ensure_finite("t", t)?;
        self.x.push(x);
        self.t.push(t);
        Ok(())
    }
}

/// The noisy sinusoid of PRML §1.1 and §3.3: xₙ ~ U(0, 1), tₙ = sin(2πxₙ) + εₙ,
/// εₙ ~ N(0, σ²).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sinusoid {
    /// Number of points N.
    pub n: usize,
    /// Standard deviation σ of the noise (PRML uses 0.2–0.3).
    pub noise: f64,
    /// Seed of the PCG generator: the same seed gives the same points on every platform.
    pub seed: u64,
}

impl Sinusoid {
    /// The noise-free curve sin(2πx).
    pub fn truth(x: f64) -> f64 {
        (std::f64::consts::TAU * x).sin()
    }

    /// Draws the data set.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for N > [`MAX_POINTS`] or σ < 0; [`Error::NotFinite`] for σ.
    pub fn generate(&self) -> Result<Dataset> {
        noisy_function(self.n, self.noise, self.seed, |rng| rng.random::<f64>(), Self::truth)
    }
}

/// N inputs drawn by `draw`, then targets truth(xₙ) + N(0, σ²), all from one PCG64 seeded
/// with `seed` (inputs first, so a data set never changes with its noise level).
///
/// # Errors
/// [`Error::OutOfRange`] for N > [`MAX_POINTS`] or σ < 0; [`Error::NotFinite`] for σ.
fn noisy_function(
    n: usize,
    noise: f64,
    seed: u64,
    mut draw: impl FnMut(&mut Pcg64) -> f64,
    truth: fn(f64) -> f64,
) -> Result<Dataset> {
    check_count(n)?;
    let normal = normal_noise(noise)?;
    let mut rng = Pcg64::seed_from_u64(seed);
    let x: Vec<f64> = (0..n).map(|_| draw(&mut rng)).collect();
    let t = x.iter().map(|&xn| truth(xn) + normal.sample(&mut rng)).collect();
    Ok(Dataset { x, t })
}

/// `Ok` for N ≤ [`MAX_POINTS`], else [`Error::OutOfRange`] naming N.
fn check_count(n: usize) -> Result<()> {
    if n > MAX_POINTS {
        return Err(Error::OutOfRange {
            name: "N",
            value: n.to_string(),
            bound: Bound::AtMost { max: MAX_POINTS as u64 },
        });
    }
    Ok(())
}

/// N(0, σ²) noise, σ ≥ 0.
fn normal_noise(sd: f64) -> Result<Normal<f64>> {
    let sd = ensure_non_negative("σ", sd)?;
    Normal::new(0.0, sd).map_err(|_| Error::NotFinite { name: "σ".into(), value: Compact(sd).to_string() })
}

/// The sinc benchmark of Tipping (2001, §5.1) and Tipping & Faul (2003, §5):
/// xₙ ~ U(−10, 10), tₙ = sinc(xₙ) + εₙ with sinc x = sin x / x and εₙ ~ N(0, σ²)
/// (both papers: σ = 0.1, fitted on the Gaussian kernel of width 3 plus a bias).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sinc {
    /// Number of points N.
    pub n: usize,
    /// Standard deviation σ of the noise.
    pub noise: f64,
    /// Seed of the PCG generator.
    pub seed: u64,
}

impl Sinc {
    /// The inputs' interval.
    pub const DOMAIN: (f64, f64) = (-10.0, 10.0);

    /// The width s of the Gaussian kernel both papers fit these data with.
    pub const KERNEL_WIDTH: f64 = 3.0;

    /// The data of the RVM benchmarks (benches/rvm.rs natively, www/bench.html in the
    /// browser): N points, σ = 0.1, seed 0.
    pub fn benchmark(n: usize) -> Self {
        Self { n, noise: 0.1, seed: 0 }
    }

    /// The noise-free curve sinc x = sin x / x (1 at x = 0).
    pub fn truth(x: f64) -> f64 {
        if x == 0.0 { 1.0 } else { x.sin() / x }
    }

    /// Draws the data set: all N inputs first, then the N noise values, from one generator.
    ///
    /// # Errors
    /// As [`Sinusoid::generate`].
    pub fn generate(&self) -> Result<Dataset> {
        let (lo, hi) = Self::DOMAIN;
        noisy_function(self.n, self.noise, self.seed, |rng| rng.random_range(lo..hi), Self::truth)
    }
}

/// Counts of events over time with a smooth rate, for the Poisson RVM: xₙ ~ U(0, 1) (the
/// time), tₙ ~ Poisson(r(xₙ)) with r(x) = exp(1 + sin 2πx), between e⁰ ≈ 1 and e² ≈ 7.4
/// events per unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// Number of points N.
    pub n: usize,
    /// Seed of the PCG generator.
    pub seed: u64,
}

impl Counts {
    /// The rate r(x) = exp(1 + sin 2πx) the counts are drawn with.
    pub fn rate(x: f64) -> f64 {
        (1.0 + Sinusoid::truth(x)).exp()
    }

    /// Draws the data set: all N times first, then the N counts (by inversion of one
    /// uniform draw each), from one generator.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for N > [`MAX_POINTS`].
    pub fn generate(&self) -> Result<Dataset> {
        check_count(self.n)?;
        let mut rng = Pcg64::seed_from_u64(self.seed);
        let x: Vec<f64> = (0..self.n).map(|_| rng.random::<f64>()).collect();
        let t = x.iter().map(|&xn| poisson_count(Self::rate(xn), rng.random::<f64>())).collect();
        Ok(Dataset { x, t })
    }
}

/// The count k ~ Poisson(λ) whose cumulative probability first reaches `u` ∈ [0, 1):
/// the inversion method, summing p(k) = e^−λ λᵏ/k! term by term — a handful of terms for
/// the rates of [`Counts`] (λ ≤ e²), and at most 1000 (a u within rounding of 1).
fn poisson_count(lambda: f64, u: f64) -> f64 {
    let (mut k, mut p) = (0.0, (-lambda).exp());
    let mut cumulative = p;
    while u >= cumulative && k < 1000.0 {
        k += 1.0;
        p *= lambda / k;
        cumulative += p;
    }
    k
}

/// Rows of numbers from pasted or dropped CSV text: one row per line of exactly
/// `columns.len()` finite numbers separated by commas, semicolons, tabs or spaces; blank
/// lines are skipped, and so is a first line none of whose fields is a number (a header: a
/// first line with a number in it, such as `NaN,1`, is a bad row). A leading byte-order
/// mark (Excel's "CSV UTF-8") is not part of the first line. A field in double quotes, as
/// spreadsheets write them (`"0.2","0.7"`), is read without them.
///
/// Returns each row with its line number (1-based).
///
/// # Errors
/// [`Error::BadRow`] naming the first bad line and what a row holds; the caller's data
/// are untouched. [`Error::NoData`] if no row remains.
pub fn parse_rows(text: &str, columns: &[&str]) -> Result<Vec<(usize, Vec<f64>)>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = vec![];
    let mut seen_first = false;
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split([',', ';', '\t', ' ']).map(unquoted).filter(|f| !f.is_empty()).collect();
        if fields.is_empty() {
            continue;
        }
        let numbers: Option<Vec<f64>> =
            fields.iter().map(|f| f.parse::<f64>().ok().filter(|v| v.is_finite())).collect();
        let first = !seen_first;
        seen_first = true;
        match numbers {
            Some(row) if row.len() == columns.len() => rows.push((i + 1, ensure_row_in_range(i + 1, row, columns)?)),
            None if first && !fields.iter().any(|f| f.parse::<f64>().is_ok()) => {}
            _ => return Err(bad_row(i + 1, line, columns)),
        }
    }
    if rows.is_empty() {
        return Err(Error::NoData);
    }
    Ok(rows)
}

/// A CSV field without the spaces around it and without the double quotes around those.
fn unquoted(field: &str) -> &str {
    let field = field.trim();
    field.strip_prefix('"').and_then(|inner| inner.strip_suffix('"')).map_or(field, str::trim)
}

/// The numbers of row `line` under `columns`, if each is one the lab reads
/// ([`crate::error::in_range`]).
///
/// # Errors
/// [`Error::BeyondRange`] naming the first number beyond the range, its column and line.
fn ensure_row_in_range(line: usize, row: Vec<f64>, columns: &[&str]) -> Result<Vec<f64>> {
    match row.iter().zip(columns).find(|(v, _)| !crate::error::in_range(**v)) {
        Some((v, column)) => {
            Err(Error::BeyondRange { name: (*column).to_owned(), value: Compact(*v).to_string(), line: Some(line) })
        }
        None => Ok(row),
    }
}

/// [`Error::BadRow`] for line `line` with text `text`, whose rows hold `columns`.
pub fn bad_row(line: usize, text: &str, columns: &[&str]) -> Error {
    Error::BadRow { line, text: text.trim().chars().take(40).collect(), columns: columns.join(", "), classes: None }
}

/// The layouts of [`Mixture`]: for each class, the centres of its Gaussian components,
/// and the components' common standard deviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MixtureLayout {
    /// Ripley's two classes of two components each ([`TwoClass`]).
    Ripley,
    /// Two classes on the diagonals of a square (the exclusive-or): no linear boundary.
    Xor,
    /// Class 0 at the centre, class 1 on a ring of eight components around it.
    Rings,
    /// Two well-separated blobs: linearly separable, so only the prior keeps w finite.
    Separable,
    /// Three classes, one blob each, at the corners of a triangle, overlapping a little.
    Triangle,
    /// Three classes in horizontal bands, two components each.
    Bands,
}

/// Component centres of [`MixtureLayout::Ripley`], class 0 first.
const RIPLEY: [&[[f64; 2]]; 2] = [&TwoClass::MEANS[0], &TwoClass::MEANS[1]];

/// Centres of the eight ring components of [`MixtureLayout::Rings`] (radius 0.8).
const RING: [[f64; 2]; 8] = [
    [0.8, 0.0],
    [0.566, 0.566],
    [0.0, 0.8],
    [-0.566, 0.566],
    [-0.8, 0.0],
    [-0.566, -0.566],
    [0.0, -0.8],
    [0.566, -0.566],
];

impl MixtureLayout {
    /// Names, as in the URL.
    pub const NAMES: [&'static str; 6] = ["ripley", "xor", "rings", "separable", "triangle", "bands"];

    /// The layout called `name`.
    ///
    /// # Errors
    /// [`Error::UnknownChoice`] for a name not in [`MixtureLayout::NAMES`].
    pub fn from_name(name: &str) -> Result<Self> {
        let all = [Self::Ripley, Self::Xor, Self::Rings, Self::Separable, Self::Triangle, Self::Bands];
        all.into_iter().find(|l| l.name() == name).ok_or_else(|| Error::UnknownChoice {
            name: "layout",
            value: name.into(),
            options: Self::NAMES.join(", "),
        })
    }

    /// The layout's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The component centres of each class, class 0 first.
    pub fn centres(self) -> &'static [&'static [[f64; 2]]] {
        match self {
            Self::Ripley => &RIPLEY,
            Self::Xor => &[&[[-0.5, -0.5], [0.5, 0.5]], &[[-0.5, 0.5], [0.5, -0.5]]],
            Self::Rings => &[&[[0.0, 0.0]], &RING],
            Self::Separable => &[&[[-0.5, -0.3]], &[[0.5, 0.3]]],
            Self::Triangle => &[&[[0.0, 0.55]], &[[-0.5, -0.3]], &[[0.5, -0.3]]],
            Self::Bands => &[&[[-0.5, 0.6], [0.5, 0.6]], &[[-0.5, 0.0], [0.5, 0.0]], &[[-0.5, -0.6], [0.5, -0.6]]],
        }
    }

    /// The standard deviation of every coordinate of every component.
    pub fn spread(self) -> f64 {
        match self {
            Self::Ripley => TwoClass::spread(),
            Self::Xor => 0.2,
            Self::Rings => 0.14,
            Self::Separable => 0.15,
            Self::Triangle => 0.25,
            Self::Bands => 0.18,
        }
    }

    /// Number of classes K.
    pub fn classes(self) -> usize {
        self.centres().len()
    }
}

/// N labelled points from a [`MixtureLayout`]: the classes take turns (tₙ = n mod K), so
/// they are balanced, and each point picks one of its class's components uniformly, then
/// adds N(0, spread²) to each coordinate of its centre.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mixture {
    /// The layout.
    pub layout: MixtureLayout,
    /// Number of points N.
    pub n: usize,
    /// Seed of the PCG generator.
    pub seed: u64,
}

impl Mixture {
    /// Draws the data set; labels are 0 … K − 1 as f64.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for N > [`MAX_POINTS`].
    pub fn generate(&self) -> Result<LabelledPoints> {
        check_count(self.n)?;
        let normal = normal_noise(self.layout.spread())?;
        let centres = self.layout.centres();
        let mut rng = Pcg64::seed_from_u64(self.seed);
        let mut points = LabelledPoints::default();
        for n in 0..self.n {
            let class = n % centres.len();
            let mean = centres[class][rng.random_range(0..centres[class].len())];
            points.x.push([mean[0] + normal.sample(&mut rng), mean[1] + normal.sample(&mut rng)]);
            points.t.push(class as f64);
        }
        Ok(points)
    }
}

/// The straight line of PRML Fig 3.7: xₙ ~ U(−1, 1), tₙ = a₀ + a₁xₙ + εₙ with
/// a₀ = −0.3, a₁ = 0.5 and εₙ ~ N(0, σ²).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StraightLine {
    /// Number of points N.
    pub n: usize,
    /// Standard deviation σ of the noise (PRML: 0.2).
    pub noise: f64,
    /// Seed of the PCG generator.
    pub seed: u64,
}

impl StraightLine {
    /// The true weights (a₀, a₁).
    pub const WEIGHTS: (f64, f64) = (-0.3, 0.5);

    /// The noise-free line a₀ + a₁x.
    pub fn truth(x: f64) -> f64 {
        Self::WEIGHTS.0 + Self::WEIGHTS.1 * x
    }

    /// Draws the data set.
    ///
    /// # Errors
    /// As [`Sinusoid::generate`].
    pub fn generate(&self) -> Result<Dataset> {
        let unit = Sinusoid { n: self.n, noise: 0.0, seed: self.seed }.generate()?;
        let normal = normal_noise(self.noise)?;
        let mut rng = Pcg64::seed_from_u64(self.seed ^ 0x5EED_0003);
        let x: Vec<f64> = unit.x.iter().map(|&u| 2.0 * u - 1.0).collect();
        let t = x.iter().map(|&xn| Self::truth(xn) + normal.sample(&mut rng)).collect();
        Ok(Dataset { x, t })
    }
}

/// Labelled points in the plane: inputs xₙ ∈ ℝ² and binary targets tₙ ∈ {0, 1}.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LabelledPoints {
    /// Inputs x₁ … x_N.
    pub x: Vec<[f64; 2]>,
    /// Targets t₁ … t_N, each 0 or 1.
    pub t: Vec<f64>,
}

/// Two classes, each an equal mixture of two Gaussians in the plane, the layout of
/// Ripley's (1996) synthetic data (used by Tipping 2001 and for PRML Fig 7.12): class 0
/// around (−0.3, 0.7) and (0.4, 0.7), class 1 around (−0.7, 0.3) and (0.3, 0.3), every
/// component with covariance 0.03·I. The classes alternate (t = 0, 1, 0, …), so they are
/// balanced; each point picks one of its class's two components with probability ½.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TwoClass {
    /// Number of points N.
    pub n: usize,
    /// Seed of the PCG generator.
    pub seed: u64,
}

impl TwoClass {
    /// The component means, class 0 first.
    pub const MEANS: [[[f64; 2]; 2]; 2] = [[[-0.3, 0.7], [0.4, 0.7]], [[-0.7, 0.3], [0.3, 0.3]]];

    /// The Gaussian kernel width the lab uses on these data (the classification panel's
    /// default and the benchmarks').
    pub const KERNEL_WIDTH: f64 = 0.3;

    /// The standard deviation of every coordinate of every component, √0.03.
    pub fn spread() -> f64 {
        0.03_f64.sqrt()
    }

    /// Draws the data set.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for N > [`MAX_POINTS`].
    pub fn generate(&self) -> Result<LabelledPoints> {
        Mixture { layout: MixtureLayout::Ripley, n: self.n, seed: self.seed }.generate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_name_the_first_bad_line() {
        let rows = parse_rows("x,t\n0.1, 2\n\n0.5;-1\n3\t4\n", &["x", "t"]).unwrap();
        assert_eq!(rows, vec![(2, vec![0.1, 2.0]), (4, vec![0.5, -1.0]), (5, vec![3.0, 4.0])]);
        let err = parse_rows("x,t\n0.1,2\n0.2,abc\n", &["x", "t"]).unwrap_err();
        assert_eq!(err.to_string(), "line 3 (0.2,abc) is not a row of x, t");
        assert_eq!(err.code(), "bad-row");
        assert_eq!(parse_rows("1,2,3\n", &["x", "t"]).unwrap_err().to_string(), "line 1 (1,2,3) is not a row of x, t");
        assert_eq!(
            parse_rows("x,t\n0,NaN\n", &["x", "t"]).unwrap_err().to_string(),
            "line 2 (0,NaN) is not a row of x, t"
        );
        assert_eq!(parse_rows("x,t\n", &["x", "t"]).unwrap_err().code(), "no-data");
        // A lone first line with a number in it is a row, not a header.
        for text in ["NaN,1", "inf,1\n", "<b>x</b>,1"] {
            let err = parse_rows(text, &["x", "t"]).unwrap_err();
            assert_eq!(err.to_string(), format!("line 1 ({}) is not a row of x, t", text.trim()));
        }
    }

    #[test]
    fn mixtures_are_balanced_and_near_their_centres() {
        for (i, name) in MixtureLayout::NAMES.iter().enumerate() {
            let layout = MixtureLayout::from_name(name).unwrap();
            assert_eq!(layout as usize, i);
            let k = layout.classes();
            let d = Mixture { layout, n: 300, seed: 2 }.generate().unwrap();
            assert_eq!(d, Mixture { layout, n: 300, seed: 2 }.generate().unwrap());
            for class in 0..k {
                let members: Vec<&[f64; 2]> =
                    d.x.iter().zip(&d.t).filter(|&(_, &t)| t == class as f64).map(|(x, _)| x).collect();
                assert_eq!(members.len(), 300 / k, "{name} class {class}");
                // Every point lies within 5 spreads of one of its class's centres.
                for x in members {
                    let near = layout.centres()[class]
                        .iter()
                        .any(|c| ((x[0] - c[0]).powi(2) + (x[1] - c[1]).powi(2)).sqrt() < 5.0 * layout.spread() * 1.5);
                    assert!(near, "{name}: {x:?}");
                }
            }
        }
        assert_eq!(MixtureLayout::from_name("spiral").unwrap_err().code(), "unknown-choice");
    }

    #[test]
    fn seeded_and_reproducible() {
        let generator = Sinusoid { n: 25, noise: 0.3, seed: 7 };
        let a = generator.generate().unwrap();
        assert_eq!(a, generator.generate().unwrap());
        assert_ne!(a, Sinusoid { seed: 8, ..generator }.generate().unwrap());
        assert_eq!(a.len(), 25);
        assert!(a.x.iter().all(|x| (0.0..1.0).contains(x)));
    }

    #[test]
    fn zero_noise_lies_on_the_curve() {
        let d = Sinusoid { n: 10, noise: 0.0, seed: 1 }.generate().unwrap();
        for (x, t) in d.x.iter().zip(&d.t) {
            assert_eq!(*t, Sinusoid::truth(*x));
        }
    }

    #[test]
    fn noise_has_the_stated_spread() {
        // Sample standard deviation of 10 000 residuals: within 3% of σ = 0.3.
        let d = Sinusoid { n: MAX_POINTS, noise: 0.3, seed: 3 }.generate().unwrap();
        let r: Vec<f64> = d.x.iter().zip(&d.t).map(|(x, t)| t - Sinusoid::truth(*x)).collect();
        let mean = r.iter().sum::<f64>() / r.len() as f64;
        let sd = (r.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (r.len() - 1) as f64).sqrt();
        assert!((sd - 0.3).abs() < 0.009, "sd = {sd}");
        assert!(mean.abs() < 0.01, "mean = {mean}");
    }

    #[test]
    fn the_straight_line_lies_on_its_truth_without_noise() {
        let d = StraightLine { n: 20, noise: 0.0, seed: 4 }.generate().unwrap();
        assert!(d.x.iter().all(|x| (-1.0..1.0).contains(x)));
        for (x, t) in d.x.iter().zip(&d.t) {
            assert!((t - (-0.3 + 0.5 * x)).abs() < 1e-15);
        }
    }

    #[test]
    fn sinc_is_seeded_on_its_domain_with_the_stated_noise() {
        let generator = Sinc { n: 4000, noise: 0.1, seed: 5 };
        let d = generator.generate().unwrap();
        assert_eq!(d, generator.generate().unwrap());
        assert_ne!(d, Sinc { seed: 6, ..generator }.generate().unwrap());
        assert!(d.x.iter().all(|x| (-10.0..10.0).contains(x)));
        // Both halves of the domain are used: the inputs are spread over all of it.
        assert!(d.x.iter().any(|&x| x < -9.0) && d.x.iter().any(|&x| x > 9.0));
        let r: Vec<f64> = d.x.iter().zip(&d.t).map(|(x, t)| t - Sinc::truth(*x)).collect();
        let sd = (r.iter().map(|e| e * e).sum::<f64>() / r.len() as f64).sqrt();
        assert!((sd - 0.1).abs() < 0.005, "sd = {sd}");
        // sinc by hand: 1 at 0, sin(π)/π ≈ 0 at π, sin(π/2)/(π/2) = 2/π.
        assert_eq!(Sinc::truth(0.0), 1.0);
        assert!(Sinc::truth(std::f64::consts::PI).abs() < 1e-16);
        assert!((Sinc::truth(std::f64::consts::FRAC_PI_2) - 2.0 / std::f64::consts::PI).abs() < 1e-16);
        let clean = Sinc { n: 10, noise: 0.0, seed: 1 }.generate().unwrap();
        assert!(clean.x.iter().zip(&clean.t).all(|(x, t)| *t == Sinc::truth(*x)));
        assert_eq!(Sinc { n: MAX_POINTS + 1, noise: 0.1, seed: 0 }.generate().unwrap_err().code(), "out-of-range");
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert_eq!(Sinusoid { n: MAX_POINTS + 1, noise: 0.3, seed: 0 }.generate().unwrap_err().code(), "out-of-range");
        assert_eq!(Sinusoid { n: 3, noise: -1.0, seed: 0 }.generate().unwrap_err().code(), "out-of-range");
        assert_eq!(Dataset::new(vec![0.0], vec![]).unwrap_err().code(), "dimension-mismatch");
        assert_eq!(Dataset::default().push(f64::INFINITY, 0.0).unwrap_err().code(), "not-finite");
    }
    #[test]
    fn two_class_is_seeded_balanced_and_around_its_means() {
        let generator = TwoClass { n: 4000, seed: 11 };
        let d = generator.generate().unwrap();
        assert_eq!(d, generator.generate().unwrap());
        assert_ne!(d, TwoClass { seed: 12, ..generator }.generate().unwrap());
        assert_eq!((d.x.len(), d.t.len()), (4000, 4000));
        assert_eq!(d.t.iter().filter(|&&t| t == 1.0).count(), 2000);
        assert!(d.t.iter().all(|&t| t == 0.0 || t == 1.0));
        // Each class's mean is the average of its two component means, within 3 standard
        // errors (√(0.03 + spread of the means)/√2000 < 0.01 per coordinate).
        for class in 0..2 {
            let want = TwoClass::MEANS[class];
            let want = [(want[0][0] + want[1][0]) / 2.0, (want[0][1] + want[1][1]) / 2.0];
            let xs: Vec<&[f64; 2]> =
                d.x.iter().zip(&d.t).filter(|&(_, &t)| t == class as f64).map(|(x, _)| x).collect();
            for k in 0..2 {
                let mean = xs.iter().map(|x| x[k]).sum::<f64>() / xs.len() as f64;
                assert!((mean - want[k]).abs() < 0.03, "class {class}, coordinate {k}: {mean}");
            }
        }
        // Class 0 lies above class 1 (y-means 0.7 against 0.3): most points are on their
        // side of y = 0.5.
        let right = d.x.iter().zip(&d.t).filter(|&(x, &t)| (x[1] < 0.5) == (t == 1.0)).count();
        assert!(right as f64 / 4000.0 > 0.85, "{right}");
        assert_eq!(TwoClass { n: MAX_POINTS + 1, seed: 0 }.generate().unwrap_err().code(), "out-of-range");
    }
}
