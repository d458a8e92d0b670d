//! The sequential-learning panel (PRML Fig 3.7 and 3.8 for a straight line): points
//! arrive one at a time; the likelihood of the newest point, the posterior over (w₀, w₁)
//! shrinking towards the true weights, lines drawn from it in data space, and the
//! predictive band narrowing.

use crate::app::plotted::{Plotted, Tabulate};
use nalgebra::{DMatrix, DVector};
use plotters::coord::Shift;
use plotters::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::app::panel::Panel;
use crate::app::params::{Control, ParamSpec, parse_integer, parse_real};
use crate::app::replay::{Frames, Player, Replay};
use crate::app::report::{Readout, Report, Sentence};
use crate::app::settings::Settings;
use crate::bayes::{Hyperparameters, Posterior};
use crate::data::{Dataset, StraightLine};
use crate::error::{Compact, Error, Result, ensure_non_negative, ensure_positive};
use crate::grid::Surface;
use crate::grid::evenly_spaced;
use crate::plot::fit::{Curve, LineChart};
use crate::plot::predictive::{Link, PredictiveScene, draw_chart};
use crate::plot::surface::SurfaceChart;
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, palette};

/// Weight space shown: w₀, w₁ ∈ [−1, 1], as in PRML Fig 3.7.
const W_RANGE: (f64, f64) = (-1.0, 1.0);
/// Inputs shown.
const X_RANGE: (f64, f64) = (-1.0, 1.0);
/// Cells of each density map along an axis.
const CELLS: usize = 64;
/// Lines drawn from the posterior (PRML draws six).
const SAMPLES: usize = 6;
/// Most points in a run.
const MAX_N: u64 = 100;

const PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "k", symbol: "k", control: Control::Steps { min: 0, max: 25, presets: &[0, 1, 2, 4, 25] } },
    ParamSpec { key: "N", symbol: "N", control: Control::Integer { min: 1, max: 100 } },
    ParamSpec { key: "alpha", symbol: "α", control: Control::Real { min: 1e-2, max: 1e2, log: true } },
    ParamSpec { key: "beta", symbol: "β", control: Control::Real { min: 1.0, max: 1e3, log: true } },
    ParamSpec { key: "noise", symbol: "σ", control: Control::Real { min: 0.0, max: 1.0, log: false } },
    ParamSpec { key: "seed", symbol: "seed", control: Control::Integer { min: 0, max: 9999 } },
];

/// The run: how many points exist and how many have been seen.
#[derive(Debug, Clone, PartialEq)]
pub struct SequentialSettings {
    /// Points observed so far, k ≤ N.
    pub k: usize,
    /// Points in the run.
    pub n: usize,
    /// Prior precision α (PRML: 2).
    pub alpha: f64,
    /// Noise precision β (PRML: 25 = 1/0.2²).
    pub beta: f64,
    /// Noise of the data (PRML: 0.2).
    pub noise: f64,
    /// Seed of the data and the drawn lines.
    pub seed: u64,
}

impl Default for SequentialSettings {
    fn default() -> Self {
        Self { k: 1, n: 25, alpha: 2.0, beta: 25.0, noise: 0.2, seed: 1 }
    }
}

impl Settings for SequentialSettings {
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            // k counts points of the run: at most N (a link's k comes after its N).
            "k" => self.k = parse_integer("k", text, 0, self.n as u64)? as usize,
            "N" => {
                self.n = parse_integer("N", text, 1, MAX_N)? as usize;
                self.k = self.k.min(self.n);
            }
            "alpha" => self.alpha = ensure_positive("α", parse_real("α", text)?)?,
            "beta" => self.beta = ensure_positive("β", parse_real("β", text)?)?,
            "noise" => self.noise = ensure_non_negative("σ", parse_real("σ", text)?)?,
            "seed" => self.seed = parse_integer("seed", text, 0, u64::from(u32::MAX))?,
            _ => return Err(Error::UnknownParameter { key: key.into() }),
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "k" => self.k.to_string(),
            "N" => self.n.to_string(),
            "alpha" => Compact(self.alpha).to_string(),
            "beta" => Compact(self.beta).to_string(),
            "noise" => Compact(self.noise).to_string(),
            "seed" => self.seed.to_string(),
            _ => return None,
        })
    }
}

/// The points of a run, the prior, and the posterior after the points observed so far: the
/// frames of the sequential panel, frame k having observed k points.
#[derive(Debug, Clone)]
pub struct Observations {
    data: Dataset,
    hyper: Hyperparameters,
    /// The posterior after the points observed.
    posterior: Posterior,
}

impl Observations {
    /// The posterior after the first `k` points, PRML 3.53–3.54 (3.49 with m₀ = 0, S₀ = α⁻¹I).
    fn posterior_after(data: &Dataset, hyper: Hyperparameters, k: usize) -> Result<Posterior> {
        if k == 0 {
            return Posterior::prior(2, hyper);
        }
        let rows: Vec<_> = data.x[..k].iter().map(|&x| features(x).transpose()).collect();
        Posterior::fit(&DMatrix::from_rows(&rows), &data.t[..k], hyper)
    }
}

impl Frames for Observations {
    fn last(&self) -> usize {
        self.data.len()
    }

    /// Observes the first `frame` points (the posterior of one step is the prior of the
    /// next, so this equals the batch posterior).
    fn show(&mut self, frame: usize) {
        // The posterior exists for every valid α, β (checked when computing).
        if let Ok(posterior) = Self::posterior_after(&self.data, self.hyper, frame) {
            self.posterior = posterior;
        }
    }
}

/// The run's data and the point it has reached.
#[derive(Debug, Clone)]
pub struct SequentialPanel {
    /// The run, point by point.
    replay: Replay<Observations>,
    seed: u64,
}

/// φ(x) = (1, x): the straight-line model y = w₀ + w₁x.
fn features(x: f64) -> DVector<f64> {
    DVector::from_vec(vec![1.0, x])
}

impl SequentialPanel {
    /// Points observed.
    pub fn observed(&self) -> usize {
        self.replay.shown()
    }

    /// The posterior after the observed points (the prior before any).
    pub fn posterior(&self) -> &Posterior {
        &self.replay.frames().posterior
    }

    fn data(&self) -> &Dataset {
        &self.replay.frames().data
    }

    fn density_chart(&self) -> SurfaceChart {
        // −density, so that the most probable weights get the darkest band.
        let density = |w0: f64, w1: f64| -self.posterior().log_density(&DVector::from_vec(vec![w0, w1])).exp();
        let title = if self.observed() == 0 { ("prior", "prior") } else { ("posterior", "posterior") };
        SurfaceChart {
            surface: Surface::sample(W_RANGE, W_RANGE, CELLS, CELLS, density).with_linear_levels(12),
            x_name: ("w0", "w₀"),
            y_name: ("w1", "w₁"),
            z_name: "density",
            z_of_value: (0.0, -1.0),
            title: Some(title),
            paths: vec![],
            crosses: vec![StraightLine::WEIGHTS],
            contours: vec![],
        }
    }

    /// The likelihood p(t_k | x_k, w, β) of the newest point over the weight plane.
    fn likelihood_chart(&self) -> Option<SurfaceChart> {
        let last = self.observed().checked_sub(1)?;
        let data = self.data();
        let (x, t, beta) = (data.x[last], data.t[last], self.replay.frames().hyper.beta());
        let likelihood = |w0: f64, w1: f64| -(-0.5 * beta * (t - w0 - w1 * x).powi(2)).exp();
        Some(SurfaceChart {
            surface: Surface::sample(W_RANGE, W_RANGE, CELLS, CELLS, likelihood).with_linear_levels(12),
            x_name: ("w0", "w₀"),
            y_name: ("w1", "w₁"),
            z_name: "likelihood-value",
            z_of_value: (0.0, -1.0),
            title: Some(("likelihood", "likelihood")),
            paths: vec![],
            crosses: vec![StraightLine::WEIGHTS],
            contours: vec![],
        })
    }

    fn points(&self) -> Vec<(f64, f64)> {
        let (data, k) = (self.data(), self.observed());
        data.x[..k].iter().copied().zip(data.t[..k].iter().copied()).collect()
    }

    /// Data space: the observed points, the true line and lines y = w₀ + w₁x for weights
    /// drawn from the posterior (PRML Fig 3.7, right column).
    fn samples_chart(&self) -> LineChart {
        let mut rng = Pcg64::seed_from_u64(self.seed.wrapping_add(self.observed() as u64));
        let ends = [X_RANGE.0, X_RANGE.1];
        let mut curves = vec![Curve::truth(ends.iter().map(|&x| (x, StraightLine::truth(x))).collect())];
        for _ in 0..SAMPLES {
            let w = self.posterior().sample(&mut rng);
            let line = ends.iter().map(|&x| (x, w[0] + w[1] * x)).collect();
            curves.push(Curve::solid(line, palette::MEAN, 1.5).named("posterior-lines"));
        }
        LineChart {
            x_range: X_RANGE,
            y_range: (-1.2, 1.2),
            x_name: ("x", "x"),
            y_name: ("t", "t"),
            title: Some(("data-space", "data space")),
            curves,
            points: self.points(),
            marker: None,
        }
    }

    /// The predictive band m_Nᵀφ(x) ± σ_N(x), σ_N² = 1/β + φᵀS_Nφ (PRML 3.58–3.59, Fig 3.8).
    fn predictive_scene(&self) -> PredictiveScene {
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, 101);
        let predictions: Vec<_> = grid.iter().map(|&x| self.posterior().predict(&features(x))).collect();
        PredictiveScene {
            x_range: X_RANGE,
            y_range: (-1.2, 1.2),
            points: self.points(),
            truth: grid.iter().map(|&x| (x, StraightLine::truth(x))).collect(),
            mean: predictions.iter().map(|p| p.mean).collect(),
            std_dev: predictions.iter().map(|p| p.variance.sqrt()).collect(),
            grid,
            samples: vec![],
            link: Link::Identity,
        }
    }
}

impl Panel for SequentialPanel {
    const NAME: &'static str = "sequential";
    type Settings = SequentialSettings;
    const FOLLOWS: &'static [&'static str] = &["k"];

    fn compute(settings: &SequentialSettings) -> Result<Self> {
        let data = StraightLine { n: settings.n, noise: settings.noise, seed: settings.seed }.generate()?;
        let hyper = Hyperparameters::new(settings.alpha, settings.beta)?;
        let k = settings.k.min(settings.n);
        let posterior = Observations::posterior_after(&data, hyper, k)?;
        let replay = Replay::new(Observations { data, hyper, posterior }, Some("k"), k);
        Ok(Self { replay, seed: settings.seed })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let narrow = crate::plot::is_narrow(root, scale);
        let cells = if narrow { root.split_evenly((4, 1)) } else { root.split_evenly((2, 2)) };
        if let Some(chart) = self.likelihood_chart() {
            chart.draw(&cells[0], scale, labels)?;
        }
        self.density_chart().draw(&cells[1], scale, labels)?;
        let area = self.samples_chart().draw(&cells[2], scale, labels)?;
        draw_chart(&cells[3], &self.predictive_scene(), scale, labels)?;
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let mut tables = vec![];
        if let Some(chart) = self.likelihood_chart() {
            chart.tabulate(&mut tables);
        }
        self.density_chart().tabulate(&mut tables);
        self.samples_chart().tabulate(&mut tables);
        self.predictive_scene().tabulate(&mut tables);
        tables
    }

    fn report(&self) -> Report {
        let readouts = self.readouts();
        let summary = vec![Sentence::of_readouts("sequential", &readouts, [])];
        Report { readouts, legend: self.legend(), summary, ..Report::default() }
    }

    fn player(&self) -> Option<&dyn Player> {
        Some(&self.replay)
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        Some(&mut self.replay)
    }
}

impl SequentialPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "density", colour: "#5a7b9a", mark: Mark::Area },
            LegendEntry { key: "true-weights", colour: "#222222", mark: Mark::Cross },
            LegendEntry { key: "posterior-lines", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "truth-line", colour: "#009e73", mark: Mark::Dashed },
            LegendEntry { key: "band1", colour: "#f5b98f", mark: Mark::Area },
            LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        let m = self.posterior().mean();
        let s = self.posterior().covariance();
        vec![
            Readout { key: "observed", value: self.observed() as f64 },
            Readout { key: "m0", value: m[0] },
            Readout { key: "m1", value: m[1] },
            Readout { key: "sd0", value: s[(0, 0)].sqrt() },
            Readout { key: "sd1", value: s[(1, 1)].sqrt() },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn one_point_at_a_time_equals_all_at_once() {
        // Sequential updating (PRML 3.49 with the last posterior as the new prior) gives
        // the batch posterior: check the k-th step against a fresh fit on k points.
        let mut panel = Live::<SequentialPanel>::try_default().unwrap();
        panel.rewind();
        assert_eq!(panel.value("k").as_deref(), Some("0"));
        for k in 1..=25 {
            panel.step(1);
            let mut fresh = Live::<SequentialPanel>::try_default().unwrap();
            fresh.set("k", &k.to_string()).unwrap();
            let (a, b) = (panel.panel().posterior().mean(), fresh.panel().posterior().mean());
            assert!((a - b).norm() < 1e-12, "k = {k}");
        }
        assert_eq!(panel.value("k").as_deref(), Some("25"), "the URL follows the animation");
        assert!(!panel.step(1));
    }

    #[test]
    fn the_posterior_closes_in_on_the_true_weights() {
        let mut panel = Live::<SequentialPanel>::try_default().unwrap();
        panel.set("k", "0").unwrap();
        let prior_sd = panel.report().readouts[3].value;
        assert!((prior_sd - 0.5f64.sqrt()).abs() < 1e-12, "prior sd = 1/√α");
        panel.set("k", "25").unwrap();
        let r = panel.report().readouts;
        assert!(r[3].value < 0.1 && r[4].value < 0.15, "{r:?}");
        assert!((r[1].value + 0.3).abs() < 0.15 && (r[2].value - 0.5).abs() < 0.2, "{r:?}");
    }

    #[test]
    fn more_points_than_the_run_has_are_refused_and_a_smaller_run_takes_k_down() {
        let mut panel = Live::<SequentialPanel>::try_default().unwrap();
        panel.set("k", "25").unwrap();
        assert_eq!(panel.set("k", "26").unwrap_err().code(), "out-of-range", "k counts points of the run");
        assert_eq!(panel.panel().observed(), 25);
        // Fewer points take k down with them.
        panel.set("N", "20").unwrap();
        assert_eq!(panel.panel().observed(), 20);
        assert_eq!(panel.value("k").as_deref(), Some("20"));
        assert_eq!(panel.set("alpha", "0").unwrap_err().code(), "out-of-range");
    }
}
