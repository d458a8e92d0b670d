//! The relevance vector machine for K ≥ 2 classes (PRML §7.2.3, 7.120–7.122, with §4.3.4;
//! Tipping 2001; PRML §7.2.3).
//!
//! There are K linear models aₖ = wₖᵀφ(x) (PRML 7.120; the seed prints wₖᵀx), combined by
//! the softmax
//!
//! ```text
//! yₖ(x) = exp(aₖ) / Σⱼ exp(aⱼ)   (PRML 7.121)
//! ```
//!
//! with 1-of-K targets tₙₖ = [cₙ = k] for the class labels cₙ ∈ {0, …, K − 1}, so that
//! p(T|w₁, …, w_K) = Πₙ Πₖ yₙₖ^tₙₖ (PRML 7.122; the seed writes "ln p(T|…) = Π Π yₙₖ^tₙₖ":
//! the product is p itself, its log is Σₙ Σₖ tₙₖ ln yₙₖ). Every weight wₖᵢ has its own
//! precision αₖᵢ, p(wₖᵢ|αₖᵢ) = N(0, αₖᵢ⁻¹) (the ARD prior 7.80, once per class). As for two
//! classes ([`super::classification`]) the weights are not integrated out exactly: at
//! fixed α the posterior is replaced by its Laplace approximation around the mode, found
//! by [`irls`] with the MK × MK Hessian, and α is re-estimated from it by
//! [`ClassicMulticlassRvm`], one sweep at a time. Basis function i is a relevance vector
//! while any of its K weights is active.
//!
//! Symbols: `phi` is the design Φ (N × M, Φₙᵢ = φᵢ(xₙ)); `labels` the cₙ, given as
//! numbers (they must be whole, 0 … K − 1); `alpha` the M × K matrix of precisions, entry
//! (i, k) = αₖᵢ, where +∞ marks a pruned weight (wₖᵢ = 0; p(wₖᵢ) is then a point mass);
//! `w` the M × K weight matrix W, column k = wₖ; Y (N × K) the yₙₖ; A = diag αₖᵢ over the
//! active weights; H the Hessian of the negative log posterior on the active weights.
//! Vectors over the active weights ([`Mode::active`], the order of H) list class 0's
//! active weights by ascending basis function, then class 1's, and so on.
//!
//! A Newton step on all K(N + 1) weights of N points factorises a Hessian of hundreds of
//! rows: tens of milliseconds in the browser. So the mode search ([`ModeSearch`]), the first
//! fit ([`MulticlassStart`]) and each sweep ([`Solver::step_within`]) also go a piece at a
//! time — a block of H, a column of its Cholesky factor, an entry of Σ's diagonal — within a
//! [`Budget`]; run to the end they are [`irls`], [`ClassicMulticlassRvm::new`] and
//! [`Solver::step`].

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use super::Sweep;
use super::classic::PRUNE_GAMMA;
use super::classification::{ClassifierSettings, PRUNE_ALPHA};
use super::newton::{NewtonSearch, Posterior, SweepUnderWay, SweptInPieces, sweep_within, whole_sweep};
use crate::error::{Bound, Compact, Error, Result, ensure_all_finite, ensure_finite, ensure_whole};
use crate::linalg::{CholeskyFactor, MULTIPLY_ADDS_PER_UNIT, dots};
use crate::solver::{Budget, Solver, Status};

/// The formula named when the Hessian is not positive definite (PRML 4.110 plus the prior).
const HESSIAN: &str = "H = [Φᵀ diag(yₖ(Iₖⱼ − yⱼ)) Φ]ₖⱼ + A";

/// Most classes K: the Hessian has up to MK rows.
pub const MAX_CLASSES: usize = 100;

/// ln Σⱼ exp(aⱼ), as m + ln Σⱼ exp(aⱼ − m) with m = maxⱼ aⱼ, so that no exponential
/// overflows and the largest term is exactly 1 (−∞ for no terms).
pub fn log_sum_exp(a: &[f64]) -> f64 {
    let m = a.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + a.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// The softmax yₖ = exp(aₖ)/Σⱼ exp(aⱼ) (PRML 7.121), computed as exp(aₖ − m)/Σⱼ exp(aⱼ − m)
/// with m = maxⱼ aⱼ: no overflow, and the sum is at least 1.
pub fn softmax(a: &[f64]) -> Vec<f64> {
    let mut y = a.to_vec();
    softmax_in_place(&mut y);
    y
}

/// [`softmax`] written over its argument: `a` holds the aₖ and is left holding the yₖ (no
/// allocation, for the many rows of a design or a map).
pub fn softmax_in_place(a: &mut [f64]) {
    let m = a.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    a.iter_mut().for_each(|v| *v = (*v - m).exp());
    let sum: f64 = a.iter().sum();
    a.iter_mut().for_each(|v| *v /= sum);
}

/// The predicted class probabilities yₖ = softmax(Wᵀφ)ₖ (PRML 7.120–7.121, the mode's
/// plug-in prediction) at an input whose basis functions take the values `phi`, for the
/// weights `weights` (one row per basis function of `phi`, one column per class).
pub fn predict_probabilities(weights: &DMatrix<f64>, phi: &[f64]) -> Vec<f64> {
    let logits: Vec<f64> = weights.column_iter().map(|w| w.iter().zip(phi).map(|(w, p)| w * p).sum()).collect();
    softmax(&logits)
}

/// The labels as class indices, after checking K and every label.
///
/// # Errors
/// [`Error::OutOfRange`] for K outside 2 … [`MAX_CLASSES`] or a label that is not a whole
/// number from 0 to K − 1; [`Error::NotFinite`] (naming `t[n]`) for NaN or ±∞.
fn class_labels(labels: &[f64], classes: usize) -> Result<Vec<usize>> {
    if !(2..=MAX_CLASSES).contains(&classes) {
        return Err(Error::OutOfRange {
            name: "K",
            value: classes.to_string(),
            bound: Bound::WholeBetween { min: 2, max: MAX_CLASSES as u64 },
        });
    }
    ensure_all_finite("t", labels)?;
    labels.iter().map(|&c| ensure_whole("t", c, (classes - 1) as u64)).collect()
}

/// Checks Φ, the labels and α (M × K: each αₖᵢ > 0, +∞ allowed) and returns the labels as
/// class indices.
fn check(phi: &DMatrix<f64>, labels: &[f64], alpha: &DMatrix<f64>) -> Result<Vec<usize>> {
    if phi.nrows() == 0 || phi.ncols() == 0 {
        return Err(Error::NoData);
    }
    if labels.len() != phi.nrows() {
        return Err(Error::DimensionMismatch {
            what: "labels t and rows of Φ",
            expected: phi.nrows(),
            got: labels.len(),
        });
    }
    if alpha.nrows() != phi.ncols() {
        return Err(Error::DimensionMismatch {
            what: "rows of α (one per basis function) and columns of Φ",
            expected: phi.ncols(),
            got: alpha.nrows(),
        });
    }
    ensure_all_finite("Φ", phi.as_slice())?;
    let classes = class_labels(labels, alpha.ncols())?;
    check_alpha(alpha)?;
    Ok(classes)
}

/// Checks α: each αₖᵢ > 0, +∞ allowed.
fn check_alpha(alpha: &DMatrix<f64>) -> Result<()> {
    for &a in alpha.iter() {
        if a.is_nan() {
            ensure_finite("α", a)?;
        }
        if a <= 0.0 {
            return Err(Error::OutOfRange { name: "α", value: Compact(a).to_string(), bound: Bound::Positive });
        }
    }
    Ok(())
}

/// Which weights are active (finite αₖᵢ), and where each sits in the vector of active
/// weights.
#[derive(Debug, Clone, PartialEq)]
struct Layout {
    /// The basis functions with at least one active weight, ascending: the relevance
    /// vectors.
    relevant: Vec<usize>,
    /// For each class, the positions in `relevant` of its active weights, ascending.
    columns: Vec<Vec<usize>>,
    /// Where each class's block starts in the vector; the last entry is the length P.
    offsets: Vec<usize>,
}

impl Layout {
    fn new(alpha: &DMatrix<f64>) -> Self {
        let relevant: Vec<usize> = (0..alpha.nrows()).filter(|&i| alpha.row(i).iter().any(|a| a.is_finite())).collect();
        let columns: Vec<Vec<usize>> = alpha
            .column_iter()
            .map(|a| (0..relevant.len()).filter(|&r| a[relevant[r]].is_finite()).collect())
            .collect();
        let mut offsets = vec![0];
        for c in &columns {
            offsets.push(offsets[offsets.len() - 1] + c.len());
        }
        Self { relevant, columns, offsets }
    }

    /// P, the number of active weights.
    fn len(&self) -> usize {
        self.offsets[self.offsets.len() - 1]
    }

    /// (basis function, class) of every active weight, in vector order.
    fn weights(&self) -> Vec<(usize, usize)> {
        self.columns.iter().enumerate().flat_map(|(k, c)| c.iter().map(move |&r| (self.relevant[r], k))).collect()
    }

    /// The active entries of an M × K matrix, as a vector.
    fn gather(&self, w: &DMatrix<f64>) -> DVector<f64> {
        DVector::from_iterator(self.len(), self.weights().into_iter().map(|(i, k)| w[(i, k)]))
    }

    /// The |R| × K matrix of the relevant basis functions' weights from the vector `v`,
    /// 0 where pruned.
    fn compact(&self, v: &DVector<f64>) -> DMatrix<f64> {
        let mut w = DMatrix::zeros(self.relevant.len(), self.columns.len());
        for (k, c) in self.columns.iter().enumerate() {
            for (j, &r) in c.iter().enumerate() {
                w[(r, k)] = v[self.offsets[k] + j];
            }
        }
        w
    }

    /// The M × K weight matrix from the vector `v`, 0 where pruned.
    fn scatter(&self, v: &DVector<f64>, m: usize) -> DMatrix<f64> {
        let compact = self.compact(v);
        let mut w = DMatrix::zeros(m, self.columns.len());
        for (r, &i) in self.relevant.iter().enumerate() {
            w.row_mut(i).copy_from(&compact.row(r));
        }
        w
    }
}

/// The log posterior on the active weights, with what its derivatives need precomputed.
#[derive(Debug, Clone)]
struct Objective {
    labels: Vec<usize>,
    layout: Layout,
    /// Φ_R, the relevant columns (N × |R|).
    phi: DMatrix<f64>,
    /// |Φ_R|, for the scale of the gradient's terms.
    phi_abs: DMatrix<f64>,
    /// For each class k, its active columns Φₖ (N × Pₖ).
    blocks: Vec<DMatrix<f64>>,
    /// The active αₖᵢ, in vector order.
    alpha: DVector<f64>,
}

impl Objective {
    fn new(phi: &DMatrix<f64>, labels: Vec<usize>, layout: Layout, alpha: &DMatrix<f64>) -> Self {
        let phi = phi.select_columns(&layout.relevant);
        let blocks: Vec<DMatrix<f64>> = layout.columns.iter().map(|c| phi.select_columns(c)).collect();
        let alpha = layout.gather(alpha);
        Self { labels, layout, phi_abs: phi.abs(), phi, blocks, alpha }
    }

    /// The logits A = Φ_R W_R (N × K), aₙₖ = wₖᵀφ(xₙ) (PRML 7.120).
    fn logits(&self, v: &DVector<f64>) -> DMatrix<f64> {
        &self.phi * self.layout.compact(v)
    }

    /// ln p(T|W) = Σₙ Σₖ tₙₖ ln yₙₖ = Σₙ (aₙ,cₙ − ln Σⱼ exp aₙⱼ) (PRML 7.122, 4.108).
    fn log_likelihood(&self, logits: &DMatrix<f64>) -> f64 {
        let mut row = vec![0.0; logits.ncols()];
        (0..logits.nrows())
            .map(|n| {
                row.iter_mut().zip(logits.row(n).iter()).for_each(|(r, &a)| *r = a);
                row[self.labels[n]] - log_sum_exp(&row)
            })
            .sum()
    }

    /// ½ Σ αₖᵢ wₖᵢ² over the active weights.
    fn penalty(&self, v: &DVector<f64>) -> f64 {
        0.5 * self.alpha.iter().zip(v.iter()).map(|(a, w)| a * w * w).sum::<f64>()
    }

    /// Ψ(W) = ln p(T|W) − ½ Σ αₖᵢ wₖᵢ², ln p(W|T, α) up to a constant.
    fn log_posterior(&self, v: &DVector<f64>) -> f64 {
        self.log_likelihood(&self.logits(v)) - self.penalty(v)
    }

    /// T − Y, each entry without cancellation: for the point's own class,
    /// 1 − yₙₖ = Σ_{j≠k} yₙⱼ.
    fn residual(&self, y: &DMatrix<f64>) -> DMatrix<f64> {
        let mut r = -y;
        for (n, &c) in self.labels.iter().enumerate() {
            r[(n, c)] = (0..y.ncols()).filter(|&j| j != c).map(|j| y[(n, j)]).sum();
        }
        r
    }

    /// The gradient ∇_{wₖ} Ψ = Σₙ (tₙₖ − yₙₖ)φₙ − Aₖwₖ (PRML 4.109 plus the prior) on the
    /// active weights, and the size of its terms, |Φₖ|ᵀ|tₖ − yₖ| + |Aₖwₖ|, entry by entry.
    fn gradient(&self, v: &DVector<f64>, y: &DMatrix<f64>) -> (DVector<f64>, DVector<f64>) {
        let r = self.residual(y);
        let fit = self.layout.gather_compact(&self.phi.tr_mul(&r));
        let size = self.layout.gather_compact(&self.phi_abs.tr_mul(&r.abs()));
        let prior = self.alpha.component_mul(v);
        (fit - &prior, size + prior.abs())
    }

    /// Block (k, j), j ≥ k, of H = −∇∇Ψ on the active weights, written into the lower
    /// triangle of `h` (rows of class j, columns of class k; the factorisation reads no more):
    ///
    /// ```text
    /// Hₖⱼ = Σₙ yₙₖ(Iₖⱼ − yₙⱼ) φₙφₙᵀ + δₖⱼAₖ = Φₖᵀ diag(yₖ ∘ (Iₖⱼ − yⱼ)) Φⱼ + δₖⱼAₖ
    /// ```
    ///
    /// (PRML 4.110 plus the prior, which [`Objective::add_prior`] adds), with 1 − yₙₖ taken
    /// as Σ_{j≠k} yₙⱼ (`others`): column a of the block (in `h`) holds the inner products of
    /// column a of Φₖ with the columns of Φⱼ scaled by the weights, four at a time ([`dots`]).
    /// A block is symmetric when Φₖ = Φⱼ: a diagonal block, and an off-diagonal one while
    /// classes k and j have the same active columns (every weight active, as in the first
    /// fit). Its columns are then computed from the diagonal down and the part above copied
    /// from them. Returns its multiply-adds.
    fn hessian_block(
        &self,
        y: &DMatrix<f64>,
        others: &DMatrix<f64>,
        (k, j): (usize, usize),
        h: &mut DMatrix<f64>,
    ) -> usize {
        let weight = if j == k {
            y.column(k).component_mul(&others.column(k))
        } else {
            -y.column(k).component_mul(&y.column(j))
        };
        let (n, p) = (y.nrows(), h.nrows());
        let mut scaled = self.blocks[j].clone();
        for mut column in scaled.column_iter_mut() {
            column.component_mul_assign(&weight);
        }
        let scaled: Vec<&[f64]> = scaled.as_slice().chunks_exact(n).collect();
        let (rows, columns) = (self.layout.offsets[j], self.layout.offsets[k]);
        let symmetric = self.layout.columns[k] == self.layout.columns[j];
        let mut work = 0;
        for (a, column) in self.blocks[k].as_slice().chunks_exact(n).enumerate() {
            let first = if symmetric { a } else { 0 };
            let start = (columns + a) * p + rows + first;
            let out = &mut h.as_mut_slice()[start..start + scaled.len() - first];
            dots(column, &scaled[first..], out);
            work += out.len() * n;
        }
        if symmetric && j != k {
            for a in 1..scaled.len() {
                for b in 0..a {
                    h[(rows + b, columns + a)] = h[(rows + a, columns + b)];
                }
            }
        }
        work
    }

    fn add_prior(&self, h: &mut DMatrix<f64>) {
        for (q, a) in self.alpha.iter().enumerate() {
            h[(q, q)] += a;
        }
    }
}

/// 1 − yₙₖ for every n and k, as Σ_{j≠k} yₙⱼ (no cancellation).
fn complements(y: &DMatrix<f64>) -> DMatrix<f64> {
    let classes = y.ncols();
    DMatrix::from_fn(y.nrows(), classes, |n, k| (0..classes).filter(|&j| j != k).map(|j| y[(n, j)]).sum::<f64>())
}

impl Layout {
    /// The active entries of an |R| × K matrix (rows: the relevant basis functions), as a
    /// vector.
    fn gather_compact(&self, m: &DMatrix<f64>) -> DVector<f64> {
        let entries = self.columns.iter().enumerate().flat_map(|(k, c)| c.iter().map(move |&r| m[(r, k)]));
        DVector::from_iterator(self.len(), entries)
    }
}

/// The softmax of every row of the logits (PRML 7.121).
fn probabilities(logits: &DMatrix<f64>) -> DMatrix<f64> {
    let mut y = logits.clone();
    let mut row = vec![0.0; logits.ncols()];
    for n in 0..logits.nrows() {
        row.iter_mut().zip(logits.row(n).iter()).for_each(|(r, &a)| *r = a);
        softmax_in_place(&mut row);
        for (k, &p) in row.iter().enumerate() {
            y[(n, k)] = p;
        }
    }
    y
}

/// The mode W* of the posterior at fixed α and what the Laplace approximation takes from
/// it.
#[derive(Debug, Clone)]
pub struct Mode {
    /// W*, M × K (column k = wₖ*), 0 for the pruned weights.
    pub w: DMatrix<f64>,
    /// yₙₖ at W*, N × K.
    pub y: DMatrix<f64>,
    /// The Cholesky factor of H at W*, on the active weights in the order of `active`:
    /// Σ = H⁻¹ is the covariance of the Laplace approximation.
    pub factor: CholeskyFactor,
    /// (basis function i, class k) of every active weight, class by class, each class's
    /// by ascending i: the order of the rows of H.
    pub active: Vec<(usize, usize)>,
    /// Ψ(W*) = ln p(T|W*) − ½ Σ αₖᵢ wₖᵢ*².
    pub log_posterior: f64,
    /// ln p(T|W*) (PRML 7.122).
    pub log_likelihood: f64,
    /// Newton steps taken.
    pub iterations: usize,
}

impl Mode {
    /// The Laplace approximation of the log marginal likelihood (PRML 4.135 and 7.114,
    /// over the P active weights):
    ///
    /// ```text
    /// ln p(T|α) ≈ ln p(T|W*) + ln p(W*|α) − ½ ln|H| + (P/2) ln 2π
    ///           = Ψ(W*) + ½ Σ ln αₖᵢ − ½ ln|H|
    /// ```
    ///
    /// where ln p(W*|α) = Σ [½ ln(αₖᵢ/2π) − ½αₖᵢwₖᵢ*²] over the active weights: its
    /// −(P/2) ln 2π cancels the +(P/2) ln 2π of the Gaussian integral. A pruned weight
    /// (αₖᵢ = ∞) is fixed at 0 and contributes nothing. `alpha` must be the α the mode was
    /// found at.
    pub fn laplace_log_ml(&self, alpha: &DMatrix<f64>) -> f64 {
        let ln_alpha: f64 = self.active.iter().map(|&(i, k)| alpha[(i, k)].ln()).sum();
        self.log_posterior + 0.5 * ln_alpha - 0.5 * self.factor.ln_determinant()
    }

    /// The diagonal of Σ = H⁻¹, in the order of `active`: Σ_qq = ‖L⁻¹e_q‖² for H = LLᵀ.
    pub fn sigma_diagonal(&self) -> DVector<f64> {
        self.factor.inverse_diagonal()
    }

    /// The fraction of training points whose most probable class argmaxₖ yₙₖ (the first of
    /// a tie) is their label.
    fn accuracy(&self, labels: &[usize]) -> f64 {
        let correct = labels.iter().enumerate().filter(|&(n, &c)| most_probable(self.y.row(n).iter()) == c).count();
        correct as f64 / labels.len() as f64
    }
}

/// The index of the largest value, the first of a tie.
fn most_probable<'a>(values: impl Iterator<Item = &'a f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (k, &v) in values.enumerate() {
        if v > best.1 {
            best = (k, v);
        }
    }
    best.0
}

/// The mode of the posterior p(W|T, α) by iteratively reweighted least squares: Newton's
/// method on Ψ(W) = ln p(T|W) − ½ Σ αₖᵢ wₖᵢ² over the active weights (PRML §4.3.4,
/// 4.109–4.110, 7.122),
///
/// ```text
/// w ← w + λ H⁻¹g,  gₖ = Φᵀ(tₖ − yₖ) − Aₖwₖ,  Hₖⱼ = Φᵀ diag(yₖ(Iₖⱼ − yⱼ)) Φ + δₖⱼAₖ
/// ```
///
/// from `start` (M × K; its pruned entries are ignored), the step solved through the
/// Cholesky factor of H, with the safeguards of [`super::classification::irls`]: λ = 1, ½,
/// ¼, … halved while Ψ would fall, a step whose predicted rise ½gᵀH⁻¹g is below
/// 10⁻¹²(1 + |Ψ|) taken whole, and the stop when ‖g‖ ≤ [`IRLS_TOLERANCE`]·‖ |Φ|ᵀ|T − Y| +
/// |Aw| ‖. Ψ is concave (the softmax log likelihood is, PRML §4.3.4) and strictly so
/// through the prior, so its mode is unique even though the softmax itself is unchanged by
/// adding one vector to every wₖ.
///
/// `alpha` is M × K, entry (i, k) = αₖᵢ > 0, +∞ for a pruned weight; K = its column count.
/// This is [`ModeSearch`] run to its end.
///
/// # Errors
/// [`Error::NoData`] (N = 0, M = 0 or no active weight), [`Error::DimensionMismatch`],
/// [`Error::NotFinite`] or [`Error::OutOfRange`] (K < 2, a label not a whole number from 0
/// to K − 1, αₖᵢ ≤ 0) for bad input; [`Error::NotPositiveDefinite`] if H is numerically
/// singular; [`Error::NotConverged`] after [`IRLS_MAX_ITERATIONS`] steps.
pub fn irls(phi: &DMatrix<f64>, labels: &[f64], alpha: &DMatrix<f64>, start: &DMatrix<f64>) -> Result<Mode> {
    let mut search = ModeSearch::new(phi, labels, alpha, start)?;
    loop {
        if let Some(mode) = search.step_within(&mut Budget::unlimited())? {
            return Ok(mode);
        }
    }
}

/// The search of [`irls`] one piece at a time ([`NewtonSearch`]): each Newton step computes
/// the probabilities and the gradient, forms the K(K + 1)/2 blocks of H one per piece,
/// factorises H a column per piece, then solves for the step and halves it as needed. A
/// piece at N = 150, K = 3 with every weight active is about a millisecond in the browser;
/// a whole Newton step there, tens.
#[derive(Debug, Clone)]
pub struct ModeSearch {
    search: NewtonSearch<Objective>,
    /// M, the columns of Φ.
    basis: usize,
}

impl ModeSearch {
    /// Starts the search of [`irls`] from `start`.
    ///
    /// # Errors
    /// As [`irls`], for bad input.
    pub fn new(phi: &DMatrix<f64>, labels: &[f64], alpha: &DMatrix<f64>, start: &DMatrix<f64>) -> Result<Self> {
        let labels = check(phi, labels, alpha)?;
        Self::with_classes(phi, labels, alpha, start)
    }

    /// [`ModeSearch::new`] on a Φ and labels already checked, the labels as class indices
    /// (a sweep's search: its run checked them when it started; Φ is N·M entries, where a
    /// late sweep's search is a few weights).
    ///
    /// # Errors
    /// As [`irls`], for a bad α or start.
    fn with_classes(
        phi: &DMatrix<f64>,
        labels: Vec<usize>,
        alpha: &DMatrix<f64>,
        start: &DMatrix<f64>,
    ) -> Result<Self> {
        check_alpha(alpha)?;
        if start.shape() != alpha.shape() {
            return Err(Error::DimensionMismatch {
                what: "starting weights and α (M × K)",
                expected: alpha.len(),
                got: start.len(),
            });
        }
        let layout = Layout::new(alpha);
        if layout.len() == 0 {
            return Err(Error::NoData);
        }
        let v = layout.gather(start);
        ensure_all_finite("w", v.as_slice())?;
        let objective = Objective::new(phi, labels, layout, alpha);
        Ok(Self { search: NewtonSearch::new(objective, v), basis: phi.ncols() })
    }

    /// Newton steps taken so far, and the columns of this step's factorisation done and in
    /// all (for a progress bar).
    pub fn progress(&self) -> (usize, (usize, usize)) {
        self.search.progress()
    }

    /// Works on the search within `budget` (at least one piece); the mode once found.
    ///
    /// # Errors
    /// As [`irls`]; the search is then over.
    pub fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Mode>> {
        let Some(found) = self.search.step_within(budget)? else { return Ok(None) };
        let objective = self.search.posterior();
        let layout = &objective.layout;
        Ok(Some(Mode {
            w: layout.scatter(&found.v, self.basis),
            log_likelihood: objective.log_likelihood(&found.at.logits),
            y: found.at.y,
            factor: found.factor,
            active: layout.weights(),
            log_posterior: found.log_posterior,
            iterations: found.iterations,
        }))
    }
}

/// What a Newton step needs at the current weights.
#[derive(Debug, Clone)]
struct AtWeights {
    logits: DMatrix<f64>,
    y: DMatrix<f64>,
    /// 1 − yₙₖ, as Σ_{j≠k} yₙⱼ.
    others: DMatrix<f64>,
}

impl Posterior for Objective {
    type At = AtWeights;
    const HESSIAN: &'static str = HESSIAN;

    fn log_posterior(&self, v: &DVector<f64>) -> f64 {
        Objective::log_posterior(self, v)
    }

    fn at(&self, v: &DVector<f64>) -> (AtWeights, DVector<f64>, DVector<f64>) {
        let logits = self.logits(v);
        let y = probabilities(&logits);
        let (g, size) = self.gradient(v, &y);
        let others = complements(&y);
        (AtWeights { logits, y, others }, g, size)
    }

    fn pass_cost(&self) -> usize {
        3 * self.phi.nrows() * self.phi.ncols() * self.layout.columns.len()
    }

    /// The blocks (k, j), j ≥ k, in order: K(K + 1)/2.
    fn hessian_pieces(&self) -> usize {
        let classes = self.layout.columns.len();
        classes * (classes + 1) / 2
    }

    fn hessian_piece(&self, at: &AtWeights, piece: usize, h: &mut DMatrix<f64>) -> usize {
        let classes = self.layout.columns.len();
        let blocks = (0..classes).flat_map(|k| (k..classes).map(move |j| (k, j)));
        let Some(block) = blocks.clone().nth(piece) else { return 0 };
        self.hessian_block(&at.y, &at.others, block, h)
    }

    fn add_prior(&self, h: &mut DMatrix<f64>) {
        Objective::add_prior(self, h);
    }
}

/// The result of a multiclass fit, as the command line prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MulticlassFit {
    /// The relevance vectors: 0-based column indices of Φ with at least one active
    /// weight, ascending.
    pub relevant: Vec<usize>,
    /// For each relevance vector, its K mode weights wₖᵢ* (0 where pruned).
    pub weights: Vec<Vec<f64>>,
    /// For each relevance vector, its K precisions αₖᵢ (`None`, JSON null, where pruned).
    pub alpha: Vec<Vec<Option<f64>>>,
    /// The Laplace L ≈ ln p(T|α) ([`Mode::laplace_log_ml`]).
    pub log_marginal_likelihood: f64,
    /// Sweeps taken.
    pub iterations: usize,
    /// Whether the convergence test was met (rather than the sweep budget).
    pub converged: bool,
    /// The fraction of training points whose most probable class is their label.
    pub accuracy: f64,
    /// K.
    pub classes: usize,
}

/// The classic multiclass RVM (Tipping 2001; PRML 7.113–7.116 weight by weight): every
/// sweep re-estimates each active αₖᵢ from the Laplace approximation at the current mode,
///
/// ```text
/// γₖᵢ = 1 − αₖᵢΣₖᵢ,ₖᵢ,  αₖᵢ ← γₖᵢ/wₖᵢ*²   (PRML 7.116),  Σ = H⁻¹
/// ```
///
/// prunes the weights with γₖᵢ < [`PRUNE_GAMMA`] or αₖᵢ > [`PRUNE_ALPHA`]‖φᵢ‖² (as
/// [`super::classification::ClassicRvmClassifier`] prunes basis functions), and finds the
/// new mode by [`irls`] started from the old one. A basis function stays a relevance vector
/// while any of its K weights is active.
///
/// For a live panel, a [`Solver::step`] is one frame's work and
/// [`ClassicMulticlassRvm::predict_probabilities`] /
/// [`ClassicMulticlassRvm::probabilities`] evaluate the fit from the values of the
/// relevance vectors' basis functions alone.
#[derive(Debug, Clone)]
pub struct ClassicMulticlassRvm {
    phi: DMatrix<f64>,
    /// The labels as class indices.
    classes: Vec<usize>,
    settings: ClassifierSettings,
    /// ‖φᵢ‖² for every column.
    norms_sq: Vec<f64>,
    /// αₖᵢ, M × K, +∞ where pruned.
    alpha: DMatrix<f64>,
    /// The mode at the current α.
    mode: Mode,
    /// The relevance vectors, ascending.
    relevant: Vec<usize>,
    /// Their weights, |R| × K, 0 where pruned.
    relevant_weights: DMatrix<f64>,
    /// L after every sweep, the starting α first.
    history: Vec<Sweep>,
    converged: bool,
    /// The sweep under way, when [`Solver::step_within`] left one unfinished.
    under_way: Option<SweepUnderWay<Proposal>>,
}

/// A sweep's re-estimate: the new α (M × K, +∞ where pruned), whether any weight was
/// pruned, the largest |Δ ln αₖᵢ|, and the search for the mode there.
#[derive(Debug, Clone)]
pub struct Proposal {
    alpha: DMatrix<f64>,
    pruned: bool,
    change: f64,
    search: ModeSearch,
}

/// The classic multiclass RVM before its first mode: the data checked and every weight at
/// the starting α, the mode searched for a piece at a time ([`MulticlassStart::step_within`]),
/// so that a page can show the data while the first fit (every weight active: the largest
/// Hessian of the run) is computed.
#[derive(Debug, Clone)]
pub struct MulticlassStart {
    phi: DMatrix<f64>,
    classes: Vec<usize>,
    settings: ClassifierSettings,
    norms_sq: Vec<f64>,
    alpha: DMatrix<f64>,
    search: ModeSearch,
}

impl MulticlassStart {
    /// Every weight of every non-zero column of `phi`, for each of the `classes` classes,
    /// with αₖᵢ = `settings.initial_alpha`, and the search for the mode from W = 0.
    ///
    /// # Errors
    /// As [`irls`] for bad input; [`Error::OutOfRange`] for an initial α ≤ 0,
    /// [`Error::NoData`] if every column of Φ is 0.
    pub fn new(phi: DMatrix<f64>, labels: &[f64], classes: usize, settings: ClassifierSettings) -> Result<Self> {
        let alpha0 = crate::error::ensure_positive("α", settings.initial_alpha)?;
        class_labels(&[], classes)?;
        let mut alpha = DMatrix::from_element(phi.ncols(), classes, alpha0);
        let norms_sq: Vec<f64> = phi.column_iter().map(|c| c.norm_squared()).collect();
        for (i, &norm_sq) in norms_sq.iter().enumerate() {
            if norm_sq == 0.0 {
                alpha.row_mut(i).fill(f64::INFINITY);
            }
        }
        let index = check(&phi, labels, &alpha)?;
        let search = ModeSearch::with_classes(&phi, index.clone(), &alpha, &DMatrix::zeros(phi.ncols(), classes))?;
        Ok(Self { phi, classes: index, settings, norms_sq, alpha, search })
    }

    /// The mode search's Newton steps so far and the columns of its current factorisation
    /// ([`ModeSearch::progress`]).
    pub fn progress(&self) -> (usize, (usize, usize)) {
        self.search.progress()
    }

    /// Works on the first mode within `budget` (at least one piece); the run, at sweep 0,
    /// once it is found.
    ///
    /// # Errors
    /// As [`irls`].
    pub fn step_within(&mut self, budget: &mut Budget) -> Result<Option<ClassicMulticlassRvm>> {
        let Some(mode) = self.search.step_within(budget)? else { return Ok(None) };
        let classes = self.alpha.ncols();
        let mut rvm = ClassicMulticlassRvm {
            phi: std::mem::replace(&mut self.phi, DMatrix::zeros(0, 0)),
            classes: std::mem::take(&mut self.classes),
            settings: self.settings,
            norms_sq: std::mem::take(&mut self.norms_sq),
            alpha: std::mem::replace(&mut self.alpha, DMatrix::zeros(0, 0)),
            mode,
            relevant: vec![],
            relevant_weights: DMatrix::zeros(0, classes),
            history: vec![],
            converged: false,
            under_way: None,
        };
        rvm.record();
        Ok(Some(rvm))
    }
}

impl ClassicMulticlassRvm {
    /// Every weight of every non-zero column of `phi`, for each of the `classes` classes,
    /// with αₖᵢ = `settings.initial_alpha`, and the mode from W = 0: [`MulticlassStart`] run
    /// to its end.
    ///
    /// # Errors
    /// As [`irls`]; [`Error::OutOfRange`] for an initial α ≤ 0, [`Error::NoData`] if every
    /// column of Φ is 0.
    pub fn new(phi: DMatrix<f64>, labels: &[f64], classes: usize, settings: ClassifierSettings) -> Result<Self> {
        let mut start = MulticlassStart::new(phi, labels, classes, settings)?;
        loop {
            if let Some(rvm) = start.step_within(&mut Budget::unlimited())? {
                return Ok(rvm);
            }
        }
    }

    /// Updates the relevance vectors and their weights from the mode, and records the sweep.
    fn record(&mut self) {
        self.relevant = Layout::new(&self.alpha).relevant;
        self.relevant_weights = self.mode.w.select_rows(&self.relevant);
        self.history.push(Sweep {
            log_marginal_likelihood: self.log_ml(),
            relevant: self.relevant.len(),
            irls_iterations: self.mode.iterations,
        });
    }

    /// K.
    pub fn classes(&self) -> usize {
        self.alpha.ncols()
    }

    /// αₖᵢ, M × K, +∞ where pruned.
    pub fn alpha(&self) -> &DMatrix<f64> {
        &self.alpha
    }

    /// (basis function, class) of every active weight, in the order of the mode's Hessian.
    pub fn active_weights(&self) -> &[(usize, usize)] {
        &self.mode.active
    }

    /// The relevance vectors (columns of Φ with an active weight), ascending.
    pub fn relevant(&self) -> &[usize] {
        &self.relevant
    }

    /// The relevance vectors' weights, one row per entry of [`Self::relevant`] and one
    /// column per class, 0 where pruned: all [`predict_probabilities`] needs.
    pub fn relevant_weights(&self) -> &DMatrix<f64> {
        &self.relevant_weights
    }

    /// The mode and its Hessian at the current α.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The Laplace L at the current α.
    pub fn log_ml(&self) -> f64 {
        self.mode.laplace_log_ml(&self.alpha)
    }

    /// Every sweep so far, the starting point first.
    pub fn history(&self) -> &[Sweep] {
        &self.history
    }

    /// The class probabilities at an input whose relevance vectors' basis functions take
    /// the values `phi` (in the order of [`Self::relevant`]): K dot products of length |R|
    /// and a softmax.
    pub fn predict_probabilities(&self, phi: &[f64]) -> Vec<f64> {
        predict_probabilities(&self.relevant_weights, phi)
    }

    /// The class probabilities at many inputs at once: `phi` has one row per input and one
    /// column per relevance vector (as [`Self::relevant`]); the result one row per input
    /// and one column per class. One matrix product, then a softmax per row (e.g. a
    /// 200 × 200 probability map).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] if `phi` has not |R| columns.
    pub fn probabilities(&self, phi: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        if phi.ncols() != self.relevant.len() {
            return Err(Error::DimensionMismatch {
                what: "columns of Φ and relevance vectors",
                expected: self.relevant.len(),
                got: phi.ncols(),
            });
        }
        Ok(probabilities(&(phi * &self.relevant_weights)))
    }

    /// The fit as it stands.
    pub fn fit(&self) -> MulticlassFit {
        let alpha = |i: usize| self.alpha.row(i).iter().map(|&a| a.is_finite().then_some(a)).collect();
        MulticlassFit {
            relevant: self.relevant.clone(),
            weights: self.relevant_weights.row_iter().map(|r| r.iter().copied().collect()).collect(),
            alpha: self.relevant.iter().map(|&i| alpha(i)).collect(),
            log_marginal_likelihood: self.log_ml(),
            iterations: self.history.len() - 1,
            converged: self.converged,
            accuracy: self.mode.accuracy(&self.classes),
            classes: self.classes(),
        }
    }
}

impl Solver for ClassicMulticlassRvm {
    type Event = Sweep;

    /// One sweep: γₖᵢ and αₖᵢ = γₖᵢ/wₖᵢ*² for every active weight (PRML 7.116), the weights
    /// with γₖᵢ < [`PRUNE_GAMMA`] or αₖᵢ > [`PRUNE_ALPHA`]‖φᵢ‖² pruned, then the mode by
    /// [`irls`] from the old weights and L recorded. Converged when no weight was pruned and
    /// no |Δ ln αₖᵢ| exceeds [`ClassifierSettings::tolerance`].
    ///
    /// # Errors
    /// As [`irls`]; the model is then as before the sweep.
    fn next_iter(&mut self) -> Result<Sweep> {
        whole_sweep(self)
    }

    fn status(&self) -> Status {
        Status::of_budgeted(self.converged, self.iterations(), self.settings.max_sweeps)
    }

    fn iterations(&self) -> usize {
        self.history.len() - 1
    }

    /// A sweep factorises the Hessian of the P active weights (P³/6 multiply-adds, and as
    /// many for Σ's diagonal), a unit being [`MULTIPLY_ADDS_PER_UNIT`].
    fn cost(&self) -> usize {
        let weights = self.active_weights().len();
        (weights * weights * weights / (3 * MULTIPLY_ADDS_PER_UNIT)).max(1)
    }

    /// The sweep of [`Solver::step`] a piece at a time (an entry of Σ's diagonal, a block of
    /// H, a column of its factor): [`sweep_within`].
    ///
    /// # Errors
    /// As [`Solver::step`]; the model is then as before the sweep.
    fn step_within(&mut self, budget: &mut Budget) -> Result<Option<Sweep>> {
        sweep_within(self, budget)
    }
}

impl SweptInPieces for ClassicMulticlassRvm {
    type Proposal = Proposal;
    type Mode = Mode;

    fn factor(&self) -> &CholeskyFactor {
        &self.mode.factor
    }

    fn under_way(&mut self) -> &mut Option<SweepUnderWay<Proposal>> {
        &mut self.under_way
    }

    fn propose(&self, sigma: &DVector<f64>) -> Result<Proposal> {
        let (alpha, pruned, change) = self.reestimate(sigma);
        let search = ModeSearch::with_classes(&self.phi, self.classes.clone(), &alpha, &self.mode.w)?;
        Ok(Proposal { alpha, pruned, change, search })
    }

    fn search(proposal: &mut Proposal, budget: &mut Budget) -> Result<Option<Mode>> {
        proposal.search.step_within(budget)
    }

    fn commit(&mut self, proposal: Proposal, mode: Mode) -> Sweep {
        self.alpha = proposal.alpha;
        self.mode = mode;
        self.record();
        self.converged = !proposal.pruned && proposal.change < self.settings.tolerance;
        self.history[self.history.len() - 1]
    }
}

impl ClassicMulticlassRvm {
    /// The re-estimated α (7.116) from Σ's diagonal `sigma` at the current mode, with the
    /// pruned weights at +∞, whether any was pruned, and the largest |Δ ln αₖᵢ| of the
    /// others. Should every weight go, the one with the largest γ stays.
    fn reestimate(&self, sigma: &DVector<f64>) -> (DMatrix<f64>, bool, f64) {
        let mut alpha = DMatrix::from_element(self.alpha.nrows(), self.alpha.ncols(), f64::INFINITY);
        let (mut pruned, mut change, mut kept) = (false, 0.0_f64, 0);
        let mut best = (f64::NEG_INFINITY, 0);
        for (q, &(i, k)) in self.mode.active.iter().enumerate() {
            let old = self.alpha[(i, k)];
            let gamma = 1.0 - old * sigma[q];
            let w = self.mode.w[(i, k)];
            let new = gamma / (w * w);
            if gamma > best.0 {
                best = (gamma, q);
            }
            if gamma >= PRUNE_GAMMA && new.is_finite() && new > 0.0 && new <= PRUNE_ALPHA * self.norms_sq[i] {
                change = change.max((new.ln() - old.ln()).abs());
                alpha[(i, k)] = new;
                kept += 1;
            } else {
                pruned = true;
            }
        }
        if kept == 0 {
            let (gamma, q) = best;
            let (i, k) = self.mode.active[q];
            let w = self.mode.w[(i, k)];
            alpha[(i, k)] = (gamma / (w * w)).clamp(f64::MIN_POSITIVE, f64::MAX);
        }
        (alpha, pruned, change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_and_log_sum_exp_are_stable() {
        let y = softmax(&[1000.0, 1000.0, -1000.0]);
        assert_eq!(y, vec![0.5, 0.5, 0.0]);
        assert!((log_sum_exp(&[1000.0, 1000.0]) - (1000.0 + std::f64::consts::LN_2)).abs() < 1e-12);
        assert_eq!(log_sum_exp(&[-800.0]), -800.0);
        let y = softmax(&[0.0, 1.0_f64.ln(), 2.0_f64.ln()]);
        for (got, want) in y.iter().zip([0.25, 0.25, 0.5]) {
            assert!((got - want).abs() < 1e-15);
        }
    }

    #[test]
    fn one_basis_function_by_hand() {
        // Φ = [1, 1, 1]ᵀ, labels 0, 1, 2, α = 1: by symmetry W* = 0, y = ⅓ everywhere, and
        // H = 3·(⅓I − ⅑11ᵀ) + I = 2I − ⅓11ᵀ, with eigenvalues 1 (along 1) and 2 (twice):
        // |H| = 4 and Σ = H⁻¹ = ½I + ⅙11ᵀ, so Σᵢᵢ = ⅔; L = 3 ln ⅓ − ½ ln 4.
        let phi = DMatrix::from_element(3, 1, 1.0);
        let alpha = DMatrix::from_element(1, 3, 1.0);
        let start = DMatrix::from_row_slice(1, 3, &[0.3, -1.0, 2.0]);
        let mode = irls(&phi, &[0.0, 1.0, 2.0], &alpha, &start).unwrap();
        assert!(mode.w.iter().all(|w| w.abs() < 1e-12), "{}", mode.w);
        assert!(mode.sigma_diagonal().iter().all(|s| (s - 2.0 / 3.0).abs() < 1e-12));
        let want = -3.0 * 3.0_f64.ln() - 0.5 * 4.0_f64.ln();
        assert!((mode.laplace_log_ml(&alpha) - want).abs() < 1e-12);
        assert_eq!(mode.active, vec![(0, 0), (0, 1), (0, 2)]);
    }

    #[test]
    fn layout_orders_active_weights_class_by_class() {
        let inf = f64::INFINITY;
        let alpha = DMatrix::from_row_slice(4, 2, &[1.0, inf, inf, inf, 2.0, 3.0, inf, 4.0]);
        let layout = Layout::new(&alpha);
        assert_eq!(layout.relevant, vec![0, 2, 3]);
        assert_eq!(layout.weights(), vec![(0, 0), (2, 0), (2, 1), (3, 1)]);
        let v = DVector::from_vec(vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(layout.compact(&v), DMatrix::from_row_slice(3, 2, &[1.0, 0.0, 2.0, 3.0, 0.0, 4.0]));
        assert_eq!(layout.gather(&layout.scatter(&v, 4)), v);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let phi = DMatrix::from_element(2, 1, 1.0);
        let alpha = DMatrix::from_element(1, 2, 1.0);
        let zero = DMatrix::zeros(1, 2);
        let code = |labels: &[f64], alpha: &DMatrix<f64>| irls(&phi, labels, alpha, &zero).unwrap_err().code();
        assert_eq!(code(&[0.0, 0.5], &alpha), "out-of-range");
        assert_eq!(code(&[0.0, 2.0], &alpha), "out-of-range");
        assert_eq!(code(&[0.0, -1.0], &alpha), "out-of-range");
        assert_eq!(code(&[0.0, f64::NAN], &alpha), "not-finite");
        assert_eq!(code(&[0.0], &alpha), "dimension-mismatch");
        assert_eq!(code(&[0.0, 1.0], &DMatrix::from_element(1, 2, 0.0)), "out-of-range");
        assert_eq!(code(&[0.0, 1.0], &DMatrix::from_element(1, 2, f64::NAN)), "not-finite");
        assert_eq!(code(&[0.0, 1.0], &DMatrix::from_element(1, 2, f64::INFINITY)), "no-data");
        let one_class = DMatrix::from_element(1, 1, 1.0);
        let e = irls(&phi, &[0.0, 0.0], &one_class, &DMatrix::zeros(1, 1)).unwrap_err();
        assert_eq!(e.to_string(), "K must be a whole number from 2 to 100, but is 1");
        let e = irls(&phi, &[0.0, 0.5], &alpha, &zero).unwrap_err();
        assert_eq!(e.to_string(), "t must be a whole number from 0 to 1, but is 0.5");
        let settings = ClassifierSettings::default();
        assert_eq!(
            ClassicMulticlassRvm::new(DMatrix::zeros(2, 1), &[0.0, 1.0], 2, settings).unwrap_err().code(),
            "no-data"
        );
        let bad = ClassifierSettings { initial_alpha: -1.0, ..settings };
        assert_eq!(ClassicMulticlassRvm::new(phi.clone(), &[0.0, 1.0], 2, bad).unwrap_err().code(), "out-of-range");
        assert_eq!(ClassicMulticlassRvm::new(DMatrix::zeros(0, 1), &[], 2, settings).unwrap_err().code(), "no-data");
    }

    /// Three classes of six points on a line, with a Gaussian kernel and a bias.
    fn three_classes() -> (DMatrix<f64>, Vec<f64>) {
        let x: [f64; 6] = [0.0, 0.1, 0.45, 0.5, 0.9, 1.0];
        let labels = vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0];
        let phi = DMatrix::from_fn(6, 7, |n, m| if m == 0 { 1.0 } else { (-(x[n] - x[m - 1]).powi(2) / 0.08).exp() });
        (phi, labels)
    }

    #[test]
    fn the_first_fit_and_the_sweeps_in_pieces_are_those_at_once() {
        let (phi, labels) = three_classes();
        let settings = ClassifierSettings::default();
        let mut whole = ClassicMulticlassRvm::new(phi.clone(), &labels, 3, settings).unwrap();
        let mut start = MulticlassStart::new(phi, &labels, 3, settings).unwrap();
        let mut pieces = 1;
        let mut sliced = loop {
            if let Some(rvm) = start.step_within(&mut Budget::units(1)).unwrap() {
                break rvm;
            }
            pieces += 1;
        };
        assert!(pieces > 10, "a Newton step is several pieces: {pieces}");
        assert_eq!(sliced.fit(), whole.fit());
        for _ in 0..5 {
            let sweep = whole.step().unwrap();
            let mut pieces = 0;
            let event = loop {
                pieces += 1;
                if let Some(event) = sliced.step_within(&mut Budget::units(1)).unwrap() {
                    break event;
                }
            };
            assert!(pieces > 1);
            assert_eq!((event, sliced.fit()), (sweep, whole.fit()), "the same bits");
        }
    }
}
