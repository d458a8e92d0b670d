//! The fast RVM for binary classification (Tipping & Faul 2003, §5; PRML 7.117–7.119),
//! and for counts (a Poisson likelihood, the same linearisation with bₙ = yₙ).
//!
//! At the mode w* of the current model the Laplace approximation turns the classifier into
//! a regression problem with targets and noise
//!
//! ```text
//! t̂ = Φw* + B⁻¹(t − y),  C = B⁻¹ + ΦA⁻¹Φᵀ,  B = diag bₙ   (PRML 7.117–7.119)
//! ```
//!
//! with bₙ = yₙ(1 − yₙ) for classes and bₙ = yₙ for counts ([`Likelihood::weight`]).
//!
//! (PRML's 7.119 prints C = B + ΦAΦᵀ, a misprint: B and A are precisions.) Its sparsity and
//! quality are those of the regression model with βI replaced by B:
//!
//! ```text
//! Sₘ = φₘᵀBφₘ − φₘᵀBΦ_𝒜ΣΦ_𝒜ᵀBφₘ,  Qₘ = φₘᵀB(t̂ − Φ_𝒜w*) = φₘᵀ(t − y)
//! ```
//!
//! with Σ = H⁻¹ = (Φ_𝒜ᵀBΦ_𝒜 + A)⁻¹ (7.113); the second form of Qₘ holds because at the
//! mode Φ_𝒜ᵀ(t − y) = Aw* (7.110), so the Gaussian model's posterior mean ΣΦ_𝒜ᵀBt̂ is w*.
//! The choice of a step is then exactly the regression one ([`ActiveSet::choose`]); after
//! the step the mode, B and these statistics are found afresh by [`irls`] from the old
//! weights, so no rank-one update applies, and the marginal likelihood reported is the
//! Laplace one (7.114) at the new mode.

use std::sync::Arc;

use nalgebra::{DMatrix, DVector};

use super::{GlmFit, Likelihood, Mode, ModeSearch, irls_with};
use crate::error::{Error, Result};
use crate::linalg::{CholeskyFactor, MULTIPLY_ADDS_PER_UNIT, dot, dots};
use crate::rvm::active_set::{ActiveSet, Candidate, FIRST_ALPHA_PER_SPARSITY};
use crate::rvm::event::{Action, Event};
use crate::rvm::{FastSettings, Problem};
use crate::solver::{Budget, Solver, Status};

/// The fast RVM classifier, one step at a time. Each step is an [`Event`] whose `log_ml`
/// is the Laplace L (PRML 7.114) after the step and whose `beta` is `None`.
///
/// Of [`FastSettings`] it uses `selection`, `alignment_test`, `seed` and `max_steps`; a
/// Bernoulli likelihood has no noise, so `estimate_noise` and `beta` do not apply (nor to
/// a Poisson one).
#[derive(Debug, Clone)]
pub struct FastRvmClassifier {
    likelihood: Likelihood,
    problem: Arc<Problem>,
    settings: FastSettings,
    /// The active basis functions, their αᵢ and Gram columns, Sₘ and Qₘ, the refusals.
    set: ActiveSet,
    /// The mode of the current model, weights in model order.
    mode: Mode,
    events: Vec<Event>,
    converged: bool,
    /// The step under way, when [`Solver::step_within`] left one unfinished.
    under_way: Option<Box<StepUnderWay>>,
}

impl FastRvmClassifier {
    /// The model after initialisation, by the rule of every later step applied to the
    /// empty model, whose linearisation (at a = 0) has y = ½ and B = ¼I: its
    /// Sₘ = ‖φₘ‖²/4 and Qₘ = φₘᵀ(t − ½). The first basis function is the one with the
    /// largest |Qₘ|/√Sₘ, i.e. the best aligned with t − ½, and it enters with
    /// αᵢ = sᵢ²/(qᵢ² − sᵢ) (PRML 7.101; 1000 sᵢ if qᵢ² ≤ sᵢ); then its mode. Step 0 is that
    /// [`Action::Add`], its ΔL measured from the empty model's L = N ln ½.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a label other than 0 or 1; [`Error::NoData`] if every
    /// column of Φ is zero; as [`super::irls`].
    pub fn new(problem: Arc<Problem>, settings: FastSettings) -> Result<Self> {
        Self::with_likelihood(Likelihood::Bernoulli, problem, settings)
    }

    /// [`FastRvmClassifier::new`] for targets of any [`Likelihood`]: the empty model's
    /// linearisation at a = 0 has the mean y₀ (½, or a rate of 1 for counts) and
    /// B = b(y₀)I, so Sₘ = b(y₀)‖φₘ‖², Qₘ = φₘᵀ(t − y₀), and its L = Σₙ ln p(tₙ|0).
    ///
    /// # Errors
    /// As [`FastRvmClassifier::new`], the targets checked by the likelihood.
    pub fn with_likelihood(likelihood: Likelihood, problem: Arc<Problem>, settings: FastSettings) -> Result<Self> {
        let t = problem.targets();
        likelihood.check_targets(t)?;
        let y0 = likelihood.mean(0.0);
        let q_empty = problem.design().tr_mul(&t.add_scalar(-y0));
        let norms = &problem.norms_sq;
        let first = (0..problem.m())
            .filter(|&m| norms[m] > 0.0)
            .max_by(|&a, &b| (q_empty[a].abs() / norms[a].sqrt()).total_cmp(&(q_empty[b].abs() / norms[b].sqrt())))
            .ok_or(Error::NoData)?;
        let (s, q) = (likelihood.weight(y0) * norms[first], q_empty[first]);
        let alpha = if q * q > s { s * s / (q * q - s) } else { FIRST_ALPHA_PER_SPARSITY * s };
        let empty_log_ml: f64 = t.iter().map(|&t| likelihood.log_density(0.0, t)).sum();
        let set = ActiveSet::new(problem.m(), first, alpha, problem.gram_column(first), settings.seed);
        let mode = irls_with(likelihood, &problem.columns(&set.active), t, &set.alpha, &DVector::zeros(1))?;
        let mut statistics = Statistics::new(&problem, likelihood, &set.active, &mode.y);
        statistics.advance(problem.design(), &mut Budget::unlimited());
        let mut rvm =
            Self { likelihood, problem, settings, set, mode, events: vec![], converged: false, under_way: None };
        statistics.finish(&mut rvm.set, &rvm.mode.factor);
        let log_ml = rvm.log_ml();
        rvm.events.push(Event {
            step: 0,
            action: Action::Add,
            basis: Some(first),
            s: Some(s),
            q: Some(q),
            theta: Some(q * q - s),
            alpha_old: None,
            alpha_new: Some(alpha),
            delta_l: log_ml - empty_log_ml,
            log_ml,
            active: 1,
            beta: None,
            refused: vec![],
        });
        Ok(rvm)
    }

    /// The problem being solved (targets are the labels, or the counts).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Every event so far, the initialisation first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Active basis functions in model order.
    pub fn active(&self) -> &[usize] {
        &self.set.active
    }

    /// Their αᵢ, in model order.
    pub fn alpha(&self) -> &[f64] {
        &self.set.alpha
    }

    /// The mode of the current model: w* in model order, y, the factor of H.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The Laplace L ≈ ln p(t|α) of the current model (PRML 7.114).
    pub fn log_ml(&self) -> f64 {
        self.mode.laplace_log_ml(&self.set.alpha)
    }

    /// The sparsity sₘ and quality qₘ of column m (PRML 7.104–7.105 with B for βI).
    pub fn sparsity_quality(&self, m: usize) -> (f64, f64) {
        self.set.sparsity_quality(m)
    }

    /// Columns refused by the alignment test and not reinstated since.
    pub fn refused(&self) -> impl Iterator<Item = usize> + '_ {
        self.set.refused()
    }

    /// The likelihood of the targets.
    pub fn likelihood(&self) -> Likelihood {
        self.likelihood
    }

    /// The fit as it stands.
    pub fn fit(&self) -> GlmFit {
        GlmFit::new(
            self.likelihood,
            (&self.set.active, &self.set.alpha),
            &self.mode,
            self.problem.targets(),
            self.events.len() - 1,
            self.converged,
        )
    }

    /// The next step within `budget` ([`Solver::step_within`]): choose the candidate and act
    /// on it in a copy of the active set, then the new mode's search a Newton piece at a time,
    /// then the statistics at the new mode a block of columns at a time; the model changes
    /// only when the step is complete.
    ///
    /// # Errors
    /// As [`super::irls`] for the new mode; the model is then as before the step.
    fn advance_within(&mut self, budget: &mut Budget) -> Result<Option<Event>> {
        let mut under_way = match self.under_way.take() {
            Some(under_way) => under_way,
            None => match self.begin_step()? {
                Ok(under_way) => Box::new(under_way),
                Err(converged) => return Ok(Some(converged)),
            },
        };
        loop {
            if under_way.found.is_none() {
                if let Some(mode) = under_way.search.step_within(budget)? {
                    let statistics = Statistics::new(&self.problem, self.likelihood, &under_way.set.active, &mode.y);
                    under_way.found = Some(Box::new((statistics, mode)));
                }
            } else if let Some(found) = under_way.found.take_if(|found| found.0.advance(self.problem.design(), budget))
            {
                let (statistics, mode) = *found;
                return Ok(Some(self.finish_step(*under_way, mode, statistics)));
            }
            if !budget.allows() {
                self.under_way = Some(under_way);
                return Ok(None);
            }
        }
    }

    /// Chooses the step's candidate and starts the search for the mode after its action, or
    /// (`Err`) the event of convergence when no basis function is worth a step.
    ///
    /// # Errors
    /// As [`ModeSearch::new`].
    fn begin_step(&mut self) -> Result<std::result::Result<StepUnderWay, Event>> {
        let step = self.events.len();
        let mut refused = vec![];
        let (selection, alignment_test) = (self.settings.selection, self.settings.alignment_test);
        let Some(candidate) = self.set.choose(selection, alignment_test, &self.problem.norms_sq, &mut refused) else {
            self.converged = true;
            let log_ml = self.log_ml();
            let event =
                Event::without_basis(step, Action::Converged, (log_ml, log_ml), (self.set.active.len(), None), refused);
            self.events.push(event.clone());
            return Ok(Err(event));
        };
        let i = candidate.basis;
        let mut set = self.set.clone();
        let alpha_old = set.slot(i).map(|j| set.alpha[j]);
        let mut start = self.mode.w.clone();
        match (set.slot(i), candidate.alpha_new) {
            (None, Some(alpha)) => {
                set.push(i, alpha, self.problem.gram_column(i));
                start = start.push(0.0);
            }
            (Some(j), Some(alpha)) => set.alpha[j] = alpha,
            (Some(_), None) => {
                if let Some(j) = set.remove(i) {
                    start = start.remove_row(j);
                }
            }
            (None, None) => {}
        }
        let design = self.problem.columns(&set.active);
        let search =
            ModeSearch::new(self.likelihood, design, self.problem.targets().clone(), set.alpha.clone(), start)?;
        let log_ml_before = self.log_ml();
        let search = Box::new(search);
        Ok(Ok(StepUnderWay { candidate, refused, alpha_old, log_ml_before, set, search, found: None }))
    }

    /// Takes the step's new mode and statistics into the model and records its event.
    fn finish_step(&mut self, under_way: StepUnderWay, mode: Mode, statistics: Statistics) -> Event {
        let StepUnderWay { candidate, refused, alpha_old, log_ml_before, mut set, .. } = under_way;
        statistics.finish(&mut set, &mode.factor);
        self.set = set;
        self.mode = mode;
        let log_ml = self.log_ml();
        let event = Event {
            step: self.events.len(),
            action: candidate.action,
            basis: Some(candidate.basis),
            s: Some(candidate.s),
            q: Some(candidate.q),
            theta: Some(candidate.q * candidate.q - candidate.s),
            alpha_old,
            alpha_new: candidate.alpha_new,
            delta_l: log_ml - log_ml_before,
            log_ml,
            active: self.set.active.len(),
            beta: None,
            refused,
        };
        self.events.push(event.clone());
        event
    }
}

/// A step of [`FastRvmClassifier`] under way ([`Solver::step_within`]).
#[derive(Debug, Clone)]
struct StepUnderWay {
    candidate: Candidate,
    refused: Vec<usize>,
    /// αᵢ of the basis function acted on before the step, if it was active.
    alpha_old: Option<f64>,
    /// L before the step.
    log_ml_before: f64,
    /// The active set after the action; its Sₘ and Qₘ are filled in at the step's end.
    set: ActiveSet,
    /// Newton's search for the mode of the new model.
    search: Box<ModeSearch>,
    /// Once the search has found it: the statistics at the mode, column by column, and
    /// the mode.
    found: Option<Box<(Statistics, Mode)>>,
}

/// Sₘ and Qₘ of every column at a mode (PRML 7.117–7.119, see the module documentation),
/// a block of columns at a time: with bₙ ([`Likelihood::weight`]), H = LLᵀ and
/// gₘ = Φ_𝒜ᵀBφₘ, Sₘ = Σₙ bₙφₙₘ² − ‖L⁻¹gₘ‖² and Qₘ = φₘᵀ(t − y); N·M·(M_𝒜 + 1) multiply-adds
/// in one pass over Φ, then the whitening.
#[derive(Debug, Clone)]
struct Statistics {
    /// bₙ at the mode.
    b: Vec<f64>,
    /// Bφₐ of each active a, then t − y.
    vectors: Vec<Vec<f64>>,
    /// Row j: vector j against each column done so far (as the whitening reads them).
    rows: Vec<Vec<f64>>,
    /// Σₙ bₙφₙₘ² of each column done so far.
    b_norms: Vec<f64>,
    /// φₙₘ² of the column under way.
    squares: Vec<f64>,
    /// The next column.
    next: usize,
    /// Multiply-adds done and not yet spent from a budget (less than a unit).
    unspent: usize,
}

impl Statistics {
    /// Before the first column, at the mean `y` of the mode of the model with columns `active`.
    fn new(problem: &Problem, likelihood: Likelihood, active: &[usize], y: &DVector<f64>) -> Self {
        let phi = problem.design();
        let b: Vec<f64> = y.iter().map(|&y| likelihood.weight(y)).collect();
        let residual: Vec<f64> = problem.targets().iter().zip(y.iter()).map(|(t, y)| t - y).collect();
        // Φ_𝒜ᵀBΦ (M_𝒜 × M) from Bφₐ of each active a and the columns of Φ, whitened by L⁻¹.
        // With t − y as one more vector: one pass over Φ for Φ_𝒜ᵀBΦ and Φᵀ(t − y).
        let vectors: Vec<Vec<f64>> = active
            .iter()
            .map(|&a| phi.column(a).iter().zip(&b).map(|(p, b)| p * b).collect())
            .chain([residual])
            .collect();
        let rows = vec![vec![0.0; problem.m()]; vectors.len()];
        let (b_norms, squares) = (Vec::with_capacity(problem.m()), vec![0.0; problem.n()]);
        Self { b, vectors, rows, b_norms, squares, next: 0, unspent: 0 }
    }

    /// Columns of `phi` within `budget` (at least one); `true` once every column is done.
    fn advance(&mut self, phi: &DMatrix<f64>, budget: &mut Budget) -> bool {
        let n = phi.nrows();
        let vectors: Vec<&[f64]> = self.vectors.iter().map(Vec::as_slice).collect();
        let mut out = vec![0.0; vectors.len()];
        let mut first = true;
        while self.next < phi.ncols() && (first || budget.allows()) {
            first = false;
            let column = &phi.as_slice()[self.next * n..(self.next + 1) * n];
            dots(column, &vectors, &mut out);
            for (row, &value) in self.rows.iter_mut().zip(&out) {
                row[self.next] = value;
            }
            for (square, &p) in self.squares.iter_mut().zip(column) {
                *square = p * p;
            }
            self.b_norms.push(dot(&self.squares, &self.b));
            self.next += 1;
            // Its inner products with the vectors and with φₘ²: the step's N·M·(M_𝒜 + 2)
            // of Solver::cost over the M columns.
            self.unspent += n * (vectors.len() + 1);
            budget.spend(self.unspent / MULTIPLY_ADDS_PER_UNIT);
            self.unspent %= MULTIPLY_ADDS_PER_UNIT;
        }
        self.next == phi.ncols()
    }

    /// Writes Qₘ and Sₘ into `set`, whitening by the factor of H.
    fn finish(mut self, set: &mut ActiveSet, factor: &CholeskyFactor) {
        let m = self.b_norms.len();
        set.big_q = DVector::from_vec(self.rows.pop().unwrap_or_default());
        let whitened = factor.whitened_norms_sq(m, |k| self.rows[k].as_slice());
        set.big_s = DVector::from_iterator(m, self.b_norms.iter().zip(whitened).map(|(s, g)| s - g));
    }
}

impl Solver for FastRvmClassifier {
    type Event = Event;

    /// One step: act on the basis function chosen as in the regression model, or converge
    /// when none is worth a step; then the new mode. Converged once no basis function is
    /// worth a step.
    ///
    /// # Errors
    /// As [`super::irls`] for the new mode; the model is then as before the step.
    fn next_iter(&mut self) -> Result<Event> {
        loop {
            if let Some(event) = self.advance_within(&mut Budget::unlimited())? {
                return Ok(event);
            }
        }
    }

    fn status(&self) -> Status {
        Status::of_budgeted(self.converged, self.iterations(), self.settings.max_steps)
    }

    fn iterations(&self) -> usize {
        self.events.len() - 1
    }

    /// A step finds the new mode and updates every candidate's sparsity and quality: the
    /// latter N·M·(M_𝒜 + 2) multiply-adds (Φ_𝒜ᵀBΦ, Σₙbₙφₙₘ² and Φᵀ(t − y)), most of it.
    fn cost(&self) -> usize {
        let (n, m) = (self.problem.n(), self.problem.m());
        n * m * (self.set.active.len() + 2) / MULTIPLY_ADDS_PER_UNIT + 1
    }

    /// The step of [`Solver::step`] a piece at a time (a Newton piece of the mode's search,
    /// a block of columns of the statistics), so that a slice of a frame stays short at
    /// N = 400: [`FastRvmClassifier::advance_within`].
    ///
    /// # Errors
    /// As [`Solver::step`]; the model is then as before the step.
    fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Event>> {
        self.advance_within(budget)
    }
}
