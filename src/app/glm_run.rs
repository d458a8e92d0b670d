//! The fast RVM on targets that are not Gaussian — classes (Bernoulli) or counts (Poisson)
//! — recorded step by step, with the classic sweeps run in the background for comparison:
//! what the classification and the Poisson panels share (PRML 7.108–7.119; Tipping 2001
//! §4). Both run [`FastRvmClassifier`] on the Laplace linearisation of their likelihood,
//! show L against step and the λ curve of the step's basis function beside their main
//! chart, and report the same readouts, event log and methods table; only the fit's
//! measure (training accuracy, mean deviance) and the main chart differ.

use std::sync::Arc;

use nalgebra::{DMatrix, DVector};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::background::{Background, Compared, Comparisons, Detachable, Outcome, fingerprint};
use crate::app::fast_steps;
use crate::app::plotted::{Plotted, Tabulate};
use crate::app::replay::{Checkpointed, Player, Replay};
use crate::app::report::{Message, Readout, Report, Table, Word};
use crate::app::settings::FRAME_KEY;
use crate::error::Result;
use crate::plot::fit::LineChart;
use crate::plot::lambda::LambdaChart;
use crate::plot::{Labels, LegendEntry};
use crate::rvm::classification::{ClassicRvmClassifier, ClassifierSettings, ClassifierStart, FastRvmClassifier};
use crate::rvm::likelihood::Likelihood;
use crate::rvm::{Event, FastSettings, Problem};
use crate::solver::Budget;

/// Sweeps the classic method may take.
pub const CLASSIC_SWEEPS: usize = 2_000;

/// The name of L in the charts: the Laplace approximation (PRML 7.114).
const LAPLACE: (&str, &str) = ("laplace-log-ml", "ln p(t|α) (Laplace)");

/// The fast run to its end with the step shown, and the classic comparison.
#[derive(Debug, Clone)]
pub struct GlmRun {
    replay: Replay<Checkpointed<FastRvmClassifier>>,
    /// Classic re-estimation, when asked for: set up in the background work (its first fit,
    /// with every basis function, is a Cholesky of order M per Newton step), after the fast
    /// run.
    comparisons: Comparisons<Comparison>,
    /// Most steps of the fast run.
    max_steps: usize,
}

/// The classic comparison: its first fit (every basis function in: the largest Hessian of
/// the run) made in the background a piece at a time, then its sweeps.
#[derive(Debug, Clone)]
pub enum Comparison {
    /// Its first fit, being made.
    Starting(Box<ClassifierStart>),
    /// Its sweeps.
    Running(Box<Background<ClassicRvmClassifier>>),
    /// The first fit failed: the comparison is left out, as the fast run is the panel's.
    LeftOut,
}

impl Compared for Comparison {
    /// Works on the first fit, then the sweeps, within `budget`.
    fn work(&mut self, budget: &mut Budget) {
        match self {
            Comparison::Starting(start) => match start.step_within(budget) {
                Ok(None) => {}
                Ok(Some(run)) => *self = Comparison::Running(Box::new(Background::new(run, CLASSIC_SWEEPS))),
                Err(_) => *self = Comparison::LeftOut,
            },
            Comparison::Running(run) => run.work(budget, |_| {}),
            Comparison::LeftOut => {}
        }
    }

    /// No row while the first fit is made (none done of the sweeps) or once it failed
    /// (nothing left to do).
    fn outcome(&self) -> Outcome {
        match self {
            Comparison::Starting(_) => Outcome { progress: (0, CLASSIC_SWEEPS), row: None, failure: None },
            Comparison::Running(run) => run.outcome(),
            Comparison::LeftOut => Outcome { progress: (0, 0), row: None, failure: None },
        }
    }
}

impl GlmRun {
    /// The fast run of `likelihood` on the design `phi` and targets `t` with `options`, its
    /// first piece recorded and step `frame` asked for; with `compare`, the classic sweeps
    /// on the same design, set up in the background (left out if they cannot start).
    ///
    /// Only one piece here (not [`crate::app::replay::FIRST_SLICE`]'s units): a piece of a
    /// Laplace step is a Newton step or a block of the quality factors over N × M, and a
    /// slice of them was most of opening the Poisson panel: 32 ms on the module's first run
    /// (in node on this machine; 10 ms with one piece), over 50 ms on a phone 4× slower. The
    /// page's work records the rest in time slices.
    ///
    /// # Errors
    /// What [`Problem::new`], [`FastRvmClassifier::with_likelihood`] and the first piece
    /// refuse (targets that are not the likelihood's, a design of zeros …).
    pub fn start(
        likelihood: Likelihood,
        (phi, t): (DMatrix<f64>, DVector<f64>),
        options: FastSettings,
        frame: usize,
        compare: bool,
    ) -> Result<Self> {
        // The classic run takes a copy of the data, only when it runs.
        let copy = compare.then(|| (phi.clone(), t.clone()));
        let problem = Arc::new(Problem::new(phi, t)?);
        let fast = FastRvmClassifier::with_likelihood(likelihood, problem, options)?;
        let run = Checkpointed::start(fast, &mut Budget::units(1))?;
        let comparisons = match copy {
            Some((phi, t)) => {
                let settings = ClassifierSettings::default();
                let ClassifierSettings { initial_alpha, tolerance, max_sweeps } = settings;
                let numbers = [likelihood as u8 as f64, initial_alpha, tolerance, max_sweeps as f64];
                let print = fingerprint(&phi, &t, &numbers);
                let start = ClassifierStart::with_likelihood(likelihood, phi, t, settings);
                let comparison = start.map_or(Comparison::LeftOut, |start| Comparison::Starting(Box::new(start)));
                Comparisons::new(vec![("classic", comparison)], print)
            }
            None => Comparisons::default(),
        };
        Ok(Self { replay: Replay::new(run, Some(FRAME_KEY), frame), comparisons, max_steps: options.max_steps })
    }

    /// The run at the step shown.
    pub fn current(&self) -> &FastRvmClassifier {
        self.replay.frames().current()
    }

    /// Every event of the run to its end.
    pub fn events(&self) -> &[Event] {
        self.replay.frames().end().events()
    }

    /// The step shown.
    pub fn shown(&self) -> usize {
        self.replay.shown()
    }

    /// The event of the step shown.
    pub fn event(&self) -> &Event {
        &self.events()[self.shown()]
    }

    /// The player over the steps.
    pub fn player(&self) -> &dyn Player {
        &self.replay
    }

    /// The same, to move.
    pub fn player_mut(&mut self) -> &mut dyn Player {
        &mut self.replay
    }

    /// L against step and the λ curve of the step's basis function, the charts beside the
    /// main one.
    fn side_charts(&self) -> (LineChart, Option<LambdaChart>) {
        let shown = self.shown();
        (fast_steps::likelihood_chart(self.events(), shown, LAPLACE), fast_steps::lambda_chart(self.events(), shown))
    }

    /// Draws the side charts onto `upper` and `lower`.
    ///
    /// # Errors
    /// [`crate::Error::Drawing`] if the backend fails.
    pub fn draw_side<DB: DrawingBackend>(
        &self,
        [upper, lower]: [&DrawingArea<DB, Shift>; 2],
        scale: f64,
        labels: &Labels,
    ) -> Result<()> {
        let (likelihood, lambda) = self.side_charts();
        likelihood.draw(upper, scale, labels)?;
        if let Some(chart) = lambda {
            chart.draw(lower, scale, labels)?;
        }
        Ok(())
    }

    /// Appends the tables of the side charts to `tables`.
    pub fn tabulate_side(&self, tables: &mut Vec<Plotted>) {
        let (likelihood, lambda) = self.side_charts();
        likelihood.tabulate(tables);
        if let Some(chart) = lambda {
            chart.tabulate(tables);
        }
    }

    /// The panel's report: the readouts with `fit` (the measure of the fit at the step
    /// shown), the event log and the methods table, the messages (the classic run skipped
    /// when N is above `compare_max`), `legend`, and the step in words
    /// (`summary.<summary.0>`, or `.1` for a step on no basis function) with the fit under
    /// its readout's key.
    pub fn report(
        &self,
        fit: Readout,
        (n, compare_max): (usize, usize),
        legend: Vec<LegendEntry>,
        summary: (&'static str, &'static str),
    ) -> Report {
        Report {
            readouts: self.readouts(fit),
            tables: self.tables("classifier-methods"),
            messages: self.messages((n > compare_max).then_some(compare_max)),
            legend,
            summary: vec![fast_steps::step_summary(
                summary,
                self.events(),
                self.shown(),
                [(fit.key, Word::from(fit.value))],
            )],
            ..Report::default()
        }
    }

    /// The readouts: the step, the relevance vectors, the Laplace L, `fit` (the measure of
    /// the fit at the step shown) and the run's length.
    fn readouts(&self, fit: Readout) -> Vec<Readout> {
        let run = self.current();
        vec![
            Readout { key: "step", value: self.shown() as f64 },
            Readout { key: "relevance-vectors", value: run.active().len() as f64 },
            Readout { key: "laplace-log-ml", value: run.log_ml() },
            fit,
            Readout { key: "steps-to-converge", value: self.replay.position().1 as f64 },
        ]
    }

    /// Every event up to the step shown ([`super::Panel::event_log`]).
    pub fn event_log(&self) -> Table {
        fast_steps::events_table(self.events(), self.shown(), usize::MAX)
    }

    /// The event log and the table `methods` comparing the fast run with the classic one.
    fn tables(&self, methods: &'static str) -> Vec<Table> {
        let elapsed = self.replay.frames().elapsed_ms();
        vec![
            fast_steps::events_table(self.events(), self.shown(), fast_steps::LOG_ROWS),
            fast_steps::methods_table(methods, self.events(), elapsed, &self.comparisons.outcomes()),
        ]
    }

    /// What the page says of the runs: the classic one skipped above `compare_max` points
    /// (`Some` when N is above it) or failed, and the fast one's failure or its budget spent.
    fn messages(&self, skipped_above: Option<usize>) -> Vec<Message> {
        let mut messages = vec![];
        if let Some(max) = skipped_above {
            messages.push(Message::info("classic-skipped", [("max", max.to_string())]));
        }
        if let Some(reason) = self.comparisons.outcomes().into_iter().find_map(|(_, c)| c.failure) {
            messages.push(Message::warning("comparison-failed", [("reason", reason)]));
        }
        messages.extend(fast_steps::run_messages(self.replay.frames(), self.max_steps));
        messages
    }

    /// The fast run's recording, then the classic comparison (set up, then swept), within
    /// `budget` (a fast step costs one unit per candidate, a sweep one); `true` while more
    /// remains.
    pub fn work(&mut self, budget: &mut Budget) -> bool {
        if self.replay.record_more(budget) {
            return self.replay.frames().is_growing() || self.comparisons.left_here();
        }
        self.comparisons.work(budget)
    }

    /// Steps recorded and sweeps done, and in all, for the progress bar; `None` once the
    /// fast run alone is done.
    pub fn work_progress(&self) -> Option<(usize, usize)> {
        let fast = self.replay.frames().progress(self.max_steps);
        let (done, all) = self.comparisons.progress();
        (fast.0 < fast.1 || all > 0).then_some((fast.0 + done, fast.1 + all))
    }

    /// The classic comparison, which may run elsewhere.
    pub fn comparisons(&mut self) -> &mut dyn Detachable {
        &mut self.comparisons
    }
}
