//! The gradient-descent panel: batch, stochastic and mini-batch GD on the same data
//! with the same learning rate — their loss against iteration side by side, the lecture's
//! epoch / batch size / iteration table, and for M = 2 the paths in weight space over the
//! error surface, with the least-squares point marked.
//!
//! The runs are up to 40 000 updates of O(N·M) each: the first ones are made when the panel
//! computes, the rest in the background ([`Panel::work`]), the animation showing their ends
//! as they grow.

use std::cell::RefCell;

use crate::app::plotted::{Plotted, Tabulate, tabulate_all};
use nalgebra::{DMatrix, DVector};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::background::Background;
use crate::app::panel::{Grab, Handle, Panel};
use crate::app::params::{Control, ParamSpec, parse_integer, parse_real};
use crate::app::replay::{FIRST_SLICE, Player, Replay};
use crate::app::report::{Cell, Message, Readout, Report, Sentence, Table};
use crate::app::settings::PointSink;
use crate::app::settings::{BasisParams, DataParams, ModelSettings, X_RANGE};
use crate::basis::{BasisSpec, Family};
use crate::data::Sinusoid;
use crate::error::{Compact, Result, ensure_positive};
use crate::grid::Surface;
use crate::grid::evenly_spaced;
use crate::linear::gradient::{GradientDescent, GradientDescentSettings, Schedule, iterations_per_epoch};
use crate::linear::least_squares;
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::surface::{SurfaceChart, SurfacePath};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, palette};
use crate::solver::{Budget, Solver, Termination};

/// Colours of BGD, SGD and MBGD.
/// (MBGD is reddish purple, not green: the dashed green curve is the truth sin 2πx.)
const COLOURS: [RGBColor; 3] = [RGBColor(0x00, 0x72, 0xB2), RGBColor(0xD5, 0x5E, 0x00), RGBColor(0xCC, 0x79, 0xA7)];
/// Names of the three methods as the lecture abbreviates them (the same in both languages).
const NAMES: [&str; 3] = ["BGD", "SGD", "MBGD"];
/// Their keys in the legend.
const SERIES: [&str; 3] = ["bgd", "sgd", "mbgd"];
/// Most epochs: with N ≤ 200 a run is at most 40 000 updates, each costing O(N·M).
const MAX_EPOCHS: u64 = 200;
/// Contour lines of a surface, as [`Surface::contours`] gives them.
type Contours = Vec<Vec<(f64, f64)>>;

/// Cells of the error surface along each axis.
const SURFACE_CELLS: usize = 72;
/// Points at which fitted functions are drawn.
const GRID_POINTS: usize = 101;

const OWN_PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "rate", symbol: "η", control: Control::Real { min: 1e-4, max: 1.0, log: true } },
    ParamSpec { key: "epochs", symbol: "epochs", control: Control::Integer { min: 1, max: 200 } },
    ParamSpec { key: "batch", symbol: "b", control: Control::Integer { min: 1, max: 50 } },
    ParamSpec { key: "shuffle", symbol: "shuffle", control: Control::Integer { min: 0, max: 9999 } },
];

/// Basis, data and the descent's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct GradientSettings {
    /// Family, M, width, degree, bias (a straight line by default).
    pub basis: BasisParams,
    /// The training data.
    pub data: DataParams,
    /// Learning rate α of the lecture (η here, to keep α for the prior precision).
    pub rate: f64,
    /// Passes over the data.
    pub epochs: usize,
    /// Mini-batch size b.
    pub batch: usize,
    /// Seed of the shuffling of each epoch.
    pub shuffle: u64,
    /// Starting weights (w₀, w₁) for M = 2, chosen by clicking the weight plane.
    pub start: Option<(f64, f64)>,
}

impl Default for GradientSettings {
    /// A straight line t = w₀ + w₁x fitted to 20 points; η = 0.05 keeps all three stable.
    fn default() -> Self {
        let spec =
            BasisSpec { family: Family::Polynomial, m: 2, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        Self {
            basis: BasisParams::new(spec).with_max_m(10),
            data: DataParams::new(20, 0.3, 1).with_max_n(200),
            rate: 0.05,
            epochs: 60,
            batch: 5,
            shuffle: 1,
            start: None,
        }
    }
}

/// Key of the starting point, `w0:w1` in the URL.
const START_KEY: &str = "start";

impl ModelSettings for GradientSettings {
    fn groups(&self) -> (&BasisParams, &DataParams) {
        (&self.basis, &self.data)
    }

    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams) {
        (&mut self.basis, &mut self.data)
    }

    fn own_params(&self) -> Vec<ParamSpec> {
        OWN_PARAMS.to_vec()
    }

    fn assign_own(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        let result = match key {
            "rate" => parse_real("η", text).and_then(|v| ensure_positive("η", v)).map(|v| self.rate = v),
            "epochs" => parse_integer("epochs", text, 1, MAX_EPOCHS).map(|e| self.epochs = e as usize),
            "batch" => parse_integer("b", text, 1, crate::data::MAX_POINTS as u64).map(|b| self.batch = b as usize),
            "shuffle" => parse_integer("shuffle", text, 0, u64::from(u32::MAX)).map(|s| self.shuffle = s),
            START_KEY => parse_start(text).map(|start| self.start = start),
            _ => return None,
        };
        Some(result)
    }

    fn value_own(&self, key: &str) -> Option<String> {
        match key {
            "rate" => Some(Compact(self.rate).to_string()),
            "epochs" => Some(self.epochs.to_string()),
            "batch" => Some(self.batch.to_string()),
            "shuffle" => Some(self.shuffle.to_string()),
            START_KEY => Some(self.start.map_or_else(String::new, |(a, b)| format!("{}:{}", Compact(a), Compact(b)))),
            _ => None,
        }
    }

    fn hidden_own(&self) -> Vec<&'static str> {
        if self.start.is_some() { vec![START_KEY] } else { vec![] }
    }

    /// A new basis makes the old starting weights meaningless.
    fn basis_changed(&mut self) {
        self.start = None;
    }
}

/// Parses the starting weights `w0:w1` (empty: start at 0).
fn parse_start(text: &str) -> Result<Option<(f64, f64)>> {
    match text.split_once(':') {
        Some((a, b)) => Ok(Some((parse_real("w₀", a)?, parse_real("w₁", b)?))),
        None if text.trim().is_empty() => Ok(None),
        None => Err(crate::Error::NotFinite { name: "start".into(), value: text.into() }),
    }
}

/// The three runs, how far the animation has got, and what stays fixed while it plays.
#[derive(Debug, Clone)]
pub struct GradientPanel {
    /// The three runs as far as they have got (to their ends once the work is done), and
    /// the updates shown so far (the same count for every run, capped by its length).
    replay: Replay<Vec<Background<GradientDescent>>>,
    /// ΦᵀΦ, for the error surface once the paths are whole.
    gram: DMatrix<f64>,
    /// φ(x) at each of the [`GRID_POINTS`] points the fits are drawn on.
    on_grid: Vec<DVector<f64>>,
    /// The least-squares weights (M of them).
    least_squares: DVector<f64>,
    minimum_loss: f64,
    n: usize,
    /// The error surface (M = 2) over the paths so far.
    surface: Option<Surface>,
    /// Its contour lines, traced once per surface by the drawing's preparation
    /// ([`Panel::prepare_drawing`]) or by the first drawing that needs them, so that a change
    /// does not wait for them.
    contours: RefCell<Option<Contours>>,
    points: Vec<(f64, f64)>,
}

impl GradientPanel {
    /// The three runs: BGD, SGD, MBGD.
    pub fn runs(&self) -> Vec<&GradientDescent> {
        self.replay.frames().iter().map(Background::run).collect()
    }

    /// The error surface over the least-squares point and the paths so far (M = 2).
    fn surface(&self) -> Option<Surface> {
        (self.least_squares.len() == 2)
            .then(|| error_surface((&self.gram, self.minimum_loss), &self.runs(), &self.least_squares))
    }

    /// The contour lines of `surface`, the panel's: the ones kept, else traced and kept.
    fn contours(&self, surface: &Surface) -> Contours {
        self.contours.borrow_mut().get_or_insert_with(|| surface.contours()).clone()
    }

    /// Updates shown so far.
    pub fn shown(&self) -> usize {
        self.replay.shown()
    }

    /// Run `k`'s history up to the frame shown: (iteration, weights, loss).
    fn visible(&self, k: usize) -> (&[DVector<f64>], &[f64]) {
        let run = self.replay.frames()[k].run();
        let end = (self.shown() + 1).min(run.path().len());
        (&run.path()[..end], &run.losses()[..end])
    }

    fn loss_chart(&self, k: usize) -> LineChart {
        let (_, losses) = self.visible(k);
        let log = |e: f64| e.max(1e-300).log10();
        let all = self.runs()[k].losses();
        let total = self.runs()[k].iteration().max(1) as f64;
        let floor = log(self.minimum_loss);
        let y_range = widen(all.iter().map(|&e| log(e)), (floor, floor), 0.0);
        let pad = 0.05 * (y_range.1 - y_range.0).max(0.1);
        LineChart {
            x_range: (0.0, total),
            y_range: (y_range.0 - pad, y_range.1 + pad),
            x_name: ("iteration", "iteration"),
            y_name: ("log-loss", "log₁₀ E(w)"),
            title: Some((NAMES[k], NAMES[k])),
            curves: vec![
                Curve {
                    points: vec![(0.0, floor), (total, floor)],
                    colour: palette::INK,
                    width: 1.0,
                    dashed: true,
                    dotted: false,
                    series: Some("least-squares"),
                },
                Curve::solid(losses.iter().enumerate().map(|(i, &e)| (i as f64, log(e))).collect(), COLOURS[k], 2.0)
                    .named(SERIES[k]),
            ],
            points: vec![],
            marker: None,
        }
    }

    fn data_chart(&self) -> LineChart {
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
        let curve = |w: &DVector<f64>| -> Vec<(f64, f64)> {
            grid.iter().zip(&self.on_grid).map(|(&x, f)| (x, f.dot(w))).collect()
        };
        let mut curves = vec![Curve::truth(grid.iter().map(|&x| (x, Sinusoid::truth(x))).collect())];
        curves.push(Curve {
            points: curve(&self.least_squares),
            colour: palette::INK,
            width: 1.5,
            dashed: true,
            dotted: false,
            series: Some("least-squares"),
        });
        for (k, colour) in COLOURS.into_iter().enumerate().take(self.runs().len()) {
            if let Some(w) = self.visible(k).0.last() {
                curves.push(Curve::solid(curve(w), colour, 2.0).named(SERIES[k]));
            }
        }
        LineChart {
            x_range: widen(self.points.iter().map(|p| p.0), X_RANGE, 0.0),
            y_range: widen(self.points.iter().map(|p| p.1), (-1.6, 1.6), 0.2),
            x_name: ("x", "x"),
            y_name: ("t", "t"),
            title: None,
            curves,
            points: self.points.clone(),
            marker: None,
        }
    }

    /// The weight plane: error bands, the three paths so far, the least-squares point.
    fn weight_chart(&self, surface: &Surface, contours: Contours) -> SurfaceChart {
        let paths = COLOURS
            .into_iter()
            .enumerate()
            .take(self.runs().len())
            .map(|(k, colour)| SurfacePath {
                points: self.visible(k).0.iter().map(|w| (w[0], w[1])).collect(),
                colour,
                series: SERIES[k],
            })
            .collect();
        SurfaceChart {
            surface: surface.clone(),
            x_name: ("w0", "w₀"),
            y_name: ("w1", "w₁"),
            z_name: "error",
            z_of_value: (0.0, 1.0),
            title: None,
            paths,
            crosses: vec![(self.least_squares[0], self.least_squares[1])],
            contours,
        }
    }
}

/// The three schedules with the settings' batch size.
fn schedules(batch: usize) -> [Schedule; 3] {
    [Schedule::Batch, Schedule::Stochastic, Schedule::MiniBatch { batch }]
}

/// The error surface E(w) = ½‖t − Φw‖² (lecture notes on linear models, eq 10) over a
/// window holding the least-squares point ŵ and every iterate, given ΦᵀΦ and E(ŵ). Each
/// node is the expansion about ŵ,
///
/// E(w) = E(ŵ) + ½(w − ŵ)ᵀΦᵀΦ(w − ŵ),
///
/// exact because the residual t − Φŵ is orthogonal to the columns of Φ (the normal
/// equations, PRML 3.14): a 2 × 2 quadratic form per node instead of a pass over the data.
fn error_surface((gram, minimum): (&DMatrix<f64>, f64), runs: &[&GradientDescent], ls: &DVector<f64>) -> Surface {
    let ws = runs.iter().flat_map(|r| r.path().iter()).chain(std::iter::once(ls));
    let (mut x, mut y) = ((ls[0], ls[0]), (ls[1], ls[1]));
    for w in ws {
        x = (x.0.min(w[0]), x.1.max(w[0]));
        y = (y.0.min(w[1]), y.1.max(w[1]));
    }
    let pad = |(lo, hi): (f64, f64)| {
        let margin = 0.12 * (hi - lo).max(0.5);
        (lo - margin, hi + margin)
    };
    let error = |w0: f64, w1: f64| {
        let (d0, d1) = (w0 - ls[0], w1 - ls[1]);
        let quadratic = gram[(0, 0)] * d0 * d0 + 2.0 * gram[(0, 1)] * d0 * d1 + gram[(1, 1)] * d1 * d1;
        // ΦᵀΦ is positive semi-definite: a negative form is rounding (collinear columns).
        minimum + 0.5 * quadratic.max(0.0)
    };
    Surface::sample(pad(x), pad(y), SURFACE_CELLS, SURFACE_CELLS, error).with_geometric_levels(14)
}

impl Panel for GradientPanel {
    const NAME: &'static str = "gradient-descent";
    type Settings = GradientSettings;

    fn compute(settings: &GradientSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let basis = settings.basis.basis(&data.x)?;
        let phi = basis.design_matrix(&data.x)?;
        let least_squares = least_squares::fit(&phi, &data.t)?.weights().clone();
        let minimum_loss = 0.5 * (DVector::from_column_slice(&data.t) - &phi * &least_squares).norm_squared();
        let initial = match settings.start {
            Some((a, b)) if basis.len() == 2 => DVector::from_vec(vec![a, b]),
            _ => DVector::zeros(basis.len()),
        };
        let n = data.len();
        // A batch larger than the data is the whole data: every value of the slider works.
        let runs = schedules(settings.batch.min(n.max(1)))
            .into_iter()
            .map(|schedule| {
                let gd = GradientDescentSettings {
                    schedule,
                    learning_rate: settings.rate,
                    epochs: settings.epochs,
                    seed: settings.shuffle,
                    ridge: 0.0,
                    tolerance: 0.0,
                };
                let run = GradientDescent::new(phi.clone(), data.t.clone(), initial.clone(), gd)?;
                Ok(Background::new(run, iterations_per_epoch(n, schedule) * settings.epochs))
            })
            .collect::<Result<Vec<_>>>()?;
        let points = data.x.iter().copied().zip(data.t.iter().copied()).collect();
        // The animation opens at its end: every path whole (as far as it has got).
        let replay = Replay::new(runs, None, usize::MAX);
        let gram = phi.tr_mul(&phi);
        let on_grid = basis.features_on(&evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS))?;
        let (surface, contours) = (None, RefCell::default());
        let mut panel = Self { replay, gram, on_grid, least_squares, minimum_loss, n, surface, contours, points };
        // A first slice: the whole of small runs (the defaults), at once.
        panel.work(&mut Budget::units(FIRST_SLICE));
        panel.surface = panel.surface();
        Ok(panel)
    }

    /// The error surface's contour lines, the heaviest part of a drawing, in one piece.
    fn prepare_drawing(&self, _budget: &mut Budget) -> bool {
        let Some(surface) = &self.surface else { return false };
        let traced = self.contours.borrow().is_some();
        if !traced {
            self.contours(surface);
        }
        !traced
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let narrow = crate::plot::is_narrow(root, scale);
        let (top, bottom) = root.split_vertically(root.dim_in_pixel().1 * if narrow { 3 } else { 2 } / 5);
        let losses = if narrow { top.split_evenly((3, 1)) } else { top.split_evenly((1, 3)) };
        for (k, area) in losses.iter().enumerate() {
            self.loss_chart(k).draw(area, scale, labels)?;
        }
        let (left, right) = crate::plot::split_pair(&bottom, scale, 0.5);
        let data_area = self.data_chart().draw(&right, scale, labels)?;
        let area = match &self.surface {
            Some(surface) => self.weight_chart(surface, self.contours(surface)).draw(&left, scale, labels)?,
            None => data_area,
        };
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let losses: Vec<_> = (0..3).map(|k| self.loss_chart(k)).collect();
        // The weight plane's table holds the surface's values, not its contour lines
        // (`SurfaceChart`'s `Tabulate`): a change's check does not trace them.
        let weights = self.surface.as_ref().map(|surface| self.weight_chart(surface, vec![]));
        let data = self.data_chart();
        let mut charts: Vec<&dyn Tabulate> = losses.iter().map(|c| c as &dyn Tabulate).collect();
        charts.push(&data);
        if let Some(chart) = &weights {
            charts.push(chart);
        }
        tabulate_all(&charts)
    }

    fn report(&self) -> Report {
        let readouts = self.readouts();
        let (step, steps) = self.replay.position();
        let summary = vec![Sentence::of_readouts(
            "gradient-descent",
            &readouts,
            [("step", step.into()), ("steps", steps.into())],
        )];
        Report {
            readouts,
            tables: self.tables(),
            messages: self.messages(),
            legend: self.legend(),
            summary,
            ..Report::default()
        }
    }

    /// A press on the weight plane starts the descents there (M = 2); elsewhere it adds a point.
    fn press(&self, settings: &mut GradientSettings, x: f64, y: f64) -> Result<Option<Grab>> {
        if self.surface.is_some() {
            settings.start = Some(((x * 1e3).round() / 1e3, (y * 1e3).round() / 1e3));
        } else {
            settings.data.add_point(x, y)?;
        }
        Ok(None)
    }

    /// For M = 2, the descents' start (w₀, w₁) on the weight plane, moved a hundredth of
    /// the plane at a time: a press there is the change.
    fn handles(&self, settings: &GradientSettings) -> Vec<Handle> {
        let Some(surface) = &self.surface else { return vec![] };
        let at = settings.start.unwrap_or((0.0, 0.0));
        let step = |(lo, hi): (f64, f64)| (hi - lo) / 100.0;
        let (axes, step) = (("w0", Some("w1")), (step(surface.x_range), step(surface.y_range)));
        vec![Handle { key: "start", args: vec![], at, axes, step, grab: None }]
    }

    /// For M = 2 the interactive chart is the weight plane, not the data.
    fn points_on_chart(&self) -> bool {
        self.surface.is_none()
    }

    fn data_points(settings: &mut GradientSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.data)
    }

    fn player(&self) -> Option<&dyn Player> {
        Some(&self.replay)
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        Some(&mut self.replay)
    }

    /// The three runs in turn within `budget` (an update a unit), the ends shown as they
    /// grow; the error surface over the whole paths once they are done (its contour lines
    /// kept when the paths stayed within the surface of their beginnings).
    fn work(&mut self, budget: &mut Budget) -> bool {
        let growing = self.replay.frames().iter().any(|run| !run.is_done());
        for run in self.replay.frames_mut() {
            if !run.is_done() && budget.allows() {
                run.work(budget, |_| {});
            }
        }
        self.replay.catch_up();
        let done = self.replay.frames().iter().all(Background::is_done);
        if growing && done {
            let surface = self.surface();
            if surface != self.surface {
                self.surface = surface;
                self.contours.take();
            }
        }
        !done
    }

    /// Updates made so far and in all (the schedules' epochs × updates per epoch).
    fn work_progress(&self) -> Option<(usize, usize)> {
        let progress = self.replay.frames().iter().map(Background::progress);
        Some(progress.fold((0, 0), |(done, all), (d, a)| (done + d, all + a)))
    }
}

impl GradientPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "bgd", colour: "#0072b2", mark: Mark::Line },
            LegendEntry { key: "sgd", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "mbgd", colour: "#cc79a7", mark: Mark::Line },
            LegendEntry { key: "least-squares", colour: "#222222", mark: Mark::Dashed },
            LegendEntry { key: "truth", colour: "#009e73", mark: Mark::Dashed },
            LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        let mut readouts = vec![
            Readout { key: "N", value: self.n as f64 },
            Readout { key: "M", value: self.least_squares.len() as f64 },
        ];
        readouts.push(Readout { key: "least-squares-loss", value: self.minimum_loss });
        for (k, key) in ["bgd-loss", "sgd-loss", "mbgd-loss"].into_iter().enumerate() {
            let (_, losses) = self.visible(k);
            readouts.push(Readout { key, value: losses.last().copied().unwrap_or(f64::NAN) });
        }
        readouts
    }

    /// The lecture's epoch / batch size / iteration table for this N.
    fn tables(&self) -> Vec<Table> {
        let rows = self
            .runs()
            .iter()
            .zip(["bgd", "sgd", "mbgd"])
            .map(|(run, name)| {
                let s = run.settings();
                let per_epoch = iterations_per_epoch(self.n, s.schedule);
                let batch = match s.schedule {
                    Schedule::Batch => self.n,
                    Schedule::Stochastic => 1,
                    Schedule::MiniBatch { batch } => batch.min(self.n),
                };
                vec![
                    Cell::Label(name),
                    Cell::Number(batch as f64),
                    Cell::Number(per_epoch as f64),
                    Cell::Number(s.epochs as f64),
                    Cell::Number((per_epoch * s.epochs) as f64),
                ]
            })
            .collect();
        vec![Table { key: "epochs", columns: vec!["method", "batch-size", "per-epoch", "epochs", "iterations"], rows }]
    }

    /// Notes on the state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        for (run, name) in self.runs().into_iter().zip(NAMES) {
            if let Some(Termination::Diverged { iteration }) = run.status().termination() {
                let args = Vec::from([("method", name.to_owned()), ("iteration", iteration.to_string())]);
                messages.push(Message { code: "diverged".into(), args, warning: true });
            }
        }
        if self.surface.is_none() {
            messages.push(Message { code: "weights-need-m2".into(), args: Vec::new(), warning: false });
        }
        messages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn the_error_surface_is_half_the_squared_residual_at_every_node() {
        let mut panel = Live::<GradientPanel>::try_default().unwrap();
        panel.set("N", "60").unwrap();
        while panel.work(Budget::units(FIRST_SLICE)) {}
        let settings = panel.settings().clone();
        let data = settings.data.dataset().unwrap();
        let phi = settings.basis.basis(&data.x).unwrap().design_matrix(&data.x).unwrap();
        let t = DVector::from_column_slice(&data.t);
        let surface = panel.panel().surface.as_ref().unwrap();
        for iy in 0..surface.ny {
            for ix in 0..surface.nx {
                let (w0, w1) = surface.cell_centre(ix, iy);
                let want = 0.5 * (&t - &phi * DVector::from_vec(vec![w0, w1])).norm_squared();
                let got = surface.values[iy * surface.nx + ix];
                assert!((got - want).abs() <= 1e-9 * want, "({w0}, {w1}): {got} against {want}");
            }
        }
    }

    #[test]
    fn a_change_leaves_the_contours_to_the_drawings_preparation() {
        // Rates at which none diverges at N = 200, the runs going on in the background: at
        // 0.002 the whole paths stay in the window of their beginnings, at 0.005 they leave it.
        for (rate, moved) in [("0.002", false), ("0.005", true)] {
            let mut live = Live::<GradientPanel>::try_default().unwrap();
            live.set("rate", rate).unwrap();
            live.set("N", "200").unwrap();
            assert!(live.report().work.is_some_and(|(done, all)| done < all), "{rate}");
            let panel = live.panel();
            assert!(panel.contours.borrow().is_none(), "traced by the change");
            assert!(panel.prepare_drawing(&mut Budget::units(1)), "the preparation traced nothing");
            assert!(!panel.prepare_drawing(&mut Budget::units(1)), "the preparation traced them twice");
            let surface = panel.surface.clone().unwrap();
            assert_eq!(panel.contours.borrow().as_ref(), Some(&surface.contours()));
            // When the runs end, the surface takes in the whole paths; its contours are kept
            // while it is the same.
            while live.work(Budget::units(FIRST_SLICE)) {}
            let whole = live.panel().surface.clone().unwrap();
            assert_eq!(whole != surface, moved, "{rate}");
            assert_eq!(live.panel().contours.borrow().is_some(), !moved, "{rate}");
            assert_eq!(live.panel().contours(&whole), whole.contours());
        }
    }

    #[test]
    fn defaults_converge_towards_least_squares() {
        let panel = Live::<GradientPanel>::try_default().unwrap();
        let view = panel.panel();
        for run in view.runs() {
            assert!(matches!(run.status().termination(), Some(Termination::Finished { .. })));
            let gap = (run.weights() - &view.least_squares).norm();
            assert!(gap < 0.15, "{:?} ended {gap} from w_LS", run.settings().schedule);
        }
        assert!(panel.report().messages.is_empty(), "{:?}", panel.report().messages);
        let table = &panel.report().tables[0];
        // N = 20, b = 5: 1, 20 and 4 updates per epoch.
        let per_epoch: Vec<_> = table.rows.iter().map(|r| r[2].clone()).collect();
        assert_eq!(per_epoch, vec![Cell::Number(1.0), Cell::Number(20.0), Cell::Number(4.0)]);
    }

    #[test]
    fn a_large_rate_diverges_with_a_message_and_no_nan() {
        let mut panel = Live::<GradientPanel>::try_default().unwrap();
        panel.set("rate", "0.5").unwrap();
        let codes: Vec<_> = panel
            .report()
            .messages
            .into_iter()
            .filter(|m| m.warning)
            .flat_map(|m| m.args.into_iter().filter(|(name, _)| *name == "method").map(|(_, value)| value))
            .collect();
        assert!(codes.contains(&"BGD".to_string()), "{codes:?}");
        assert!(panel.report().readouts.iter().all(|r| r.value.is_finite()));
    }

    #[test]
    fn the_animation_rewinds_and_plays_to_the_end() {
        let mut panel = Live::<GradientPanel>::try_default().unwrap();
        let (shown, total) = panel.report().position.unwrap();
        assert_eq!(shown, total);
        panel.rewind();
        assert_eq!(panel.report().position, Some((0, total)));
        assert!(panel.step(10));
        assert_eq!(panel.report().position, Some((10, total)));
        while panel.step(1000) {}
        assert_eq!(panel.report().position, Some((total, total)));
    }

    #[test]
    fn a_press_on_the_weight_plane_sets_the_start() {
        let mut panel = Live::<GradientPanel>::try_default().unwrap();
        assert!(panel.press(-1.0, 2.0).unwrap());
        assert_eq!(panel.value("start").as_deref(), Some("-1:2"));
        let first = &panel.panel().runs()[0].path()[0];
        assert_eq!((first[0], first[1]), (-1.0, 2.0));
    }

    #[test]
    fn long_runs_grow_in_the_background_to_the_runs_made_at_once() {
        let mut panel = Live::<GradientPanel>::try_default().unwrap();
        panel.set("N", "200").unwrap();
        panel.set("epochs", "200").unwrap();
        let (done, total) = panel.report().work.unwrap();
        // BGD one update an epoch, SGD 200, MBGD (b = 5) 40.
        assert_eq!(total, 200 * (1 + 200 + 40));
        assert!(done < total, "{done} of {total} in the first slice");
        while panel.work(Budget::units(FIRST_SLICE)) {}
        assert_eq!(panel.report().work, Some((total, total)));
        assert_eq!(panel.report().position, Some((40_000, 40_000)), "the animation at the end of SGD");
        let settings = panel.settings().clone();
        let data = settings.data.dataset().unwrap();
        let phi = settings.basis.basis(&data.x).unwrap().design_matrix(&data.x).unwrap();
        for (run, schedule) in panel.panel().runs().into_iter().zip(schedules(settings.batch)) {
            let gd = GradientDescentSettings { schedule, ..*run.settings() };
            let mut whole = GradientDescent::new(phi.clone(), data.t.clone(), DVector::zeros(phi.ncols()), gd).unwrap();
            whole.run().unwrap();
            assert_eq!(run.path(), whole.path(), "{schedule:?}");
        }
    }
}
