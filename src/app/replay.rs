//! The one replay every animated panel uses: a cursor over the frames of a run — which
//! frame is shown, which was asked for — that Play, Step, Back and Restart move
//! ([`Player`]), over frames kept in one of three ways ([`Frames`]):
//!
//! - [`Checkpointed`]: a solver run to its end (in slices: the first when the panel
//!   computes, the rest in the background), a copy kept every [`CHECKPOINT`] steps, so the
//!   whole state at any step is one copy and at most [`CHECKPOINT`] − 1 steps away (the
//!   fast RVM, the fast classifier);
//! - [`Recorded`]: a solver extended in the background a few steps per frame, a record of
//!   each step kept (the multiclass sweeps, too costly to replay);
//! - finished solvers that keep their own paths, shown side by side at the same iteration
//!   (the evidence's four schemes, the three gradient descents): `Vec<S>`.
//!
//! Panels whose frames are not a solver's (points observed one by one) implement
//! [`Frames`] themselves.

use super::background::Background;
use crate::clock::now_ms;
use crate::error::{Error, Result};
use crate::solver::{Budget, Solver};

/// The player of a run whose first frame is still being computed: nothing to show yet, and
/// the frame asked for (Play, a URL's step) kept for when the frames come.
#[derive(Debug, Clone, PartialEq)]
pub struct Waiting {
    /// The frame asked for.
    pub frame: usize,
    key: Option<&'static str>,
}

impl Waiting {
    /// Waiting to show `frame`, recorded in the setting `key`.
    pub fn new(key: Option<&'static str>, frame: usize) -> Self {
        Self { frame, key }
    }
}

impl Player for Waiting {
    /// Asks for the frame `steps` further; `true`: frames are coming.
    fn step(&mut self, steps: usize) -> bool {
        self.frame = self.frame.saturating_add(steps);
        true
    }

    fn step_back(&mut self) -> bool {
        self.frame = self.frame.saturating_sub(1);
        false
    }

    fn rewind(&mut self) {
        self.frame = 0;
    }

    fn show(&mut self, frame: usize) {
        self.frame = frame;
    }

    fn position(&self) -> (usize, usize) {
        (0, 0)
    }

    fn waiting(&self) -> bool {
        true
    }

    fn key(&self) -> Option<&'static str> {
        self.key
    }
}

/// A copy of a [`Checkpointed`] run is kept every this many steps.
pub const CHECKPOINT: usize = 16;

/// Units of [`Solver::cost`] a panel records at once when it computes, the rest following
/// in the page's background work: the whole fast run of the default problems (N = 50: about
/// 26 steps of 51 candidates; gradient descent's 1500 updates at N = 20), one step at
/// N = 2000 (where fast-rvm makes its design in the background instead); about 6 ms in
/// wasm, so that the change and its first drawing fit the frame of the input.
pub const FIRST_SLICE: usize = 2000;

/// What the page's player moves: Play, Step, Back, Restart, and the frame setting.
pub trait Player {
    /// Shows up to `steps` frames further; `false` once nothing is left to show (the last
    /// frame of a run that will not grow).
    fn step(&mut self, steps: usize) -> bool;
    /// Shows the frame before; `false` if at frame 0.
    fn step_back(&mut self) -> bool;
    /// Shows frame 0.
    fn rewind(&mut self);
    /// Shows `frame`, or the last there is while it waits for more.
    fn show(&mut self, frame: usize);
    /// The frame shown and the last frame there is.
    fn position(&self) -> (usize, usize);
    /// The setting that records the frame shown (so that the URL follows it), if any.
    fn key(&self) -> Option<&'static str>;
    /// Whether the frame asked for is not there yet (the work goes on towards it): the page
    /// draws the change as soon as it is.
    fn waiting(&self) -> bool;
}

/// Frames a [`Replay`] moves over.
pub trait Frames {
    /// The last frame there is now (frame 0 always exists).
    fn last(&self) -> usize;
    /// Whether more frames may still come (a run extended in the background).
    fn growing(&self) -> bool {
        false
    }
    /// Called when frame `frame` becomes the one shown.
    fn show(&mut self, _frame: usize) {}
}

/// A cursor over [`Frames`]: the frame shown, and the frame asked for (the URL's), shown
/// once the frames reach it.
#[derive(Debug, Clone)]
pub struct Replay<F> {
    frames: F,
    shown: usize,
    wanted: usize,
    key: Option<&'static str>,
}

impl<F: Frames> Replay<F> {
    /// A replay of `frames` showing `frame` (or the last there is), its frame recorded in
    /// the setting `key`, if any.
    pub fn new(frames: F, key: Option<&'static str>, frame: usize) -> Self {
        let mut replay = Self { frames, shown: 0, wanted: 0, key };
        replay.go(frame);
        replay
    }

    /// The frames.
    pub fn frames(&self) -> &F {
        &self.frames
    }

    /// The frames, mutably (to extend them); [`Replay::catch_up`] after.
    pub fn frames_mut(&mut self) -> &mut F {
        &mut self.frames
    }

    /// The frame shown.
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// Shows the frame asked for, or the last there is, after the frames grew.
    pub fn catch_up(&mut self) {
        let shown = self.wanted.min(self.frames.last());
        if shown != self.shown {
            self.shown = shown;
            self.frames.show(shown);
        }
    }

    /// Asks for `frame` and shows it, or the last there is.
    fn go(&mut self, frame: usize) {
        self.wanted = frame;
        self.shown = frame.min(self.frames.last());
        self.frames.show(self.shown);
    }
}

impl<F: Frames> Player for Replay<F> {
    fn step(&mut self, steps: usize) -> bool {
        let last = self.frames.last();
        self.go((self.shown + steps).min(last));
        self.shown < last || self.frames.growing()
    }

    fn step_back(&mut self) -> bool {
        if self.shown == 0 {
            return false;
        }
        self.go(self.shown - 1);
        true
    }

    fn rewind(&mut self) {
        self.go(0);
    }

    fn show(&mut self, frame: usize) {
        self.go(frame);
    }

    fn position(&self) -> (usize, usize) {
        (self.shown, self.frames.last())
    }

    fn waiting(&self) -> bool {
        self.wanted > self.shown
    }

    fn key(&self) -> Option<&'static str> {
        self.key
    }
}

/// A solver run, with a copy every [`CHECKPOINT`] steps and the whole state at the step
/// shown. Recorded in slices so that no slice holds the page for long:
/// [`Checkpointed::start`] records the first (a small problem is done in it), the page's
/// background work ([`Checkpointed::extend`]) the rest, the frames growing meanwhile.
#[derive(Debug, Clone)]
pub struct Checkpointed<S> {
    /// The run at steps 0, [`CHECKPOINT`], 2·[`CHECKPOINT`], …
    checkpoints: Vec<S>,
    /// The run as far as it is recorded (at its end once done).
    end: S,
    /// Milliseconds spent recording the run so far.
    elapsed_ms: f64,
    /// The run at the step shown.
    current: S,
    /// The error that stopped the recording after its first slice, if one did.
    failure: Option<Error>,
}

impl<S: Solver + Clone> Checkpointed<S> {
    /// Records `run` to its end, keeping checkpoints.
    ///
    /// # Errors
    /// The first error of a step.
    pub fn record(run: S) -> Result<Self> {
        Self::start(run, &mut Budget::unlimited())
    }

    /// Records the first steps of `run` within `budget` (at least one step, or one piece of
    /// a step that [`Solver::step_within`] does in pieces; units, for a first slice that does
    /// not depend on the machine's speed); [`Checkpointed::extend`] records the rest.
    ///
    /// # Errors
    /// The first error of a step in that slice.
    pub fn start(run: S, budget: &mut Budget) -> Result<Self> {
        let mut this =
            Self { checkpoints: vec![run.clone()], current: run.clone(), end: run, elapsed_ms: 0.0, failure: None };
        this.record_slice(budget)?;
        Ok(this)
    }

    /// Records more within `budget` (at least one step or piece); an error stops the recording and
    /// is kept ([`Checkpointed::failure`]). `true` while more remains.
    pub fn extend(&mut self, budget: &mut Budget) -> bool {
        if self.is_growing()
            && let Err(error) = self.record_slice(budget)
        {
            self.failure = Some(error);
        }
        self.is_growing()
    }

    /// Steps the recorded run within `budget` (at least one step or piece), keeping
    /// checkpoints.
    fn record_slice(&mut self, budget: &mut Budget) -> Result<()> {
        let start = now_ms();
        let mut first = true;
        let result = loop {
            if !self.end.status().is_running() || !(first || budget.allows()) {
                break Ok(());
            }
            first = false;
            match self.end.step_within(budget) {
                Err(error) => break Err(error),
                Ok(Some(_)) if self.end.iterations().is_multiple_of(CHECKPOINT) => {
                    self.checkpoints.push(self.end.clone());
                }
                Ok(_) => {}
            }
        };
        self.elapsed_ms += now_ms() - start;
        result
    }

    /// Whether the recording goes on: the run neither ended nor failed.
    pub fn is_growing(&self) -> bool {
        self.failure.is_none() && self.end.status().is_running()
    }

    /// The run at the step shown.
    pub fn current(&self) -> &S {
        &self.current
    }

    /// The run as far as it is recorded: at its end once [`Checkpointed::extend`] is done.
    pub fn end(&self) -> &S {
        &self.end
    }

    /// Milliseconds spent recording the run so far.
    pub fn elapsed_ms(&self) -> f64 {
        self.elapsed_ms
    }

    /// The error that stopped the recording, if one did.
    pub fn failure(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// Steps recorded so far, counting a finished recording as its whole `budget`, and the
    /// budget: for the progress bar (as [`Background::progress`]).
    pub fn progress(&self, budget: usize) -> (usize, usize) {
        (if self.is_growing() { self.end.iterations().min(budget) } else { budget }, budget)
    }

    /// The run at step `k`: the checkpoint before it, stepped forward.
    fn state_at(&self, k: usize) -> S {
        let k = k.min(self.end.iterations());
        let mut run = self.checkpoints[(k / CHECKPOINT).min(self.checkpoints.len() - 1)].clone();
        // Steps taken once already with the same data cannot fail now.
        while run.iterations() < k && run.step().is_ok() {}
        run
    }
}

impl<S: Solver + Clone> Replay<Checkpointed<S>> {
    /// Records more of a run still being recorded within `budget`, then shows the frame
    /// asked for once it exists; `false` (and nothing done) when the recording is over.
    pub fn record_more(&mut self, budget: &mut Budget) -> bool {
        if !self.frames.is_growing() {
            return false;
        }
        self.frames.extend(budget);
        self.catch_up();
        true
    }
}

impl<S: Solver + Clone> Frames for Checkpointed<S> {
    fn last(&self) -> usize {
        self.end.iterations()
    }

    fn growing(&self) -> bool {
        self.is_growing()
    }

    /// The recording's newest frame is a copy of its state (a page following the growing run,
    /// or waiting for a frame beyond it, would otherwise make every step recorded a second
    /// time, outside the slice's budget); another frame steps the run shown forward when it is
    /// near, else starts from a checkpoint.
    fn show(&mut self, frame: usize) {
        let at = self.current.iterations();
        if frame == self.end.iterations() && frame != at {
            self.current = self.end.clone();
        } else if frame >= at && frame - at <= CHECKPOINT {
            while self.current.iterations() < frame && self.current.step().is_ok() {}
        } else {
            self.current = self.state_at(frame);
        }
    }
}

/// A solver extended in the background, with a record of every step made so far (frame 0
/// the start): for methods whose steps are too costly to replay.
#[derive(Debug, Clone)]
pub struct Recorded<S, R> {
    run: Background<S>,
    records: Vec<R>,
    record: fn(&S) -> R,
}

impl<S: Solver, R> Recorded<S, R> {
    /// `run` not yet stepped, `record` of it as frame 0; at most `budget` steps.
    pub fn new(run: S, budget: usize, record: fn(&S) -> R) -> Self {
        let records = vec![record(&run)];
        Self { run: Background::new(run, budget), records, record }
    }

    /// The record of every step so far.
    pub fn records(&self) -> &[R] {
        &self.records
    }

    /// The run as far as it has got.
    pub fn run(&self) -> &Background<S> {
        &self.run
    }

    /// Advances the run within `budget`, recording each completed step; `true` while the
    /// run goes on.
    pub fn extend(&mut self, budget: &mut Budget) -> bool {
        let (records, record) = (&mut self.records, self.record);
        self.run.work(budget, |run| records.push(record(run)));
        !self.run.is_done()
    }

    /// The failure that stopped the run, if one did.
    pub fn failure(&self) -> Option<&Error> {
        self.run.failure()
    }
}

impl<S: Solver, R> Frames for Recorded<S, R> {
    fn last(&self) -> usize {
        self.records.len() - 1
    }

    fn growing(&self) -> bool {
        !self.run.is_done()
    }
}

/// Runs made side by side in the background, each keeping its own path: frame k shows
/// every run at iteration k (a run that ended earlier at its end); more frames come while
/// any run goes on (the three gradient descents).
impl<S: Solver> Frames for Vec<Background<S>> {
    fn last(&self) -> usize {
        self.iter().map(|run| run.run().iterations()).max().unwrap_or(0)
    }

    fn growing(&self) -> bool {
        self.iter().any(|run| !run.is_done())
    }
}

/// Finished runs side by side, each keeping its own path: frame k shows every run at
/// iteration k (a run that ended earlier at its end).
impl<S: Solver> Frames for Vec<S> {
    fn last(&self) -> usize {
        self.iter().map(Solver::iterations).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Status, Termination};

    /// Counts to `to`; its state is the count.
    #[derive(Debug, Clone)]
    struct Counter {
        at: usize,
        to: usize,
    }

    impl Solver for Counter {
        type Event = usize;
        fn next_iter(&mut self) -> Result<usize> {
            self.at += 1;
            Ok(self.at)
        }
        fn status(&self) -> Status {
            if self.at >= self.to {
                Status::Terminated(Termination::Finished { iterations: self.at })
            } else {
                Status::Running
            }
        }
        fn iterations(&self) -> usize {
            self.at
        }
    }

    /// Counts as [`Counter`], and tallies the steps that it and every copy of it take.
    #[derive(Debug, Clone)]
    struct Tallied {
        count: Counter,
        steps: std::rc::Rc<std::cell::Cell<usize>>,
    }

    impl Solver for Tallied {
        type Event = usize;
        fn next_iter(&mut self) -> Result<usize> {
            self.steps.set(self.steps.get() + 1);
            self.count.next_iter()
        }
        fn status(&self) -> Status {
            self.count.status()
        }
        fn iterations(&self) -> usize {
            self.count.iterations()
        }
    }

    #[test]
    fn following_the_recording_takes_each_step_once() {
        let steps = std::rc::Rc::new(std::cell::Cell::new(0));
        let tallied = Tallied { count: Counter { at: 0, to: 50 }, steps: steps.clone() };
        let run = Checkpointed::start(tallied, &mut Budget::units(7)).unwrap();
        // A frame beyond the end: the newest frame is shown while the recording grows.
        let mut replay = Replay::new(run, Some("step"), 99);
        let mut shown = vec![];
        while replay.record_more(&mut Budget::units(7)) {
            shown.push(replay.position().0);
        }
        assert_eq!(shown, [14, 21, 28, 35, 42, 49, 50]);
        assert_eq!(replay.frames().current().count.at, 50);
        assert_eq!(steps.get(), 50, "each step once: the frame shown is a copy of the recording");
        replay.show(45);
        assert_eq!((replay.frames().current().count.at, steps.get()), (45, 50 + 13), "from the checkpoint at 32");
    }

    #[test]
    fn a_checkpointed_replay_shows_the_state_of_any_step() {
        let run = Checkpointed::record(Counter { at: 0, to: 50 }).unwrap();
        let mut replay = Replay::new(run, Some("step"), 7);
        assert_eq!((replay.position(), replay.frames().current().at), ((7, 50), 7));
        assert!(replay.step(30));
        assert_eq!(replay.frames().current().at, 37, "from a checkpoint");
        assert!(replay.step_back());
        assert_eq!(replay.frames().current().at, 36);
        assert!(!replay.step(100));
        assert_eq!(replay.frames().current().at, 50);
        replay.rewind();
        assert_eq!((replay.position(), replay.frames().current().at), ((0, 50), 0));
        assert!(!replay.step_back());
        replay.show(99);
        assert_eq!(replay.position(), (50, 50));
    }

    #[test]
    fn a_checkpointed_run_recorded_in_slices_is_the_run_recorded_at_once() {
        let whole = Checkpointed::record(Counter { at: 0, to: 50 }).unwrap();
        let run = Checkpointed::start(Counter { at: 0, to: 50 }, &mut Budget::units(7)).unwrap();
        let mut replay = Replay::new(run, Some("step"), 40);
        assert_eq!(replay.position(), (7, 7), "the first slice, frame 40 to come");
        assert!(replay.frames().growing(), "more frames are coming");
        let mut slices = 1;
        while replay.frames_mut().extend(&mut Budget::units(7)) {
            replay.catch_up();
            slices += 1;
        }
        replay.catch_up();
        assert_eq!((slices, replay.position()), (7, (40, 50)), "50 steps in slices of 7; frame 40 shown once there");
        assert_eq!(replay.frames().checkpoints.len(), whole.checkpoints.len());
        for k in [0, 15, 16, 33, 50] {
            assert_eq!(replay.frames().state_at(k).at, whole.state_at(k).at);
        }
        assert_eq!(replay.frames().progress(80), (80, 80), "done counts as the whole budget");
        assert!(!replay.frames_mut().extend(&mut Budget::units(7)));
    }

    /// Fails at its third step.
    #[derive(Debug, Clone)]
    struct Failing(usize);

    impl Solver for Failing {
        type Event = ();
        fn next_iter(&mut self) -> Result<()> {
            if self.0 == 2 {
                return Err(Error::NoData);
            }
            self.0 += 1;
            Ok(())
        }
        fn status(&self) -> Status {
            Status::Running
        }
        fn iterations(&self) -> usize {
            self.0
        }
    }

    #[test]
    fn a_step_that_fails_after_the_first_slice_stops_the_recording_and_is_kept() {
        assert!(
            Checkpointed::start(Failing(0), &mut Budget::units(5)).is_err(),
            "in the first slice: the panel's error"
        );
        let mut run = Checkpointed::start(Failing(0), &mut Budget::units(1)).unwrap();
        assert_eq!((run.last(), run.progress(10)), (1, (1, 10)));
        assert!(!run.extend(&mut Budget::units(5)), "stopped");
        assert_eq!((run.last(), run.failure(), run.growing()), (2, Some(&Error::NoData), false));
    }

    #[test]
    fn a_recorded_replay_waits_for_the_frame_asked_for() {
        let run = Recorded::new(Counter { at: 0, to: 20 }, 1000, |c| c.at * 10);
        let mut replay = Replay::new(run, Some("step"), 5);
        assert_eq!(replay.position(), (0, 0), "frame 5 is not computed yet");
        assert!(replay.frames_mut().extend(&mut Budget::units(3)));
        replay.catch_up();
        assert_eq!(replay.position(), (3, 3));
        while replay.frames_mut().extend(&mut Budget::units(1)) {}
        replay.catch_up();
        assert_eq!(replay.position(), (5, 20));
        assert_eq!(replay.frames().records()[5], 50);
        assert!(replay.step(1), "frames left");
        assert!(!replay.step(100), "at the end of a finished run");
    }

    #[test]
    fn finished_runs_side_by_side_end_at_the_longest() {
        let runs = vec![Counter { at: 4, to: 4 }, Counter { at: 9, to: 9 }];
        let mut replay = Replay::new(runs, None, usize::MAX);
        assert_eq!((replay.position(), replay.key()), ((9, 9), None));
        replay.rewind();
        assert!(replay.step(5));
        assert_eq!(replay.position(), (5, 9));
    }

    #[test]
    fn a_waiting_player_keeps_the_frame_asked_for() {
        let mut waiting = Waiting::new(Some("step"), 3);
        assert_eq!((waiting.position(), waiting.key()), ((0, 0), Some("step")));
        assert!(waiting.step(2), "frames are coming");
        assert_eq!(waiting.frame, 5);
        assert!(!waiting.step_back());
        waiting.show(9);
        assert_eq!(waiting.frame, 9);
        waiting.rewind();
        assert_eq!(waiting.frame, 0);
    }
}
