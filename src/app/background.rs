//! A solver run in the background, a slice per frame: the classic and EM comparisons beside
//! the fast RVM, ISTA and ridge by gradient descent on the regularisation panel, the
//! multiclass sweeps. It keeps the time the run took and the error that stopped it, so a
//! failure of background work is a message, never a lost panel.
//!
//! The comparisons beside a panel's own run ([`Comparisons`]: classic and EM beside the fast
//! RVM, the classic sweeps beside the classifiers) may run elsewhere instead — the page's
//! worker, on the same module, from the same settings — and their [`Outcome`]s be adopted
//! here: the main thread then keeps only the panel's own run and the drawing.

use nalgebra::{DMatrix, DVector};

use crate::clock::now_ms;
use crate::error::{Error, ensure_whole};
use crate::rvm::RelevanceModel;
use crate::solver::{Budget, Solver, Status, Termination};

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

/// How a comparison stands, all its table row and progress bar show: the same numbers
/// whether the run is stepped here or in a worker (whose outcomes [`Detachable::adopt`]
/// takes), so that the row is the same to the bit either way (the time aside, which is the
/// time the run took where it ran).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Steps done (a finished run counts its whole budget) and the budget.
    pub progress: (usize, usize),
    /// The row's numbers, once the run exists (none while it is set up, or if it could not
    /// start).
    pub row: Option<Row>,
    /// The reason the run stopped, if an error stopped it.
    pub failure: Option<String>,
}

/// A comparison's row in the methods table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Steps (sweeps) taken.
    pub steps: usize,
    /// Milliseconds spent on them (NaN without a clock).
    pub elapsed_ms: f64,
    /// L at the last step.
    pub log_ml: f64,
    /// Basis functions with a finite α.
    pub relevant: usize,
    /// Whether it converged.
    pub verdict: Verdict,
}

/// Whether a comparison converged: the table's last column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Its convergence test was met.
    Converged,
    /// It stopped gaining (less than its least gain a step).
    Stalled,
    /// It spent its budget, or failed.
    NotConverged,
    /// It is still running.
    Running,
}

impl Verdict {
    /// Every verdict, in the order of their numbers (`verdict as u8`).
    const ALL: [Verdict; 4] = [Verdict::Converged, Verdict::Stalled, Verdict::NotConverged, Verdict::Running];

    /// The table's label (a string-table key under `cell.`).
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Converged => "yes",
            Verdict::Stalled => "stalled",
            Verdict::NotConverged => "no",
            Verdict::Running => "running",
        }
    }
}

impl<S: Solver + RelevanceModel> Background<S> {
    /// Where the run stands, as its table row shows it.
    pub fn outcome(&self) -> Outcome {
        let run = &self.run;
        let verdict = match run.status() {
            Status::Terminated(Termination::Converged { .. }) => Verdict::Converged,
            Status::Terminated(Termination::Stalled { .. }) => Verdict::Stalled,
            _ if self.is_done() => Verdict::NotConverged,
            _ => Verdict::Running,
        };
        let row = Row {
            steps: run.iterations(),
            elapsed_ms: self.elapsed_ms,
            log_ml: run.log_ml(),
            relevant: run.relevance_vectors(),
            verdict,
        };
        Outcome { progress: self.progress(), row: Some(row), failure: self.failure.as_ref().map(ToString::to_string) }
    }
}

/// A comparison run, stepped in slices: a [`Background`] solver, or one with a set-up before
/// its steps.
pub trait Compared {
    /// Advances it within `budget` (nothing once it is done).
    fn work(&mut self, budget: &mut Budget);
    /// Where it stands.
    fn outcome(&self) -> Outcome;
}

impl<S: Solver + RelevanceModel> Compared for Background<S> {
    fn work(&mut self, budget: &mut Budget) {
        Background::work(self, budget, |_| {});
    }

    fn outcome(&self) -> Outcome {
        Background::outcome(self)
    }
}

/// A panel's comparison runs, each named, on inputs with one [`fingerprint`]: stepped here,
/// one after the other, or — once [`Detachable::detach`]ed — left to run elsewhere, their
/// outcomes adopted as they come ([`Detachable::adopt`]).
#[derive(Debug, Clone)]
pub struct Comparisons<C> {
    runs: Vec<(&'static str, C)>,
    fingerprint: u64,
    /// While they run elsewhere: the outcomes adopted so far (at first the runs' own).
    elsewhere: Option<Vec<Outcome>>,
}

impl<C> Default for Comparisons<C> {
    fn default() -> Self {
        Self { runs: vec![], fingerprint: 0, elsewhere: None }
    }
}

impl<C: Compared> Comparisons<C> {
    /// `runs` on inputs with `fingerprint`, to be stepped here.
    pub fn new(runs: Vec<(&'static str, C)>, fingerprint: u64) -> Self {
        Self { runs, fingerprint, elsewhere: None }
    }

    /// Each run's name and where it stands (as adopted, while it runs elsewhere).
    pub fn outcomes(&self) -> Vec<(&'static str, Outcome)> {
        match &self.elsewhere {
            Some(adopted) => self.runs.iter().map(|(name, _)| *name).zip(adopted.iter().cloned()).collect(),
            None => self.runs.iter().map(|(name, run)| (*name, run.outcome())).collect(),
        }
    }

    /// Whether every run has nothing left to do.
    pub fn is_done(&self) -> bool {
        self.outcomes().iter().all(|(_, outcome)| outcome.is_done())
    }

    /// Steps done and in all, over the runs.
    pub fn progress(&self) -> (usize, usize) {
        let progress = self.outcomes().into_iter().map(|(_, outcome)| outcome.progress);
        progress.fold((0, 0), |(done, all), (d, a)| (done + d, all + a))
    }

    /// Whether a run has more to do here (never while they run elsewhere).
    pub fn left_here(&self) -> bool {
        self.elsewhere.is_none() && !self.is_done()
    }

    /// Steps the runs here within `budget`, one after the other; `true` while one has more
    /// to do here (never while they run elsewhere).
    pub fn work(&mut self, budget: &mut Budget) -> bool {
        if self.elsewhere.is_some() {
            return false;
        }
        for (_, run) in &mut self.runs {
            if !budget.allows() {
                break;
            }
            run.work(budget);
        }
        self.left_here()
    }
}

/// What the page asks of a panel's [`Comparisons`], whatever their runs: to let them run
/// elsewhere, to take the outcomes from there, or to run them here again.
pub trait Detachable {
    /// The fingerprint of their inputs ([`fingerprint`]): runs elsewhere on the same inputs
    /// have the same.
    fn fingerprint(&self) -> u64;
    /// Each run's outcome, in order.
    fn outcomes(&self) -> Vec<Outcome>;
    /// Whether they run elsewhere.
    fn is_elsewhere(&self) -> bool;
    /// From now on they run elsewhere: nothing more is stepped here (what was is dropped).
    fn detach(&mut self);
    /// From now on they run here again, from where they were here.
    fn attach(&mut self);
    /// Takes `outcomes` from a run elsewhere on inputs with `fingerprint`; the outcomes they
    /// replace, or `None` (nothing taken) unless the runs are elsewhere, the fingerprint is
    /// theirs and there is an outcome for each run.
    fn adopt(&mut self, fingerprint: u64, outcomes: Vec<Outcome>) -> Option<Vec<Outcome>>;
}

impl<C: Compared> Detachable for Comparisons<C> {
    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    fn outcomes(&self) -> Vec<Outcome> {
        Comparisons::outcomes(self).into_iter().map(|(_, outcome)| outcome).collect()
    }

    fn is_elsewhere(&self) -> bool {
        self.elsewhere.is_some()
    }

    fn detach(&mut self) {
        if self.elsewhere.is_none() {
            // Until the first outcomes come, the runs as they are here (the page detaches
            // them before their first step).
            self.elsewhere = Some(Detachable::outcomes(self));
        }
    }

    fn attach(&mut self) {
        self.elsewhere = None;
    }

    fn adopt(&mut self, fingerprint: u64, outcomes: Vec<Outcome>) -> Option<Vec<Outcome>> {
        let adopted = self.elsewhere.as_mut()?;
        if fingerprint != self.fingerprint || outcomes.len() != adopted.len() {
            return None;
        }
        Some(std::mem::replace(adopted, outcomes))
    }
}

/// A fingerprint of a comparison's inputs: FNV-1a (64 bits) over the bits of the design
/// `phi` (and its shape), the targets `t` and the numbers of the runs' `settings`. Runs on
/// inputs with the same fingerprint compute the same numbers; a worker's outcomes are adopted
/// only for the fingerprint they were computed on. It keeps 53 bits, so that the page holds
/// it exactly as a number.
pub fn fingerprint(phi: &DMatrix<f64>, t: &DVector<f64>, settings: &[f64]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let shape = [phi.nrows() as f64, phi.ncols() as f64];
    let numbers = shape.iter().chain(phi.iter()).chain(t.iter()).chain(settings);
    let bytes = numbers.flat_map(|v| v.to_bits().to_le_bytes());
    bytes.fold(OFFSET, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(PRIME)) & ((1 << 53) - 1)
}

/// Numbers an [`Outcome`] takes in [`Outcome::encode`].
pub const OUTCOME_NUMBERS: usize = 8;

impl Outcome {
    /// Whether the run has nothing left to do.
    pub fn is_done(&self) -> bool {
        self.progress.0 >= self.progress.1
    }

    /// Appends the outcome as [`OUTCOME_NUMBERS`] numbers (the failure travels apart, as
    /// text): how a worker sends it, in a `Float64Array`.
    pub fn encode(&self, numbers: &mut Vec<f64>) {
        let row =
            self.row.unwrap_or(Row { steps: 0, elapsed_ms: 0.0, log_ml: 0.0, relevant: 0, verdict: Verdict::Running });
        numbers.extend([
            self.progress.0 as f64,
            self.progress.1 as f64,
            f64::from(u8::from(self.row.is_some())),
            row.steps as f64,
            row.elapsed_ms,
            row.log_ml,
            row.relevant as f64,
            row.verdict as u8 as f64,
        ]);
    }

    /// The outcome [`Outcome::encode`] wrote as `numbers` (exactly [`OUTCOME_NUMBERS`]),
    /// with its `failure` ("" for none).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a count or a verdict that is not one.
    fn decode(numbers: &[f64; OUTCOME_NUMBERS], failure: &str) -> Result<Outcome, Error> {
        let [done, budget, has_row, steps, elapsed_ms, log_ml, relevant, verdict] = *numbers;
        let progress = (count("done", done)?, count("budget", budget)?);
        let row = if has_row == 1.0 {
            let verdict = Verdict::ALL[ensure_whole("verdict", verdict, Verdict::ALL.len() as u64 - 1)?];
            Some(Row {
                steps: count("steps", steps)?,
                elapsed_ms,
                log_ml,
                relevant: count("relevant", relevant)?,
                verdict,
            })
        } else {
            None
        };
        Ok(Outcome { progress, row, failure: (!failure.is_empty()).then(|| failure.to_owned()) })
    }
}

/// `value` as a count of steps or basis functions, if it is one.
fn count(name: &'static str, value: f64) -> Result<usize, Error> {
    ensure_whole(name, value, u64::from(u32::MAX))
}

/// `outcomes` as a worker sends them: [`OUTCOME_NUMBERS`] numbers each, one after the
/// other, and their failures as text, a line each ("" for none; an error's message is one
/// line).
pub fn encode_outcomes(outcomes: &[Outcome]) -> (Vec<f64>, String) {
    let mut numbers = Vec::with_capacity(outcomes.len() * OUTCOME_NUMBERS);
    let mut failures = vec![];
    for outcome in outcomes {
        outcome.encode(&mut numbers);
        failures.push(outcome.failure.as_deref().unwrap_or_default().replace('\n', " "));
    }
    (numbers, failures.join("\n"))
}

/// The outcomes [`encode_outcomes`] wrote.
///
/// # Errors
/// [`Error::DimensionMismatch`] unless there are [`OUTCOME_NUMBERS`] numbers and a line of
/// failures for each outcome; [`Error::OutOfRange`] for a count or verdict that is not one.
pub fn decode_outcomes(numbers: &[f64], failures: &str) -> Result<Vec<Outcome>, Error> {
    let (chunks, rest) = numbers.as_chunks::<OUTCOME_NUMBERS>();
    let lines: Vec<&str> = if chunks.is_empty() { vec![] } else { failures.split('\n').collect() };
    if !rest.is_empty() || lines.len() != chunks.len() {
        let got = numbers.len() + lines.len().abs_diff(chunks.len());
        return Err(Error::DimensionMismatch {
            what: "comparisons' outcomes",
            expected: chunks.len() * OUTCOME_NUMBERS,
            got,
        });
    }
    let mut outcomes = Vec::with_capacity(chunks.len());
    for (chunk, failure) in chunks.iter().zip(lines) {
        outcomes.push(Outcome::decode(chunk, failure)?);
    }
    Ok(outcomes)
}
