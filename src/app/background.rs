//! A solver run in the background, a slice per frame: the classic and EM comparisons beside
//! the fast RVM, ISTA and ridge by gradient descent on the regularisation panel, the
//! multiclass sweeps. It keeps the time the run took and the error that stopped it, so a
//! failure of background work is a message, never a lost panel.

use crate::clock::now_ms;
use crate::error::Error;
use crate::solver::{Budget, Solver};

/// A solver stepped in slices, with its time and its failure.
#[derive(Debug, Clone)]
pub struct Background<S> {
    run: S,
    /// Most steps to take.
    budget: usize,
    elapsed_ms: f64,
    failure: Option<Error>,
}

impl<S: Solver> Background<S> {
    /// `run`, to be stepped at most `budget` times.
    pub fn new(run: S, budget: usize) -> Self {
        Self { run, budget, elapsed_ms: 0.0, failure: None }
    }

    /// The run as far as it has got.
    pub fn run(&self) -> &S {
        &self.run
    }

    /// Milliseconds spent stepping it so far.
    pub fn elapsed_ms(&self) -> f64 {
        self.elapsed_ms
    }

    /// The error that stopped the run, if one did.
    pub fn failure(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// The step budget.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Whether nothing is left to do: the run ended, failed, or spent its budget.
    pub fn is_done(&self) -> bool {
        self.failure.is_some() || !self.run.status().is_running() || self.run.iterations() >= self.budget
    }

    /// Advances the run within `budget` (at least one piece of work: a step, or part of a
    /// step that [`Solver::step_within`] cuts), calling `after_step` after each completed step.
    /// An error ends the run and is kept.
    pub fn work(&mut self, budget: &mut Budget, mut after_step: impl FnMut(&S)) {
        let start = now_ms();
        let mut first = true;
        while !self.is_done() && (first || budget.allows()) {
            first = false;
            match self.run.step_within(budget) {
                Ok(Some(_)) => after_step(&self.run),
                Ok(None) => {}
                Err(error) => self.failure = Some(error),
            }
        }
        self.elapsed_ms += now_ms() - start;
    }

    /// Steps done so far, counting a finished run as its whole budget, and the budget: for
    /// the progress bar.
    pub fn progress(&self) -> (usize, usize) {
        (if self.is_done() { self.budget } else { self.run.iterations() }, self.budget)
    }
}
