//! The one contract of every iterative method the lecture steps through: the fast RVM and
//! the fast classifier, the classic and EM re-estimations, the multiclass sweeps, the
//! evidence's fixed-point schemes, gradient descent and ISTA.
//!
//! A solver is explicit state that [`Solver::step`] advances by one iteration, reporting
//! what that iteration did as a plain value (its `Event`), and whose [`Solver::status`]
//! says whether it can go on or why it ended, in the one vocabulary of [`Termination`].
//! [`Solver::run`] is the loop over `step` (as argmin's executor is). What a page needs on
//! top — keeping every step to show any of them, stepping back, running in slices — is
//! the app's generic replay, built on this trait alone.

use serde::Serialize;

use crate::error::{Degeneracy, Error, Result};

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Termination {
    /// The method's convergence test was met after `iterations` steps.
    Converged {
        /// Steps taken.
        iterations: usize,
    },
    /// A fixed schedule is complete (gradient descent's epochs) after `iterations` steps.
    Finished {
        /// Steps taken.
        iterations: usize,
    },
    /// The step budget ran out before the convergence test was met.
    MaxIterations {
        /// Steps taken.
        iterations: usize,
    },
    /// Step number `iteration` (counting from 1) gave a non-finite or exploding value; it
    /// was refused, so the state is that after step `iteration − 1`.
    Diverged {
        /// The refused step.
        iteration: usize,
    },
    /// Step number `iteration` had no finite positive update (e.g. α = γ/m_Nᵀm_N with
    /// m_N = 0); it was refused.
    Degenerate {
        /// The refused step.
        iteration: usize,
        /// What was wrong.
        reason: Degeneracy,
    },
}

impl Termination {
    /// Whether the run met its convergence test.
    pub fn converged(self) -> bool {
        matches!(self, Termination::Converged { .. })
    }

    /// Steps the run took (a refused step does not count).
    pub fn iterations(self) -> usize {
        match self {
            Termination::Converged { iterations }
            | Termination::Finished { iterations }
            | Termination::MaxIterations { iterations } => iterations,
            Termination::Diverged { iteration } | Termination::Degenerate { iteration, .. } => {
                iteration.saturating_sub(1)
            }
        }
    }
}

/// Whether a run can go on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Status {
    /// Another step is possible.
    Running,
    /// The run is over, and why.
    Terminated(Termination),
}

impl Status {
    /// The status of a run with a convergence test and a step budget: converged once the
    /// test is met, given up once `iterations` reaches `max_iterations`, else running.
    pub fn of_budgeted(converged: bool, iterations: usize, max_iterations: usize) -> Status {
        if converged {
            Status::Terminated(Termination::Converged { iterations })
        } else if iterations >= max_iterations {
            Status::Terminated(Termination::MaxIterations { iterations })
        } else {
            Status::Running
        }
    }

    /// Whether another step is possible.
    pub fn is_running(self) -> bool {
        self == Status::Running
    }

    /// The reason the run ended, if it has.
    pub fn termination(self) -> Option<Termination> {
        match self {
            Status::Running => None,
            Status::Terminated(termination) => Some(termination),
        }
    }
}

/// An iterative method, one step at a time.
pub trait Solver {
    /// What one step did: a plain value a lecture can show.
    type Event;

    /// One step (one iteration, one update, one sweep) of a run that is still going.
    ///
    /// # Errors
    /// Whatever the method meets (the state is then as before the step), or
    /// [`Error::RunOver`] when the run has already ended.
    fn step(&mut self) -> Result<Self::Event> {
        if !self.status().is_running() {
            return Err(run_over(self.iterations()));
        }
        self.next_iter()
    }

    /// The step itself, which [`Solver::step`] calls once the status says the run goes on
    /// (argmin's `next_iter`).
    ///
    /// # Errors
    /// Whatever the method meets; the state is then as before the step.
    fn next_iter(&mut self) -> Result<Self::Event>;

    /// [`Status::Running`], or [`Status::Terminated`] with the reason.
    fn status(&self) -> Status;

    /// Steps taken so far.
    fn iterations(&self) -> usize;

    /// Work units of the next step, for a page that runs a solver in slices within a
    /// frame's budget; 1 unless a method's steps differ widely in cost.
    fn cost(&self) -> usize {
        1
    }

    /// Steps until the run ends, and says why.
    ///
    /// # Errors
    /// The first error of a step.
    fn run(&mut self) -> Result<Termination> {
        loop {
            if let Status::Terminated(termination) = self.status() {
                return Ok(termination);
            }
            self.step()?;
        }
    }
}

/// [`Error::RunOver`] for a run that has taken `iterations` steps: what
/// [`Solver::step`] returns once [`Solver::status`] is terminated.
fn run_over(iterations: usize) -> Error {
    Error::RunOver { iterations }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts to `to`, refusing step `bad` if given.
    struct Counter {
        at: usize,
        to: usize,
        bad: Option<usize>,
        failed: Option<Termination>,
    }

    impl Solver for Counter {
        type Event = usize;
        fn next_iter(&mut self) -> Result<usize> {
            if self.bad == Some(self.at + 1) {
                self.failed = Some(Termination::Diverged { iteration: self.at + 1 });
                return Ok(self.at);
            }
            self.at += 1;
            Ok(self.at)
        }
        fn status(&self) -> Status {
            match self.failed {
                Some(t) => Status::Terminated(t),
                None if self.at >= self.to => Status::Terminated(Termination::Finished { iterations: self.at }),
                None => Status::Running,
            }
        }
        fn iterations(&self) -> usize {
            self.at
        }
    }

    #[test]
    fn a_budgeted_run_converges_gives_up_or_goes_on() {
        assert_eq!(Status::of_budgeted(true, 7, 7), Status::Terminated(Termination::Converged { iterations: 7 }));
        assert_eq!(Status::of_budgeted(false, 7, 7), Status::Terminated(Termination::MaxIterations { iterations: 7 }));
        assert_eq!(Status::of_budgeted(false, 6, 7), Status::Running);
    }

    #[test]
    fn run_steps_until_the_status_says_why_it_ended() {
        let mut counter = Counter { at: 0, to: 5, bad: None, failed: None };
        assert_eq!(counter.run(), Ok(Termination::Finished { iterations: 5 }));
        assert_eq!(counter.step(), Err(Error::RunOver { iterations: 5 }));
        let mut refused = Counter { at: 0, to: 5, bad: Some(3), failed: None };
        assert_eq!(refused.run(), Ok(Termination::Diverged { iteration: 3 }));
        assert_eq!(refused.iterations(), 2);
        assert!(!refused.status().is_running() && !refused.status().termination().is_some_and(Termination::converged));
    }
}
