//! The "RVM classification" panel (PRML §7.2.3, Fig 7.12): the fast RVM classifier
//! on the Gaussian kernel of 2-D two-class data, one step at a time — p(C₁|x) as a colour
//! map with the ½ decision boundary, the relevance vectors ringed, the data point whose
//! basis function the step acted on ringed in the action's colour, the Laplace L against
//! step, the λ curve of that basis function and the event log. The classic re-estimation
//! runs in the background for comparison.

use crate::app::plotted::{Plotted, Tabulate};

use std::rc::Rc;

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::background::Detachable;
use crate::app::class_map::{MapCache, MapSource, Probabilities};
use crate::app::fast_steps::{self, action_colour};
use crate::app::glm_run::GlmRun;
use crate::app::labelled::LabelledData;
use crate::app::panel::{Layout, Panel};
use crate::app::params::{Control, ParamSpec, parse_real};
use crate::app::replay::Player;
use crate::app::report::{Readout, Report, Table};
use crate::app::settings::{FRAME_KEY, FastOptions, ParamGroup, PointSink, RunData, Settings, assign_in, value_in};
use crate::basis::{kernel_design_2d, kernel_expansion_on_grid};
use crate::data::{LabelledPoints, MixtureLayout, TwoClass};
use crate::error::{Compact, Error, Result, ensure_positive};
use crate::plot::classes::{ClassMap, ClassMapChart, ensure_map_finite, square_around};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea};
use crate::rvm::Event;
use crate::rvm::classification::{FastRvmClassifier, accuracy, sigmoid};
use crate::rvm::likelihood::Likelihood;
use crate::solver::Budget;

/// Most data points: a run stays within a few frames.
pub const MAX_N: usize = 400;
/// The classic re-estimation costs O(M³) a sweep: it is compared up to this N.
pub const COMPARE_MAX_N: usize = 200;
/// Most steps of a fast run.
const MAX_STEPS: usize = 3_000;
/// Cells of the probability map along each axis.
const MAP_CELLS: usize = 200;
/// The layouts with two classes.
const LAYOUTS: &[&str] = &["ripley", "xor", "rings", "separable"];

/// The kernel width, shown between the step and the options of the run.
const WIDTH: ParamSpec = ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.05, max: 2.0, log: true } };

/// The data and the step shown, the kernel, and the options of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassificationSettings {
    /// Two-class data in the plane and any placed points, and the step shown.
    pub run: RunData<LabelledData>,
    /// Kernel width s of exp(−‖x − xₙ‖²/2s²).
    pub width: f64,
    /// The options of the run.
    pub options: FastOptions,
}

impl Default for ClassificationSettings {
    fn default() -> Self {
        let data = LabelledData::new(MixtureLayout::Ripley, LAYOUTS, 200, 1, MAX_N);
        Self {
            run: RunData::new(data, MAX_STEPS as u64, &[0, 1, 5, 10, 20]),
            width: TwoClass::KERNEL_WIDTH,
            options: FastOptions::default(),
        }
    }
}

impl Settings for ClassificationSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let mut params = vec![self.run.frame_param(), WIDTH];
        params.extend(self.options.params());
        params.extend(self.run.data.params());
        params
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            _ => assign_in(&mut [&mut self.options, &mut self.run], key, text)?,
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "s" => Compact(self.width).to_string(),
            _ => return value_in(&[&self.options, &self.run], key),
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
    /// The fast run and, when N ≤ [`COMPARE_MAX_N`], the classic one.
    run: GlmRun,
    /// The square shown: the data's bounding box with a margin.
    range: ((f64, f64), (f64, f64)),
    /// The class map of the step shown, computed once per step (redraws reuse it).
    map: MapCache,
}

impl ClassificationPanel {
    /// The run at the step shown.
    pub fn current(&self) -> &FastRvmClassifier {
        self.run.current()
    }

    /// Every event of the run to its end.
    pub fn events(&self) -> &[Event] {
        self.run.events()
    }

    /// The input a column of the design is centred on (`None`: the bias, column 0).
    fn centre(&self, m: usize) -> Option<[f64; 2]> {
        m.checked_sub(1).and_then(|n| self.data.x.get(n).copied())
    }

    /// p(C₁|x) = σ(w*ᵀφ(x)) of the model at the step shown on a [`MAP_CELLS`]² grid
    /// (the mode's prediction, PRML 7.108).
    fn map(&self) -> Rc<ClassMap> {
        self.map.get(self.run.shown(), &self.map_source(&|xs, ys| self.probabilities(xs, ys)))
    }

    /// What [`Self::map`] is made from, with `probabilities` ([`Self::probabilities`]).
    fn map_source<'a>(&self, probabilities: Probabilities<'a>) -> MapSource<'a> {
        MapSource { square: self.range, cells: MAP_CELLS, probabilities }
    }

    /// p(C₀|x) and p(C₁|x) at the nodes `xs` × `ys`, row by row.
    fn probabilities(&self, xs: &[f64], ys: &[f64]) -> Vec<Vec<f64>> {
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
        let p1: Vec<f64> =
            kernel_expansion_on_grid(xs, ys, &centres, &weights, bias, self.width).into_iter().map(sigmoid).collect();
        let p0 = p1.iter().map(|p| 1.0 - p).collect();
        vec![p0, p1]
    }

    /// The map chart of the step shown.
    fn map_chart(&self) -> ClassMapChart {
        let run = self.current();
        let event = self.run.event();
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
    const LAYOUT: Layout = Layout { point_axes: ["x1", "x2"], play_speed: 2, counts: false };
    const FOLLOWS: &'static [&'static str] = &[FRAME_KEY, "class"];

    fn compute(settings: &ClassificationSettings) -> Result<Self> {
        let data = settings.run.data.points()?;
        if data.x.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design_2d(&data.x, settings.width, true)?;
        let t = DVector::from_column_slice(&data.t);
        let options = settings.options.run(settings.run.data.seed, MAX_STEPS);
        let compare = data.x.len() <= COMPARE_MAX_N;
        let run = GlmRun::start(Likelihood::Bernoulli, (design, t), options, settings.run.frame, compare)?;
        Ok(Self { range: square_around(&data.x), data, width: settings.width, run, map: MapCache::default() })
    }

    /// The class map of the step shown, the heaviest part of a drawing.
    fn prepare_drawing(&self, budget: &mut Budget) -> bool {
        self.map.prepare(self.run.shown(), &self.map_source(&|xs, ys| self.probabilities(xs, ys)), budget)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::main_and_side(root, scale, crate::plot::classes::MAP_SHARE);
        let area = self.map_chart().draw(&main, scale, labels)?;
        self.run.draw_side([&upper, &lower], scale, labels)?;
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let mut tables = vec![];
        self.map_chart().tabulate(&mut tables);
        self.run.tabulate_side(&mut tables);
        tables
    }

    /// The side charts' tables; the class map's probabilities are finite while its weights
    /// are bounded ([`ensure_map_finite`]), so the map is computed by the drawing's
    /// preparation, not by the check of a change.
    fn plotted_to_check(&self) -> Result<Vec<Plotted>> {
        ensure_map_finite(self.current().mode().w.iter().copied())?;
        let mut tables = vec![];
        self.run.tabulate_side(&mut tables);
        Ok(tables)
    }

    fn report(&self) -> Report {
        let run = self.current();
        let fit = Readout { key: "accuracy", value: accuracy(&run.mode().y, run.problem().targets()) };
        let mut legend = crate::plot::classes::legend(2);
        // The actions' colours, as solid rings here (no dashes).
        legend.extend(fast_steps::ACTION_LEGEND.map(|entry| LegendEntry { mark: Mark::Line, ..entry }));
        self.run.report(fit, (self.data.x.len(), COMPARE_MAX_N), legend, ("classification", "classification-other"))
    }

    fn event_log(&self) -> Option<Table> {
        Some(self.run.event_log())
    }

    fn data_points(settings: &mut ClassificationSettings) -> Option<&mut dyn PointSink> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn a_change_leaves_the_class_map_to_the_drawings_preparation() {
        let mut live = Live::<ClassificationPanel>::try_default().unwrap();
        live.set("s", "0.4").unwrap();
        live.set("step", "0").unwrap();
        // Nothing of the map was computed by the check of the change: the preparation
        // makes it, a band of rows per call, then its cells' colours, then its boundary
        // (p₁ = ½), then has nothing left to do.
        let pieces = MAP_CELLS.div_ceil(crate::app::class_map::MAP_BAND_ROWS) + 2;
        for piece in 0..pieces {
            assert!(live.prepare_drawing(Budget::units(1)), "piece {piece}");
        }
        assert!(!live.prepare_drawing(Budget::unlimited()), "once");
    }

    #[test]
    fn a_point_from_the_form_or_a_click_starts_the_run_again() {
        let mut panel = Live::<ClassificationPanel>::try_default().unwrap();
        // Opening records only the run's first piece: the rest is the page's work.
        let record = |panel: &mut Live<ClassificationPanel>| while panel.work(Budget::unlimited()) {};
        panel.set("class", "1").unwrap();
        record(&mut panel);
        panel.step(3);
        assert_eq!(panel.value("step").as_deref(), Some("3"));
        panel.add_point(0.1, 0.2).unwrap();
        assert_eq!(panel.value("step").as_deref(), Some("0"), "the add-point form");
        record(&mut panel);
        panel.step(3);
        assert!(panel.press(-0.5, 1.0).unwrap());
        assert_eq!(panel.value("step").as_deref(), Some("0"), "a click");
        assert_eq!(panel.value("points").as_deref(), Some("0.1:0.2:1,-0.5:1:1"));
    }
}
