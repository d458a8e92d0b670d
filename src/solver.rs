//! The one contract of every iterative method the lecture steps through: the fast RVM and
//! the fast classifier, the classic and EM re-estimations, the multiclass sweeps, the
//! evidence's fixed-point schemes, gradient descent and ISTA.
//!
//! A solver is explicit state that [`Solver::step`] advances by one iteration, reporting
//! what that iteration did as a plain value (its `Event`), and whose [`Solver::status`]
//! says whether it can go on or why it ended, in the one vocabulary of [`Termination`].
//! [`Solver::run`] is the loop over `step` (as argmin's executor is). What a page needs on
//! top — keeping every step to show any of them, stepping back, running in slices — is
//! the app's generic replay, built on this trait alone. A slice is measured by a
//! [`Budget`]; a method whose single step is too long for one frame (the multiclass sweep)
//! cuts it into pieces with [`Solver::step_within`].

use serde::Serialize;

use crate::clock::now_ms;
use crate::error::{Degeneracy, Error, Result};

/// How much work one call may do: at most `units` of [`Solver::cost`] (or of a method's own
/// pieces), and nothing new once the clock passes a deadline. It is checked between
/// indivisible pieces, so a piece begun in time is finished: a slice overshoots its deadline
/// by at most one piece, which is why long steps are cut into pieces.
///
/// A page gives each slice a few milliseconds ([`Budget::millis`]); tests and the first
/// slice of a change count units ([`Budget::units`]), so that what they do does not depend
/// on the machine's speed.
///
/// In the browser a reading of the clock is a call out of the module (a fraction of a
/// microsecond), and a late multiclass sweep is pieces of microseconds: tens of thousands of
/// readings a run. So the deadline is read again only after [`CLOCK_EVERY_UNITS`] units or
/// [`CLOCK_EVERY_CHECKS`] checks since the last reading, whichever comes first: a slice then
/// overshoots by at most that much work besides its last piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    units: usize,
    /// Milliseconds on [`now_ms`]'s clock; +∞ for none.
    deadline_ms: f64,
    /// Units spent and checks made since the clock was last read.
    unread: (usize, usize),
}

/// Units after which a time budget reads the clock again: a fraction of a millisecond's work
/// in the browser (a unit is a few microseconds; [`crate::app::replay::FIRST_SLICE`]'s 2000
/// are about 6 ms).
pub const CLOCK_EVERY_UNITS: usize = 64;

/// Checks after which a time budget reads the clock again, however few units they spent.
pub const CLOCK_EVERY_CHECKS: usize = 32;

impl Budget {
    /// At most `units` units, whatever the time.
    pub fn units(units: usize) -> Self {
        Self { units, deadline_ms: f64::INFINITY, unread: (0, 0) }
    }

    /// Until `ms` milliseconds from now, whatever the units (the first check reads the
    /// clock).
    pub fn millis(ms: f64) -> Self {
        Self { units: usize::MAX, deadline_ms: now_ms() + ms, unread: (CLOCK_EVERY_UNITS, 0) }
    }

    /// No limit: the work is done to its end.
    pub fn unlimited() -> Self {
        Self::units(usize::MAX)
    }

    /// Whether another piece of work may begin: units are left and the deadline has not
    /// passed (a clock that reads NaN never ends a budget). The clock is read as
    /// [`Budget`] says.
    pub fn allows(&mut self) -> bool {
        if self.units == 0 {
            return false;
        }
        if self.deadline_ms == f64::INFINITY {
            return true;
        }
        let (units, checks) = self.unread;
        if units < CLOCK_EVERY_UNITS && checks + 1 < CLOCK_EVERY_CHECKS {
            self.unread = (units, checks + 1);
            return true;
        }
        self.unread = (0, 0);
        let now = now_ms();
        let open = now.is_nan() || now < self.deadline_ms;
        if !open {
            // Past the deadline the budget is spent: every later check says so at once.
            self.units = 0;
        }
        open
    }

    /// Counts `units` as done.
    pub fn spend(&mut self, units: usize) {
        self.units = self.units.saturating_sub(units);
        self.unread.0 = self.unread.0.saturating_add(units);
    }
}

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
    /// A step raised the objective by less than the method's least worthwhile gain
    /// ([`crate::rvm::ClassicSettings::min_gain`]): stopped before its convergence test,
    /// which the slowest methods (EM) meet only after thousands of steps.
    Stalled {
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
            | Termination::MaxIterations { iterations }
            | Termination::Stalled { iterations } => iterations,
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

    /// Works on the next step within `budget`: its event once the step is complete, `None`
    /// while it is still under way (its pieces kept in the state, which the step's event
    /// and [`Solver::iterations`] do not count until it is complete). By default the whole
    /// step at once, at the price of its [`Solver::cost`]; a method whose steps are too long
    /// for one slice of a frame does them in pieces.
    ///
    /// # Errors
    /// As [`Solver::step`].
    fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Self::Event>> {
        budget.spend(self.cost());
        self.step().map(Some)
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

    #[test]
    fn a_budget_counts_units_and_ends_at_its_deadline() {
        let mut budget = Budget::units(3);
        assert!(budget.allows());
        budget.spend(2);
        assert!(budget.allows());
        budget.spend(5);
        assert!(!budget.allows(), "units spent");
        assert!(!Budget::millis(-1.0).allows(), "a deadline in the past");
        assert!(Budget::millis(60_000.0).allows());
        // A deadline passed between two checks is seen within CLOCK_EVERY_CHECKS checks of
        // tiny pieces, or at the first check after CLOCK_EVERY_UNITS units.
        let mut budget = Budget::millis(60_000.0);
        assert!(budget.allows(), "the first check reads the clock");
        budget.deadline_ms = now_ms();
        let checks = (0..CLOCK_EVERY_CHECKS).take_while(|_| budget.allows()).count();
        assert_eq!(checks, CLOCK_EVERY_CHECKS - 1);
        assert!(!budget.allows(), "and stays ended");
        let mut budget = Budget::millis(60_000.0);
        assert!(budget.allows());
        budget.deadline_ms = now_ms();
        assert!(budget.allows(), "not read yet");
        budget.spend(CLOCK_EVERY_UNITS);
        assert!(!budget.allows(), "read after CLOCK_EVERY_UNITS units");
        let mut counter = Counter { at: 0, to: 5, bad: None, failed: None };
        let mut budget = Budget::units(2);
        assert_eq!(counter.step_within(&mut budget), Ok(Some(1)), "by default a whole step");
        assert_eq!(counter.step_within(&mut budget), Ok(Some(2)));
        assert!(!budget.allows());
    }
}
