//! The "RVM classification" panel (PRML §7.2.3, Fig 7.12): the fast RVM classifier
//! on the Gaussian kernel of 2-D two-class data, one step at a time — p(C₁|x) as a colour
//! map with the ½ decision boundary, the relevance vectors ringed, the data point whose
//! basis function the step acted on ringed in the action's colour, the Laplace L against
//! step, the λ curve of that basis function and the event log. The classic re-estimation
//! runs in the background for comparison.

use crate::app::plotted::{Plotted, Tabulate, tabulate_all};
use std::sync::Arc;

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::background::Background;
use crate::app::fast_steps::{self, action_colour};
use crate::app::labelled::LabelledData;
use crate::app::panel::{Layout, Panel};
use crate::app::params::{Control, ParamSpec, parse_choice, parse_real, parse_toggle};
use crate::app::replay::{Checkpointed, FIRST_SLICE, Player, Replay};
use crate::app::report::{Message, Readout, Report, Word};
use crate::app::settings::{FRAME_KEY, ParamGroup, PointSink, RunData, Settings, assign_in, value_in};
use crate::basis::{kernel_design_2d, kernel_expansion_on_grid};
use crate::data::{LabelledPoints, MixtureLayout, TwoClass};
use crate::error::{Error, Result, ensure_positive};
use crate::grid::evenly_spaced;
use crate::plot::classes::{ClassMap, ClassMapChart, square_around};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea};
use crate::rvm::classification::{
    ClassicRvmClassifier, ClassifierSettings, ClassifierStart, FastRvmClassifier, accuracy, sigmoid,
};
use crate::rvm::{Event, FastSettings, Problem, Selection};
use crate::solver::Budget;

/// Most data points: a run stays within a few frames.
const MAX_N: usize = 400;
/// The classic re-estimation costs O(M³) a sweep: it is compared up to this N.
const COMPARE_MAX_N: usize = 200;
/// Sweeps the classic method may take.
const CLASSIC_SWEEPS: usize = 2_000;
/// Most steps of a fast run.
const MAX_STEPS: usize = 3_000;
/// Cells of the probability map along each axis.
const MAP_CELLS: usize = 200;
/// The layouts with two classes.
const LAYOUTS: &[&str] = &["ripley", "xor", "rings", "separable"];

/// The options of the run, shown between the step and the data.
const PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.05, max: 2.0, log: true } },
    ParamSpec { key: "selection", symbol: "selection", control: Control::Choice { options: &Selection::NAMES } },
    ParamSpec { key: "align", symbol: "align", control: Control::Toggle },
];

/// The data and the step shown, the kernel, and the options of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassificationSettings {
    /// Two-class data in the plane and any placed points, and the step shown.
    pub run: RunData<LabelledData>,
    /// Kernel width s of exp(−‖x − xₙ‖²/2s²).
    pub width: f64,
    /// How the next basis function is chosen.
    pub selection: Selection,
    /// Refuse candidates nearly parallel to an active basis function.
    pub alignment_test: bool,
}

impl Default for ClassificationSettings {
    fn default() -> Self {
        let data = LabelledData::new(MixtureLayout::Ripley, LAYOUTS, 200, 1, MAX_N);
        Self {
            run: RunData::new(data, MAX_STEPS as u64, &[0, 1, 5, 10, 20]),
            width: TwoClass::KERNEL_WIDTH,
            selection: Selection::Greedy,
            alignment_test: true,
        }
    }
}

impl Settings for ClassificationSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let data = self.run.data.params();
        std::iter::once(self.run.frame_param()).chain(PARAMS.iter().copied()).chain(data).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            "selection" => self.selection = Selection::from_name(parse_choice("selection", text, &Selection::NAMES)?)?,
            "align" => self.alignment_test = parse_toggle("align", text)?,
            _ => assign_in(&mut [&mut self.run], key, text)?,
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "s" => self.width.to_string(),
            "selection" => self.selection.name().to_owned(),
            "align" => u8::from(self.alignment_test).to_string(),
            _ => return value_in(&[&self.run], key),
        })
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.run.hidden_keys()
    }
}

/// The whole fast run with the step shown, and the comparison.
#[derive(Debug, Clone)]
pub struct ClassificationPanel {
    data: LabelledPoints,
    width: f64,
    replay: Replay<Checkpointed<FastRvmClassifier>>,
    /// The square shown: the data's bounding box with a margin.
    range: ((f64, f64), (f64, f64)),
    /// Classic re-estimation, when N ≤ [`COMPARE_MAX_N`]: set up in the background work
    /// (its first fit, with every basis function, is a Cholesky of order N + 1 per Newton
    /// step), after the fast run.
    comparison: Option<Comparison>,
}

/// The classic comparison: its first fit (every basis function in: the largest Hessian of
/// the run) made in the background a piece at a time, then its sweeps.
#[derive(Debug, Clone)]
enum Comparison {
    Starting(Box<ClassifierStart>),
    Running(Box<Background<ClassicRvmClassifier>>),
}

impl Comparison {
    /// The run, once its first fit is made.
    fn running(&self) -> Option<&Background<ClassicRvmClassifier>> {
        match self {
            Comparison::Running(run) => Some(run),
            Comparison::Starting(..) => None,
        }
    }

    /// Sweeps done and in all, for the progress bar (none done while waiting).
    fn progress(&self) -> (usize, usize) {
        self.running().map_or((0, CLASSIC_SWEEPS), |run| run.progress())
    }

    /// Whether it has nothing left to do.
    fn is_done(&self) -> bool {
        self.running().is_some_and(|run| run.is_done())
    }
}

impl ClassificationPanel {
    /// The run at the step shown.
    pub fn current(&self) -> &FastRvmClassifier {
        self.replay.frames().current()
    }

    /// Every event of the run to its end.
    pub fn events(&self) -> &[Event] {
        self.replay.frames().end().events()
    }

    /// The input a column of the design is centred on (`None`: the bias, column 0).
    fn centre(&self, m: usize) -> Option<[f64; 2]> {
        m.checked_sub(1).and_then(|n| self.data.x.get(n).copied())
    }

    /// p(C₁|x) = σ(w*ᵀφ(x)) of the model at the step shown on a [`MAP_CELLS`]² grid
    /// (the mode's prediction, PRML 7.108).
    fn map(&self) -> ClassMap {
        let run = self.current();
        let (mut centres, mut weights, mut bias) = (vec![], vec![], 0.0);
        for (&m, &w) in run.active().iter().zip(run.mode().w.iter()) {
            match self.centre(m) {
                Some(c) => {
                    centres.push(c);
                    weights.push(w);
                }
                None => bias = w,
            }
        }
        let ((x0, x1), (y0, y1)) = self.range;
        let half = |lo: f64, hi: f64| 0.5 * (hi - lo) / MAP_CELLS as f64;
        let xs = evenly_spaced(x0 + half(x0, x1), x1 - half(x0, x1), MAP_CELLS);
        let ys = evenly_spaced(y0 + half(y0, y1), y1 - half(y0, y1), MAP_CELLS);
        let p1: Vec<f64> =
            kernel_expansion_on_grid(&xs, &ys, &centres, &weights, bias, self.width).into_iter().map(sigmoid).collect();
        let p0 = p1.iter().map(|p| 1.0 - p).collect();
        ClassMap { x_range: (x0, x1), y_range: (y0, y1), nx: MAP_CELLS, ny: MAP_CELLS, probabilities: vec![p0, p1] }
    }

    /// The map chart of the step shown.
    fn map_chart(&self) -> ClassMapChart {
        let run = self.current();
        let event = &self.events()[self.replay.shown()];
        let highlight = event.basis.and_then(|m| Some((self.centre(m)?, action_colour(event.action)?)));
        ClassMapChart {
            map: self.map(),
            points: self.data.x.iter().zip(&self.data.t).map(|(&x, &t)| (x, t as usize)).collect(),
            relevant: run.active().iter().filter_map(|&m| self.centre(m)).collect(),
            highlight,
            title: None,
        }
    }
}

impl Panel for ClassificationPanel {
    const NAME: &'static str = "classification";
    type Settings = ClassificationSettings;
    /// A step every other frame: a run of a hundred steps plays in a few seconds.
    const LAYOUT: Layout = Layout { point_axes: ["x1", "x2"], play_speed: 2 };
    const FOLLOWS: &'static [&'static str] = &[FRAME_KEY, "class"];

    fn compute(settings: &ClassificationSettings) -> Result<Self> {
        let data = settings.run.data.points()?;
        if data.x.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design_2d(&data.x, settings.width, true)?;
        let t = DVector::from_column_slice(&data.t);
        let problem = Arc::new(Problem::new(design.clone(), t.clone())?);
        let options = FastSettings {
            selection: settings.selection,
            alignment_test: settings.alignment_test,
            seed: settings.run.data.seed,
            max_steps: MAX_STEPS,
            ..FastSettings::default()
        };
        let run = Checkpointed::start(FastRvmClassifier::new(problem, options)?, &mut Budget::units(FIRST_SLICE))?;
        let replay = Replay::new(run, Some(FRAME_KEY), settings.run.frame);
        // A comparison that cannot start is left out, as the fast run is the panel's.
        let comparison = (data.x.len() <= COMPARE_MAX_N)
            .then(|| ClassifierStart::new(design, t, ClassifierSettings::default()).ok())
            .flatten()
            .map(|start| Comparison::Starting(Box::new(start)));
        Ok(Self { range: square_around(&data.x), data, width: settings.width, replay, comparison })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::classes::map_layout(root, scale);
        let area = self.map_chart().draw(&main, scale, labels)?;
        let shown = self.replay.shown();
        let y_name = ("laplace-log-ml", "ln p(t|α) (Laplace)");
        fast_steps::likelihood_chart(self.events(), shown, y_name).draw(&upper, scale, labels)?;
        if let Some(chart) = fast_steps::lambda_chart(self.events(), shown) {
            chart.draw(&lower, scale, labels)?;
        }
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let shown = self.replay.shown();
        let likelihood = fast_steps::likelihood_chart(self.events(), shown, ("laplace-log-ml", "ln p(t|α) (Laplace)"));
        let lambda = fast_steps::lambda_chart(self.events(), shown);
        let mut charts: Vec<&dyn Tabulate> = vec![];
        let map = self.map_chart();
        charts.extend([&map as &dyn Tabulate, &likelihood]);
        if let Some(chart) = &lambda {
            charts.push(chart);
        }
        tabulate_all(&charts)
    }

    fn report(&self) -> Report {
        let run = self.current();
        let readouts = vec![
            Readout { key: "step", value: self.replay.shown() as f64 },
            Readout { key: "relevance-vectors", value: run.active().len() as f64 },
            Readout { key: "laplace-log-ml", value: run.log_ml() },
            Readout { key: "accuracy", value: accuracy(&run.mode().y, run.problem().targets()) },
            Readout { key: "steps-to-converge", value: self.replay.position().1 as f64 },
        ];
        let background: Vec<_> =
            self.comparison.iter().filter_map(Comparison::running).map(|c| ("classic", c)).collect();
        let elapsed = self.replay.frames().elapsed_ms();
        let methods = fast_steps::methods_table("classifier-methods", self.events(), elapsed, &background);
        let mut messages = vec![];
        if self.data.x.len() > COMPARE_MAX_N {
            messages.push(Message::info("classic-skipped", [("max", COMPARE_MAX_N.to_string())]));
        }
        if let Some(error) = self.comparison.as_ref().and_then(Comparison::running).and_then(Background::failure) {
            messages.push(Message::warning("comparison-failed", [("reason", error.to_string())]));
        }
        messages.extend(fast_steps::run_messages(self.replay.frames(), MAX_STEPS));
        let mut legend = crate::plot::classes::legend(2);
        legend.extend([
            LegendEntry { key: "action-add", colour: "#56b4e9", mark: Mark::Line },
            LegendEntry { key: "action-re-estimate", colour: "#e69f00", mark: Mark::Line },
            LegendEntry { key: "action-delete", colour: "#cc79a7", mark: Mark::Line },
        ]);
        let accuracy = [("accuracy", Word::from(readouts[3].value))];
        let summary = fast_steps::step_summary(
            ("classification", "classification-other"),
            self.events(),
            self.replay.shown(),
            accuracy,
        );
        Report {
            readouts,
            tables: vec![fast_steps::events_table(self.events(), self.replay.shown()), methods],
            messages,
            legend,
            summary: vec![summary],
            ..Report::default()
        }
    }

    fn data_points(settings: &mut ClassificationSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.run)
    }

    fn player(&self) -> Option<&dyn Player> {
        Some(&self.replay)
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        Some(&mut self.replay)
    }

    /// The fast run's recording, then the classic comparison (set up, then swept), within
    /// `budget` (a fast step costs one unit per candidate, a sweep one).
    fn work(&mut self, budget: &mut Budget) -> bool {
        if self.replay.record_more(budget) {
            return self.replay.frames().is_growing() || self.comparison.as_ref().is_some_and(|c| !c.is_done());
        }
        match self.comparison.take() {
            Some(Comparison::Starting(mut start)) => {
                // A comparison whose first fit fails is left out, as the fast run is the panel's.
                self.comparison = match start.step_within(budget) {
                    Ok(None) => Some(Comparison::Starting(start)),
                    Ok(Some(run)) => Some(Comparison::Running(Box::new(Background::new(run, CLASSIC_SWEEPS)))),
                    Err(_) => None,
                };
                self.comparison.is_some()
            }
            Some(Comparison::Running(mut run)) => {
                run.work(budget, |_| {});
                let more = !run.is_done();
                self.comparison = Some(Comparison::Running(run));
                more
            }
            None => false,
        }
    }

    fn work_progress(&self) -> Option<(usize, usize)> {
        let fast = self.replay.frames().progress(MAX_STEPS);
        match &self.comparison {
            Some(comparison) => {
                let (done, all) = comparison.progress();
                Some((fast.0 + done, fast.1 + all))
            }
            None => (fast.0 < fast.1).then_some(fast),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn a_point_from_the_form_or_a_click_starts_the_run_again() {
        let mut panel = Live::<ClassificationPanel>::try_default().unwrap();
        panel.set("class", "1").unwrap();
        panel.step(3);
        assert_eq!(panel.value("step").as_deref(), Some("3"));
        panel.add_point(0.1, 0.2).unwrap();
        assert_eq!(panel.value("step").as_deref(), Some("0"), "the add-point form");
        panel.step(3);
        assert!(panel.press(-0.5, 1.0).unwrap());
        assert_eq!(panel.value("step").as_deref(), Some("0"), "a click");
        assert_eq!(panel.value("points").as_deref(), Some("0.1:0.2:1,-0.5:1:1"));
    }
}
