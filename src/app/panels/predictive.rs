//! The predictive panel (PRML Fig 3.8): data, basis, posterior → [`PredictiveScene`].

use crate::app::plotted::{Plotted, tabulate_all};
use plotters::coord::Shift;
use plotters::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::app::panel::Panel;
use crate::app::params::{Control, ParamSpec};
use crate::app::report::{Readout, Report, Sentence};
use crate::app::settings::PointSink;
use crate::app::settings::{BasisParams, DataParams, ModelSettings, ParamGroup, PrecisionParams, X_RANGE};
use crate::basis::{BasisSpec, Family};
use crate::bayes::Posterior;
use crate::data::Sinusoid;
use crate::error::Result;
use crate::plot::predictive::{LEGEND, Link, PredictiveScene, draw_chart};
use crate::plot::{Labels, LegendEntry, PlotArea};

/// Targets shown at least (the sinusoid with its noise fits inside).
const Y_RANGE: (f64, f64) = (-2.0, 2.0);
/// Points at which the predictive distribution is evaluated across [`X_RANGE`].
const GRID_POINTS: usize = 201;
/// Functions drawn from the posterior.
const SAMPLES: usize = 5;

const PRECISIONS: &[ParamSpec; 2] = &[
    ParamSpec { key: "alpha", symbol: "α", control: Control::Real { min: 1e-6, max: 1e4, log: true } },
    ParamSpec { key: "beta", symbol: "β", control: Control::Real { min: 1e-2, max: 1e4, log: true } },
];

/// What the user has set.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictiveSettings {
    /// The basis.
    pub basis: BasisParams,
    /// The data.
    pub data: DataParams,
    /// Prior precision α and the noise precision β assumed by the model.
    pub precisions: PrecisionParams,
}

impl Default for PredictiveSettings {
    /// PRML Fig 3.8: nine Gaussian basis functions (bias included), σ = 0.2 so the true β is 25.
    fn default() -> Self {
        let spec =
            BasisSpec { family: Family::Gaussian, m: 9, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        Self {
            basis: BasisParams::new(spec),
            data: DataParams::new(10, 0.2, 1),
            precisions: PrecisionParams { alpha: 2.0, beta: 25.0, specs: PRECISIONS },
        }
    }
}

impl ModelSettings for PredictiveSettings {
    fn groups(&self) -> (&BasisParams, &DataParams) {
        (&self.basis, &self.data)
    }

    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams) {
        (&mut self.basis, &mut self.data)
    }

    fn own_params(&self) -> Vec<ParamSpec> {
        self.precisions.params()
    }

    fn assign_own(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        self.precisions.assign(key, text)
    }

    fn value_own(&self, key: &str) -> Option<String> {
        self.precisions.value(key)
    }
}

/// The fitted model in the form the chart and the readouts need.
#[derive(Debug, Clone)]
pub struct PredictivePanel {
    scene: PredictiveScene,
    n: usize,
    m: usize,
    log_evidence: f64,
}

impl PredictivePanel {
    /// The scene the chart draws.
    pub fn scene(&self) -> &PredictiveScene {
        &self.scene
    }
}

impl Panel for PredictivePanel {
    const NAME: &'static str = "predictive";
    type Settings = PredictiveSettings;

    /// Data → basis → posterior → predictive distribution on a grid, plus posterior samples.
    fn compute(settings: &PredictiveSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let basis = settings.basis.basis(&data.x)?;
        let phi = basis.design_matrix(&data.x)?;
        let posterior = Posterior::fit(&phi, &data.t, settings.precisions.hyperparameters()?)?;

        let grid = crate::grid::evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
        let features = basis.features_on(&grid)?;
        let predictions: Vec<_> = features.iter().map(|f| posterior.predict(f)).collect();
        // Posterior samples use their own stream, so they stay put when only data change.
        let mut rng = Pcg64::seed_from_u64(settings.data.seed.wrapping_add(0x5EED_5A3B_01E5));
        let samples = (0..SAMPLES)
            .map(|_| {
                let w = posterior.sample(&mut rng);
                features.iter().map(|f| w.dot(f)).collect()
            })
            .collect();

        let points: Vec<(f64, f64)> = data.x.iter().copied().zip(data.t.iter().copied()).collect();
        let scene = PredictiveScene {
            x_range: crate::plot::fit::widen(points.iter().map(|p| p.0), X_RANGE, 0.0),
            y_range: crate::plot::fit::widen(points.iter().map(|p| p.1), Y_RANGE, 0.2),
            truth: grid.iter().map(|&x| (x, Sinusoid::truth(x))).collect(),
            mean: predictions.iter().map(|p| p.mean).collect(),
            std_dev: predictions.iter().map(|p| p.variance.sqrt()).collect(),
            grid,
            samples,
            points,
            link: Link::Identity,
        };
        Ok(Self { scene, n: data.len(), m: basis.len(), log_evidence: posterior.log_evidence() })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        draw_chart(root, &self.scene, scale, labels)
    }

    fn plotted(&self) -> Vec<Plotted> {
        tabulate_all(&[&self.scene])
    }

    fn report(&self) -> Report {
        // The ±2σ band at its narrowest and widest along the curve.
        let widths = self.scene.std_dev.iter().map(|s| 4.0 * s);
        let (narrow, wide) = widths.fold((f64::INFINITY, 0.0_f64), |(lo, hi), w| (lo.min(w), hi.max(w)));
        let readouts = self.readouts();
        let summary =
            vec![Sentence::of_readouts("predictive", &readouts, [("narrow", narrow.into()), ("wide", wide.into())])];
        Report { readouts, legend: self.legend(), summary, ..Report::default() }
    }

    fn data_points(settings: &mut PredictiveSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.data)
    }
}

impl PredictivePanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        LEGEND.to_vec()
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        vec![
            Readout { key: "N", value: self.n as f64 },
            Readout { key: "M", value: self.m as f64 },
            Readout { key: "log-evidence", value: self.log_evidence },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    fn panel() -> Live<PredictivePanel> {
        Live::<PredictivePanel>::try_default().unwrap()
    }

    #[test]
    fn defaults_fit() {
        let panel = panel();
        assert_eq!(panel.panel().scene().points.len(), 10);
        assert_eq!(panel.panel().scene().grid.len(), GRID_POINTS);
        assert_eq!(panel.panel().scene().samples.len(), SAMPLES);
    }

    #[test]
    fn a_bad_value_keeps_the_last_good_state() {
        let mut panel = panel();
        panel.set("alpha", "0.5").unwrap();
        let before = panel.panel().scene().clone();
        assert_eq!(panel.set("beta", "-1").unwrap_err().to_string(), "β must be > 0, but is -1");
        assert_eq!(panel.set("N", "0").unwrap_err().code(), "no-data");
        assert_eq!(panel.set("M", "0").unwrap_err().code(), "out-of-range");
        assert_eq!(panel.set("gamma", "1").unwrap_err().code(), "unknown-parameter");
        assert_eq!(panel.set("basis", "spline").unwrap_err().code(), "unknown-choice");
        assert_eq!(panel.panel().scene(), &before);
        assert_eq!(panel.value("alpha").as_deref(), Some("0.5"));
    }

    #[test]
    fn query_round_trips() {
        let mut panel = panel();
        for (k, v) in [("basis", "polynomial"), ("M", "4"), ("alpha", "0.003"), ("beta", "11.1"), ("seed", "42")] {
            panel.set(k, v).unwrap();
        }
        panel.add_point(0.123456, -0.98765).unwrap();
        let query = panel.query();
        assert!(query.contains(&("points".into(), "0.1235:-0.9877".into())));
        let mut copy = self::panel();
        assert!(copy.apply_query(&query).is_empty());
        assert_eq!(copy.settings(), panel.settings());
        assert_eq!(copy.panel().scene(), panel.panel().scene());
    }

    #[test]
    fn bad_query_values_fall_back_with_notices() {
        let mut panel = panel();
        let pairs: Vec<(String, String)> = [("M", "4"), ("beta", "zero"), ("colour", "red")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let notices = panel.apply_query(&pairs);
        assert_eq!(notices.iter().map(|n| n.key.as_str()).collect::<Vec<_>>(), vec!["beta", "colour"]);
        assert_eq!(panel.settings().basis.spec.m, 4);
        assert_eq!(panel.settings().precisions.beta, PredictiveSettings::default().precisions.beta);
    }

    #[test]
    fn the_width_only_matters_for_gaussians() {
        let mut panel = panel();
        assert!(panel.is_active("s"));
        panel.set("basis", "polynomial").unwrap();
        assert!(!panel.is_active("s"));
        assert!(panel.is_active("alpha"));
    }

    #[test]
    fn a_press_or_the_form_adds_a_point() {
        let mut panel = panel();
        assert!(panel.describe().takes_points);
        assert!(panel.press(0.5, 0.0).unwrap());
        panel.release();
        assert_eq!(panel.report().readouts[0].value, 11.0);
        panel.add_point(0.25, 1.0).unwrap();
        assert_eq!(panel.report().readouts[0].value, 12.0);
        assert_eq!(panel.add_point(f64::NAN, 0.0).unwrap_err().code(), "not-finite");
        assert_eq!(panel.report().readouts[0].value, 12.0);
    }
}
