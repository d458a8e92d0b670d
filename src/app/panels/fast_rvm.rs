//! The "Fast RVM live" panel (Tipping & Faul 2003, §4 steps 1–8; PRML 7.93–7.107): the
//! fast sequential RVM on the kernel basis of the data — or on any basis of the linear
//! panels (polynomial, Gaussian, sigmoid, Fourier, B-spline, wavelet), so that a student
//! sees which of *those* functions it keeps — one step at a time — the data, the
//! predictive mean and band, the active basis functions with their centres circled, the
//! basis function the step acted on in the colour of its action, L against step, the λ
//! curve of that basis function, and the event log. The classic and EM methods run to
//! convergence in the background for comparison.

use crate::app::plotted::{Name, Plotted, Tabulate, curves_on_grid, tabulate_all};
use crate::plot::fit::LineChart;
use std::sync::Arc;

use nalgebra::{DMatrix, DVector};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::app::background::{Background, Comparisons, Detachable, fingerprint};
use crate::app::centres::{self, CENTRES_KEY, MovedCentres};
use crate::app::fast_steps;
use crate::app::lesson::HIGHLIGHT_KEY;
use crate::app::panel::{Grab, Handle, Layout, Panel};
use crate::app::params::{Control, ParamSpec, parse_integer, parse_toggle};
use crate::app::replay::{Checkpointed, FIRST_SLICE, Player, Replay, Waiting};
use crate::app::report::{Message, Readout, Report, Sentence, Table};
use crate::app::scene::LambdaCurve;
use crate::app::settings::BasisParams;
use crate::app::settings::{DataParams, FRAME_KEY, FastOptions, ParamGroup, PointSink, RunData, Settings, X_RANGE};
use crate::app::settings::{assign_in, value_in};
use crate::basis::{Basis, BasisSpec, Family, KernelDesignInSlices, kernel_centre, kernel_column};
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::grid::evenly_spaced;
use crate::linalg::MULTIPLY_ADDS_PER_UNIT;
use crate::plot::fit::widen;
use crate::plot::lambda::LambdaChart;
use crate::plot::predictive::{Link, PredictiveScene};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, area_of, drawing_error, line, palette, px};
use crate::rvm::classic::ClassicSettings;
use crate::rvm::sparsity::SparsityQuality;
use crate::rvm::{ClassicRvm, Event, FastRvm, FastSettings, Problem, Rule, predict};
use crate::solver::Budget;

/// Most data points: the fast method is meant to stay live at N = 2000.
const MAX_N: usize = 2000;
/// Classic and EM sweeps cost O(M³): they are compared up to this N.
const COMPARE_MAX_N: usize = 200;
/// Sweeps EM may take (it creeps: a dying weight's α grows by about s per sweep).
const EM_SWEEPS: usize = 5_000;
/// Multiply-adds EM may spend (a sweep is about M³ while it prunes nothing): its sweeps are
/// capped at this over M³ too — 5000 at M = 51, 970 at M = 101, 123 at M = 201 — so that the
/// comparison costs at most some 1.5 s of this machine's time natively, not the 14 s that
/// M = 201 took to stall (1425 sweeps).
const EM_WORK: usize = 1_000_000_000;
/// EM stops once a sweep gains less than this in L (nats, so the same in any units): on
/// 50 … 200 sinc points after some 500 … 1500 sweeps rather than at its cap, within 0.05 nats
/// of where 20 000 sweeps get, the dozens of weights it has not yet pruned showing why it is
/// the slow one. (At its cap of 5000 it ran 0.6 s on the page's main thread at N = 50, to
/// report "converged: no".)
const EM_MIN_GAIN: f64 = 1e-4;
/// Sweeps the classic method may take.
const CLASSIC_SWEEPS: usize = 5_000;
/// Most steps of a fast run.
const MAX_STEPS: usize = 5_000;
/// Points of the curves along x.
const GRID: usize = 240;
/// The centres' handles sit this fraction of the plot's height above its foot …
const CENTRE_FOOT: f64 = 0.03;
/// … and a press below this fraction grabs the nearest within reach.
const CENTRE_STRIP: f64 = 0.08;
/// Colour of the active basis functions, each scaled by its weight.
const ACTIVE: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// The noise option of the run, shown after the others, between the basis and the data.
const ESTIMATE_BETA: ParamSpec = ParamSpec { key: "estimate-beta", symbol: "estimate β", control: Control::Toggle };

/// The data and the step shown, the kernel, and the options of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct FastRvmSettings {
    /// The noisy sinusoid (PRML Fig 7.9) and any clicked points, and the step shown.
    pub run: RunData<DataParams>,
    /// The basis: the kernel exp(−(x − xₙ)²/2s²) at the data (the default), or any family
    /// of the linear panels; with or without the bias.
    pub basis: BasisParams,
    /// How the next basis function is chosen, and the alignment test.
    pub options: FastOptions,
    /// Re-estimate β; otherwise β = 1/σ² of the data's noise.
    pub estimate_noise: bool,
    /// The basis function drawn highlighted, with its λ(α) beside (a lesson's "look at
    /// φ₁₇"); `highlight=m` in the URL, column m of Φ (0 the bias).
    pub highlight: Option<usize>,
    /// Centres of a Gaussian or sigmoidal basis moved by dragging: the run starts again on
    /// the new basis.
    pub moved: MovedCentres,
}

impl Default for FastRvmSettings {
    fn default() -> Self {
        Self {
            run: RunData::new(DataParams::new(50, 0.2, 1).with_max_n(MAX_N), MAX_STEPS as u64, &[0, 1, 5, 10, 20]),
            basis: BasisParams::new(BasisSpec {
                family: Family::Kernel,
                m: 10,
                width: 0.1,
                degree: 3,
                bias: true,
                ..BasisSpec::default()
            }),
            options: FastOptions::default(),
            estimate_noise: true,
            highlight: None,
            moved: MovedCentres::default(),
        }
    }
}

impl Settings for FastRvmSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let mut params = vec![self.run.frame_param()];
        params.extend(self.basis.params());
        params.extend(self.options.params());
        params.push(ESTIMATE_BETA);
        for mut spec in self.run.data.params() {
            if spec.key == "N" {
                spec.control = Control::Integer { min: 1, max: MAX_N as u64 };
            }
            params.push(spec);
        }
        params
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "estimate-beta" => self.estimate_noise = parse_toggle("estimate β", text)?,
            HIGHLIGHT_KEY => self.highlight = parse_highlight(text)?,
            CENTRES_KEY => self.moved = MovedCentres::parse(text)?,
            _ => {
                assign_in(&mut [&mut self.basis, &mut self.options, &mut self.run], key, text)?;
                // A new family or count renumbers the functions: moved centres no longer apply.
                if self.basis.value(key).is_some() {
                    self.moved.clear();
                }
            }
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "estimate-beta" => u8::from(self.estimate_noise).to_string(),
            HIGHLIGHT_KEY => self.highlight?.to_string(),
            CENTRES_KEY => self.moved.text(),
            _ => return value_in(&[&self.basis, &self.options, &self.run], key),
        })
    }

    fn is_active(&self, key: &str) -> bool {
        self.basis.is_active(key)
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        let mut keys = self.run.hidden_keys();
        keys.extend(self.highlight.map(|_| HIGHLIGHT_KEY));
        if !self.moved.is_empty() {
            keys.push(CENTRES_KEY);
        }
        keys
    }
}

/// `m` (a column of Φ), or nothing for an empty text or `none`.
///
/// # Errors
/// [`Error::OutOfRange`] for anything else or a column beyond the largest data set.
fn parse_highlight(text: &str) -> Result<Option<usize>> {
    match text.trim() {
        "" | "none" => Ok(None),
        m => Ok(Some(parse_integer("φ", m, 0, MAX_N as u64)? as usize)),
    }
}

/// The data, the fast run (being prepared, or recorded with the step shown), and the
/// comparison runs.
#[derive(Debug, Clone)]
pub struct FastRvmPanel {
    data: Dataset,
    columns: Columns,
    noise: f64,
    run: Run,
    /// The basis function drawn highlighted, a column of Φ.
    highlight: Option<usize>,
}

/// The basis functions on the data chart's grid, for drawing: the kernel at the data (a
/// column computed on its own: N may be 2000), or any other basis with Φ of the grid made
/// once (a typed formula is evaluated a column at a time, not once per point and column).
#[derive(Debug, Clone)]
enum Columns {
    Kernel { width: f64, bias: bool },
    Basis { basis: Basis, on_grid: DMatrix<f64> },
}

/// The design a run starts from: the kernel's, filled in bands ([`KernelDesignInSlices`]),
/// or any other basis's, made at once (N × M ≤ 2000 × 200).
#[derive(Debug, Clone)]
enum Design {
    Kernel(Box<KernelDesignInSlices>),
    Ready(DMatrix<f64>),
}

impl Design {
    /// Φ once it is done.
    fn step_within(&mut self, budget: &mut Budget) -> Option<DMatrix<f64>> {
        match self {
            Design::Kernel(design) => design.step_within(budget),
            Design::Ready(phi) => Some(std::mem::replace(phi, DMatrix::zeros(0, 0))),
        }
    }

    /// The units of [`Budget`] it takes to make.
    fn units(&self) -> usize {
        match self {
            Design::Kernel(design) => design.units(),
            Design::Ready(_) => 0,
        }
    }

    /// Parts done and in all.
    fn progress(&self) -> (usize, usize) {
        match self {
            Design::Kernel(design) => design.progress(),
            Design::Ready(_) => (0, 1),
        }
    }
}

/// The fast run: its design being filled (a large data set: the data drawn meanwhile), or
/// recorded.
#[derive(Debug, Clone)]
enum Run {
    /// The design in bands, then the problem and the first steps; the player keeps the step
    /// asked for.
    Starting {
        start: Box<FastStart>,
        waiting: Waiting,
    },
    Recording(Box<Recording>),
    /// The preparation failed after its first slice: the data stay, with the reason.
    Failed(Error),
}

/// The fast run to its end and the step shown, and the comparison runs.
#[derive(Debug, Clone)]
struct Recording {
    replay: Replay<Checkpointed<FastRvm>>,
    /// Classic and EM, when N ≤ [`COMPARE_MAX_N`].
    comparisons: Comparisons<Background<ClassicRvm>>,
    /// The reason classic or EM could not start, if one could not.
    comparison_error: Option<Error>,
}

/// What the fast run starts from: the kernel design, filled a band at a time
/// ([`KernelDesignInSlices`]: N²/2 exponentials, tens of milliseconds at N = 2000), then
/// the problem (Φᵀt and ‖φₘ‖²), the run and its first steps.
#[derive(Debug, Clone)]
struct FastStart {
    design: Design,
    t: DVector<f64>,
    /// The problem, once made: a slice that made it (a pass over the design, 32 MB at
    /// N = 2000) ends there when it has spent its budget, and the next starts the run.
    problem: Option<Arc<Problem>>,
    options: FastSettings,
    /// Whether classic and EM run beside it (N ≤ [`COMPARE_MAX_N`]).
    compare: bool,
}

impl FastStart {
    /// Works on the design within `budget`, then makes the problem, starts the run and
    /// records its first steps and, for N ≤ [`COMPARE_MAX_N`], sets up the comparisons;
    /// the recording once that is done.
    ///
    /// # Errors
    /// What [`Problem::new`], [`FastRvm::new`] and the first steps refuse.
    fn step_within(&mut self, budget: &mut Budget, frame: usize) -> Result<Option<Recording>> {
        let problem = match self.problem.take() {
            Some(problem) => problem,
            None => {
                let Some(phi) = self.design.step_within(budget) else { return Ok(None) };
                let t = std::mem::replace(&mut self.t, DVector::zeros(0));
                let problem = Arc::new(Problem::new(phi, t)?);
                budget.spend(problem.n() * problem.m() / MULTIPLY_ADDS_PER_UNIT + 1);
                if !budget.allows() {
                    self.problem = Some(problem);
                    return Ok(None);
                }
                problem
            }
        };
        let run = Checkpointed::start(FastRvm::new(problem.clone(), self.options)?, budget)?;
        let replay = Replay::new(run, Some(FRAME_KEY), frame);
        let (mut runs, mut comparison_error) = (vec![], None);
        let mut inputs = vec![];
        if self.compare {
            let em_sweeps = (EM_WORK / problem.m().saturating_pow(3)).clamp(1, EM_SWEEPS);
            let methods = [("classic", Rule::MacKay, CLASSIC_SWEEPS, 0.0), ("em", Rule::Em, em_sweeps, EM_MIN_GAIN)];
            for (name, rule, max_sweeps, min_gain) in methods {
                let classic = ClassicSettings {
                    beta: self.options.beta,
                    estimate_noise: self.options.estimate_noise,
                    max_sweeps,
                    min_gain,
                    ..ClassicSettings::with_rule(rule)
                };
                let ClassicSettings { rule, estimate_noise, beta, tolerance, max_sweeps, min_gain } = classic;
                let numbers = [rule as u8 as f64, f64::from(u8::from(estimate_noise)), beta.unwrap_or(f64::NAN)];
                inputs.extend(numbers.into_iter().chain([tolerance, max_sweeps as f64, min_gain]));
                match ClassicRvm::new(problem.clone(), classic) {
                    Ok(run) => runs.push((name, Background::new(run, max_sweeps))),
                    Err(error) => comparison_error = Some(error),
                }
            }
        }
        // (A fingerprint reads all of Φ: only for comparisons, N ≤ COMPARE_MAX_N.)
        let comparisons = if self.compare {
            Comparisons::new(runs, fingerprint(problem.design(), problem.targets(), &inputs))
        } else {
            Comparisons::default()
        };
        Ok(Some(Recording { replay, comparisons, comparison_error }))
    }
}

impl FastRvmPanel {
    /// The recording, once the run is prepared.
    fn recording(&self) -> Option<&Recording> {
        match &self.run {
            Run::Recording(recording) => Some(recording),
            _ => None,
        }
    }

    /// The run at the step shown, once it is prepared.
    pub fn current(&self) -> Option<&FastRvm> {
        self.recording().map(|r| r.replay.frames().current())
    }

    /// Every event of the run to its end (none while it is prepared).
    pub fn events(&self) -> &[Event] {
        self.recording().map_or(&[], |r| r.replay.frames().end().events())
    }

    /// The step shown and its event, once the run is prepared.
    fn event(&self) -> Option<(usize, &Event)> {
        let shown = self.recording()?.replay.shown();
        Some((shown, &self.events()[shown]))
    }

    /// Column m of the design at the [`GRID`] points of the data chart (zeros past the last).
    fn column_on_grid(&self, m: usize) -> Vec<f64> {
        match &self.columns {
            Columns::Kernel { width, bias } => {
                let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID);
                grid.iter().map(|&x| kernel_column(&self.data.x, *width, *bias, m, x)).collect()
            }
            Columns::Basis { on_grid, .. } if m < on_grid.ncols() => on_grid.column(m).iter().copied().collect(),
            Columns::Basis { .. } => vec![0.0; GRID],
        }
    }

    /// The data point basis function m is centred on: the kernel's at the data, none for
    /// the bias or any other basis.
    fn centre(&self, m: usize) -> Option<(f64, f64)> {
        let Columns::Kernel { bias, .. } = self.columns else { return None };
        let x = kernel_centre(&self.data.x, bias, m)?;
        Some((x, self.data.t[m - usize::from(bias)]))
    }

    fn points(&self) -> Vec<(f64, f64)> {
        self.data.x.iter().copied().zip(self.data.t.iter().copied()).collect()
    }

    /// The predictive mean and band of the model at the step shown (PRML 7.90–7.91); no
    /// curve before the run is prepared.
    fn scene(&self) -> PredictiveScene {
        let mut grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID);
        let truth = grid.iter().map(|&x| (x, crate::data::Sinusoid::truth(x))).collect();
        let (mean, std_dev) = match self.current() {
            Some(run) => {
                let columns: Vec<Vec<f64>> = run.active().iter().map(|&m| self.column_on_grid(m)).collect();
                (0..grid.len())
                    .map(|i| {
                        let phi = DVector::from_iterator(columns.len(), columns.iter().map(|column| column[i]));
                        let (mean, variance) = predict(run.mean(), run.covariance(), run.beta(), &phi);
                        (mean, variance.sqrt())
                    })
                    .unzip()
            }
            None => {
                grid.clear();
                (vec![], vec![])
            }
        };
        PredictiveScene {
            x_range: X_RANGE,
            y_range: self.y_range(),
            points: self.points(),
            truth,
            grid,
            mean,
            std_dev,
            samples: vec![],
            link: Link::Identity,
        }
    }

    /// The centres a press can grab, on a Gaussian or sigmoidal basis: (column of Φ, μ).
    fn centres(&self) -> Vec<(usize, f64)> {
        match &self.columns {
            Columns::Basis { basis, .. } => centres::draggable(basis),
            Columns::Kernel { .. } => vec![],
        }
    }

    /// The range of t shown: the data's, at least ±1.5.
    fn y_range(&self) -> (f64, f64) {
        widen(self.data.t.iter().copied(), (-1.5, 1.5), 0.1)
    }

    /// Where the centres' handles sit, just above the foot of the plot, and the top of the
    /// strip along the foot in which a press grabs one.
    fn centre_strip(&self) -> (f64, f64) {
        let (y0, y1) = self.y_range();
        (y0 + CENTRE_FOOT * (y1 - y0), y0 + CENTRE_STRIP * (y1 - y0))
    }

    /// The draggable centres as triangles along the foot of the plot: filled where the
    /// function is in the model at the step shown, hollow where it is not.
    fn draw_centres<DB: DrawingBackend>(&self, chart: &mut crate::plot::Chart<'_, DB>, scale: f64) -> Result<()> {
        let active = self.current().map_or(&[][..], |run| run.active());
        let foot = self.centre_strip().0;
        let triangles = self.centres().into_iter().map(|(m, mu)| {
            let style = if active.contains(&m) { palette::INK.filled() } else { ACTIVE.stroke_width(px(1.5, scale)) };
            TriangleMarker::new((mu, foot), px(7.0, scale), style)
        });
        chart.draw_series(triangles).map_err(drawing_error)?;
        Ok(())
    }

    /// The data points of the relevance vectors of `run` (the bias has none).
    fn relevance_vectors(&self, run: &FastRvm) -> Vec<(f64, f64)> {
        run.active().iter().filter_map(|&m| self.centre(m)).collect()
    }

    /// The charts beside the data at the step shown: L against step, and λ(α) of the
    /// highlighted basis function or else of this step's.
    fn side_charts(&self) -> Option<(LineChart, Option<LambdaChart>)> {
        let (shown, _) = self.event()?;
        let likelihood = fast_steps::likelihood_chart(self.events(), shown, ("log-ml", "ln p(t|α,β)"));
        let lambda =
            self.highlight.map_or_else(|| fast_steps::lambda_chart(self.events(), shown), |m| self.highlight_lambda(m));
        Some((likelihood, lambda))
    }

    /// The data chart: the predictive scene, each active basis function times its weight,
    /// the relevance vectors circled, and the basis function of this step in its action's
    /// colour and dash, named in a label.
    fn draw_data<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        let scene = self.scene();
        let mut chart = crate::plot::predictive::scene_chart(area, &scene, scale, labels)?;
        let Some(run) = self.current() else { return Ok(area_of(&chart)) };
        let curve = |m: usize, weight: f64| -> Vec<(f64, f64)> {
            scene.grid.iter().zip(self.column_on_grid(m)).map(|(&x, phi)| (x, weight * phi)).collect()
        };
        for (&m, &w) in run.active().iter().zip(run.mean().iter()) {
            line(&mut chart, &curve(m, w), ACTIVE.stroke_width(px(1.0, scale)))?;
        }
        crate::plot::rings(&mut chart, &self.relevance_vectors(run), 7.0, scale)?;
        if let Some((_, event)) = self.event() {
            fast_steps::draw_candidate(&mut chart, event, &curve, (X_RANGE, scene.y_range), scale, labels)?;
        }
        self.draw_centres(&mut chart, scale)?;
        if let Some(m) = self.highlight {
            self.draw_highlight(&mut chart, m, &curve(m, 0.8 * scene.y_range.1), scale)?;
        }
        Ok(area_of(&chart))
    }

    /// The highlighted basis function φₘ at the candidate's height, thick and dashed in ink,
    /// named at its peak, its data point ringed (none for the bias, m = 0).
    fn draw_highlight<DB: DrawingBackend>(
        &self,
        chart: &mut crate::plot::Chart<'_, DB>,
        m: usize,
        curve: &[(f64, f64)],
        scale: f64,
    ) -> Result<()> {
        crate::plot::dashed(chart, curve, palette::INK.stroke_width(px(2.5, scale)), scale)?;
        let peak = curve.iter().copied().fold((X_RANGE.0, f64::NEG_INFINITY), |a, p| if p.1 > a.1 { p } else { a });
        let font = (FontFamily::SansSerif, px(15.0, scale)).into_font().style(FontStyle::Bold).color(&palette::INK);
        let font = font.pos(Pos::new(HPos::Center, VPos::Bottom));
        chart.draw_series(std::iter::once(Text::new(format!("φ{m}"), peak, font))).map_err(drawing_error)?;
        if let Some(centre) = self.centre(m) {
            let ring = Circle::new(centre, px(11.0, scale), palette::INK.stroke_width(px(2.5, scale)));
            chart.draw_series(std::iter::once(ring)).map_err(drawing_error)?;
        }
        Ok(())
    }

    /// λ(α) of the highlighted φₘ at the step shown (PRML 7.97), its current α marked (∞
    /// while it is out of the model).
    fn highlight_lambda(&self, m: usize) -> Option<LambdaChart> {
        let run = self.current()?;
        let (s, q) = run.sparsity_quality(m);
        let alpha = run.active().iter().position(|&a| a == m).map_or(f64::INFINITY, |i| run.alpha()[i]);
        let curve = LambdaCurve {
            current: Some(alpha),
            title: Some(("lambda-of-highlight", "highlighted basis")),
            ..LambdaCurve::new(SparsityQuality::new(s, q).ok()?)
        };
        curve.chart().ok()
    }

    /// The reason classic or EM could not run, if one could not.
    fn comparison_failure(&self) -> Option<String> {
        let recording = self.recording()?;
        let failed = || recording.comparisons.outcomes().into_iter().find_map(|(_, c)| c.failure);
        recording.comparison_error.as_ref().map(ToString::to_string).or_else(failed)
    }
}

/// [`Error::OutOfRange`] unless column `m` of Φ exists for `n` data points (0 ≤ m ≤ n).
/// The last column of the design: N (bias first) or N − 1 on the kernel basis, M − 1 on
/// another.
fn last_column(columns: &Columns, n: usize) -> usize {
    match columns {
        Columns::Kernel { bias, .. } => n - usize::from(!*bias),
        Columns::Basis { basis, .. } => basis.len().saturating_sub(1),
    }
}

fn check_highlight(m: Option<usize>, n: usize) -> Result<Option<usize>> {
    match m {
        Some(m) if m > n => Err(Error::OutOfRange {
            name: "φ",
            value: m.to_string(),
            bound: crate::error::Bound::WholeBetween { min: 0, max: n as u64 },
        }),
        m => Ok(m),
    }
}

impl Panel for FastRvmPanel {
    const NAME: &'static str = "fast-rvm";
    type Settings = FastRvmSettings;
    /// Two steps a second: slow enough to read each step's label and log line.
    const LAYOUT: Layout = Layout { play_speed: 1, ..Layout::DEFAULT };
    const FOLLOWS: &'static [&'static str] = &[FRAME_KEY, HIGHLIGHT_KEY];

    /// The data, then the run's preparation and its first steps in a first slice (a
    /// design of N ≲ 700 and the whole run of a small problem are done in it); the rest in
    /// [`Panel::work`].
    fn compute(settings: &FastRvmSettings) -> Result<Self> {
        let data = settings.run.data.dataset()?;
        let spec = &settings.basis.spec;
        let (columns, design) = if spec.family == Family::Kernel {
            let design = Design::Kernel(Box::new(KernelDesignInSlices::new(&data.x, spec.width, spec.bias)?));
            (Columns::Kernel { width: spec.width, bias: spec.bias }, design)
        } else {
            let basis = settings.moved.apply(settings.basis.basis(&data.x)?)?;
            let design = Design::Ready(basis.design_matrix(&data.x)?);
            let on_grid = basis.design_matrix(&evenly_spaced(X_RANGE.0, X_RANGE.1, GRID))?;
            (Columns::Basis { basis, on_grid }, design)
        };
        let highlight = check_highlight(settings.highlight, last_column(&columns, data.x.len()))?;
        let beta = (!settings.estimate_noise).then(|| 1.0 / settings.run.data.noise.max(1e-3).powi(2));
        let options = FastSettings {
            estimate_noise: settings.estimate_noise,
            beta,
            ..settings.options.run(settings.run.data.seed, MAX_STEPS)
        };
        let mut start = Box::new(FastStart {
            design,
            t: DVector::from_column_slice(&data.t),
            problem: None,
            options,
            compare: data.x.len() <= COMPARE_MAX_N,
        });
        let frame = settings.run.frame;
        let waiting = Waiting::new(Some(FRAME_KEY), frame);
        // A design too large for the first slice is made in the background from its first
        // band on: the change shows its data at once.
        let run = if start.design.units() > FIRST_SLICE {
            Run::Starting { start, waiting }
        } else {
            match start.step_within(&mut Budget::units(FIRST_SLICE), frame)? {
                Some(recording) => Run::Recording(Box::new(recording)),
                None => Run::Starting { start, waiting },
            }
        };
        let noise = settings.run.data.noise;
        Ok(Self { noise, data, columns, run, highlight })
    }

    /// Another highlighted basis function: the run stays.
    fn follow(&mut self, settings: &FastRvmSettings) -> bool {
        let last = last_column(&self.columns, self.data.x.len());
        let Ok(highlight) = check_highlight(settings.highlight, last) else { return false };
        self.highlight = highlight;
        true
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::main_and_side(root, scale, fast_steps::FIT_SHARE);
        let area = self.draw_data(&main, scale, labels)?;
        let Some((likelihood, lambda)) = self.side_charts() else { return Ok(area) };
        likelihood.draw(&upper, scale, labels)?;
        if let Some(chart) = lambda {
            chart.draw(&lower, scale, labels)?;
        }
        Ok(area)
    }

    /// The data chart's scene, each active basis function times its weight, the relevance
    /// vectors, and the side charts.
    fn plotted(&self) -> Vec<Plotted> {
        let scene = self.scene();
        let mut tables = tabulate_all(&[&scene]);
        if let Some(run) = self.current() {
            let weighted = |(&m, &w): (&usize, &f64)| self.column_on_grid(m).iter().map(|phi| w * phi).collect();
            let curves: Vec<Vec<f64>> = run.active().iter().zip(run.mean().iter()).map(weighted).collect();
            tables.push(curves_on_grid(Name::Series("active-bases"), &scene.grid, "phi", &curves, run.active()));
            let axes = ("x", "t");
            let points = self.relevance_vectors(run);
            if !points.is_empty() {
                tables.push(Plotted::points(Name::Series("relevance-vectors"), axes, &points));
            }
        }
        if let Some((likelihood, lambda)) = self.side_charts() {
            likelihood.tabulate(&mut tables);
            if let Some(chart) = lambda {
                chart.tabulate(&mut tables);
            }
        }
        tables
    }

    fn event_log(&self) -> Option<Table> {
        let recording = self.recording()?;
        Some(fast_steps::events_table(self.events(), recording.replay.shown(), usize::MAX))
    }

    fn report(&self) -> Report {
        let mut messages = vec![];
        if self.data.x.len() > COMPARE_MAX_N {
            messages.push(Message::info("comparison-skipped", [("max", COMPARE_MAX_N.to_string())]));
        }
        let recording = match &self.run {
            Run::Recording(recording) => recording,
            Run::Starting { .. } => {
                let summary = vec![Sentence::new("preparing", [])];
                return Report { messages, legend: self.legend(), summary, ..Report::default() };
            }
            Run::Failed(error) => {
                let args = [("step", "0".to_owned()), ("reason", error.to_string())];
                messages.push(Message::warning("fast-run-failed", args));
                return Report { messages, legend: self.legend(), ..Report::default() };
            }
        };
        let (replay, shown) = (&recording.replay, recording.replay.shown());
        let run = replay.frames().current();
        let readouts = vec![
            Readout { key: "step", value: shown as f64 },
            Readout { key: "relevance-vectors", value: run.active().len() as f64 },
            Readout { key: "log-ml", value: run.log_ml() },
            Readout { key: "noise-precision", value: run.beta() },
            Readout { key: "noise-sd", value: run.beta().powf(-0.5) },
            Readout { key: crate::app::panel::TRUE_NOISE, value: self.noise },
            Readout { key: "steps-to-converge", value: replay.position().1 as f64 },
        ];
        let outcomes = recording.comparisons.outcomes();
        let methods = fast_steps::methods_table("methods", self.events(), replay.frames().elapsed_ms(), &outcomes);
        if let Some(reason) = self.comparison_failure() {
            messages.push(Message::warning("comparison-failed", [("reason", reason)]));
        }
        messages.extend(fast_steps::run_messages(replay.frames(), MAX_STEPS));
        Report {
            readouts,
            tables: vec![fast_steps::events_table(self.events(), shown, fast_steps::LOG_ROWS), methods],
            messages,
            legend: self.legend(),
            summary: vec![fast_steps::step_summary(("fast-rvm", "fast-rvm-other"), self.events(), shown, [])],
            ..Report::default()
        }
    }

    fn data_points(settings: &mut FastRvmSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.run)
    }

    /// A press along the foot of the plot near a centre grabs it; elsewhere it adds a point.
    fn press(&self, settings: &mut FastRvmSettings, x: f64, y: f64) -> Result<Option<Grab>> {
        let grab = (y <= self.centre_strip().1).then(|| centres::grab_nearest(&self.centres(), x)).flatten();
        if grab.is_none() {
            settings.run.add_point(x, y)?;
        }
        Ok(grab)
    }

    /// The grabbed centre moved to x: a new basis, so the run starts again.
    fn drag(&self, settings: &mut FastRvmSettings, grab: Grab, x: f64, _y: f64) -> Result<()> {
        settings.moved.drag(grab, x);
        settings.run.frame = 0;
        Ok(())
    }

    /// The centres of a Gaussian or sigmoidal basis, each moved along x.
    fn handles(&self, _settings: &FastRvmSettings) -> Vec<Handle> {
        centres::handles(&self.centres(), self.centre_strip().0)
    }

    fn player(&self) -> Option<&dyn Player> {
        match &self.run {
            Run::Recording(recording) => Some(&recording.replay),
            Run::Starting { waiting, .. } => Some(waiting),
            Run::Failed(_) => None,
        }
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        match &mut self.run {
            Run::Recording(recording) => Some(&mut recording.replay),
            Run::Starting { waiting, .. } => Some(waiting),
            Run::Failed(_) => None,
        }
    }

    /// The run's preparation, its recording, then classic and EM in turn, within `budget` (a
    /// fast step costs one unit per candidate, a sweep one). The slice ends with the
    /// preparation when the step asked for is recorded by then.
    fn work(&mut self, budget: &mut Budget) -> bool {
        if let Run::Starting { start, waiting } = &mut self.run {
            self.run = match start.step_within(budget, waiting.frame) {
                Ok(None) => return true,
                Ok(Some(recording)) => Run::Recording(Box::new(recording)),
                Err(error) => Run::Failed(error),
            };
            // When the step asked for is recorded, the slice ends here, so that the page
            // draws it before the rest of the run is recorded; and when comparisons were set
            // up, so that they can be sent elsewhere before a step of theirs is taken here.
            let shown = matches!(&self.run, Run::Recording(recording) if !recording.replay.waiting());
            let compared = matches!(&self.run, Run::Recording(recording) if !recording.comparisons.is_done());
            if shown || compared || !budget.allows() {
                return matches!(self.run, Run::Recording(_));
            }
        }
        let Run::Recording(recording) = &mut self.run else { return false };
        let Recording { replay, comparisons, .. } = recording.as_mut();
        if replay.record_more(budget) {
            return replay.frames().is_growing() || comparisons.left_here();
        }
        comparisons.work(budget)
    }

    /// The design's bands while it is filled; then the steps recorded and the comparisons'
    /// sweeps.
    fn work_progress(&self) -> Option<(usize, usize)> {
        let recording = match &self.run {
            Run::Recording(recording) => recording,
            Run::Starting { start, .. } => return Some(start.design.progress()),
            Run::Failed(_) => return None,
        };
        let fast = recording.replay.frames().progress(MAX_STEPS);
        let (done, all) = recording.comparisons.progress();
        (fast.0 < fast.1 || all > 0).then_some((fast.0 + done, fast.1 + all))
    }

    fn comparisons(&mut self) -> Option<&mut dyn Detachable> {
        match &mut self.run {
            Run::Recording(recording) => Some(&mut recording.comparisons),
            _ => None,
        }
    }
}

impl FastRvmPanel {
    /// The series of the legend: the predictive scene's (without samples), the relevance
    /// vectors, the active basis functions, the three actions, and the highlight if any.
    fn legend(&self) -> Vec<LegendEntry> {
        let mut legend =
            crate::plot::predictive::LEGEND.iter().filter(|e| e.key != "samples").cloned().collect::<Vec<_>>();
        // On the kernel basis the functions kept sit on data points (the relevance vectors,
        // ringed); on another basis they are its own functions.
        let kernel = matches!(self.columns, Columns::Kernel { .. });
        if kernel {
            legend.push(LegendEntry { key: "relevance-vectors", colour: "#222222", mark: Mark::Dot });
        }
        let active = if kernel { "active-bases" } else { "active-functions" };
        legend.push(LegendEntry { key: active, colour: "#999999", mark: Mark::Line });
        legend.extend(fast_steps::ACTION_LEGEND);
        if self.highlight.is_some() {
            legend.push(LegendEntry { key: "highlight", colour: "#222222", mark: Mark::Dashed });
        }
        if !self.centres().is_empty() {
            legend.push(LegendEntry { key: "centres-kept", colour: "#222222", mark: Mark::Dot });
        }
        legend
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;
    use crate::basis::kernel_design;
    use crate::solver::Solver;

    #[test]
    fn a_large_run_is_prepared_in_the_background_the_step_asked_for_kept() {
        let mut panel = Live::<FastRvmPanel>::try_default().unwrap();
        panel.set("N", "2000").unwrap();
        panel.set("step", "3").unwrap();
        assert!(panel.panel().current().is_none(), "the design of N = 2000 is more than a first slice");
        let report = panel.report();
        assert_eq!((report.position, report.readouts.len()), (Some((0, 0)), 0));
        let (done, total) = report.work.unwrap();
        assert!(done < total && total == 2000, "{done} of {total} columns");
        let mut slices = 0;
        while panel.work(Budget::units(FIRST_SLICE)) {
            slices += 1;
        }
        assert!(slices > 3, "{slices}");
        assert_eq!(panel.report().position.map(|p| p.0), Some(3), "the step asked for while it was prepared");
        assert_eq!(panel.value("step").as_deref(), Some("3"));
        // The same run as one from the whole design at once.
        let mut settings = FastRvmSettings::default().run.data;
        settings.n = 2000;
        let data = settings.dataset().unwrap();
        let problem =
            Arc::new(Problem::new(kernel_design(&data.x, 0.1, true).unwrap(), DVector::from_vec(data.t)).unwrap());
        let options = FastSettings { seed: settings.seed, max_steps: MAX_STEPS, ..FastSettings::default() };
        let mut whole = FastRvm::new(problem, options).unwrap();
        whole.run().unwrap();
        assert_eq!(panel.panel().events(), whole.events());
    }

    #[test]
    fn dragging_a_gaussian_centre_restarts_the_run_on_the_moved_basis() {
        let mut panel = Live::<FastRvmPanel>::try_default().unwrap();
        for (key, value) in [("basis", "gaussian"), ("M", "10"), ("s", "0.1"), ("step", "4")] {
            panel.set(key, value).unwrap();
        }
        while panel.work(Budget::unlimited()) {}
        let handles = PanelModel::handles(&panel);
        assert_eq!(handles.len(), 9, "one per centre, the bias has none");
        assert_eq!((handles[3].key, handles[3].at.0), ("centre", 0.375));
        assert_eq!(handles[3].args, vec![("j", "4".to_owned())], "φ₄, after the bias");
        let foot = handles[3].at.1;
        // A press at the foot near μ₃ = 0.375 grabs it; a drag moves it and restarts the run.
        assert!(!PanelModel::press(&mut panel, 0.38, foot).unwrap(), "a grab changes nothing yet");
        assert_eq!(panel.points().len(), 50, "no point added");
        assert!(PanelModel::drag(&mut panel, 0.6, foot).unwrap());
        PanelModel::release(&mut panel);
        assert_eq!(panel.value("centres").as_deref(), Some("3:0.6"));
        assert_eq!(panel.value("step").as_deref(), Some("0"), "the run starts again");
        while panel.work(Budget::unlimited()) {}
        let last = panel.report().position.unwrap().1;
        panel.set("step", &last.to_string()).unwrap();
        // The same run straight from the library, on the Gaussian basis with μ₃ = 0.6.
        let data = FastRvmSettings::default().run.data.dataset().unwrap();
        let spec =
            BasisSpec { family: Family::Gaussian, m: 10, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        let basis = Basis::from_spec(&spec, X_RANGE, &data.x).unwrap().with_centre(3, 0.6).unwrap();
        assert_eq!(basis.centres().unwrap()[3], 0.6);
        let problem = Arc::new(Problem::new(basis.design_matrix(&data.x).unwrap(), DVector::from_vec(data.t)).unwrap());
        let options = FastSettings { seed: 1, max_steps: MAX_STEPS, ..FastSettings::default() };
        let mut direct = FastRvm::new(problem, options).unwrap();
        direct.run().unwrap();
        assert_eq!(panel.panel().events(), direct.events());
        // The permalink reproduces it; a new M renumbers the functions and drops the move.
        let mut again = Live::<FastRvmPanel>::try_default().unwrap();
        assert!(again.apply_query(&panel.query()).is_empty());
        assert_eq!(again.value("centres").as_deref(), Some("3:0.6"));
        // Whatever the order of its keys: the centres apply to the basis of the link.
        let mut reversed = panel.query();
        reversed.reverse();
        let mut again = Live::<FastRvmPanel>::try_default().unwrap();
        assert!(again.apply_query(&reversed).is_empty());
        assert_eq!(again.query(), panel.query());
        panel.set("M", "11").unwrap();
        assert_eq!(panel.value("centres").as_deref(), Some(""));
        // Above the strip along the foot, or far from every centre, a press adds a point.
        let before = panel.points().len();
        PanelModel::press(&mut panel, 0.38, 0.9).unwrap();
        PanelModel::release(&mut panel);
        assert_eq!(panel.points().len(), before + 1);
    }

    #[test]
    fn on_the_kernel_basis_no_centre_is_grabbed() {
        let mut panel = Live::<FastRvmPanel>::try_default().unwrap();
        assert!(PanelModel::handles(&panel).is_empty());
        let before = panel.points().len();
        PanelModel::press(&mut panel, 0.38, -1.7).unwrap();
        assert_eq!(panel.points().len(), before + 1, "a press adds a point, as before");
    }

    #[test]
    fn on_a_polynomial_basis_the_panel_runs_the_fast_rvm_on_that_basis() {
        let mut panel = crate::app::open_panel("fast-rvm").unwrap();
        for (key, value) in [("basis", "polynomial"), ("M", "10"), ("bias", "1")] {
            panel.set(key, value).unwrap();
        }
        while panel.work(Budget::unlimited()) {}
        let last = panel.report().position.unwrap().1;
        panel.set("step", &last.to_string()).unwrap();
        // The same run straight from the library, on the design of the same basis.
        let settings = FastRvmSettings::default();
        let data = settings.run.data.dataset().unwrap();
        let spec =
            BasisSpec { family: Family::Polynomial, m: 10, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        let basis = Basis::from_spec(&spec, X_RANGE, &data.x).unwrap();
        let problem = Arc::new(Problem::new(basis.design_matrix(&data.x).unwrap(), DVector::from_vec(data.t)).unwrap());
        let options = FastSettings { seed: 1, max_steps: MAX_STEPS, ..FastSettings::default() };
        let mut direct = FastRvm::new(problem, options).unwrap();
        direct.run().unwrap();
        let report = panel.report();
        assert_eq!(report.readout("relevance-vectors"), Some(direct.active().len() as f64));
        assert_eq!(report.readout("log-ml"), Some(direct.log_ml()));
        assert_eq!(last, direct.iterations());
        // It keeps few of the ten functions 1, x, …, x⁹ (the lesson says how many).
        assert_eq!(direct.active().len(), 4);
        assert!(direct.active().iter().all(|&m| m < 10));
        // No data point is a relevance vector there: none is ringed, none is listed.
        let tables = panel.plotted();
        assert!(tables.iter().all(|t| t.caption != crate::app::plotted::Name::Series("relevance-vectors").into()));
    }
}
