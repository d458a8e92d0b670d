//! The predictive panel: settings → data, basis, posterior → [`PredictiveScene`].

use plotters::coord::Shift;
use plotters::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use super::PanelModel;
use super::params::{Control, Notice, ParamSpec, Readout, parse_choice, parse_integer, parse_real};
use crate::basis::{Basis, Family, MAX_BASIS_FUNCTIONS};
use crate::bayes::{Hyperparameters, Posterior};
use crate::data::{Dataset, MAX_POINTS, Sinusoid};
use crate::error::{Bound, Error, Result, ensure_non_negative, ensure_positive};
use crate::plot::predictive::{PredictiveScene, draw};
use crate::plot::{LegendEntry, PlotArea};

/// Inputs shown, and where the Gaussian centres are spread.
const X_RANGE: (f64, f64) = (0.0, 1.0);
/// Targets shown at least (the sinusoid with its noise fits inside).
const Y_RANGE: (f64, f64) = (-2.0, 2.0);
/// Points at which the predictive distribution is evaluated across [`X_RANGE`].
const GRID_POINTS: usize = 201;
/// Functions drawn from the posterior.
const SAMPLES: usize = 5;
/// Clicked points are rounded to this many decimals, so the URL holds them exactly.
const POINT_DECIMALS: i32 = 4;

const FAMILIES: &[&str] = &["polynomial", "gaussian"];

/// The controls of the panel, in display order.
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "basis", symbol: "basis", control: Control::Choice { options: FAMILIES } },
    ParamSpec { key: "M", symbol: "M", control: Control::Integer { min: 1, max: 30 } },
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.01, max: 1.0, log: true } },
    ParamSpec { key: "alpha", symbol: "α", control: Control::Real { min: 1e-6, max: 1e4, log: true } },
    ParamSpec { key: "beta", symbol: "β", control: Control::Real { min: 1e-2, max: 1e4, log: true } },
    ParamSpec { key: "N", symbol: "N", control: Control::Integer { min: 0, max: 200 } },
    ParamSpec { key: "noise", symbol: "σ", control: Control::Real { min: 0.0, max: 1.0, log: false } },
    ParamSpec { key: "seed", symbol: "seed", control: Control::Integer { min: 0, max: 9999 } },
];

/// Key of the points added by clicking, `x:t,x:t,…` in the URL.
const POINTS_KEY: &str = "points";

/// What the user has set.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictiveSettings {
    /// Basis family.
    pub family: Family,
    /// Number of basis functions M, the bias included.
    pub m: usize,
    /// Width s of the Gaussian basis functions.
    pub width: f64,
    /// Prior precision α.
    pub alpha: f64,
    /// Noise precision β assumed by the model.
    pub beta: f64,
    /// Number of generated points N.
    pub n: usize,
    /// Standard deviation of the noise in the generated data.
    pub noise: f64,
    /// Seed of the generated data and of the posterior samples.
    pub seed: u64,
    /// Points the user added, after the generated ones.
    pub extra: Vec<(f64, f64)>,
}

impl Default for PredictiveSettings {
    /// PRML Fig 3.8: nine Gaussian basis functions, σ = 0.2 so the true β is 25.
    fn default() -> Self {
        Self {
            family: Family::Gaussian,
            m: 9,
            width: 0.1,
            alpha: 2.0,
            beta: 25.0,
            n: 10,
            noise: 0.2,
            seed: 1,
            extra: vec![],
        }
    }
}

impl PredictiveSettings {
    /// Sets parameter `key` from its text, checking the value on its own.
    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "basis" => {
                let name = parse_choice("basis", text, FAMILIES)?;
                self.family = Family::from_name(name).ok_or_else(|| Error::UnknownParameter { key: key.into() })?;
            }
            "M" => self.m = parse_integer("M", text, 1, MAX_BASIS_FUNCTIONS as u64)? as usize,
            "N" => self.n = parse_integer("N", text, 0, MAX_POINTS as u64)? as usize,
            "seed" => self.seed = parse_integer("seed", text, 0, u64::from(u32::MAX))?,
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            "alpha" => self.alpha = ensure_positive("α", parse_real("α", text)?)?,
            "beta" => self.beta = ensure_positive("β", parse_real("β", text)?)?,
            "noise" => self.noise = ensure_non_negative("σ", parse_real("σ", text)?)?,
            POINTS_KEY => self.extra = parse_points(text)?,
            _ => return Err(Error::UnknownParameter { key: key.into() }),
        }
        Ok(())
    }

    /// The value of parameter `key` as text, in the format [`Self::assign`] reads.
    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "basis" => self.family.name().to_owned(),
            "M" => self.m.to_string(),
            "N" => self.n.to_string(),
            "seed" => self.seed.to_string(),
            "s" => self.width.to_string(),
            "alpha" => self.alpha.to_string(),
            "beta" => self.beta.to_string(),
            "noise" => self.noise.to_string(),
            POINTS_KEY => self.extra.iter().map(|(x, t)| format!("{x}:{t}")).collect::<Vec<_>>().join(","),
            _ => return None,
        })
    }

    /// The generated points followed by the added ones, at most [`MAX_POINTS`] in all.
    fn dataset(&self) -> Result<Dataset> {
        let total = self.n.saturating_add(self.extra.len());
        if total > MAX_POINTS {
            let bound = Bound::AtMost { max: MAX_POINTS as u64 };
            return Err(Error::OutOfRange { name: "N", value: total.to_string(), bound });
        }
        let mut data = Sinusoid { n: self.n, noise: self.noise, seed: self.seed }.generate()?;
        for &(x, t) in &self.extra {
            data.push(x, t)?;
        }
        Ok(data)
    }
}

/// Parses `x:t,x:t,…` (empty text: no points).
fn parse_points(text: &str) -> Result<Vec<(f64, f64)>> {
    text.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            let (x, t) =
                pair.split_once(':').ok_or_else(|| Error::NotFinite { name: "point".into(), value: pair.into() })?;
            Ok((parse_real("x", x)?, parse_real("t", t)?))
        })
        .collect()
}

/// The fitted model in the form the chart and the readouts need.
#[derive(Debug, Clone)]
struct Fit {
    scene: PredictiveScene,
    n: usize,
    m: usize,
    log_evidence: f64,
}

/// Data → basis → posterior → predictive distribution on a grid, plus posterior samples.
fn fit(settings: &PredictiveSettings) -> Result<Fit> {
    let data = settings.dataset()?;
    let basis = Basis::spread(settings.family, settings.m, settings.width, true, X_RANGE)?;
    let phi = basis.design_matrix(&data.x)?;
    let posterior = Posterior::fit(&phi, &data.t, Hyperparameters::new(settings.alpha, settings.beta)?)?;

    let grid = crate::basis::evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
    let features: Vec<_> = grid.iter().map(|&x| basis.features(x)).collect();
    let predictions: Vec<_> = features.iter().map(|f| posterior.predict(f)).collect();
    // Posterior samples use their own stream, so they stay put when only data change.
    let mut rng = Pcg64::seed_from_u64(settings.seed.wrapping_add(0x5EED_5A3B_01E5));
    let samples = (0..SAMPLES)
        .map(|_| {
            let w = posterior.sample(&mut rng);
            features.iter().map(|f| w.dot(f)).collect()
        })
        .collect();

    let points: Vec<(f64, f64)> = data.x.iter().copied().zip(data.t.iter().copied()).collect();
    let (t_lo, t_hi) = points.iter().fold(Y_RANGE, |(lo, hi), &(_, t)| (lo.min(t - 0.2), hi.max(t + 0.2)));
    let (x_lo, x_hi) = points.iter().fold(X_RANGE, |(lo, hi), &(x, _)| (lo.min(x), hi.max(x)));
    let scene = PredictiveScene {
        x_range: (x_lo, x_hi),
        y_range: (t_lo, t_hi),
        truth: grid.iter().map(|&x| (x, Sinusoid::truth(x))).collect(),
        mean: predictions.iter().map(|p| p.mean).collect(),
        std_dev: predictions.iter().map(|p| p.variance.sqrt()).collect(),
        grid,
        samples,
        points,
    };
    Ok(Fit { scene, n: data.len(), m: basis.len(), log_evidence: posterior.log_evidence() })
}

/// Bayesian regression on the noisy sinusoid, drawn as PRML Fig 3.8.
#[derive(Debug, Clone)]
pub struct PredictivePanel {
    settings: PredictiveSettings,
    fit: Fit,
}

impl PredictivePanel {
    /// The panel with `settings`.
    ///
    /// # Errors
    /// Whatever the fit refuses (e.g. N = 0 with no added points, a singular posterior).
    pub fn with_settings(settings: PredictiveSettings) -> Result<Self> {
        Ok(Self { fit: fit(&settings)?, settings })
    }

    /// The current settings.
    pub fn settings(&self) -> &PredictiveSettings {
        &self.settings
    }

    /// The scene the chart draws.
    pub fn scene(&self) -> &PredictiveScene {
        &self.fit.scene
    }

    /// Tries `settings`; keeps the current state if they fail.
    fn commit(&mut self, settings: PredictiveSettings) -> Result<()> {
        *self = Self::with_settings(settings)?;
        Ok(())
    }
}

impl Default for PredictivePanel {
    fn default() -> Self {
        let settings = PredictiveSettings::default();
        // The defaults are a fixed, well-conditioned problem (tested below).
        let fit = fit(&settings).unwrap_or_else(|e| panic!("default predictive panel must fit: {e}"));
        Self { settings, fit }
    }
}

impl PanelModel for PredictivePanel {
    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }

    fn value(&self, key: &str) -> Option<String> {
        self.settings.value(key)
    }

    fn is_active(&self, key: &str) -> bool {
        key != "s" || self.settings.family == Family::Gaussian
    }

    fn set(&mut self, key: &str, text: &str) -> Result<()> {
        let mut settings = self.settings.clone();
        settings.assign(key, text)?;
        self.commit(settings)
    }

    fn reset(&mut self) {
        *self = Self::default();
    }

    fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        let scale = 10f64.powi(POINT_DECIMALS);
        let mut settings = self.settings.clone();
        settings.extra.push(((x * scale).round() / scale, (t * scale).round() / scale));
        self.commit(settings)
    }

    fn query(&self) -> Vec<(String, String)> {
        let keys = PARAMS.iter().map(|p| p.key).chain((!self.settings.extra.is_empty()).then_some(POINTS_KEY));
        keys.filter_map(|k| Some((k.to_owned(), self.settings.value(k)?))).collect()
    }

    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice> {
        let mut settings = PredictiveSettings::default();
        let mut notices = vec![];
        for (key, text) in pairs {
            if let Err(error) = settings.assign(key, text) {
                notices.push(Notice { key: key.clone(), error });
            }
        }
        if let Err(error) = self.commit(settings) {
            notices.push(Notice { key: String::new(), error });
            self.reset();
        }
        notices
    }

    fn readouts(&self) -> Vec<Readout> {
        vec![
            Readout { key: "N", value: self.fit.n as f64 },
            Readout { key: "M", value: self.fit.m as f64 },
            Readout { key: "log-evidence", value: self.fit.log_evidence },
        ]
    }

    fn legend(&self) -> &'static [LegendEntry] {
        crate::plot::predictive::LEGEND
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64) -> Result<PlotArea> {
        draw(root, &self.fit.scene, scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_match_the_choice_list() {
        // The panel offers the first two families, in the order of `Family::ALL`.
        assert_eq!(&Family::ALL.map(Family::name)[..FAMILIES.len()], FAMILIES);
    }

    #[test]
    fn defaults_fit() {
        let panel = PredictivePanel::default();
        assert_eq!(panel.scene().points.len(), 10);
        assert_eq!(panel.scene().grid.len(), GRID_POINTS);
        assert_eq!(panel.scene().samples.len(), SAMPLES);
    }

    #[test]
    fn a_bad_value_keeps_the_last_good_state() {
        let mut panel = PredictivePanel::default();
        panel.set("alpha", "0.5").unwrap();
        let before = panel.scene().clone();
        assert_eq!(panel.set("beta", "-1").unwrap_err().to_string(), "β must be > 0, but is -1");
        assert_eq!(panel.set("N", "0").unwrap_err().code(), "no-data");
        assert_eq!(panel.set("M", "0").unwrap_err().code(), "out-of-range");
        assert_eq!(panel.set("gamma", "1").unwrap_err().code(), "unknown-parameter");
        assert_eq!(panel.scene(), &before);
        assert_eq!(panel.value("alpha").as_deref(), Some("0.5"));
    }

    #[test]
    fn query_round_trips() {
        let mut panel = PredictivePanel::default();
        for (k, v) in [("basis", "polynomial"), ("M", "4"), ("alpha", "0.003"), ("beta", "11.1"), ("seed", "42")] {
            panel.set(k, v).unwrap();
        }
        panel.add_point(0.123456, -0.98765).unwrap();
        let query = panel.query();
        assert!(query.contains(&("points".into(), "0.1235:-0.9877".into())));
        let mut copy = PredictivePanel::default();
        assert!(copy.apply_query(&query).is_empty());
        assert_eq!(copy.settings(), panel.settings());
        assert_eq!(copy.scene(), panel.scene());
    }

    #[test]
    fn bad_query_values_fall_back_with_notices() {
        let mut panel = PredictivePanel::default();
        let pairs: Vec<(String, String)> = [("M", "4"), ("beta", "zero"), ("colour", "red")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let notices = panel.apply_query(&pairs);
        assert_eq!(notices.iter().map(|n| n.key.as_str()).collect::<Vec<_>>(), vec!["beta", "colour"]);
        assert_eq!(panel.settings().m, 4);
        assert_eq!(panel.settings().beta, PredictiveSettings::default().beta);
    }

    #[test]
    fn the_width_only_matters_for_gaussians() {
        let mut panel = PredictivePanel::default();
        assert!(panel.is_active("s"));
        panel.set("basis", "polynomial").unwrap();
        assert!(!panel.is_active("s"));
        assert!(panel.is_active("alpha"));
    }

    #[test]
    fn too_many_points_are_refused_with_the_limit() {
        let mut panel = PredictivePanel::default();
        let many = vec!["0.5:0"; MAX_POINTS].join(",");
        let error = panel.set("points", &many).unwrap_err();
        assert_eq!(error.to_string(), format!("N must be at most {MAX_POINTS}, but is {}", MAX_POINTS + 10));
        assert_eq!(panel.readouts()[0].value, 10.0);
    }

    #[test]
    fn adding_a_point_grows_n() {
        let mut panel = PredictivePanel::default();
        panel.add_point(0.5, 0.0).unwrap();
        assert_eq!(panel.readouts()[0].value, 11.0);
        assert_eq!(panel.add_point(f64::NAN, 0.0).unwrap_err().code(), "not-finite");
        assert_eq!(panel.readouts()[0].value, 11.0);
    }
}
