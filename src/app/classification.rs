//! The "RVM classification" panel (F12; seed 003, PRML Fig 7.12): the fast RVM classifier
//! on the Gaussian kernel of 2-D two-class data, one step at a time — p(C₁|x) as a colour
//! map with the ½ decision boundary, the relevance vectors ringed, the data point whose
//! basis function the step acted on ringed in the action's colour, the Laplace L against
//! step, the λ curve of that basis function and the event log. The classic re-estimation
//! runs in the background for comparison.

use std::sync::Arc;

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::clock::now_ms;
use super::groups::{ParamGroup, PointSink, assign_in, restarting_point_sink, value_in};
use super::labelled::LabelledData;
use super::params::{Control, ParamSpec, parse_choice, parse_integer, parse_real, parse_toggle};
use super::replay::{Replay, action_colour};
use super::{Cell, Message, Panel, Readout, Settings, Table, View};
use crate::basis::{evenly_spaced, kernel_design_2d, kernel_expansion_on_grid};
use crate::data::{LabelledPoints, MixtureLayout, TwoClass};
use crate::error::{Error, Result, ensure_positive};
use crate::plot::classes::{ClassMap, ClassMapChart, square_around};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea};
use crate::rvm::classification::{ClassicRvmClassifier, ClassifierSettings, FastRvmClassifier, accuracy, sigmoid};
use crate::rvm::{FastSettings, Problem, Selection};

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

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "step",
        symbol: "k",
        control: Control::Steps { min: 0, max: MAX_STEPS as u64, presets: &[0, 1, 5, 10, 20] },
    },
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.05, max: 2.0, log: true } },
    ParamSpec { key: "selection", symbol: "selection", control: Control::Choice { options: &Selection::NAMES } },
    ParamSpec { key: "align", symbol: "align", control: Control::Toggle },
];

/// The data, the kernel, the options of the run, and the step shown.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassificationSettings {
    /// Two-class data in the plane and any placed points.
    pub data: LabelledData,
    /// Kernel width s of exp(−‖x − xₙ‖²/2s²).
    pub width: f64,
    /// How the next basis function is chosen.
    pub selection: Selection,
    /// Refuse candidates nearly parallel to an active basis function.
    pub alignment_test: bool,
    /// The step shown.
    pub k: usize,
}

impl Default for ClassificationSettings {
    fn default() -> Self {
        Self {
            data: LabelledData::new(MixtureLayout::Ripley, LAYOUTS, 200, 1, MAX_N),
            width: TwoClass::KERNEL_WIDTH,
            selection: Selection::Greedy,
            alignment_test: true,
            k: 0,
        }
    }
}

impl Settings for ClassificationSettings {
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.iter().copied().chain(self.data.params()).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "step" => self.k = parse_integer("k", text, 0, MAX_STEPS as u64)? as usize,
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            "selection" => self.selection = Selection::from_name(parse_choice("selection", text, &Selection::NAMES)?)?,
            "align" => self.alignment_test = parse_toggle("align", text)?,
            "class" => assign_in(&mut [&mut self.data], key, text)?,
            _ => {
                assign_in(&mut [&mut self.data], key, text)?;
                // New data: the run starts again.
                self.k = 0;
            }
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "step" => self.k.to_string(),
            "s" => self.width.to_string(),
            "selection" => self.selection.name().to_owned(),
            "align" => u8::from(self.alignment_test).to_string(),
            _ => return value_in(&[&self.data], key),
        })
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.data.hidden_keys()
    }
}

restarting_point_sink!(ClassificationSettings);

/// The classic classifier run in the background, and the time it has taken.
#[derive(Debug, Clone)]
struct Comparison {
    run: ClassicRvmClassifier,
    elapsed_ms: f64,
    failed: Option<Error>,
}

impl Comparison {
    fn done(&self) -> bool {
        self.failed.is_some() || self.run.is_converged() || self.sweeps() >= CLASSIC_SWEEPS
    }

    fn sweeps(&self) -> usize {
        self.run.history().len() - 1
    }
}

/// The whole fast run, the step shown, and the comparison.
#[derive(Debug, Clone)]
pub struct ClassificationView {
    data: LabelledPoints,
    width: f64,
    replay: Replay<FastRvmClassifier>,
    /// The settings computed from, less what the view follows in place ([`source`]).
    source: ClassificationSettings,
    /// The square shown: the data's bounding box with a margin.
    range: ((f64, f64), (f64, f64)),
    /// Classic re-estimation, when N ≤ [`COMPARE_MAX_N`].
    comparison: Option<Comparison>,
}

impl ClassificationView {
    /// The run at the step shown.
    pub fn current(&self) -> &FastRvmClassifier {
        self.replay.current()
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
        let event = self.replay.event();
        let highlight = event.basis.and_then(|m| Some((self.centre(m)?, action_colour(event.action)?)));
        ClassMapChart {
            map: self.map(),
            points: self.data.x.iter().zip(&self.data.t).map(|(&x, &t)| (x, t as usize)).collect(),
            relevant: run.active().iter().filter_map(|&m| self.centre(m)).collect(),
            highlight,
            title: None,
        }
    }

    /// Runs the comparison for at most `budget` sweeps.
    fn compare(&mut self, budget: usize) -> bool {
        let Some(comparison) = &mut self.comparison else { return false };
        let start = now_ms();
        for _ in 0..budget.max(1) {
            if comparison.done() {
                break;
            }
            if let Err(error) = comparison.run.sweep() {
                comparison.failed = Some(error);
            }
        }
        comparison.elapsed_ms += now_ms() - start;
        !comparison.done()
    }
}

/// `settings` less what the view follows without recomputing: the step shown and the class of the next placed point.
fn source(settings: &ClassificationSettings) -> ClassificationSettings {
    let mut source = settings.clone();
    source.k = 0;
    source.data.place = 0;
    source
}

impl View for ClassificationView {
    type Settings = ClassificationSettings;

    fn compute(settings: &ClassificationSettings) -> Result<Self> {
        let data = settings.data.points()?;
        if data.x.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design_2d(&data.x, settings.width, true)?;
        let t = DVector::from_column_slice(&data.t);
        let problem = Arc::new(Problem::new(design.clone(), t.clone())?);
        let options = FastSettings {
            selection: settings.selection,
            alignment_test: settings.alignment_test,
            seed: settings.data.seed,
            max_steps: MAX_STEPS,
            ..FastSettings::default()
        };
        let replay = Replay::record(FastRvmClassifier::new(problem, options)?, MAX_STEPS, settings.k)?;
        let comparison = (data.x.len() <= COMPARE_MAX_N)
            .then(|| ClassicRvmClassifier::new(design, t, ClassifierSettings::default()))
            .and_then(|run| run.ok())
            .map(|run| Comparison { run, elapsed_ms: 0.0, failed: None });
        Ok(Self {
            range: square_around(&data.x),
            data,
            width: settings.width,
            replay,
            comparison,
            source: source(settings),
        })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::classes::map_layout(root, scale);
        let area = self.map_chart().draw(&main, scale, labels)?;
        self.replay.likelihood_chart(("laplace-log-ml", "ln p(t|α) (Laplace)")).draw(&upper, scale, labels)?;
        if let Some(chart) = self.replay.lambda_chart() {
            chart.draw(&lower, scale, labels)?;
        }
        Ok(area)
    }

    const ASPECT: (f64, f64) = (0.6, 1.9);
    const POINT_AXES: [&'static str; 2] = ["x1", "x2"];

    fn data_points(settings: &mut ClassificationSettings) -> Option<&mut dyn PointSink> {
        Some(settings)
    }

    fn legend(&self) -> Vec<LegendEntry> {
        let mut legend = crate::plot::classes::legend(2);
        legend.extend([
            LegendEntry { key: "action-add", colour: "#56b4e9", mark: Mark::Line },
            LegendEntry { key: "action-re-estimate", colour: "#e69f00", mark: Mark::Line },
            LegendEntry { key: "action-delete", colour: "#cc79a7", mark: Mark::Line },
        ]);
        legend
    }

    fn readouts(&self) -> Vec<Readout> {
        let run = self.current();
        vec![
            Readout { key: "step", value: self.replay.shown() as f64 },
            Readout { key: "relevance-vectors", value: run.active().len() as f64 },
            Readout { key: "laplace-log-ml", value: run.log_ml() },
            Readout { key: "accuracy", value: accuracy(&run.mode().y, run.problem().targets()) },
            Readout { key: "steps-to-converge", value: self.replay.total() as f64 },
        ]
    }

    fn tables(&self) -> Vec<Table> {
        let classic = self.comparison.iter().map(|c| {
            let state = if c.run.is_converged() {
                "yes"
            } else if c.done() {
                "no"
            } else {
                "running"
            };
            vec![
                Cell::Label("classic"),
                Cell::Number(c.sweeps() as f64),
                Cell::Number(c.elapsed_ms),
                Cell::Number(c.run.log_ml()),
                Cell::Number(c.run.active().len() as f64),
                Cell::Label(state),
            ]
        });
        let methods = Table {
            key: "classifier-methods",
            columns: vec!["method", "steps", "time-ms", "log-ml", "relevance-vectors", "converged"],
            rows: std::iter::once(self.replay.method_row("fast")).chain(classic).collect(),
        };
        vec![self.replay.events_table(), methods]
    }

    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        if self.data.x.len() > COMPARE_MAX_N {
            messages.push(Message::info("classic-skipped", [("max", COMPARE_MAX_N.to_string())]));
        }
        if let Some(error) = self.comparison.as_ref().and_then(|c| c.failed.as_ref()) {
            messages.push(Message::warning("comparison-failed", [("reason", error.to_string())]));
        }
        if !self.replay.converged() {
            messages.push(Message::warning("not-converged", [("steps", MAX_STEPS.to_string())]));
        }
        messages
    }

    fn is_animated(&self) -> bool {
        true
    }

    /// A step every other frame: a run of a hundred steps plays in a few seconds.
    const PLAY_SPEED: u8 = 2;

    super::replay::replay_player!();

    /// Another step (or the class of the next point): the run stays, only the step moves.
    fn follow(&mut self, settings: &Self::Settings) -> bool {
        if source(settings) != self.source {
            return false;
        }
        self.replay.show(settings.k);
        true
    }

    fn work(&mut self, budget: usize) -> bool {
        self.compare(budget)
    }

    fn work_progress(&self) -> Option<(usize, usize)> {
        let c = self.comparison.as_ref()?;
        Some((if c.done() { CLASSIC_SWEEPS } else { c.sweeps() }, CLASSIC_SWEEPS))
    }
}

/// The panel.
pub type ClassificationPanel = Panel<ClassificationView>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;

    #[test]
    fn a_point_from_the_form_or_a_click_starts_the_run_again() {
        let mut panel = ClassificationPanel::try_default().unwrap();
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
