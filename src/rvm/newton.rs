//! Newton's method for the mode of a log posterior, a piece at a time: the search both RVM
//! classifiers make for their Laplace approximation (PRML §4.4, §7.2.3: iteratively
//! reweighted least squares, 7.109–7.111 for two classes, 4.109–4.110 with 7.120–7.122 for
//! K).
//!
//! Each Newton step
//!
//! ```text
//! w ← w + λ H⁻¹g,   g = ∇Ψ(w),   H = −∇∇Ψ(w)
//! ```
//!
//! is made of pieces: one pass for g (and what H needs), H in a few pieces
//! ([`Posterior::hessian_piece`]), its Cholesky factor a column at a time
//! ([`CholeskyInSlices`]), then the solve and λ = 1, ½, ¼, … halved while Ψ would fall (a
//! tie is accepted; a step whose predicted rise ½gᵀH⁻¹g is below 10⁻¹²(1 + |Ψ|) is taken
//! whole, since Ψ's rounding could not judge it). The search stops when ‖g‖ ≤
//! [`IRLS_TOLERANCE`] times the size of g's terms, i.e. when they cancel to that relative
//! accuracy.
//!
//! Forming and factorising H is almost all the work (P³/6 multiply-adds for P weights, a
//! pass P·N·K), so after a Newton step the search keeps that factor and takes *chord* steps
//! w ← w + λ H₀⁻¹g with it (the simplified Newton method; Dennis & Schnabel 1996, §5.4) while
//! each one at least halves ‖g‖ ([`CHORD_CONTRACTION`]); when one does not, H is formed and
//! factorised afresh where the search stands. H₀ is positive definite, so a chord step rises
//! like a Newton step, and the stopping test is the same; only at the mode is H factorised
//! once more, for the Laplace approximation. A search from a nearby start (every classic
//! sweep after the first) then takes two factorisations instead of one per Newton step.
//!
//! A page gives the search a few milliseconds at a time ([`NewtonSearch::step_within`]);
//! run to its end it is the models' `irls`. The classic sweeps around it (Σ's diagonal, α
//! re-estimated, the new mode) go in pieces the same way ([`sweep_within`]).

use nalgebra::{DMatrix, DVector};

use super::Sweep;
use crate::error::{Error, Result};
use crate::linalg::{CholeskyFactor, CholeskyInSlices, InverseDiagonalInSlices, MULTIPLY_ADDS_PER_UNIT};
use crate::solver::{Budget, Solver};

/// The search stops once ‖∇Ψ‖ is below this fraction of the size of its terms (for two
/// classes ‖ |Φ|ᵀ|t − y| + |Aw| ‖, PRML 7.110).
pub const IRLS_TOLERANCE: f64 = 1e-10;

/// Most Newton steps of a search; with the step-halving safeguard Newton's method
/// converges in far fewer on any strictly concave log posterior (α > 0).
pub const IRLS_MAX_ITERATIONS: usize = 200;

/// Newton steps whose predicted rise ½gᵀH⁻¹g in Ψ is below this fraction of 1 + |Ψ|
/// are taken whole, without the halving test: Ψ's rounding (≈ N·ε·|Ψ|) would decide it.
const SETTLED: f64 = 1e-12;

/// Most halvings of one Newton step (2⁻⁶⁰ ≈ 10⁻¹⁸: below that the step changes nothing).
const MAX_HALVINGS: usize = 60;

/// A chord step is taken while ‖g‖ falls at least by this factor a step; after a step that
/// does not, H is factorised afresh.
pub const CHORD_CONTRACTION: f64 = 0.5;

/// Chord steps are taken when a factorisation costs at least this many passes.
const CHORD_PAYS: usize = 16;

/// Most chord steps with one factor: 60 halvings of ‖g‖ are past any rounding.
const MAX_CHORD_STEPS: usize = 60;

/// A strictly concave log posterior Ψ over a vector of weights, with what Newton's method
/// needs of it.
pub trait Posterior {
    /// What the pass at the weights leaves for the Hessian and for the mode (e.g. the
    /// logits and the probabilities).
    type At;
    /// The formula of H, named when H is not positive definite.
    const HESSIAN: &'static str;

    /// Ψ at the weights `v`.
    fn log_posterior(&self, v: &DVector<f64>) -> f64;

    /// The pass at `v`: what H needs, the gradient g = ∇Ψ, and the size of g's terms
    /// (entry by entry, the scale of the convergence test).
    fn at(&self, v: &DVector<f64>) -> (Self::At, DVector<f64>, DVector<f64>);

    /// Multiply-adds of that pass, for the [`Budget`].
    fn pass_cost(&self) -> usize;

    /// In how many pieces H is formed.
    fn hessian_pieces(&self) -> usize;

    /// Writes piece `piece` of −∇∇Ψ without the prior's diagonal into `h` (P × P, zero
    /// at first; its lower triangle at least, which is all the factorisation reads); returns
    /// its multiply-adds.
    fn hessian_piece(&self, at: &Self::At, piece: usize, h: &mut DMatrix<f64>) -> usize;

    /// Adds the prior's diagonal A to `h`.
    fn add_prior(&self, h: &mut DMatrix<f64>);
}

/// The mode a [`NewtonSearch`] found.
#[derive(Debug, Clone)]
pub struct Found<A> {
    /// The weights at the mode.
    pub v: DVector<f64>,
    /// Ψ there.
    pub log_posterior: f64,
    /// The pass there.
    pub at: A,
    /// The Cholesky factor of H there: Σ = H⁻¹ is the Laplace covariance.
    pub factor: CholeskyFactor,
    /// Newton steps taken.
    pub iterations: usize,
}

/// The search for the mode of a [`Posterior`], one piece at a time.
#[derive(Debug, Clone)]
pub struct NewtonSearch<P: Posterior> {
    posterior: P,
    /// The weights now, and Ψ there.
    v: DVector<f64>,
    psi: f64,
    /// Newton steps taken (each with H formed and factorised where it starts).
    iterations: usize,
    phase: Phase<P::At>,
    /// The factor of H at an earlier point of the search, for chord steps, with ‖g‖ where
    /// the last step was taken from, and the chord steps taken with it.
    chord: Option<(CholeskyFactor, f64, usize)>,
}

/// Where a [`NewtonSearch`] is in its Newton step.
#[derive(Debug, Clone)]
enum Phase<A> {
    /// Next: the pass at the weights.
    Pass,
    /// Forming H; `piece` is the next.
    Hessian { at: A, g: DVector<f64>, size: DVector<f64>, h: DMatrix<f64>, piece: usize },
    /// Factorising H.
    Factor { at: A, g: DVector<f64>, size: DVector<f64>, factor: CholeskyInSlices },
}

impl<P: Posterior> NewtonSearch<P> {
    /// The search from the weights `start` (checked by the caller: finite, of the right
    /// length).
    pub fn new(posterior: P, start: DVector<f64>) -> Self {
        let psi = posterior.log_posterior(&start);
        Self { posterior, v: start, psi, iterations: 0, phase: Phase::Pass, chord: None }
    }

    /// The log posterior searched.
    pub fn posterior(&self) -> &P {
        &self.posterior
    }

    /// Newton steps taken so far, and the columns of this step's factorisation done and in
    /// all (for a progress bar).
    pub fn progress(&self) -> (usize, (usize, usize)) {
        let columns = match &self.phase {
            Phase::Factor { factor, .. } => factor.progress(),
            _ => (0, self.v.len()),
        };
        (self.iterations, columns)
    }

    /// Works on the search within `budget` (at least one piece); the mode once found.
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] if H is numerically singular; [`Error::NotConverged`]
    /// after [`IRLS_MAX_ITERATIONS`] steps or when no halving of a step keeps Ψ from
    /// falling. The search is then over.
    pub fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Found<P::At>>> {
        let mut first = true;
        while first || budget.allows() {
            first = false;
            match std::mem::replace(&mut self.phase, Phase::Pass) {
                Phase::Pass => {
                    let (at, g, size) = self.posterior.at(&self.v);
                    budget.spend(self.posterior.pass_cost() / MULTIPLY_ADDS_PER_UNIT + 1);
                    if !self.chord_step(&g) {
                        let p = self.v.len();
                        self.phase = Phase::Hessian { at, g, size, h: DMatrix::zeros(p, p), piece: 0 };
                    }
                }
                Phase::Hessian { at, g, size, mut h, piece } => {
                    let work = self.posterior.hessian_piece(&at, piece, &mut h);
                    budget.spend(work / MULTIPLY_ADDS_PER_UNIT + 1);
                    self.phase = if piece + 1 < self.posterior.hessian_pieces() {
                        Phase::Hessian { at, g, size, h, piece: piece + 1 }
                    } else {
                        self.posterior.add_prior(&mut h);
                        Phase::Factor { at, g, size, factor: CholeskyInSlices::new(h, P::HESSIAN)? }
                    };
                }
                Phase::Factor { at, g, size, mut factor } => match factor.step_within(budget)? {
                    None => self.phase = Phase::Factor { at, g, size, factor },
                    Some(factor) => {
                        if let Some(found) = self.newton_step(at, &g, &size, factor)? {
                            return Ok(Some(found));
                        }
                    }
                },
            }
        }
        Ok(None)
    }

    /// With H factorised at the weights: the mode if the gradient is small enough, else the
    /// Newton step, halved while Ψ would fall, taken; the factor is kept for chord steps.
    fn newton_step(
        &mut self,
        at: P::At,
        g: &DVector<f64>,
        size: &DVector<f64>,
        factor: CholeskyFactor,
    ) -> Result<Option<Found<P::At>>> {
        if g.norm() <= IRLS_TOLERANCE * size.norm() {
            let v = std::mem::replace(&mut self.v, DVector::zeros(0));
            let found = Found { v, log_posterior: self.psi, at, factor, iterations: self.iterations };
            return Ok(Some(found));
        }
        if self.iterations == IRLS_MAX_ITERATIONS {
            return Err(Error::NotConverged { algorithm: "IRLS", iterations: IRLS_MAX_ITERATIONS });
        }
        if !self.step_along(&factor.solve(g), g) {
            return Err(Error::NotConverged { algorithm: "IRLS", iterations: self.iterations });
        }
        self.iterations += 1;
        if self.chord_pays(factor.dim()) {
            self.chord = Some((factor, g.norm(), 0));
        }
        Ok(None)
    }

    /// Whether chord steps pay for P weights: when a factorisation (P³/6 multiply-adds, and
    /// as many again to form H) costs [`CHORD_PAYS`] passes or more. Otherwise (a few
    /// weights: the fast classifier's every step, late sweeps) the passes are the work, and
    /// Newton's method needs fewer of them.
    fn chord_pays(&self, p: usize) -> bool {
        p * p * p / 3 >= CHORD_PAYS * self.posterior.pass_cost()
    }

    /// A chord step with the kept factor, if there is one and the last step at least halved
    /// ‖g‖ ([`CHORD_CONTRACTION`]); `false` (the factor dropped) when H is to be factorised
    /// where the search stands. The steps go on past the stopping test while they halve ‖g‖,
    /// down to Ψ's rounding, as a last Newton step would (its error is squared).
    fn chord_step(&mut self, g: &DVector<f64>) -> bool {
        let Some((factor, last, steps)) = self.chord.take() else { return false };
        let norm = g.norm();
        if norm == 0.0 || norm > CHORD_CONTRACTION * last || steps == MAX_CHORD_STEPS {
            return false;
        }
        // A chord step that cannot rise (rounding) gives way to a Newton step.
        if !self.step_along(&factor.solve(g), g) {
            return false;
        }
        self.chord = Some((factor, norm, steps + 1));
        true
    }

    /// Takes the step `step` (H⁻¹g for a positive-definite H), halved while Ψ would fall;
    /// `false` if no halving keeps Ψ from falling.
    fn step_along(&mut self, step: &DVector<f64>, g: &DVector<f64>) -> bool {
        // The rise the quadratic model predicts, ½gᵀH⁻¹g: once it is below rounding in Ψ,
        // Ψ cannot judge the step, and the full step is taken.
        let settled = 0.5 * g.dot(step) <= SETTLED * (1.0 + self.psi.abs());
        let mut lambda = 1.0;
        for _ in 0..MAX_HALVINGS {
            let trial = &self.v + step * lambda;
            let trial_psi = self.posterior.log_posterior(&trial);
            if trial_psi >= self.psi || settled {
                (self.v, self.psi) = (trial, trial_psi);
                return true;
            }
            lambda *= 0.5;
        }
        false
    }

    /// The search run to its end.
    ///
    /// # Errors
    /// As [`NewtonSearch::step_within`].
    pub fn run(mut self) -> Result<Found<P::At>> {
        loop {
            if let Some(found) = self.step_within(&mut Budget::unlimited())? {
                return Ok(found);
            }
        }
    }
}

/// A classic sweep under way (both classifiers, PRML 7.116): Σ's diagonal at the current
/// mode first, then `P`, the re-estimated α with the search for the mode there.
#[derive(Debug, Clone)]
pub enum SweepUnderWay<P> {
    /// Σ's diagonal at the current mode, for γᵢ = 1 − αᵢΣᵢᵢ.
    Covariance(InverseDiagonalInSlices),
    /// The re-estimate and its mode search.
    Mode(Box<P>),
}

/// A classic RVM classifier whose sweeps [`sweep_within`] makes a piece at a time: each
/// re-estimates α from Σ's diagonal at the mode, then finds the mode at the new α.
pub trait SweptInPieces: Solver<Event = Sweep> {
    /// The re-estimated α, what the sweep keeps, and the search for the new mode.
    type Proposal;
    /// The mode that search finds.
    type Mode;

    /// The Cholesky factor of H at the current mode.
    fn factor(&self) -> &CholeskyFactor;

    /// The sweep under way, if any.
    fn under_way(&mut self) -> &mut Option<SweepUnderWay<Self::Proposal>>;

    /// From Σ's diagonal at the current mode: the re-estimate and its search.
    ///
    /// # Errors
    /// What the search refuses to start on.
    fn propose(&self, sigma: &DVector<f64>) -> Result<Self::Proposal>;

    /// Works on the proposal's search within `budget`; its mode once found.
    ///
    /// # Errors
    /// What the search meets.
    fn search(proposal: &mut Self::Proposal, budget: &mut Budget) -> Result<Option<Self::Mode>>;

    /// Takes the proposal and its mode as the new state: the sweep done.
    fn commit(&mut self, proposal: Self::Proposal, mode: Self::Mode) -> Sweep;
}

/// The sweep of `model` within `budget` (at least one piece), for its
/// [`Solver::step_within`]: the sweep once it is complete, the part done kept meanwhile.
///
/// # Errors
/// [`Error::RunOver`] after the end; what the sweep meets, the model then as before the
/// sweep.
pub fn sweep_within<M: SweptInPieces>(model: &mut M, budget: &mut Budget) -> Result<Option<Sweep>> {
    if !model.status().is_running() {
        return Err(Error::RunOver { iterations: model.iterations() });
    }
    let result = sweep_pieces(model, budget);
    if result.is_err() {
        *model.under_way() = None;
    }
    result
}

/// The sweep of `model` at once, for its [`Solver::next_iter`].
///
/// # Errors
/// As [`sweep_within`].
pub fn whole_sweep<M: SweptInPieces>(model: &mut M) -> Result<Sweep> {
    loop {
        if let Some(sweep) = sweep_within(model, &mut Budget::unlimited())? {
            return Ok(sweep);
        }
    }
}

fn sweep_pieces<M: SweptInPieces>(model: &mut M, budget: &mut Budget) -> Result<Option<Sweep>> {
    let mut first = true;
    while first || budget.allows() {
        first = false;
        let next = match model.under_way().take() {
            None => SweepUnderWay::Covariance(InverseDiagonalInSlices::new(model.factor())),
            Some(SweepUnderWay::Covariance(mut sigma)) => match sigma.step_within(model.factor(), budget) {
                None => SweepUnderWay::Covariance(sigma),
                Some(sigma) => SweepUnderWay::Mode(Box::new(model.propose(&sigma)?)),
            },
            Some(SweepUnderWay::Mode(mut proposal)) => match M::search(&mut proposal, budget)? {
                None => SweepUnderWay::Mode(proposal),
                Some(mode) => return Ok(Some(model.commit(*proposal, mode))),
            },
        };
        *model.under_way() = Some(next);
    }
    Ok(None)
}
