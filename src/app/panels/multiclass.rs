//! The "multiclass RVM" panel (PRML 7.120–7.122): K = 3 classes in the plane, a
//! softmax over one weight vector per class on a Gaussian kernel, one αₖᵢ per weight, fitted
//! by classic sweeps around the Laplace mode. The class regions in shades of each class's
//! colour, the decision boundaries, the relevance vectors ringed, and the Laplace L and the
//! number of relevance vectors against sweep.
//!
//! The first fit and the early sweeps factorise a Hessian of up to K(N + 1) rows, tens of
//! milliseconds each in the browser, so they run in the background in pieces
//! ([`Panel::work`]; [`MulticlassStart`] and [`Solver::step_within`]), the data drawn at once
//! and the map once the first fit is there; every sweep's result is kept ([`Recorded`]):
//! the player steps through the sweeps computed so far.

use crate::app::plotted::{Plotted, Tabulate, tabulate_all};
use std::rc::Rc;

use nalgebra::DMatrix;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::class_map::{MapCache, MapSource, Probabilities};
use crate::app::labelled::LabelledData;
use crate::app::panel::{Layout, Panel};
use crate::app::params::{Control, ParamSpec, parse_real};
use crate::app::replay::{Player, Recorded, Replay, Waiting};
use crate::app::report::{Message, Readout, Report, Sentence};
use crate::app::settings::{FRAME_KEY, ParamGroup, PointSink, RunData, Settings, assign_in, value_in};
use crate::basis::{kernel_design_2d, kernel_expansions_on_grid};
use crate::data::{LabelledPoints, MixtureLayout};
use crate::error::{Compact, Error, Result, ensure_positive};
use crate::plot::classes::{ClassMap, ClassMapChart, ensure_map_finite, square_around};
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::{Labels, PlotArea, palette};
use crate::rvm::classification::ClassifierSettings;
use crate::rvm::multiclass::{ClassicMulticlassRvm, MulticlassFit, MulticlassStart, softmax_in_place};
use crate::solver::{Budget, Solver};

/// Most data points: the first sweeps factorise a 3(N + 1)-row Hessian.
const MAX_N: usize = 150;
/// Most sweeps.
const MAX_SWEEPS: usize = 2_000;
/// Cells of the class map along each axis.
const MAP_CELLS: usize = 200;
/// The layouts with three classes.
const LAYOUTS: &[&str] = &["triangle", "bands"];

/// The data and the sweep shown, and the kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct MulticlassSettings {
    /// Three-class data in the plane and any placed points, and the sweep shown.
    pub run: RunData<LabelledData>,
    /// Kernel width s of exp(−‖x − xₙ‖²/2s²).
    pub width: f64,
}

/// The kernel width's control.
const WIDTH: ParamSpec = ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.05, max: 2.0, log: true } };

impl Default for MulticlassSettings {
    fn default() -> Self {
        let data = LabelledData::new(MixtureLayout::Triangle, LAYOUTS, 90, 1, MAX_N);
        Self { run: RunData::new(data, MAX_SWEEPS as u64, &[0, 1, 5, 10, 50]), width: 0.4 }
    }
}

impl Settings for MulticlassSettings {
    fn params(&self) -> Vec<ParamSpec> {
        [self.run.frame_param(), WIDTH].into_iter().chain(self.run.data.params()).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            _ => assign_in(&mut [&mut self.run], key, text)?,
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        match key {
            "s" => Some(Compact(self.width).to_string()),
            _ => value_in(&[&self.run], key),
        }
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.run.hidden_keys()
    }
}

/// The sweeps recorded so far and the sweep shown.
type Sweeps = Replay<Recorded<ClassicMulticlassRvm, MulticlassFit>>;

/// The first fit being computed, or the sweeps after it.
#[derive(Debug, Clone)]
enum Fitting {
    /// The mode at the starting α, searched for in pieces; the player keeps the sweep asked
    /// for.
    Starting {
        start: Box<MulticlassStart>,
        waiting: Waiting,
    },
    Sweeping(Box<Sweeps>),
    /// The first fit failed in the background (after its first slice): the data stay.
    Failed(Error),
}

/// The data, the first fit or the sweeps, and the map of the sweep shown.
#[derive(Debug, Clone)]
pub struct MulticlassPanel {
    data: LabelledPoints,
    width: f64,
    classes: usize,
    fitting: Fitting,
    range: ((f64, f64), (f64, f64)),
    /// The class map of the sweep shown, computed once per sweep (redraws reuse it).
    map: MapCache,
}

impl MulticlassPanel {
    /// The sweeps, once the first fit is there.
    fn sweeps(&self) -> Option<&Sweeps> {
        match &self.fitting {
            Fitting::Sweeping(sweeps) => Some(sweeps),
            _ => None,
        }
    }

    /// The fit after every sweep so far (none before the first fit).
    fn fits(&self) -> &[MulticlassFit] {
        self.sweeps().map_or(&[], |sweeps| sweeps.frames().records())
    }

    /// The sweep shown and its fit, once the first fit is there.
    fn fit(&self) -> Option<(usize, &MulticlassFit)> {
        let shown = self.sweeps()?.shown();
        Some((shown, &self.fits()[shown]))
    }

    /// The input a column of the design is centred on (`None`: the bias, column 0).
    fn centre(&self, m: usize) -> Option<[f64; 2]> {
        m.checked_sub(1).and_then(|n| self.data.x.get(n).copied())
    }

    /// The class map of the sweep shown (blank before the first fit), from the cache when
    /// this sweep's map was computed already.
    fn map(&self) -> Rc<ClassMap> {
        let Some((shown, fit)) = self.fit() else {
            let ((x0, x1), (y0, y1)) = self.range;
            return Rc::new(ClassMap::blank((x0, x1), (y0, y1), self.classes));
        };
        self.map.get(shown, &self.map_source(&|xs, ys| self.probabilities(fit, xs, ys)))
    }

    /// What [`Self::map`] is made from, with `probabilities` ([`Self::probabilities`]).
    fn map_source<'a>(&self, probabilities: Probabilities<'a>) -> MapSource<'a> {
        MapSource { square: self.range, cells: MAP_CELLS, probabilities }
    }

    /// p(C_k|x) = softmax(w_kᵀφ(x)) of `fit` at the nodes `xs` × `ys`, row by row (PRML
    /// 7.120–7.121). The softmax is unchanged when one activation is subtracted from all, so
    /// the map takes aₖ − a₀ = (wₖ − w₀)ᵀφ(x) for k ≥ 1 (class 0's is then 0): K − 1 kernel
    /// expansions over the same centres, evaluated on the grid, instead of K.
    fn probabilities(&self, fit: &MulticlassFit, xs: &[f64], ys: &[f64]) -> Vec<Vec<f64>> {
        let classes = fit.classes;
        let against_first = |w: &[f64]| w[1..].iter().map(|&wk| wk - w[0]).collect::<Vec<f64>>();
        let (mut centres, mut rows, mut biases) = (vec![], vec![], vec![0.0; classes - 1]);
        for (&m, w) in fit.relevant.iter().zip(&fit.weights) {
            match self.centre(m) {
                Some(c) => {
                    centres.push(c);
                    rows.extend(against_first(w));
                }
                None => biases = against_first(w),
            }
        }
        let weights = DMatrix::from_row_slice(centres.len(), classes - 1, &rows);
        let differences = kernel_expansions_on_grid(xs, ys, &centres, &weights, &biases, self.width);
        let nodes = xs.len() * ys.len();
        let mut probabilities = vec![Vec::with_capacity(nodes); classes];
        let mut cell = vec![0.0; classes];
        for i in 0..nodes {
            cell[0] = 0.0;
            for (a, column) in cell[1..].iter_mut().zip(&differences) {
                *a = column[i];
            }
            softmax_in_place(&mut cell);
            for (&p, column) in cell.iter().zip(probabilities.iter_mut()) {
                column.push(p);
            }
        }
        probabilities
    }

    /// The class map with the data and the relevance vectors of the sweep shown.
    fn map_chart(&self) -> ClassMapChart {
        let relevant =
            self.fit().map_or(vec![], |(_, fit)| fit.relevant.iter().filter_map(|&m| self.centre(m)).collect());
        ClassMapChart {
            map: self.map(),
            points: self.data.x.iter().zip(&self.data.t).map(|(&x, &t)| (x, t as usize)).collect(),
            relevant,
            highlight: None,
            title: None,
        }
    }

    /// L (top) and the number of relevance vectors (bottom) against sweep
    /// ([`Self::history_chart`]).
    fn history_charts(&self) -> [Option<LineChart>; 2] {
        let log_ml = |f: &MulticlassFit| f.log_marginal_likelihood;
        let relevant = |f: &MulticlassFit| f.relevant.len() as f64;
        [
            self.history_chart(log_ml, ("laplace-log-ml", "ln p(T|α) (Laplace)")),
            self.history_chart(relevant, ("relevance-vectors", "relevance vectors")),
        ]
    }

    /// Appends the tables of the history charts to `tables`.
    fn tabulate_history(&self, tables: &mut Vec<Plotted>) {
        for chart in self.history_charts().iter().flatten() {
            chart.tabulate(tables);
        }
    }

    /// L (top) or the number of relevance vectors (bottom) against sweep, to the sweep
    /// shown in colour, the rest of the run so far faint; `None` before the first fit.
    fn history_chart(
        &self,
        value: fn(&MulticlassFit) -> f64,
        y_name: (&'static str, &'static str),
    ) -> Option<LineChart> {
        let (shown, _) = self.fit()?;
        let all: Vec<(f64, f64)> = self.fits().iter().enumerate().map(|(k, f)| (k as f64, value(f))).collect();
        let up_to = all[..=shown].to_vec();
        let last = all[all.len() - 1].1;
        Some(LineChart {
            x_range: (0.0, ((all.len() - 1) as f64).max(1.0)),
            y_range: widen(all.iter().map(|p| p.1), (last - 1.0, last + 1.0), 0.05),
            x_name: ("sweep", "sweep"),
            y_name,
            title: None,
            curves: vec![
                Curve::solid(all, palette::SAMPLE, 1.0).named("whole-run"),
                Curve::solid(up_to, palette::MEAN, 2.0).named("to-step"),
            ],
            points: vec![],
            marker: Some(shown as f64),
        })
    }

    /// The sweeps from the first fit `run`, showing `frame` once it is computed.
    fn sweeps_from(run: ClassicMulticlassRvm, frame: usize) -> Fitting {
        let sweeps = Recorded::new(run, MAX_SWEEPS, ClassicMulticlassRvm::fit);
        Fitting::Sweeping(Box::new(Replay::new(sweeps, Some(FRAME_KEY), frame)))
    }
}

impl Panel for MulticlassPanel {
    const NAME: &'static str = "multiclass";
    type Settings = MulticlassSettings;
    /// A sweep every other frame.
    const LAYOUT: Layout = Layout { point_axes: ["x1", "x2"], play_speed: 2, counts: false };
    const FOLLOWS: &'static [&'static str] = &[FRAME_KEY, "class"];

    /// The data and the design, and the first fit's first piece (its first pass over the
    /// data), the rest in [`Panel::work`]'s time slices. Only one piece here, as in
    /// [`crate::app::glm_run::GlmRun::start`]: a piece of the first fit at N = 150 is a block
    /// of the Hessian (N (N + 1)² / 2 multiply-adds), and the two that
    /// [`crate::app::replay::FIRST_SLICE`] began were most of the change: 14–42 ms of an
    /// input's task on a phone 4× slower than this machine, where it passed 50 ms.
    fn compute(settings: &MulticlassSettings) -> Result<Self> {
        let data = settings.run.data.points()?;
        if data.x.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design_2d(&data.x, settings.width, true)?;
        let classes = settings.run.data.classes();
        let mut start = Box::new(MulticlassStart::new(design, &data.t, classes, ClassifierSettings::default())?);
        let frame = settings.run.frame;
        let fitting = match start.step_within(&mut Budget::units(1))? {
            Some(run) => Self::sweeps_from(run, frame),
            None => Fitting::Starting { start, waiting: Waiting::new(Some(FRAME_KEY), frame) },
        };
        let map = MapCache::default();
        Ok(Self { range: square_around(&data.x), data, width: settings.width, classes, fitting, map })
    }

    /// The class map of the sweep shown, the heaviest part of a drawing.
    fn prepare_drawing(&self, budget: &mut Budget) -> bool {
        let Some((shown, fit)) = self.fit() else { return false };
        self.map.prepare(shown, &self.map_source(&|xs, ys| self.probabilities(fit, xs, ys)), budget)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::main_and_side(root, scale, crate::plot::classes::MAP_SHARE);
        let area = self.map_chart().draw(&main, scale, labels)?;
        let [likelihood, relevant] = self.history_charts();
        if let Some(chart) = likelihood {
            chart.draw(&upper, scale, labels)?;
        }
        if let Some(chart) = relevant {
            chart.draw(&lower, scale, labels)?;
        }
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let mut tables = tabulate_all(&[&self.map_chart()]);
        self.tabulate_history(&mut tables);
        tables
    }

    /// The history charts' tables; the class map's probabilities are finite while its
    /// weights are bounded ([`ensure_map_finite`]), so the map is computed by the drawing's
    /// preparation, not by the check of a change.
    fn plotted_to_check(&self) -> Result<Vec<Plotted>> {
        if let Some((_, fit)) = self.fit() {
            ensure_map_finite(fit.weights.iter().flatten().copied())?;
        }
        let mut tables = vec![];
        self.tabulate_history(&mut tables);
        Ok(tables)
    }

    fn report(&self) -> Report {
        let legend = crate::plot::classes::legend(self.classes);
        let sweeps = match &self.fitting {
            Fitting::Sweeping(sweeps) => sweeps.frames(),
            Fitting::Starting { .. } => {
                return Report { legend, summary: vec![Sentence::new("preparing-fit", [])], ..Report::default() };
            }
            Fitting::Failed(error) => {
                let messages = vec![Message::warning("run-failed", [("reason", error.to_string())])];
                return Report { messages, legend, ..Report::default() };
            }
        };
        let Some((shown, fit)) = self.fit() else { return Report { legend, ..Report::default() } };
        let active = fit.alpha.iter().flatten().filter(|a| a.is_some()).count();
        let readouts = vec![
            Readout { key: "sweep", value: shown as f64 },
            Readout { key: "relevance-vectors", value: fit.relevant.len() as f64 },
            Readout { key: "active-weights", value: active as f64 },
            Readout { key: "laplace-log-ml", value: fit.log_marginal_likelihood },
            Readout { key: "accuracy", value: fit.accuracy },
        ];
        let mut messages = vec![];
        if let Some(error) = sweeps.failure() {
            messages.push(Message::warning("run-failed", [("reason", error.to_string())]));
        } else if sweeps.run().is_done() && !sweeps.run().run().status().termination().is_some_and(|t| t.converged()) {
            messages.push(Message::warning("not-converged-sweeps", [("sweeps", MAX_SWEEPS.to_string())]));
        }
        let (_, sweeps_so_far) = self.sweeps().map_or((0, 0), |s| s.position());
        let summary = vec![Sentence::of_readouts("multiclass", &readouts, [("sweeps", sweeps_so_far.into())])];
        Report { readouts, messages, legend, summary, ..Report::default() }
    }

    fn data_points(settings: &mut MulticlassSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.run)
    }

    fn player(&self) -> Option<&dyn Player> {
        match &self.fitting {
            Fitting::Sweeping(sweeps) => Some(sweeps.as_ref()),
            Fitting::Starting { waiting, .. } => Some(waiting),
            Fitting::Failed(_) => None,
        }
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        match &mut self.fitting {
            Fitting::Sweeping(sweeps) => Some(sweeps.as_mut()),
            Fitting::Starting { waiting, .. } => Some(waiting),
            Fitting::Failed(_) => None,
        }
    }

    /// The first fit, then the sweeps, within `budget`; the sweep asked for is shown once
    /// it is computed (the slice ends with the first fit, if that is the sweep asked for).
    fn work(&mut self, budget: &mut Budget) -> bool {
        if let Fitting::Starting { start, waiting } = &mut self.fitting {
            match start.step_within(budget) {
                Ok(None) => return true,
                Ok(Some(run)) => self.fitting = Self::sweeps_from(run, waiting.frame),
                Err(error) => {
                    self.fitting = Fitting::Failed(error);
                    return false;
                }
            }
            // When the first fit is the sweep asked for, the slice ends here, so that the
            // page draws it before the sweeps go on.
            if !budget.allows() || !self.sweeps().is_some_and(|sweeps| sweeps.waiting()) {
                return true;
            }
        }
        let Fitting::Sweeping(sweeps) = &mut self.fitting else { return false };
        let more = sweeps.frames_mut().extend(budget);
        sweeps.catch_up();
        more
    }

    /// Sweeps so far, out of twice as many while it runs (the run's length is unknown);
    /// 0 of 1 while the first fit is computed.
    fn work_progress(&self) -> Option<(usize, usize)> {
        let Some(sweeps) = self.sweeps() else {
            return matches!(self.fitting, Fitting::Starting { .. }).then_some((0, 1));
        };
        let done = self.fits().len() - 1;
        let total = if sweeps.frames().run().is_done() { done } else { (self.fits().len() * 2).min(MAX_SWEEPS) };
        Some((done, total.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_run_in_the_background_and_the_cursor_waits_for_them() {
        let mut settings = MulticlassSettings::default();
        settings.run.frame = 5;
        let mut view = MulticlassPanel::compute(&settings).unwrap();
        assert!(view.sweeps().is_none_or(|s| s.shown() == 0), "sweep 5 is not computed yet");
        while view.work(&mut Budget::unlimited()) {}
        let sweeps = view.sweeps().unwrap();
        assert!(sweeps.frames().run().run().status().termination().is_some_and(|t| t.converged()));
        assert_eq!(sweeps.shown(), 5);
        let last = view.fits().last().unwrap();
        assert!(last.accuracy > 0.85, "{last:?}");
        assert!(last.relevant.len() < 15, "{last:?}");
        assert!(!view.player_mut().unwrap().step(1_000_000));
        assert_eq!(view.sweeps().unwrap().shown(), view.fits().len() - 1);
        let map = view.map();
        let total: f64 = (0..3).map(|k| map.probabilities[k][1234]).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    /// The map's cell centres against softmax(Wᵀφ(x)) evaluated from scratch there, with
    /// every class's activation (the map takes differences against class 0), at the first
    /// fit (every basis function relevant) and at the end of the run.
    #[test]
    fn the_map_is_the_softmax_of_the_fit_at_each_cell() {
        let mut view = MulticlassPanel::compute(&MulticlassSettings::default()).unwrap();
        while view.work(&mut Budget::unlimited()) {}
        for shown in [0, view.fits().len() - 1] {
            view.player_mut().unwrap().show(shown);
            let (_, fit) = view.fit().unwrap();
            let map = view.map();
            let ((x0, x1), (y0, y1)) = view.range;
            let (dx, dy) = ((x1 - x0) / MAP_CELLS as f64, (y1 - y0) / MAP_CELLS as f64);
            for i in [0, 1234, 20_099, 39_999] {
                let x = [x0 + dx * ((i % MAP_CELLS) as f64 + 0.5), y0 + dy * ((i / MAP_CELLS) as f64 + 0.5)];
                let mut logits = [0.0; 3];
                for (&m, w) in fit.relevant.iter().zip(&fit.weights) {
                    let phi = view.centre(m).map_or(1.0, |c| {
                        let d2 = (x[0] - c[0]).powi(2) + (x[1] - c[1]).powi(2);
                        (-d2 / (2.0 * view.width * view.width)).exp()
                    });
                    for (a, wk) in logits.iter_mut().zip(w) {
                        *a += wk * phi;
                    }
                }
                let top = logits.iter().fold(f64::NEG_INFINITY, |m, &a| m.max(a));
                let sum: f64 = logits.iter().map(|a| (a - top).exp()).sum();
                for (k, a) in logits.iter().enumerate() {
                    let want = (a - top).exp() / sum;
                    let got = map.probabilities[k][i];
                    assert!((got - want).abs() < 1e-12, "sweep {shown}, cell {i}, class {k}: {got} vs {want}");
                }
            }
        }
    }
}
