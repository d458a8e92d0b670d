//! What the step-by-step panels of the fast RVM share (regression, F8–F9, and
//! classification, F12): a whole run kept as its events plus a copy every few steps, so
//! any step can be shown, stepped to or stepped back from; L against step; λ(α) of the
//! basis function the step acted on; the event log; the colours of the three actions.

use plotters::style::RGBColor;

use super::clock::now_ms;
use super::{Cell, Table};
use crate::error::Result;
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::lambda::LambdaChart;
use crate::plot::palette;
use crate::rvm::sparsity::SparsityQuality;
use crate::rvm::{Action, Event, Stepper};

/// A copy of the run is kept every this many steps, so any step is at most this many
/// steps from a copy (stepping back replays from the copy before).
pub const CHECKPOINT: usize = 16;
/// Rows of the event log.
const LOG_ROWS: usize = 10;

/// Colours of the three actions on a basis function (Okabe–Ito, apart from the data's
/// blue, the mean's vermilion and the truth's green): add, re-estimate, delete.
pub const ADD: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
/// Re-estimation.
pub const REESTIMATE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
/// Deletion.
pub const DELETE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);

/// The colour of an action on a basis function.
pub fn action_colour(action: Action) -> Option<RGBColor> {
    match action {
        Action::Add => Some(ADD),
        Action::Reestimate => Some(REESTIMATE),
        Action::Delete => Some(DELETE),
        Action::Noise | Action::Converged => None,
    }
}

/// A run to its end and the step shown.
#[derive(Debug, Clone)]
pub struct Replay<R> {
    /// The run at steps 0, [`CHECKPOINT`], 2·[`CHECKPOINT`], …
    checkpoints: Vec<R>,
    /// Every event of the run to its end.
    events: Vec<Event>,
    /// Milliseconds the run took to its end.
    elapsed_ms: f64,
    /// The run at the step shown.
    current: R,
}

impl<R: Stepper> Replay<R> {
    /// Runs `run` to convergence or `max_steps`, keeping checkpoints, and shows step `shown`.
    ///
    /// # Errors
    /// The first error of a step.
    pub fn record(mut run: R, max_steps: usize, shown: usize) -> Result<Self> {
        let start = now_ms();
        let mut checkpoints = vec![run.clone()];
        while !run.is_converged() && run.steps() < max_steps {
            run.step()?;
            if run.steps().is_multiple_of(CHECKPOINT) {
                checkpoints.push(run.clone());
            }
        }
        let elapsed_ms = now_ms() - start;
        let events = run.events().to_vec();
        let mut replay = Self { checkpoints, events, elapsed_ms, current: run };
        replay.current = replay.state_at(shown);
        Ok(replay)
    }

    /// The run at the step shown.
    pub fn current(&self) -> &R {
        &self.current
    }

    /// Every event of the run to its end.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Milliseconds the run took to its end.
    pub fn elapsed_ms(&self) -> f64 {
        self.elapsed_ms
    }

    /// Steps in the whole run.
    pub fn total(&self) -> usize {
        self.events.len() - 1
    }

    /// The step shown.
    pub fn shown(&self) -> usize {
        self.current.steps()
    }

    /// The event of the step shown.
    pub fn event(&self) -> &Event {
        &self.events[self.shown()]
    }

    /// Whether the run converged (rather than ran out of steps).
    pub fn converged(&self) -> bool {
        self.events.last().is_some_and(|e| e.action == Action::Converged)
    }

    /// The run at step `k`: the checkpoint before it, stepped forward.
    fn state_at(&self, k: usize) -> R {
        let k = k.min(self.total());
        let mut run = self.checkpoints[(k / CHECKPOINT).min(self.checkpoints.len() - 1)].clone();
        while run.steps() < k {
            // Steps already taken once with the same data cannot fail now.
            if !matches!(run.step(), Ok(Some(_))) {
                break;
            }
        }
        run
    }

    /// Shows up to `steps` steps further; `false` once at the end.
    pub fn step(&mut self, steps: usize) -> bool {
        let target = (self.shown() + steps).min(self.total());
        if target - self.shown() <= CHECKPOINT {
            while self.current.steps() < target && matches!(self.current.step(), Ok(Some(_))) {}
        } else {
            self.current = self.state_at(target);
        }
        self.shown() < self.total()
    }

    /// Shows step `k` (the last step if the run is shorter).
    pub fn show(&mut self, k: usize) {
        let shown = self.shown();
        if k >= shown {
            self.step(k - shown);
        } else {
            self.current = self.state_at(k);
        }
    }

    /// Shows the step before; `false` if at step 0.
    pub fn step_back(&mut self) -> bool {
        let shown = self.shown();
        if shown == 0 {
            return false;
        }
        self.current = self.state_at(shown - 1);
        true
    }

    /// Shows step 0.
    pub fn rewind(&mut self) {
        self.current = self.checkpoints[0].clone();
    }

    /// L against step: the whole run faint, the part up to the step shown in colour;
    /// `y_name` is the label key and English name of L.
    pub fn likelihood_chart(&self, y_name: (&'static str, &'static str)) -> LineChart {
        let all: Vec<(f64, f64)> = self.events.iter().map(|e| (e.step as f64, e.log_ml)).collect();
        let shown = all[..=self.shown()].to_vec();
        let x_range = (0.0, (self.total() as f64).max(1.0));
        // From step 2 (or a tenth of the run) on: the first steps climb hundreds of nats,
        // the rest a few; the early part leaves through the bottom.
        let from = (all.len() / 10).max(2).min(all.len() - 1);
        let last = all[all.len() - 1].1;
        LineChart {
            x_range,
            y_range: widen(all[from..].iter().map(|p| p.1), (last - 1.0, last + 1.0), 0.05),
            x_name: ("step", "step"),
            y_name,
            title: Some(("marginal-likelihood", "marginal likelihood")),
            curves: vec![Curve::solid(all, palette::SAMPLE, 1.0), Curve::solid(shown, palette::MEAN, 2.0)],
            points: vec![],
            marker: Some(self.shown() as f64),
        }
    }

    /// λ(α) of the basis function of the latest step that acted on one (PRML 7.97), with
    /// its α before the step marked (∞ for an addition); the maximum is its α after.
    pub fn lambda_chart(&self) -> Option<LambdaChart> {
        let event = self.events[..=self.shown()].iter().rev().find(|e| e.basis.is_some())?;
        let sq = SparsityQuality::new(event.s?, event.q?).ok()?;
        Some(LambdaChart {
            current: Some(event.alpha_old.unwrap_or(f64::INFINITY)),
            title: Some(("lambda-of-step", "this step's basis")),
            ..LambdaChart::new(sq)
        })
    }

    /// The last [`LOG_ROWS`] events up to the step shown, newest first.
    pub fn events_table(&self) -> Table {
        let first = (self.shown() + 1).saturating_sub(LOG_ROWS);
        let rows = self.events[first..=self.shown()]
            .iter()
            .rev()
            .map(|e| {
                let alpha = |a: Option<f64>| if e.basis.is_some() { alpha_cell(a) } else { Cell::Label("none") };
                vec![
                    Cell::Number(e.step as f64),
                    Cell::Label(e.action.name()),
                    e.basis.map_or(Cell::Label("none"), |m| Cell::Number(m as f64)),
                    e.theta.map_or(Cell::Label("none"), Cell::Number),
                    alpha(e.alpha_old),
                    alpha(e.alpha_new),
                    Cell::Number(e.delta_l),
                    Cell::Number(e.log_ml),
                ]
            })
            .collect();
        Table {
            key: "events",
            columns: vec!["step", "action", "basis", "theta", "alpha-old", "alpha-new", "delta-l", "log-ml"],
            rows,
        }
    }

    /// The row of this run in a table of methods: name, steps, time, L, relevance vectors,
    /// converged.
    pub fn method_row(&self, name: &'static str) -> Vec<Cell> {
        let last = &self.events[self.total()];
        vec![
            Cell::Label(name),
            Cell::Number(self.total() as f64),
            Cell::Number(self.elapsed_ms),
            Cell::Number(last.log_ml),
            Cell::Number(last.active as f64),
            Cell::Label(if self.converged() { "yes" } else { "no" }),
        ]
    }
}

/// A number cell, or ∞ for `None` (an inactive α).
fn alpha_cell(alpha: Option<f64>) -> Cell {
    alpha.map_or(Cell::Label("infinity"), Cell::Number)
}

/// The [`View`](super::View) methods of a panel that shows a [`Replay`] in its field
/// `replay`: step, step back, rewind, the `step` cursor (so the URL follows the step) and
/// the progress bar.
macro_rules! replay_player {
    () => {
        fn step(&mut self, steps: usize) -> bool {
            self.replay.step(steps)
        }

        fn step_back(&mut self) -> bool {
            self.replay.step_back()
        }

        fn rewind(&mut self) {
            self.replay.rewind();
        }

        fn cursor(&self) -> Option<(&'static str, String)> {
            Some(("step", self.replay.shown().to_string()))
        }

        fn progress(&self) -> Option<(usize, usize)> {
            Some((self.replay.shown(), self.replay.total()))
        }
    };
}
pub(crate) use replay_player;
