//! Gradient descent on the sum-of-squares error, in the lecture's three forms: batch (BGD),
//! stochastic (SGD) and mini-batch (MBGD) (lecture notes on linear models, eq 9–10, the
//! BGD/SGD/MBGD updates, and the ridge update after lecture notes on linear models, eq 15).
//!
//! The error is a sum over the points, E_D(w) = Σₙ Eₙ(w) with Eₙ(w) = ½(φₙᵀw − tₙ)²
//! (lecture notes on linear models, eq 9–10). With a ridge term the objective is the
//! lecture notes on linear models' eq 14,
//!
//! ```text
//! E(w) = E_D(w) + λ/2 ‖w‖²,   ∇E(w) = Σₙ φₙ(φₙᵀw − tₙ) + λw,
//! ```
//!
//! whose minimiser solves (ΦᵀΦ + λI)w = Φᵀt (lecture notes on linear models, eq 15), as
//! [`super::regularised::ridge`] computes in closed form.
//!
//! One *iteration* is one parameter update; one *epoch* passes over all N points once; the
//! *batch size* is the number of points per update (lecture notes on linear models: the
//! epoch / batch size / iteration table). Each update with index set I (|I| = b) is
//!
//! ```text
//! w := w − α [ Σ_{n∈I} φₙ(φₙᵀw − tₙ) + (b/N) λw ]
//! ```
//!
//! with learning rate α: I = all N points for batch GD (then b/N = 1 and this is the
//! lecture's ridge BGD update), one point for SGD, and for mini-batch GD the *sum* over the
//! batch, exactly as the lecture's MBGD update writes it (not the mean: a mini-batch step
//! of size b is as long as b SGD steps, so the learning rate that is stable shrinks as b
//! grows; the slide's gradient line misplaces φ(xₙ) outside the sum, its update line has it
//! inside, as here). The ridge
//! gradient λw is split over the updates of an epoch in proportion b/N, so that one epoch
//! applies the full gradient of E(w) once, whatever the schedule.
//!
//! Every epoch, SGD and MBGD shuffle the indices 0..N with a seeded PCG generator and take
//! them in that order without replacement, b at a time (the last batch of an epoch may be
//! smaller); batch GD uses all points in their natural order and draws no random numbers.
//!
//! ## Choosing α
//! Batch GD is stable iff α < 2/L with L = λ_max(ΦᵀΦ) + λ (`regularised::lipschitz(Φ) + λ`);
//! α = 1/L is a safe default. An SGD step on point n is stable for α < 2/‖φₙ‖². Measured on
//! the sinusoid (σ = 0.3, N = 10–50, w₀ = 0): for the line (1, x), L ≈ 1.25N, and batch
//! α = 1/L, SGD α = 0.03 and MBGD (b = 5) α = 0.03 all reach within 10% of the minimum
//! E_D in 15–75 epochs. For a cubic (M = 4), κ(ΦᵀΦ) ≈ 10⁴ makes every schedule slow:
//! batch α = 1/L needs 3–6·10⁴ epochs; SGD α ≈ 0.05 and MBGD (b = 5) α ≈ 0.02 come within
//! a few percent only after 10⁴–10⁵ epochs.
//!
//! ## References Lecture notes on linear models, the "随机梯度下降" (stochastic gradient descent)
//! section; Bishop, *PRML* §3.1.3 (3.22).

use nalgebra::{DMatrix, DVector};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64;
use serde::Serialize;

use crate::error::{Bound, Error, Result, ensure_non_negative, ensure_positive};
use crate::error::{check_design, check_weights, check_whole};
use crate::solver::{Solver, Status, Termination};

/// Largest number of updates one run may take, over all its epochs; see [`max_epochs`].
/// The run keeps every iterate, so its history holds at most (10⁶ + 1) × (M + 1) numbers.
pub const MAX_ITERATIONS: usize = 1_000_000;

/// A run stops with [`Termination::Diverged`] once the loss exceeds this many times
/// max(1, initial loss).
pub const DIVERGENCE_FACTOR: f64 = 1e12;

/// How many points one update uses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Schedule {
    /// Batch gradient descent (BGD): all N points per update, one update per epoch.
    Batch,
    /// Stochastic gradient descent (SGD): one point per update, N updates per epoch.
    Stochastic,
    /// Mini-batch gradient descent (MBGD): `batch` points per update (the last batch of an
    /// epoch may be smaller), ⌈N/batch⌉ updates per epoch.
    MiniBatch {
        /// The batch size b, 1 ≤ b ≤ N.
        batch: usize,
    },
}

/// Settings of a [`GradientDescent`] run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GradientDescentSettings {
    /// BGD, SGD or MBGD.
    pub schedule: Schedule,
    /// The learning rate α > 0 of the update w := w − α∇.
    pub learning_rate: f64,
    /// Passes over the data, 1 ≤ epochs ≤ [`max_epochs`].
    pub epochs: usize,
    /// Seed of the PCG generator that shuffles the points each epoch.
    pub seed: u64,
    /// The ridge coefficient λ ≥ 0: minimise E_D(w) + λ/2‖w‖² (lecture notes on linear
    /// models, eq 14); 0 is plain least squares.
    pub ridge: f64,
    /// Converged once an update moves w by at most this times ‖w‖ (0: never; the run then
    /// takes every epoch).
    pub tolerance: f64,
}

/// What one [`Solver::step`] of a [`GradientDescent`] did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum GradientEvent {
    /// One parameter update was made.
    Update {
        /// Number of this update, counting from 1.
        iteration: usize,
        /// The epoch it belongs to, counting from 1.
        epoch: usize,
        /// Indices n of the points whose gradients were summed, in the order drawn.
        samples: Vec<usize>,
        /// E_D(w) + λ/2‖w‖² over all N points after the update.
        loss: f64,
        /// ‖w_new − w_old‖, the length of the step.
        step_norm: f64,
    },
    /// Nothing was changed: this update diverged (a non-finite or exploding loss), and the
    /// run ended.
    Stopped {
        /// Why.
        termination: Termination,
    },
}

/// Updates per epoch: 1 for batch, N for stochastic, ⌈N/b⌉ for mini-batch (lecture notes on
/// linear models, the epoch / batch size / iteration table: N = 100 gives 1, 2, 10, 100 for
/// b = 100, 50, 10, 1).
///
/// N = 0 gives 0; a batch size of 0 (which [`GradientDescent::new`] refuses) counts as 1.
pub fn iterations_per_epoch(n: usize, schedule: Schedule) -> usize {
    match schedule {
        _ if n == 0 => 0,
        Schedule::Batch => 1,
        Schedule::Stochastic => n,
        Schedule::MiniBatch { batch } => n.div_ceil(batch.max(1)),
    }
}

/// The most epochs a run on N points may have: ⌊[`MAX_ITERATIONS`] / updates per epoch⌋,
/// so that no run takes more than a million updates (1 000 000 for batch GD, 20 000 for
/// SGD on 50 points). 0 when one epoch alone would exceed the limit (SGD on N > 10⁶).
pub fn max_epochs(n: usize, schedule: Schedule) -> usize {
    match iterations_per_epoch(n, schedule) {
        0 => 0,
        per_epoch => MAX_ITERATIONS / per_epoch,
    }
}

/// A gradient-descent run on (Φ, t), one update per [`Solver::step`].
///
/// Holds the whole history: the weights and the loss after every update, index 0 being
/// the initial weights. These never contain NaN or ±∞: an update that would is refused
/// and ends the run ([`Termination::Diverged`]).
#[derive(Debug, Clone)]
pub struct GradientDescent {
    phi: DMatrix<f64>,
    t: DVector<f64>,
    settings: GradientDescentSettings,
    rng: Pcg64,
    /// This epoch's order of the indices 0..N.
    order: Vec<usize>,
    /// Position in `order` of the next point to use; 0 at the start of an epoch.
    next: usize,
    /// Completed epochs.
    epoch: usize,
    path: Vec<DVector<f64>>,
    losses: Vec<f64>,
    /// Φw − t at the current weights (the last of `path`), kept from the loss evaluated
    /// there: the next gradient takes its residuals from it.
    residual: Vec<f64>,
    /// Losses above this count as divergence.
    divergence_threshold: f64,
    termination: Option<Termination>,
}

impl GradientDescent {
    /// A run from the weights `initial`.
    ///
    /// # Errors
    /// - [`Error::NoData`], [`Error::DimensionMismatch`] (rows of Φ vs t, or `initial`
    ///   not of length M), [`Error::OutOfRange`] for M = 0, [`Error::NotFinite`] for NaN/∞
    ///   in Φ, t or `initial` (see [`crate::error::check_design`]);
    /// - [`Error::OutOfRange`] for a learning rate α ≤ 0, λ < 0, a batch size outside
    ///   1..=N, or epochs outside 1..=[`max_epochs`] (the limit is named in the error);
    ///   for SGD on more than [`MAX_ITERATIONS`] points, naming N;
    /// - [`Error::NotFinite`] for a non-finite α or λ, or an initial loss that overflows.
    pub fn new(
        phi: DMatrix<f64>,
        t: Vec<f64>,
        initial: DVector<f64>,
        settings: GradientDescentSettings,
    ) -> Result<Self> {
        check_design(&phi, &t)?;
        check_weights("initial weights", &initial, phi.ncols())?;
        check_settings(&settings, t.len())?;
        let t = DVector::from_vec(t);
        let residual = residual(&phi, &t, &initial);
        let initial_loss = objective(&residual, &initial, settings.ridge);
        crate::error::ensure_result("E(w₀)", initial_loss)?;
        Ok(Self {
            order: (0..t.len()).collect(),
            phi,
            t,
            rng: Pcg64::seed_from_u64(settings.seed),
            settings,
            next: 0,
            epoch: 0,
            path: vec![initial],
            losses: vec![initial_loss],
            residual,
            divergence_threshold: DIVERGENCE_FACTOR * initial_loss.max(1.0),
            termination: None,
        })
    }

    /// The current weights: the last entry of [`GradientDescent::path`].
    pub fn weights(&self) -> &DVector<f64> {
        // `path` starts with the initial weights and only grows.
        &self.path[self.path.len() - 1]
    }

    /// Number of updates made so far.
    pub fn iteration(&self) -> usize {
        self.path.len() - 1
    }

    /// Number of epochs completed so far.
    pub fn epoch(&self) -> usize {
        self.epoch
    }

    /// E_D(w) + λ/2‖w‖² over all N points (lecture notes on linear models, eq 10, 14):
    /// index 0 for the initial weights, index k after update k.
    pub fn losses(&self) -> &[f64] {
        &self.losses
    }

    /// The weights: index 0 the initial ones, index k after update k.
    pub fn path(&self) -> &[DVector<f64>] {
        &self.path
    }

    /// The settings of the run.
    pub fn settings(&self) -> &GradientDescentSettings {
        &self.settings
    }

    /// Starts an epoch: SGD and MBGD draw a fresh random order of 0..N.
    fn shuffle(&mut self) {
        if self.settings.schedule != Schedule::Batch {
            self.order.shuffle(&mut self.rng);
        }
    }

    /// The indices of the next update: the next b of this epoch's order (fewer at its end).
    fn next_batch(&self) -> Vec<usize> {
        let n = self.order.len();
        let size = match self.settings.schedule {
            Schedule::Batch => n,
            Schedule::Stochastic => 1,
            Schedule::MiniBatch { batch } => batch,
        };
        self.order[self.next..(self.next + size).min(n)].to_vec()
    }

    /// Σ_{n∈I} φₙ(φₙᵀw − tₙ) + (|I|/N) λw at the current weights, entry j summed down
    /// column j of Φ (contiguous) with the residuals φₙᵀw − tₙ kept from the last loss.
    fn gradient(&self, samples: &[usize]) -> DVector<f64> {
        let w = self.weights();
        let n = self.t.len();
        let share = samples.len() as f64 / n as f64;
        let r = &self.residual;
        let whole = samples.len() == n;
        let entries = self.phi.as_slice().chunks_exact(n.max(1)).zip(w.iter()).map(|(column, &wj)| {
            let ridge = wj * (share * self.settings.ridge);
            if whole {
                // Batch GD: all points in their natural order.
                column.iter().zip(r).fold(ridge, |g, (&phi_nj, &r_n)| g + r_n * phi_nj)
            } else {
                samples.iter().fold(ridge, |g, &i| g + r[i] * column[i])
            }
        });
        DVector::from_iterator(w.len(), entries)
    }

    /// Whether an update to `candidate` with loss `loss` may be kept.
    fn acceptable(&self, loss: f64, candidate: &DVector<f64>) -> bool {
        loss.is_finite() && loss <= self.divergence_threshold && candidate.iter().all(|w| w.is_finite())
    }

    /// Moves past `used` points; at the end of the data, closes the epoch (and the run
    /// after the last epoch).
    fn move_past(&mut self, used: usize) {
        self.next += used;
        if self.next < self.order.len() {
            return;
        }
        self.next = 0;
        self.epoch += 1;
        if self.epoch == self.settings.epochs && self.termination.is_none() {
            self.termination = Some(Termination::Finished { iterations: self.path.len() });
        }
    }
}

impl Solver for GradientDescent {
    type Event = GradientEvent;

    /// Makes one update (one iteration) and says what it did: [`GradientEvent::Update`],
    /// or [`GradientEvent::Stopped`] when the update would diverge (refused, ending the
    /// run). Never fails: a refused update is an event.
    fn next_iter(&mut self) -> Result<GradientEvent> {
        if self.next == 0 {
            self.shuffle();
        }
        let samples = self.next_batch();
        let weights = self.weights();
        let candidate = weights - self.gradient(&samples) * self.settings.learning_rate;
        let residual = residual(&self.phi, &self.t, &candidate);
        let loss = objective(&residual, &candidate, self.settings.ridge);
        let iteration = self.iteration() + 1;
        if !self.acceptable(loss, &candidate) {
            let termination = Termination::Diverged { iteration };
            self.termination = Some(termination);
            return Ok(GradientEvent::Stopped { termination });
        }
        let step_norm = (&candidate - weights).norm();
        let epoch = self.epoch + 1;
        let tolerance = self.settings.tolerance;
        if tolerance > 0.0 && step_norm <= tolerance * candidate.norm() {
            self.termination = Some(Termination::Converged { iterations: iteration });
        }
        self.move_past(samples.len());
        self.path.push(candidate);
        self.losses.push(loss);
        self.residual = residual;
        Ok(GradientEvent::Update { iteration, epoch, samples, loss, step_norm })
    }

    fn status(&self) -> Status {
        self.termination.map_or(Status::Running, Status::Terminated)
    }

    fn iterations(&self) -> usize {
        self.iteration()
    }

    /// A step reads the N points about M + 2 times (the residual Φw − t, the loss over all
    /// N, the batch's gradient): one unit for the step and one more per
    /// [`VALUES_PER_UNIT`] of those values, so that a first slice takes about the same time
    /// at N = 200 as at N = 20 (natively 1.8 µs a step at N = 200, M = 2; 0.43 µs at N = 20).
    fn cost(&self) -> usize {
        let (n, m) = self.phi.shape();
        1 + n.saturating_mul(m + 2) / VALUES_PER_UNIT
    }
}

/// Values read per work unit of a step beyond its first ([`Solver::cost`]): the defaults
/// (N = 20, M ≤ 18) cost 1 a step, N = 200 with M = 2 costs 3.
const VALUES_PER_UNIT: usize = 400;

/// Φw − t, summed column by column (each a contiguous axpy) in one pass over a vector of N,
/// as a run evaluates it after each of up to [`MAX_ITERATIONS`] updates.
fn residual(phi: &DMatrix<f64>, t: &DVector<f64>, w: &DVector<f64>) -> Vec<f64> {
    let n = t.len();
    // Over the slice: collecting nalgebra's iterator grew the Vec piece by piece, half of
    // a stochastic step's time in wasm.
    let mut residual: Vec<f64> = t.as_slice().iter().map(|v| -v).collect();
    for (column, &wj) in phi.as_slice().chunks_exact(n.max(1)).zip(w.iter()) {
        for (r, &p) in residual.iter_mut().zip(column) {
            *r += wj * p;
        }
    }
    residual
}

/// E(w) = ½‖Φw − t‖² + λ/2‖w‖² (lecture notes on linear models, eq 14) from the residual
/// Φw − t.
fn objective(residual: &[f64], w: &DVector<f64>, ridge: f64) -> f64 {
    0.5 * residual.iter().map(|r| r * r).sum::<f64>() + 0.5 * ridge * w.norm_squared()
}

/// Checks the settings for a data set of `n` ≥ 1 points.
fn check_settings(settings: &GradientDescentSettings, n: usize) -> Result<()> {
    ensure_positive("α", settings.learning_rate)?;
    ensure_non_negative("λ", settings.ridge)?;
    ensure_non_negative("tolerance", settings.tolerance)?;
    if let Schedule::MiniBatch { batch } = settings.schedule {
        check_whole("batch size", batch, 1, n)?;
    }
    let limit = max_epochs(n, settings.schedule);
    if limit == 0 {
        let bound = Bound::AtMost { max: MAX_ITERATIONS as u64 };
        return Err(Error::OutOfRange { name: "N", value: n.to_string(), bound });
    }
    check_whole("epochs", settings.epochs, 1, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(schedule: Schedule, learning_rate: f64, epochs: usize) -> GradientDescentSettings {
        GradientDescentSettings { schedule, learning_rate, epochs, seed: 1, ridge: 0.0, tolerance: 0.0 }
    }

    /// Φ = [1; 1], t = (1, 3), w₀ = 0: E_D(w) = ½((w − 1)² + (w − 3)²).
    fn two_points(settings: GradientDescentSettings) -> Result<GradientDescent> {
        GradientDescent::new(DMatrix::from_element(2, 1, 1.0), vec![1.0, 3.0], DVector::zeros(1), settings)
    }

    #[test]
    fn lecture_table_of_iterations() {
        // The lecture notes on linear models' epoch / batch size / iteration table, N =
        // 100: batch size 100, 50, 10, 1 → 1, 2, 10, 100 iterations per epoch.
        let schedules = [Schedule::Batch, Schedule::MiniBatch { batch: 50 }, Schedule::MiniBatch { batch: 10 }];
        let counts: Vec<usize> = schedules.iter().map(|&s| iterations_per_epoch(100, s)).collect();
        assert_eq!(counts, [1, 2, 10]);
        assert_eq!(iterations_per_epoch(100, Schedule::Stochastic), 100);
        assert_eq!(iterations_per_epoch(10, Schedule::MiniBatch { batch: 3 }), 4);
        assert_eq!(iterations_per_epoch(0, Schedule::Batch), 0);
        assert_eq!(max_epochs(50, Schedule::Stochastic), 20_000);
        assert_eq!(max_epochs(2_000_000, Schedule::Stochastic), 0);
    }

    #[test]
    fn batch_steps_by_hand() {
        // ∇E_D(0) = Σ(0 − tₙ) = −4; α = 1/4 gives w₁ = 1, E_D(w₁) = ½(0 + 4) = 2, from E_D(0) = 5.
        let mut gd = two_points(settings(Schedule::Batch, 0.25, 2)).unwrap();
        let event = gd.step();
        let expected = GradientEvent::Update { iteration: 1, epoch: 1, samples: vec![0, 1], loss: 2.0, step_norm: 1.0 };
        assert_eq!(event, Ok(expected));
        assert_eq!(gd.losses(), [5.0, 2.0]);
        // ∇E_D(1) = 0 + (−2) = −2, so w₂ = 1.5, the mean of t.
        gd.step().unwrap();
        assert_eq!(gd.weights()[0], 1.5);
        assert_eq!(gd.status(), Status::Terminated(Termination::Finished { iterations: 2 }));
        assert_eq!(gd.step(), Err(Error::RunOver { iterations: 2 }));
        assert_eq!((gd.iteration(), gd.epoch(), gd.path().len()), (2, 2, 3));
    }

    #[test]
    fn ridge_term_enters_the_gradient() {
        // λ = 2: ∇E(w) = (w − 1) + (w − 3) + 2w = 4w − 4; α = 1/4 jumps to the minimiser
        // w = 1 = (ΦᵀΦ + λI)⁻¹Φᵀt = 4/4, and stays there.
        let mut gd = two_points(GradientDescentSettings { ridge: 2.0, ..settings(Schedule::Batch, 0.25, 3) }).unwrap();
        gd.run().unwrap();
        assert!(gd.path().iter().skip(1).all(|w| w[0] == 1.0), "{:?}", gd.path());
        // E(1) = ½(0 + 4) + ½·2·1 = 3.
        assert_eq!(gd.losses()[3], 3.0);
    }

    #[test]
    fn settings_are_checked() {
        let code = |s| two_points(s).unwrap_err().to_string();
        assert_eq!(code(settings(Schedule::Batch, 0.0, 1)), "α must be > 0, but is 0");
        assert_eq!(
            code(settings(Schedule::Batch, 0.1, 0)),
            "epochs must be a whole number from 1 to 1000000, but is 0"
        );
        assert_eq!(
            code(settings(Schedule::Stochastic, 0.1, 500_001)),
            "epochs must be a whole number from 1 to 500000, but is 500001"
        );
        assert_eq!(
            code(settings(Schedule::MiniBatch { batch: 3 }, 0.1, 1)),
            "batch size must be a whole number from 1 to 2, but is 3"
        );
        assert_eq!(
            code(GradientDescentSettings { ridge: -1.0, ..settings(Schedule::Batch, 0.1, 1) }),
            "λ must be ≥ 0, but is -1"
        );
        assert_eq!(code(settings(Schedule::Batch, f64::INFINITY, 1)), "α must be a finite number, but is inf");
        let wrong = GradientDescent::new(
            DMatrix::zeros(2, 1),
            vec![1.0, 3.0],
            DVector::zeros(2),
            settings(Schedule::Batch, 0.1, 1),
        );
        assert_eq!(wrong.unwrap_err().code(), "dimension-mismatch");
        let overflow = GradientDescent::new(
            DMatrix::from_element(1, 1, 1e300),
            vec![0.0],
            DVector::from_element(1, 1e300),
            settings(Schedule::Batch, 0.1, 1),
        );
        assert_eq!(overflow.unwrap_err().code(), "overflow");
    }
}
