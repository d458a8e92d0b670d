//! What the user sets on a panel ([`Settings`]), and the groups of parameters several
//! panels share: the built-in data, the basis, the precisions, and the data of a stepping
//! panel together with the frame shown ([`RunData`]). A panel's settings hold the groups it
//! needs and ask each in turn whether a key is its own.

use super::params::{Control, ParamSpec, parse_choice, parse_integer, parse_real, parse_toggle, toggle_text};
use super::report::{Sentence, Word};
use crate::basis::{
    Basis, BasisSpec, FORMULA_PRESETS, Family, MAX_BASIS_FUNCTIONS, MAX_FORMULA_LEN, ensure_formula_length,
};
use crate::data::{Counts, Dataset, MAX_POINTS, Sinusoid};
use crate::error::{Bound, Compact, Error, Result, ensure_in_range, ensure_non_negative, ensure_positive};
use crate::rvm::likelihood::Likelihood;
use crate::rvm::{FastSettings, Selection};
use std::rc::Rc;

/// What the user set on a panel, addressable by parameter key (as in the URL).
pub trait Settings: Clone + Default {
    /// The visible parameters, in display order.
    fn params(&self) -> Vec<ParamSpec>;
    /// Sets `key` from text, checking the value on its own.
    ///
    /// # Errors
    /// A parse or range error, or [`Error::UnknownParameter`].
    fn assign(&mut self, key: &str, text: &str) -> Result<()>;
    /// The value of `key` as text, in the format [`Settings::assign`] reads.
    fn value(&self, key: &str) -> Option<String>;
    /// Keys that are part of the state without a control (e.g. clicked points), when set.
    fn hidden_keys(&self) -> Vec<&'static str> {
        vec![]
    }
    /// Whether `key` matters in this state (the page greys out the others).
    fn is_active(&self, _key: &str) -> bool {
        true
    }
    /// Every key with its value: the visible parameters, then the hidden ones (the URL).
    fn value_list(&self) -> Vec<(String, String)> {
        value_list(&self.params(), &self.hidden_keys(), &|key| self.value(key))
    }
}

/// Each key of `params`, then of `hidden`, with its `value` (keys without one left out):
/// [`Settings::value_list`], compiled once rather than once per panel.
fn value_list(params: &[ParamSpec], hidden: &[&str], value: &dyn Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    let mut list = vec![];
    for key in params.iter().map(|p| p.key).chain(hidden.iter().copied()) {
        if let Some(v) = value(key) {
            list.push((key.to_owned(), v));
        }
    }
    list
}

/// A set of parameters with their own keys.
pub trait ParamGroup {
    /// The visible parameters of the group.
    fn params(&self) -> Vec<ParamSpec>;
    /// Sets `key` from text; `None` if the key is not the group's.
    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>>;
    /// The value of `key` as text; `None` if the key is not the group's.
    fn value(&self, key: &str) -> Option<String>;
    /// The group's keys without a control (e.g. clicked points), when set.
    fn hidden_keys(&self) -> Vec<&'static str> {
        vec![]
    }
    /// Whether a change of `key` changes the data a run is computed from (so that a
    /// stepping panel starts again); `false` for e.g. the class of the next point.
    fn changes_data(&self, _key: &str) -> bool {
        true
    }
}

/// Inputs shown, and the domain over which bases are spread.
pub const X_RANGE: (f64, f64) = (0.0, 1.0);

/// Most data points a live panel takes (generated plus added): enough for any lecture, few
/// enough that every panel recomputes within a frame or two.
pub const LIVE_MAX_POINTS: usize = 1_000;

/// Held-out points of [`DataParams::test_set`].
pub const TEST_POINTS: usize = 100;
/// The test set's seed is the data seed plus this.
pub const TEST_SEED_OFFSET: u64 = 1_000_003;

/// Clicked points are rounded to this many decimals, so the URL holds them exactly.
const POINT_DECIMALS: i32 = 4;

/// Key of the points added by clicking, `x:t,x:t,…` in the URL.
pub const POINTS_KEY: &str = "points";

/// Data a press on the plot or the add-point form extends with the point (x, y) of the
/// interactive chart: (x, t) for regression, (x₁, x₂) for classification.
pub trait PointSink {
    /// Adds the point.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN or ±∞, or a limit of the data.
    fn add_point(&mut self, x: f64, y: f64) -> Result<()>;
    /// Replaces the data with the rows of CSV text (pasted or dropped).
    ///
    /// # Errors
    /// [`Error::BadRow`] naming the first bad line, or a limit of the data; nothing changes.
    fn import_csv(&mut self, text: &str) -> Result<()>;
    /// The data as CSV text, a header line first.
    ///
    /// # Errors
    /// Whatever generating the data refuses.
    fn to_csv(&self) -> Result<String>;
    /// Every point, generated and added, as the chart plots it ((x, t) or (x₁, x₂)).
    ///
    /// # Errors
    /// Whatever generating the data refuses.
    fn points(&self) -> Result<Vec<(f64, f64)>>;
    /// Moves point `index` of [`PointSink::points`] to (x, y) (rounded as an added point
    /// is; a point keeps its class). The generated points become points of their own first,
    /// so that the others stay where they are.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for no such point, [`Error::NotFinite`] for NaN or ±∞.
    fn move_point(&mut self, index: usize, x: f64, y: f64) -> Result<()>;
    /// Removes point `index` of [`PointSink::points`] (the generated ones become points of
    /// their own first).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for no such point.
    fn remove_point(&mut self, index: usize) -> Result<()>;
}

/// `v` rounded to `decimals` decimals, as a point placed by hand is (so that the URL holds
/// it exactly).
pub fn round_to(v: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (v * scale).round() / scale
}

/// The columns of regression data.
const XT: [&str; 2] = ["x", "t"];

impl PointSink for DataParams {
    fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        DataParams::add_point(self, x, t)
    }

    /// The rows (x, t) become the data: no generated points, every row an added one (of
    /// counts, each t a whole count, else [`Error::BadCount`] naming its line).
    fn import_csv(&mut self, text: &str) -> Result<()> {
        let rows = crate::data::parse_rows(text, &XT)?;
        if rows.len() > self.max_n {
            let bound = Bound::AtMost { max: self.max_n as u64 };
            return Err(Error::OutOfRange { name: "N", value: rows.len().to_string(), bound });
        }
        if self.source == Source::Counts
            && let Some((line, row)) = rows.iter().find(|(_, row)| !COUNT.admits(row[1]))
        {
            let text = format!("{}, {}", row[0], row[1]);
            return Err(Error::BadCount { line: *line, text, max: COUNT.largest_target() });
        }
        self.n = 0;
        self.extra = rows.into_iter().map(|(_, row)| (row[0], row[1])).collect();
        Ok(())
    }

    fn to_csv(&self) -> Result<String> {
        let data = self.dataset()?;
        let rows = data.x.iter().zip(&data.t).map(|(x, t)| format!("{},{}\n", Compact(*x), Compact(*t)));
        Ok(std::iter::once("x,t\n".to_owned()).chain(rows).collect())
    }

    fn points(&self) -> Result<Vec<(f64, f64)>> {
        let data = self.dataset()?;
        Ok(data.x.into_iter().zip(data.t).collect())
    }

    fn move_point(&mut self, index: usize, x: f64, t: f64) -> Result<()> {
        let point = self.placed(x, t)?;
        let (added, index) = self.own_points(index)?;
        added[index] = point;
        Ok(())
    }

    fn remove_point(&mut self, index: usize) -> Result<()> {
        let (added, index) = self.own_points(index)?;
        added.remove(index);
        Ok(())
    }
}

impl DataParams {
    /// The added points and where point `index` of [`PointSink::points`] is among them
    /// ([`own_point`]).
    fn own_points(&mut self, index: usize) -> Result<(&mut Vec<(f64, f64)>, usize)> {
        let points = PointSink::points(self)?;
        own_point(&mut self.n, &mut self.extra, points, index)
    }
}

/// The added points of data with `n` generated ones followed by `extra`, and where point
/// `index` of them all (`points`) is among them, after checking that it exists. An added
/// point is one already (the generated data stay generated); a generated one makes every
/// point an added one first (N = 0), so that the others stay where they are.
///
/// # Errors
/// [`Error::OutOfRange`] for no such point.
pub fn own_point<'a, P>(
    n: &mut usize,
    extra: &'a mut Vec<P>,
    points: Vec<P>,
    index: usize,
) -> Result<(&'a mut Vec<P>, usize)> {
    crate::error::ensure_index("point", index, points.len())?;
    if index >= *n {
        return Ok((extra, index - *n));
    }
    *n = 0;
    *extra = points;
    Ok((extra, index))
}

/// What generates a panel's data, and what its targets are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The noisy sinusoid ([`Sinusoid`], N, σ and seed); a target is any finite number.
    Sinusoid,
    /// Counts of events ([`Counts`], N and seed); a target is a whole count from 0 to
    /// [`crate::rvm::likelihood::MAX_COUNT`] (a placed point's t is rounded to one).
    Counts,
}

/// The targets of [`Source::Counts`]: a Poisson likelihood's.
const COUNT: Likelihood = Likelihood::Poisson;

/// The noisy sinusoid (N, σ, seed), or counts (N, seed), plus the points the user added.
#[derive(Debug, Clone, PartialEq)]
pub struct DataParams {
    /// Number of generated points N.
    pub n: usize,
    /// Standard deviation of the noise in the generated data.
    pub noise: f64,
    /// Seed of the generated data.
    pub seed: u64,
    /// Points the user added, after the generated ones.
    pub extra: Vec<(f64, f64)>,
    /// Most points in all (this panel's limit, at most [`MAX_POINTS`]).
    pub max_n: usize,
    /// What generates the data.
    pub source: Source,
}

impl DataParams {
    /// N generated points with noise σ from `seed`, no added points, at most
    /// [`LIVE_MAX_POINTS`] in all.
    pub fn new(n: usize, noise: f64, seed: u64) -> Self {
        Self { n, noise, seed, extra: vec![], max_n: LIVE_MAX_POINTS, source: Source::Sinusoid }
    }

    /// N counts from `seed` ([`Counts`]), no added points, at most [`LIVE_MAX_POINTS`] in
    /// all.
    pub fn counts(n: usize, seed: u64) -> Self {
        Self { source: Source::Counts, ..Self::new(n, 0.0, seed) }
    }

    /// The same with at most `max_n` points in all (for panels whose work grows fast with N).
    pub fn with_max_n(self, max_n: usize) -> Self {
        Self { max_n: max_n.min(MAX_POINTS), ..self }
    }

    /// The generated points followed by the added ones, at most `max_n` in all.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the limit for too many points.
    pub fn dataset(&self) -> Result<Dataset> {
        let total = self.n.saturating_add(self.extra.len());
        if total > self.max_n {
            let bound = Bound::AtMost { max: self.max_n as u64 };
            return Err(Error::OutOfRange { name: "N", value: total.to_string(), bound });
        }
        let mut data = match self.source {
            Source::Sinusoid => Sinusoid { n: self.n, noise: self.noise, seed: self.seed }.generate()?,
            Source::Counts => Counts { n: self.n, seed: self.seed }.generate()?,
        };
        for &(x, t) in &self.extra {
            data.push(x, t)?;
        }
        Ok(data)
    }

    /// Held-out points for test errors: [`TEST_POINTS`] from the same generator (same
    /// noise) with the seed moved by [`TEST_SEED_OFFSET`], so they never repeat the data.
    ///
    /// # Errors
    /// As [`Sinusoid::generate`].
    pub fn test_set(&self) -> Result<Dataset> {
        Sinusoid { n: TEST_POINTS, noise: self.noise, seed: self.seed.wrapping_add(TEST_SEED_OFFSET) }.generate()
    }

    /// Adds (x, t) as [`DataParams::placed`] places it.
    ///
    /// # Errors
    /// As [`DataParams::placed`].
    pub fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        let point = self.placed(x, t)?;
        self.extra.push(point);
        Ok(())
    }

    /// The point (x, t) as a point placed by hand is kept: x and t rounded to
    /// [`POINT_DECIMALS`] decimals, or for counts t rounded to the nearest whole count ≥ 0.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN or ±∞, [`Error::BeyondRange`] beyond
    /// [`crate::error::MAX_MAGNITUDE`]; for counts, [`Error::OutOfRange`] for a t that rounds
    /// above [`crate::rvm::likelihood::MAX_COUNT`].
    pub fn placed(&self, x: f64, t: f64) -> Result<(f64, f64)> {
        let (x, t) = (round_to(ensure_in_range("x", x)?, POINT_DECIMALS), ensure_in_range("t", t)?);
        match self.source {
            Source::Sinusoid => Ok((x, round_to(t, POINT_DECIMALS))),
            // + 0.0 turns the −0 of a count rounded up from below zero into 0.
            Source::Counts => Ok((x, check_count(t.round().max(0.0) + 0.0)?)),
        }
    }
}

/// `t` if it is a whole count of [`Source::Counts`], else [`Error::OutOfRange`] naming t.
fn check_count(t: f64) -> Result<f64> {
    if COUNT.admits(t) {
        return Ok(t);
    }
    Err(Error::OutOfRange {
        name: "t",
        value: Compact(t).to_string(),
        bound: Bound::WholeBetween { min: 0, max: COUNT.largest_target() },
    })
}

/// The largest noise σ of generated data: the data span about ±1, and a σ far beyond
/// (with β = 1/σ² fixed) makes bands wider than f64 holds.
const MAX_NOISE: u64 = 1000;

/// σ ≥ 0, at most [`MAX_NOISE`].
fn check_noise(sigma: f64) -> Result<f64> {
    let sigma = ensure_non_negative("σ", sigma)?;
    if sigma > MAX_NOISE as f64 {
        return Err(Error::OutOfRange {
            name: "σ",
            value: Compact(sigma).to_string(),
            bound: Bound::AtMost { max: MAX_NOISE },
        });
    }
    Ok(sigma)
}

/// `spec` with the slider of `key` ending at `max`, the limit its panel checks (so a slider
/// never offers a value the panel refuses).
fn with_max(spec: ParamSpec, key: &str, max: usize) -> ParamSpec {
    match spec.control {
        Control::Integer { min, .. } if spec.key == key => {
            ParamSpec { control: Control::Integer { min, max: max as u64 }, ..spec }
        }
        _ => spec,
    }
}

const DATA_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "N", symbol: "N", control: Control::Integer { min: 0, max: 200 } },
    ParamSpec { key: "noise", symbol: "σ", control: Control::Real { min: 0.0, max: 1.0, log: false } },
    ParamSpec { key: "seed", symbol: "seed", control: Control::Integer { min: 0, max: 9999 } },
];

impl ParamGroup for DataParams {
    /// `DATA_PARAMS` (counts have no noise σ), the N slider ending at this panel's limit.
    fn params(&self) -> Vec<ParamSpec> {
        let counts = self.source == Source::Counts;
        let own = DATA_PARAMS.iter().filter(|spec| !(counts && spec.key == "noise"));
        own.map(|&spec| with_max(spec, "N", self.max_n)).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        let result = match key {
            "N" => parse_integer("N", text, 0, self.max_n as u64).map(|n| self.n = n as usize),
            "noise" if self.source == Source::Sinusoid => {
                parse_real("σ", text).and_then(check_noise).map(|v| self.noise = v)
            }
            "seed" => parse_integer("seed", text, 0, u64::from(u32::MAX)).map(|s| self.seed = s),
            POINTS_KEY => self.parse_points(text).map(|p| self.extra = p),
            _ => return None,
        };
        Some(result)
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "N" => self.n.to_string(),
            "noise" if self.source == Source::Sinusoid => Compact(self.noise).to_string(),
            "seed" => self.seed.to_string(),
            POINTS_KEY => {
                self.extra.iter().map(|(x, t)| format!("{}:{}", Compact(*x), Compact(*t))).collect::<Vec<_>>().join(",")
            }
            _ => return None,
        })
    }

    /// The key of the added points, when there are any.
    fn hidden_keys(&self) -> Vec<&'static str> {
        if self.extra.is_empty() { vec![] } else { vec![POINTS_KEY] }
    }
}

impl DataParams {
    /// Parses `x:t,x:t,…` (empty text: no points); for counts each t must be a whole count.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for a pair that is not two numbers; [`Error::OutOfRange`] for a
    /// t of counts that is not a count.
    fn parse_points(&self, text: &str) -> Result<Vec<(f64, f64)>> {
        text.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|pair| {
                let (x, t) = pair
                    .split_once(':')
                    .ok_or_else(|| Error::NotFinite { name: "point".into(), value: pair.into() })?;
                let t = parse_real("t", t)?;
                Ok((parse_real("x", x)?, if self.source == Source::Counts { check_count(t)? } else { t }))
            })
            .collect()
    }
}

/// The basis family and its shape parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct BasisParams {
    /// What the basis is made of.
    pub spec: BasisSpec,
    /// The families this panel offers.
    pub families: &'static [&'static str],
    /// Most functions M (this panel's limit, at most [`MAX_BASIS_FUNCTIONS`]).
    pub max_m: usize,
}

impl BasisParams {
    /// Every family, up to [`MAX_BASIS_FUNCTIONS`] functions.
    pub fn new(spec: BasisSpec) -> Self {
        Self { spec, families: &Family::NAMES, max_m: MAX_BASIS_FUNCTIONS }
    }

    /// The same with at most `max_m` functions (for panels whose work grows fast with M).
    pub fn with_max_m(self, max_m: usize) -> Self {
        Self { max_m: max_m.min(MAX_BASIS_FUNCTIONS), ..self }
    }

    /// The basis over [`X_RANGE`]; `training_x` feeds the kernel family.
    ///
    /// # Errors
    /// Whatever [`Basis::from_spec`] refuses; [`Error::OutOfRange`] naming the panel's
    /// limit when the kernel basis (one function per point) has more than `max_m`.
    pub fn basis(&self, training_x: &[f64]) -> Result<Basis> {
        let basis = Basis::from_spec(&self.spec, X_RANGE, training_x)?;
        if basis.len() > self.max_m {
            let bound = Bound::WholeBetween { min: 1, max: self.max_m as u64 };
            return Err(Error::OutOfRange { name: "M", value: basis.len().to_string(), bound });
        }
        Ok(basis)
    }

    /// Whether `key` matters for the chosen family.
    pub fn is_active(&self, key: &str) -> bool {
        let family = self.spec.family;
        match key {
            "s" => family.uses_width(),
            "degree" => family.uses_degree(),
            "formula" => family == Family::Formula,
            "M" => family.count_is_free(),
            _ => true,
        }
    }
}

/// The sentence of a chart's summary that names a typed formula (`summary.basis-formula`),
/// from settings' values of `basis` and `formula`, when the basis is the formula family:
/// every panel with a basis describes its chart with the functions the reader typed, as typed.
pub fn formula_sentence(basis: Option<String>, formula: Option<String>) -> Option<Sentence> {
    let formula = formula.filter(|_| basis.as_deref() == Some(Family::Formula.name()))?;
    Some(Sentence::new("basis-formula", [("formula", Word::Text(formula))]))
}

const BASIS_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "formula",
        symbol: "φ(x)",
        control: Control::Text { max_len: MAX_FORMULA_LEN, presets: FORMULA_PRESETS },
    },
    ParamSpec { key: "M", symbol: "M", control: Control::Integer { min: 1, max: 30 } },
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.01, max: 1.0, log: true } },
    ParamSpec { key: "degree", symbol: "degree", control: Control::Integer { min: 0, max: 5 } },
    ParamSpec { key: "bias", symbol: "bias", control: Control::Toggle },
];

impl ParamGroup for BasisParams {
    fn params(&self) -> Vec<ParamSpec> {
        let family = ParamSpec { key: "basis", symbol: "basis", control: Control::Choice { options: self.families } };
        let basis = BASIS_PARAMS.iter().map(|&spec| with_max(spec, "M", self.max_m));
        std::iter::once(family).chain(basis).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        let max_m = self.max_m;
        let spec = &mut self.spec;
        let result = match key {
            "basis" => parse_choice("basis", text, self.families).and_then(|name| {
                spec.family = Family::from_name(name).ok_or_else(|| Error::UnknownParameter { key: key.into() })?;
                Ok(())
            }),
            "M" => parse_integer("M", text, 1, max_m as u64).map(|m| spec.m = m as usize),
            "s" => parse_real("s", text).and_then(|v| ensure_positive("s", v)).map(|v| spec.width = v),
            "degree" => parse_integer("degree", text, 0, 5).map(|d| spec.degree = d as usize),
            "formula" => ensure_formula_length(text).map(|()| spec.formula = Rc::from(text)),
            "bias" => parse_toggle("bias", text).map(|b| spec.bias = b),
            _ => return None,
        };
        Some(result)
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "basis" => self.spec.family.name().to_owned(),
            "M" => self.spec.m.to_string(),
            "s" => Compact(self.spec.width).to_string(),
            "degree" => self.spec.degree.to_string(),
            "formula" => self.spec.formula.to_string(),
            "bias" => toggle_text(self.spec.bias).to_owned(),
            _ => return None,
        })
    }
}

/// The prior precision α and the noise precision β of a Bayesian model, on log sliders.
#[derive(Debug, Clone, PartialEq)]
pub struct PrecisionParams {
    /// Prior precision α.
    pub alpha: f64,
    /// Noise precision β.
    pub beta: f64,
    /// The two sliders (their ranges suit the panel).
    pub specs: &'static [ParamSpec; 2],
}

impl PrecisionParams {
    /// The checked pair, for the models.
    ///
    /// # Errors
    /// None in practice: assignments keep both positive; checked again all the same.
    pub fn hyperparameters(&self) -> Result<crate::bayes::Hyperparameters> {
        crate::bayes::Hyperparameters::new(self.alpha, self.beta)
    }
}

impl ParamGroup for PrecisionParams {
    fn params(&self) -> Vec<ParamSpec> {
        self.specs.to_vec()
    }

    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        let (slot, symbol) = match key {
            "alpha" => (&mut self.alpha, "α"),
            "beta" => (&mut self.beta, "β"),
            _ => return None,
        };
        Some(parse_real(symbol, text).and_then(|v| ensure_positive(symbol, v)).map(|v| *slot = v))
    }

    fn value(&self, key: &str) -> Option<String> {
        match key {
            "alpha" => Some(Compact(self.alpha).to_string()),
            "beta" => Some(Compact(self.beta).to_string()),
            _ => None,
        }
    }
}

/// Settings made of a basis, the data, and a panel's own parameters (shown between the
/// two). Every such type is a [`Settings`] through the impl below, so the panels write only
/// what is their own.
pub trait ModelSettings: Clone + Default {
    /// The basis group and the data group.
    fn groups(&self) -> (&BasisParams, &DataParams);
    /// Both groups, mutably.
    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams);
    /// The panel's own parameters.
    fn own_params(&self) -> Vec<ParamSpec> {
        vec![]
    }
    /// Sets one of the panel's own parameters; `None` if `key` is not one.
    fn assign_own(&mut self, _key: &str, _text: &str) -> Option<Result<()>> {
        None
    }
    /// One of the panel's own values; `None` if `key` is not one.
    fn value_own(&self, _key: &str) -> Option<String> {
        None
    }
    /// The panel's own state without a control, when set.
    fn hidden_own(&self) -> Vec<&'static str> {
        vec![]
    }
    /// Called after a basis parameter changed (the functions may have been renumbered).
    fn basis_changed(&mut self) {}
}

impl<T: ModelSettings> Settings for T {
    fn params(&self) -> Vec<ParamSpec> {
        let (basis, data) = self.groups();
        let mut params = basis.params();
        params.extend(self.own_params());
        params.extend(data.params());
        params
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        if let Some(result) = self.assign_own(key, text) {
            return result;
        }
        let (basis, data) = self.groups_mut();
        let is_basis = basis.value(key).is_some();
        assign_in(&mut [basis, data], key, text)?;
        if is_basis {
            self.basis_changed();
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        let (basis, data) = self.groups();
        self.value_own(key).or_else(|| value_in(&[basis, data], key))
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        let mut keys = self.groups().1.hidden_keys();
        keys.extend(self.hidden_own());
        keys
    }

    fn is_active(&self, key: &str) -> bool {
        self.groups().0.is_active(key)
    }
}

/// The data a stepping panel's run is computed from, and the frame of the run shown
/// (`step` in the URL). A change of the data — a key of theirs, a clicked point, the
/// add-point form, a CSV — starts the run again at frame 0; the frame is followed in place
/// ([`super::panel::Panel::FOLLOWS`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RunData<D> {
    /// The data.
    pub data: D,
    /// The frame shown.
    pub frame: usize,
    /// The frame's control: its range and the values offered as buttons.
    frame_spec: ParamSpec,
}

/// Key of the frame shown.
pub const FRAME_KEY: &str = "step";

/// Key of the moved centres ([`super::centres`]).
pub const CENTRES_KEY: &str = "centres";

impl<D> RunData<D> {
    /// `data` at frame 0, the frame set on a slider over 0..=`max` with buttons for
    /// `presets`.
    pub fn new(data: D, max: u64, presets: &'static [u64]) -> Self {
        let control = Control::Steps { min: 0, max, presets };
        Self { data, frame: 0, frame_spec: ParamSpec { key: FRAME_KEY, symbol: "k", control } }
    }

    /// The frame's parameter.
    pub fn frame_param(&self) -> ParamSpec {
        self.frame_spec
    }

    /// The largest frame the setting admits.
    fn max_frame(&self) -> u64 {
        match self.frame_spec.control {
            Control::Steps { max, .. } => max,
            _ => u64::MAX,
        }
    }
}

impl<D: ParamGroup> ParamGroup for RunData<D> {
    /// The frame, then the data's.
    fn params(&self) -> Vec<ParamSpec> {
        std::iter::once(self.frame_spec).chain(self.data.params()).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        if key == FRAME_KEY {
            let frame = parse_integer(self.frame_spec.symbol, text, 0, self.max_frame());
            return Some(frame.map(|k| self.frame = k as usize));
        }
        let result = self.data.assign(key, text)?;
        if result.is_ok() && self.data.changes_data(key) {
            self.frame = 0;
        }
        Some(result)
    }

    fn value(&self, key: &str) -> Option<String> {
        if key == FRAME_KEY { Some(self.frame.to_string()) } else { self.data.value(key) }
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.data.hidden_keys()
    }
}

impl<D: PointSink> PointSink for RunData<D> {
    fn add_point(&mut self, x: f64, y: f64) -> Result<()> {
        self.data.add_point(x, y)?;
        self.frame = 0;
        Ok(())
    }

    fn import_csv(&mut self, text: &str) -> Result<()> {
        self.data.import_csv(text)?;
        self.frame = 0;
        Ok(())
    }

    fn to_csv(&self) -> Result<String> {
        self.data.to_csv()
    }

    fn points(&self) -> Result<Vec<(f64, f64)>> {
        self.data.points()
    }

    fn move_point(&mut self, index: usize, x: f64, y: f64) -> Result<()> {
        self.data.move_point(index, x, y)?;
        self.frame = 0;
        Ok(())
    }

    fn remove_point(&mut self, index: usize) -> Result<()> {
        self.data.remove_point(index)?;
        self.frame = 0;
        Ok(())
    }
}

/// What the user sets of a fast RVM run (Tipping & Faul 2003, §4): how the next basis
/// function is chosen, and whether candidates nearly parallel to an active one are refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FastOptions {
    /// How the next basis function is chosen.
    pub selection: Selection,
    /// Refuse candidates nearly parallel to an active basis function.
    pub alignment_test: bool,
}

impl Default for FastOptions {
    /// Greedy, with the alignment test.
    fn default() -> Self {
        Self { selection: Selection::Greedy, alignment_test: true }
    }
}

impl FastOptions {
    /// The run's settings: these options, `seed` for random selection and at most
    /// `max_steps` steps, the rest [`FastSettings`]' defaults.
    pub fn run(self, seed: u64, max_steps: usize) -> FastSettings {
        FastSettings {
            selection: self.selection,
            alignment_test: self.alignment_test,
            seed,
            max_steps,
            ..FastSettings::default()
        }
    }
}

const FAST_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "selection", symbol: "selection", control: Control::Choice { options: &Selection::NAMES } },
    ParamSpec { key: "align", symbol: "align", control: Control::Toggle },
];

impl ParamGroup for FastOptions {
    fn params(&self) -> Vec<ParamSpec> {
        FAST_PARAMS.to_vec()
    }

    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        let result = match key {
            "selection" => parse_choice("selection", text, &Selection::NAMES)
                .and_then(Selection::from_name)
                .map(|selection| self.selection = selection),
            "align" => parse_toggle("align", text).map(|on| self.alignment_test = on),
            _ => return None,
        };
        Some(result)
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "selection" => self.selection.name().to_owned(),
            "align" => toggle_text(self.alignment_test).to_owned(),
            _ => return None,
        })
    }
}

/// Asks each group in turn to assign `key`; [`Error::UnknownParameter`] if none owns it.
pub fn assign_in(groups: &mut [&mut dyn ParamGroup], key: &str, text: &str) -> Result<()> {
    for group in groups.iter_mut() {
        if let Some(result) = group.assign(key, text) {
            return result;
        }
    }
    Err(Error::UnknownParameter { key: key.to_owned() })
}

/// The value of `key` from whichever group owns it.
pub fn value_in(groups: &[&dyn ParamGroup], key: &str) -> Option<String> {
    groups.iter().find_map(|g| g.value(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_beyond_a_thousand_is_refused() {
        // σ = 6.6·10¹³⁶ with β = 1/σ² fixed made the fast-RVM band wider than f64 holds.
        let mut data = DataParams::new(10, 0.2, 1);
        let error = data.assign("noise", "6.6e136").unwrap().unwrap_err();
        assert_eq!(error.code(), "beyond-range");
        let error = data.assign("noise", "1000.5").unwrap().unwrap_err();
        assert_eq!(error.code(), "out-of-range");
        data.assign("noise", "1000").unwrap().unwrap();
        assert_eq!(data.noise, 1000.0);
    }

    #[test]
    fn counts_are_whole_wherever_they_come_in() {
        let mut data = DataParams::counts(3, 1);
        assert!(data.params().iter().all(|p| p.key != "noise") && data.value("noise").is_none());
        assert!(data.assign("noise", "0.3").is_none(), "counts have no noise σ");
        // Placed: rounded to the nearest count, at least 0 (no −0 in the URL).
        data.add_point(0.123456, 2.5).unwrap();
        data.add_point(0.5, -0.3).unwrap();
        assert_eq!(data.value(POINTS_KEY).as_deref(), Some("0.1235:3,0.5:0"));
        assert_eq!(data.add_point(0.5, 1e10).unwrap_err().code(), "out-of-range");
        // Point 4 is the second placed one: it moves alone, the generated counts stay.
        PointSink::move_point(&mut data, 4, 0.25, 6.6).unwrap();
        assert_eq!((data.n, data.extra[1]), (3, (0.25, 7.0)));
        // The generated counts are the seeded ones.
        let counts = Counts { n: 3, seed: 1 }.generate().unwrap();
        assert_eq!(data.dataset().unwrap().t[..3], counts.t[..]);
        // The URL's: whole counts only.
        assert!(data.assign(POINTS_KEY, "0.1:4,0.9:0").unwrap().is_ok());
        for bad in ["0.1:2.5", "0.1:-1", "0.1:1e10"] {
            assert_eq!(data.assign(POINTS_KEY, bad).unwrap().unwrap_err().code(), "out-of-range", "{bad}");
        }
        // CSV: the first row whose t is not a count is named, and nothing changes.
        let before = data.clone();
        let error = PointSink::import_csv(&mut data, "x,t\n0.1,1\n0.2,3\n0.3,-2\n0.4,0.5\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 4 (0.3, -2) is not a row of x, t: the count t must be a whole number from 0 to 1000000000"
        );
        assert_eq!(data, before);
        PointSink::import_csv(&mut data, "0.1,1\n0.2,3\n").unwrap();
        assert_eq!((data.n, data.extra.clone()), (0, vec![(0.1, 1.0), (0.2, 3.0)]));
    }

    #[test]
    fn data_points_round_trip_and_are_limited() {
        let mut data = DataParams::new(5, 0.2, 1);
        data.add_point(0.123456, -0.98765).unwrap();
        assert_eq!(data.value(POINTS_KEY).as_deref(), Some("0.1235:-0.9877"));
        let mut copy = DataParams::new(5, 0.2, 1);
        copy.assign(POINTS_KEY, &data.value(POINTS_KEY).unwrap()).unwrap().unwrap();
        assert_eq!(copy, data);
        assert_eq!(data.add_point(f64::NAN, 0.0).unwrap_err().code(), "not-finite");
        let many = vec!["0.5:0"; LIVE_MAX_POINTS].join(",");
        data.assign(POINTS_KEY, &many).unwrap().unwrap();
        let error = data.dataset().unwrap_err();
        assert_eq!(error.to_string(), format!("N must be at most {LIVE_MAX_POINTS}, but is {}", LIVE_MAX_POINTS + 5));
        let error = data.assign("N", "10000000").unwrap().unwrap_err();
        assert_eq!(error.to_string(), format!("N must be a whole number from 0 to {LIVE_MAX_POINTS}, but is 10000000"));
        assert!(data.assign("alpha", "1").is_none());
    }
}
