//! The choice of a fast step (Tipping & Faul 2003, §4 steps 4–6; PRML 7.97–7.107), shared
//! by the fast RVM for regression ([`super::fast`]) and for classification
//! ([`super::classification::fast`]).
//!
//! Both keep, for every basis function m, the statistics Sₘ = φₘᵀC⁻¹φₘ and Qₘ = φₘᵀC⁻¹t̂
//! of a Gaussian model C = B⁻¹ + Φ_𝒜A⁻¹Φ_𝒜ᵀ (B = βI and t̂ = t for regression; for
//! classification B = diag yₙ(1 − yₙ) and t̂ = Φw* + B⁻¹(t − y), PRML 7.117–7.119).
//! From them follow sₘ, qₘ (PRML 7.104–7.105) and for each basis function the one action
//! that maximises the marginal likelihood in its αₘ alone (PRML 7.101): that is all the
//! choice needs, so it does not know which likelihood it serves.

use nalgebra::DVector;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use super::event::Action;
use crate::error::{Error, Result};

/// A candidate is refused when |cos| of its angle to an active basis function exceeds this
/// (Tipping's reference implementation: `AlignmentMax = 1 − 10⁻³`).
pub const ALIGNMENT_MAX_COSINE: f64 = 1.0 - 1e-3;
/// Re-estimations changing ln αᵢ by less than this are not worth a step, and convergence
/// needs every |Δ ln αᵢ| below it (reference: `MinDeltaLogAlpha`).
pub const MIN_DELTA_LN_ALPHA: f64 = 1e-3;
/// A first basis function with θ = q² − s ≤ 0 (one that would not be added) starts at
/// α = this·s: its prior variance 1/α a thousandth of its likelihood's 1/s, nearly pruned,
/// so the first steps may delete it. s = β‖φ‖² (times the likelihood's weight) carries the
/// units of the targets and of the column, so the start is the same in any units; the
/// reference's absolute α = 1000 is this for a unit-length column at β = 1, and an α that
/// ignored β took targets in other units for other data.
pub const FIRST_ALPHA_PER_SPARSITY: f64 = 1000.0;

/// How the basis function of the next step is chosen among those worth acting on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// The one whose action raises L most, deletions first (the reference's default).
    Greedy,
    /// The next one in column order after the last one chosen.
    Cyclic,
    /// One drawn uniformly, from a seeded generator.
    Random,
}

impl Selection {
    /// Names, as in the command line and the URL.
    pub const NAMES: [&'static str; 3] = ["greedy", "cyclic", "random"];

    /// The selection called `name`.
    ///
    /// # Errors
    /// [`Error::UnknownChoice`] for a name not in [`Selection::NAMES`].
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "greedy" => Ok(Selection::Greedy),
            "cyclic" => Ok(Selection::Cyclic),
            "random" => Ok(Selection::Random),
            _ => Err(Error::UnknownChoice { name: "selection", value: name.into(), options: Self::NAMES.join(", ") }),
        }
    }

    /// The name of the selection.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// What one step would do to basis function `basis`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Candidate {
    pub basis: usize,
    pub action: Action,
    pub s: f64,
    pub q: f64,
    /// αᵢ after the action (`None`: deleted).
    pub alpha_new: Option<f64>,
    /// The change of L it makes, by Tipping & Faul's eq 27–29.
    pub delta_l: f64,
}

/// The active basis functions with their αᵢ and Gram columns, Sₘ and Qₘ for every column,
/// the alignment test's refusals, and the state of the selection rule.
#[derive(Debug, Clone)]
pub(crate) struct ActiveSet {
    /// Active basis functions (columns of Φ) in model order.
    pub active: Vec<usize>,
    /// αᵢ of the active ones, in model order.
    pub alpha: Vec<f64>,
    /// Φᵀφₖ for each active k, in model order (the M × M_𝒜 matrix Φᵀ Φ_𝒜 by columns).
    pub gram: Vec<DVector<f64>>,
    /// Sₘ for every column.
    pub big_s: DVector<f64>,
    /// Qₘ for every column.
    pub big_q: DVector<f64>,
    /// Position in `active` of each column, if active.
    slot: Vec<Option<usize>>,
    /// For each column refused by the alignment test, the active column it is parallel to.
    refused: Vec<Option<usize>>,
    /// Where [`Selection::Cyclic`] looks next.
    cursor: usize,
    rng: Pcg64,
}

impl ActiveSet {
    /// One active column `first` of M with precision `alpha` and Gram column Φᵀφ_first;
    /// S and Q zero until the owner computes them.
    pub fn new(m: usize, first: usize, alpha: f64, gram: DVector<f64>, seed: u64) -> Self {
        let mut slot = vec![None; m];
        slot[first] = Some(0);
        Self {
            active: vec![first],
            alpha: vec![alpha],
            gram: vec![gram],
            big_s: DVector::zeros(m),
            big_q: DVector::zeros(m),
            slot,
            refused: vec![None; m],
            cursor: 0,
            rng: Pcg64::seed_from_u64(seed),
        }
    }

    /// Number of columns M.
    pub fn m(&self) -> usize {
        self.slot.len()
    }

    /// Position of column i in model order, if it is active.
    pub fn slot(&self, i: usize) -> Option<usize> {
        self.slot[i]
    }

    /// The sparsity sₘ and quality qₘ of column m (PRML 7.104–7.105): sₘ = αₘSₘ/(αₘ − Sₘ),
    /// qₘ = αₘQₘ/(αₘ − Sₘ) for an active m, Sₘ and Qₘ for an inactive one.
    pub fn sparsity_quality(&self, m: usize) -> (f64, f64) {
        let (big_s, big_q) = (self.big_s[m], self.big_q[m]);
        match self.slot[m] {
            Some(j) => {
                let alpha = self.alpha[j];
                (alpha * big_s / (alpha - big_s), alpha * big_q / (alpha - big_s))
            }
            None => (big_s, big_q),
        }
    }

    /// Columns refused by the alignment test and not reinstated since.
    pub fn refused(&self) -> impl Iterator<Item = usize> + '_ {
        self.refused.iter().enumerate().filter_map(|(m, r)| r.map(|_| m))
    }

    /// The candidate of the step: chosen by `selection` among those worth acting on, after
    /// refusing (and recording in `refused`) additions that fail the alignment test on
    /// columns with squared norms `norms_sq`, if `alignment_test`.
    pub fn choose(
        &mut self,
        selection: Selection,
        alignment_test: bool,
        norms_sq: &DVector<f64>,
        refused: &mut Vec<usize>,
    ) -> Option<Candidate> {
        loop {
            let candidate = self.select(selection)?;
            if candidate.action == Action::Add
                && alignment_test
                && let Some(parallel) = self.parallel_active(candidate.basis, norms_sq)
            {
                self.refused[candidate.basis] = Some(parallel);
                refused.push(candidate.basis);
                continue;
            }
            return Some(candidate);
        }
    }

    /// The selection rule applied to every column's candidate action.
    fn select(&mut self, selection: Selection) -> Option<Candidate> {
        let m = self.m();
        match selection {
            Selection::Greedy => {
                // One pass, no list: the largest ΔL among deletions and among all (the last
                // of equals, as `Iterator::max_by` would pick).
                let (mut delete, mut any): (Option<Candidate>, Option<Candidate>) = (None, None);
                for candidate in (0..m).filter_map(|i| self.candidate(i)) {
                    let beats =
                        |best: &Option<Candidate>| best.is_none_or(|b| candidate.delta_l.total_cmp(&b.delta_l).is_ge());
                    if candidate.action == Action::Delete && beats(&delete) {
                        delete = Some(candidate);
                    }
                    if beats(&any) {
                        any = Some(candidate);
                    }
                }
                delete.or(any)
            }
            Selection::Cyclic => {
                let found = (0..m).map(|k| (self.cursor + k) % m).find_map(|i| self.candidate(i))?;
                self.cursor = (found.basis + 1) % m;
                Some(found)
            }
            Selection::Random => {
                let all: Vec<Candidate> = (0..m).filter_map(|i| self.candidate(i)).collect();
                if all.is_empty() {
                    return None;
                }
                let pick = self.rng.random_range(0..all.len());
                Some(all[pick])
            }
        }
    }

    /// What a step on column `i` would do, if it is worth doing: add (inactive, θ > 0, not
    /// refused), re-estimate (active, θ > 0, |Δ ln α| ≥ [`MIN_DELTA_LN_ALPHA`]) or delete
    /// (active, θ ≤ 0, not the last one), with its ΔL (Tipping & Faul 2003, eq 27–29).
    pub fn candidate(&self, i: usize) -> Option<Candidate> {
        let (s, q) = self.sparsity_quality(i);
        let theta = q * q - s;
        let (big_s, big_q) = (self.big_s[i], self.big_q[i]);
        let candidate = |action, alpha_new, delta_l| Candidate { basis: i, action, s, q, alpha_new, delta_l };
        match self.slot[i] {
            None if theta > 0.0 && self.refused[i].is_none() => {
                // ΔL = ½[Q²/S − 1 − ln(Q²/S)] for αᵢ = s²/θ (eq 27).
                let ratio = big_q * big_q / big_s;
                let delta_l = 0.5 * (ratio - 1.0 - ratio.ln());
                (delta_l > 0.0).then(|| candidate(Action::Add, Some(s * s / theta), delta_l))
            }
            None => None,
            Some(j) if theta > 0.0 => {
                let (old, new) = (self.alpha[j], s * s / theta);
                if (new.ln() - old.ln()).abs() < MIN_DELTA_LN_ALPHA {
                    return None;
                }
                // ΔL = ½[ΔQ²/(ΔS + 1) − ln(1 + SΔ)], Δ = 1/α̃ − 1/α (eq 28).
                let delta = 1.0 / new - 1.0 / old;
                let delta_l = 0.5 * (delta * big_q * big_q / (delta * big_s + 1.0) - (delta * big_s).ln_1p());
                Some(candidate(Action::Reestimate, Some(new), delta_l))
            }
            Some(j) => {
                if self.active.len() == 1 {
                    return None;
                }
                // ΔL = λ(∞) − λ(α) = ½[ln(1 + s/α) − q²/(s + α)] (eq 29).
                let alpha = self.alpha[j];
                let delta_l = 0.5 * ((s / alpha).ln_1p() - q * q / (s + alpha));
                (delta_l > 0.0).then(|| candidate(Action::Delete, None, delta_l))
            }
        }
    }

    /// The active column that column `i` is nearly parallel to, if any.
    fn parallel_active(&self, i: usize, norms_sq: &DVector<f64>) -> Option<usize> {
        self.active.iter().zip(&self.gram).find_map(|(&k, g)| {
            let cosine = g[i] / (norms_sq[i] * norms_sq[k]).sqrt();
            (cosine.abs() > ALIGNMENT_MAX_COSINE).then_some(k)
        })
    }

    /// Makes inactive column i active last in model order, with precision `alpha` and Gram
    /// column `gram` = Φᵀφᵢ.
    pub fn push(&mut self, i: usize, alpha: f64, gram: DVector<f64>) {
        self.slot[i] = Some(self.active.len());
        self.active.push(i);
        self.alpha.push(alpha);
        self.gram.push(gram);
    }

    /// Takes back the last [`ActiveSet::push`].
    pub fn pop(&mut self) {
        if let Some(i) = self.active.pop() {
            self.slot[i] = None;
            self.alpha.pop();
            self.gram.pop();
        }
    }

    /// Makes active column i inactive, reinstating the candidates the alignment test
    /// refused because of it. Returns its old position in model order (`None`: was not
    /// active).
    pub fn remove(&mut self, i: usize) -> Option<usize> {
        let j = self.slot[i]?;
        self.active.remove(j);
        self.alpha.remove(j);
        self.gram.remove(j);
        self.slot[i] = None;
        for (k, &m) in self.active.iter().enumerate().skip(j) {
            self.slot[m] = Some(k);
        }
        for r in &mut self.refused {
            if *r == Some(i) {
                *r = None;
            }
        }
        Some(j)
    }

    /// G·v = Σₖ vₖ Φᵀφₖ over the active k: an M-vector, M·M_𝒜 operations.
    pub fn gram_times(&self, v: &DVector<f64>) -> DVector<f64> {
        let mut out = DVector::zeros(self.m());
        for (g, &vk) in self.gram.iter().zip(v.iter()) {
            out.axpy(vk, g, 1.0);
        }
        out
    }
}
