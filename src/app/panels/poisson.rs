//! The "Poisson RVM" panel (Tipping 2001 §4; PRML 7.108–7.119 with a Poisson likelihood):
//! the fast RVM on counts tₙ with rate exp(wᵀφ(xₙ)), on the Gaussian kernel of the data,
//! one step at a time — the counts, the true rate exp(1 + sin 2πx), the predicted rate
//! exp(w*ᵀφ(x)) with its bands exp(a ± σ) and exp(a ± 2σ) from the Laplace Σ, the relevance
//! vectors ringed, the basis function the step acted on in its action's colour, the Laplace
//! L against step, the λ curve of that basis function and the event log. The classic
//! re-estimation runs in the background for comparison.

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::background::Detachable;
use crate::app::fast_steps;
use crate::app::glm_run::GlmRun;
use crate::app::panel::{Layout, Panel};
use crate::app::params::{Control, ParamSpec, parse_real, parse_toggle, toggle_text};
use crate::app::plotted::{Name, Plotted, Tabulate};
use crate::app::replay::Player;
use crate::app::report::{Readout, Report, Table};
use crate::app::settings::{DataParams, FRAME_KEY, FastOptions, ParamGroup, PointSink, RunData, Settings, X_RANGE};
use crate::app::settings::{assign_in, value_in};
use crate::basis::{kernel_centre, kernel_column, kernel_design};
use crate::data::{Counts, Dataset};
use crate::error::{Compact, Error, Result, ensure_positive};
use crate::grid::evenly_spaced;
use crate::plot::fit::widen;
use crate::plot::predictive::{Link, PredictiveScene, scene_chart};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, area_of};
use crate::rvm::likelihood::{Likelihood, mean_poisson_deviance};
use crate::solver::Budget;

/// Most data points, as the classifier's: a run stays within a few frames.
const MAX_N: usize = super::classification::MAX_N;
/// The classic re-estimation costs O(M³) a sweep: it is compared up to this N.
const COMPARE_MAX_N: usize = super::classification::COMPARE_MAX_N;
/// Most steps of a fast run.
const MAX_STEPS: usize = 3_000;
/// Points of the curves along x.
const GRID: usize = 240;
/// Counts shown at least: the true rate reaches e² ≈ 7.4.
const Y_RANGE: (f64, f64) = (-0.5, 8.0);

/// The kernel, shown between the step and the options of the run.
const PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.01, max: 1.0, log: true } },
    ParamSpec { key: "bias", symbol: "bias", control: Control::Toggle },
];

/// The counts and the step shown, the kernel, and the options of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct PoissonSettings {
    /// Seeded counts ([`Counts`]) and any placed points, and the step shown.
    pub run: RunData<DataParams>,
    /// Kernel width s of exp(−(x − xₙ)²/2s²).
    pub width: f64,
    /// Whether the constant basis function φ₀ = 1 is a candidate.
    pub bias: bool,
    /// The options of the run.
    pub options: FastOptions,
}

impl Default for PoissonSettings {
    /// N = 60 counts from seed 1 on the kernel of width 0.1 with a bias (the problem of
    /// tests/poisson.rs).
    fn default() -> Self {
        let data = DataParams::counts(60, 1).with_max_n(MAX_N);
        Self {
            run: RunData::new(data, MAX_STEPS as u64, &[0, 1, 5, 10, 20]),
            width: 0.1,
            bias: true,
            options: FastOptions::default(),
        }
    }
}

impl Settings for PoissonSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let mut params = vec![self.run.frame_param()];
        params.extend_from_slice(PARAMS);
        params.extend(self.options.params());
        params.extend(self.run.data.params());
        params
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            "bias" => self.bias = parse_toggle("bias", text)?,
            _ => assign_in(&mut [&mut self.options, &mut self.run], key, text)?,
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "s" => Compact(self.width).to_string(),
            "bias" => toggle_text(self.bias).to_owned(),
            _ => return value_in(&[&self.options, &self.run], key),
        })
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.run.hidden_keys()
    }
}

/// The counts, the kernel, and the fast run with the step shown beside the classic one.
#[derive(Debug, Clone)]
pub struct PoissonPanel {
    data: Dataset,
    width: f64,
    bias: bool,
    run: GlmRun,
}

impl PoissonPanel {
    /// The fast run and its comparison.
    pub fn run(&self) -> &GlmRun {
        &self.run
    }

    /// Column m of the design as a function of x: the bias, or the kernel at a data point.
    fn column(&self, m: usize, x: f64) -> f64 {
        kernel_column(&self.data.x, self.width, self.bias, m, x)
    }

    /// The data point basis function m is centred on (none for the bias).
    fn centre(&self, m: usize) -> Option<(f64, f64)> {
        let x = kernel_centre(&self.data.x, self.bias, m)?;
        Some((x, self.data.t[m - usize::from(self.bias)]))
    }

    /// The data points of the relevance vectors at the step shown.
    fn relevance_vectors(&self) -> Vec<(f64, f64)> {
        self.run.current().active().iter().filter_map(|&m| self.centre(m)).collect()
    }

    /// The linear predictor a(x) = w*ᵀφ(x) and its standard deviation σₐ(x) = √(φᵀΣφ)
    /// under the Laplace posterior at the step shown ([`crate::rvm::classification::Mode::predictor`],
    /// PRML 4.149–4.150), at `x`.
    pub fn predictor(&self, x: f64) -> (f64, f64) {
        let run = self.run.current();
        let phi = DVector::from_iterator(run.active().len(), run.active().iter().map(|&m| self.column(m, x)));
        let (mean, variance) = run.mode().predictor(&phi);
        (mean, variance.sqrt())
    }

    /// The counts, the true rate exp(1 + sin 2πx) and the predicted rate exp(a) with its
    /// bands exp(a ± σₐ) and exp(a ± 2σₐ) on the grid.
    pub fn scene(&self) -> PredictiveScene {
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID);
        let (mean, std_dev) = grid.iter().map(|&x| self.predictor(x)).unzip();
        PredictiveScene {
            x_range: X_RANGE,
            y_range: widen(self.data.t.iter().copied(), Y_RANGE, 0.5),
            points: self.data.x.iter().copied().zip(self.data.t.iter().copied()).collect(),
            truth: grid.iter().map(|&x| (x, Counts::rate(x))).collect(),
            grid,
            mean,
            std_dev,
            samples: vec![],
            link: Link::Exp,
        }
    }

    /// The counts chart: the scene, the relevance vectors ringed, and the basis function of
    /// this step in its action's colour.
    fn draw_counts<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        let scene = self.scene();
        let mut chart = scene_chart(area, &scene, scale, labels)?;
        crate::plot::rings(&mut chart, &self.relevance_vectors(), 7.0, scale)?;
        let curve = |m: usize, height: f64| -> Vec<(f64, f64)> {
            scene.grid.iter().map(|&x| (x, height * self.column(m, x))).collect()
        };
        fast_steps::draw_candidate(&mut chart, self.run.event(), &curve, (X_RANGE, scene.y_range), scale, labels)?;
        Ok(area_of(&chart))
    }
}

/// The series of the counts chart, in drawing order, and the actions.
const LEGEND: [LegendEntry; 6] = [
    LegendEntry { key: "rate-band2", colour: "#fbe3d1", mark: Mark::Area },
    LegendEntry { key: "rate-band1", colour: "#f5b98f", mark: Mark::Area },
    LegendEntry { key: "true-rate", colour: "#009e73", mark: Mark::Dashed },
    LegendEntry { key: "rate", colour: "#d55e00", mark: Mark::Line },
    LegendEntry { key: "counts", colour: "#0072b2", mark: Mark::Dot },
    LegendEntry { key: "relevance-vectors", colour: "#222222", mark: Mark::Dot },
];

impl Panel for PoissonPanel {
    const NAME: &'static str = "poisson";
    type Settings = PoissonSettings;
    /// Two steps a second, as the regression panel: slow enough to read each step; the
    /// targets are counts.
    const LAYOUT: Layout = Layout { play_speed: 1, counts: true, ..Layout::DEFAULT };
    const FOLLOWS: &'static [&'static str] = &[FRAME_KEY];

    /// The counts, the kernel design (N ≤ 400: at once), the fast run's first steps and,
    /// for N ≤ 200, the classic comparison set up; the rest in [`Panel::work`].
    fn compute(settings: &PoissonSettings) -> Result<Self> {
        let data = settings.run.data.dataset()?;
        if data.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design(&data.x, settings.width, settings.bias)?;
        let t = DVector::from_column_slice(&data.t);
        let options = settings.options.run(settings.run.data.seed, MAX_STEPS);
        let compare = data.len() <= COMPARE_MAX_N;
        let run = GlmRun::start(Likelihood::Poisson, (design, t), options, settings.run.frame, compare)?;
        Ok(Self { data, width: settings.width, bias: settings.bias, run })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::main_and_side(root, scale, fast_steps::FIT_SHARE);
        let area = self.draw_counts(&main, scale, labels)?;
        self.run.draw_side([&upper, &lower], scale, labels)?;
        Ok(area)
    }

    /// The counts chart's scene, the relevance vectors, and the side charts.
    fn plotted(&self) -> Vec<Plotted> {
        let mut tables = vec![];
        self.scene().tabulate(&mut tables);
        let points = self.relevance_vectors();
        if !points.is_empty() {
            tables.push(Plotted::points(Name::Series("relevance-vectors"), ("x", "t"), &points));
        }
        self.run.tabulate_side(&mut tables);
        tables
    }

    fn report(&self) -> Report {
        let run = self.run.current();
        let fit =
            Readout { key: "mean-deviance", value: mean_poisson_deviance(&run.mode().y, run.problem().targets()) };
        let mut legend = LEGEND.to_vec();
        legend.extend(fast_steps::ACTION_LEGEND);
        self.run.report(fit, (self.data.len(), COMPARE_MAX_N), legend, ("poisson", "poisson-other"))
    }

    fn event_log(&self) -> Option<Table> {
        Some(self.run.event_log())
    }

    fn data_points(settings: &mut PoissonSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.run)
    }

    fn player(&self) -> Option<&dyn Player> {
        Some(self.run.player())
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        Some(self.run.player_mut())
    }

    /// The fast run's recording, then the classic comparison ([`GlmRun::work`]).
    fn work(&mut self, budget: &mut Budget) -> bool {
        self.run.work(budget)
    }

    fn work_progress(&self) -> Option<(usize, usize)> {
        self.run.work_progress()
    }

    fn comparisons(&mut self) -> Option<&mut dyn Detachable> {
        Some(self.run.comparisons())
    }
}
