//! Dense linear algebra the models share: a checked Cholesky factorisation (at once, or a
//! few columns at a time), the diagonal of the inverse from it (also in slices), and the
//! iteration cap of the SVD and eigendecompositions.
//!
//! The models never form an explicit inverse. A symmetric positive-definite matrix
//! `A = LLᵀ` is factorised once; solves, quadratic forms `xᵀA⁻¹x = ‖L⁻¹x‖²`, the log
//! determinant and Gaussian samples with covariance `A⁻¹` all go through `L`.
//!
//! A page cannot spend the tens of milliseconds a factorisation of a few hundred rows takes
//! in one task, so [`CholeskyInSlices`] and [`InverseDiagonalInSlices`] keep their progress
//! and go on within a [`Budget`]; [`CholeskyFactor::new`] and
//! [`CholeskyFactor::inverse_diagonal`] are the same code run to the end.

use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

use crate::error::{Error, Result};
use crate::solver::Budget;

/// Multiply-adds per unit of [`Budget`] spent by the factorisations in slices.
pub const MULTIPLY_ADDS_PER_UNIT: usize = 1000;

/// Sweeps of the implicit-shift QR iteration the SVD may spend per singular value before
/// it gives up with [`Error::NotConverged`]. LAPACK's `dbdsqr` allows 6, so the cap only
/// ever stops a pathological loop instead of freezing the page.
pub const SVD_SWEEPS_PER_VALUE: usize = 100;

/// Targets whose variance is at most this times their mean square are constant: their
/// spread is that of rounding their mean ((64ε)², ε the machine epsilon: within 64 units in
/// the last place). Relative, not absolute, so that it holds in any units — an absolute
/// 10⁻¹² took sinc data in units 10⁸ times smaller for constant.
pub const CONSTANT_TARGETS: f64 = (64.0 * f64::EPSILON) * (64.0 * f64::EPSILON);

/// The spread of targets `t` in their own units, which sets the scale of a noise precision:
/// var(t) (the population variance), or for targets constant to within rounding
/// (var(t) ≤ [`CONSTANT_TARGETS`]·tᵀt/N) their mean square tᵀt/N, or 1 if there are none or
/// all are 0. Targets times c give c² times it, for any c.
pub fn target_variance(t: &[f64]) -> f64 {
    let n = t.len() as f64;
    let mean = t.iter().sum::<f64>() / n;
    let var = t.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let mean_square = dot(t, t) / n;
    if var > CONSTANT_TARGETS * mean_square {
        var
    } else if mean_square > 0.0 {
        mean_square
    } else {
        1.0
    }
}

/// Cholesky factor `L` of a symmetric positive-definite matrix `A = LLᵀ`.
#[derive(Debug, Clone)]
pub struct CholeskyFactor {
    chol: Cholesky<f64, Dyn>,
}

impl CholeskyFactor {
    /// Factorises `a`, refusing matrices that are not positive definite in floating point.
    ///
    /// Besides a non-positive pivot (which `nalgebra` reports), a pivot `Lᵢᵢ²` below
    /// `n·ε·maxⱼ Aⱼⱼ` is refused too: there every digit of the solve would be rounding
    /// noise, so the matrix is singular for all practical purposes.
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] naming `matrix` (a formula such as
    /// `"A = αI + βΦᵀΦ"`); [`Error::NotFinite`] if `a` holds NaN or ±∞.
    pub fn new(a: DMatrix<f64>, matrix: &'static str) -> Result<Self> {
        let mut slices = CholeskyInSlices::new(a, matrix)?;
        loop {
            if let Some(factor) = slices.step_within(&mut Budget::unlimited())? {
                return Ok(factor);
            }
        }
    }

    /// Dimension of `A`.
    pub fn dim(&self) -> usize {
        self.chol.l_dirty().nrows()
    }

    /// `A⁻¹b` by forward and back substitution.
    pub fn solve(&self, b: &DVector<f64>) -> DVector<f64> {
        self.chol.solve(b)
    }

    /// `L⁻¹b` (forward substitution); `‖L⁻¹b‖² = bᵀA⁻¹b`.
    pub fn solve_lower(&self, b: &DVector<f64>) -> DVector<f64> {
        let mut x = b.clone();
        // `l_dirty` holds L in its lower triangle; the upper triangle is garbage.
        self.chol.l_dirty().solve_lower_triangular_mut(&mut x);
        x
    }

    /// `L⁻ᵀz` (back substitution). For z ~ N(0, I) this is a draw from N(0, A⁻¹),
    /// since `L⁻ᵀ(L⁻ᵀ)ᵀ = (LLᵀ)⁻¹ = A⁻¹`.
    pub fn solve_upper_transpose(&self, z: &DVector<f64>) -> DVector<f64> {
        let mut x = z.clone();
        self.chol.l_dirty().tr_solve_lower_triangular_mut(&mut x);
        x
    }

    /// The quadratic form `vᵀAv = ‖Lᵀv‖²`, from the lower triangle of L.
    pub fn quadratic_form(&self, v: &DVector<f64>) -> f64 {
        let l = self.chol.l_dirty();
        (0..v.len()).map(|j| (j..v.len()).map(|i| l[(i, j)] * v[i]).sum::<f64>().powi(2)).sum()
    }

    /// `‖L⁻¹bₘ‖² = bₘᵀA⁻¹bₘ` for every column bₘ of the n × `m` matrix B given by its rows
    /// (`row(k)`, m entries each). The forward substitution W = L⁻¹B runs a row at a time,
    ///
    /// row k of W = (row k of B − Σ_{j<k} Lₖⱼ·row j of W) / Lₖₖ,
    ///
    /// each a [`subtract_combination`] along m contiguous entries, and each entry of W takes
    /// the subtractions and the division of solving its column alone. Solving column by
    /// column instead is m solves of order n (a few dozen), too short for their loops to
    /// pay: the fast RVM's S of every candidate, after each change of β at N = 2000, took
    /// several times longer so.
    pub fn whitened_norms_sq<'a>(&self, m: usize, row: impl Fn(usize) -> &'a [f64]) -> Vec<f64> {
        let l = self.chol.l_dirty();
        let mut whitened: Vec<Vec<f64>> = Vec::with_capacity(self.dim());
        let mut norms_sq = vec![0.0; m];
        for k in 0..self.dim() {
            let mut w = row(k)[..m].to_vec();
            subtract_combination(&mut w, k, |j| l[(k, j)], |j| &whitened[j]);
            let pivot = l[(k, k)];
            for (v, s) in w.iter_mut().zip(norms_sq.iter_mut()) {
                *v /= pivot;
                *s += *v * *v;
            }
            whitened.push(w);
        }
        norms_sq
    }

    /// The diagonal of `A⁻¹`: `(A⁻¹)ᵢᵢ = ‖L⁻¹eᵢ‖²`, since `A⁻¹ = L⁻ᵀL⁻¹` (see
    /// [`InverseDiagonalInSlices`]): n³/6 operations in all, a third of solving for the
    /// whole of `L⁻¹`.
    pub fn inverse_diagonal(&self) -> DVector<f64> {
        let mut slices = InverseDiagonalInSlices::new(self);
        loop {
            if let Some(diagonal) = slices.step_within(self, &mut Budget::unlimited()) {
                return diagonal;
            }
        }
    }

    /// `ln|A| = 2 Σᵢ ln Lᵢᵢ`.
    pub fn ln_determinant(&self) -> f64 {
        self.chol.ln_determinant()
    }

    /// The explicit inverse `A⁻¹`, for displaying a covariance (never for solving).
    pub fn inverse(&self) -> DMatrix<f64> {
        self.chol.inverse()
    }
}

/// The Cholesky factorisation `A = LLᵀ` a column at a time (left-looking, as nalgebra's
/// `Cholesky::new`, whose results it reproduces bit for bit): column j of L is
///
/// ```text
/// L[j.., j] = (A[j.., j] − Σ_{k<j} L[j, k]·L[j.., k]) / L[j, j],   L[j, j] = √(that at row j)
/// ```
///
/// with j(n − j) multiply-adds, each column made of contiguous axpys. Between columns the
/// work stops when its [`Budget`] is spent and goes on at the next call.
#[derive(Debug, Clone)]
pub struct CholeskyInSlices {
    /// A, its columns before `next` overwritten by those of L (lower triangle).
    a: DMatrix<f64>,
    /// The next column to factorise.
    next: usize,
    /// A pivot `Lⱼⱼ²` at or below this is refused: `n·ε·maxⱼ Aⱼⱼ`.
    floor: f64,
    matrix: &'static str,
}

impl CholeskyInSlices {
    /// Starts factorising `a`, whose lower triangle is read (symmetric positive definite).
    ///
    /// # Errors
    /// [`Error::NotFinite`] naming `matrix` if `a` holds NaN or ±∞.
    pub fn new(a: DMatrix<f64>, matrix: &'static str) -> Result<Self> {
        crate::error::ensure_all_finite(matrix, a.as_slice())?;
        let max_diag = a.diagonal().iter().fold(0.0_f64, |m, &d| m.max(d));
        let floor = a.nrows() as f64 * f64::EPSILON * max_diag;
        Ok(Self { a, next: 0, floor, matrix })
    }

    /// Columns done and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.a.ncols())
    }

    /// Factorises columns within `budget` (at least one); the factor once the last is done.
    ///
    /// # Errors
    /// [`Error::NotPositiveDefinite`] naming the matrix when a pivot `Lⱼⱼ²` is not above
    /// `n·ε·maxⱼ Aⱼⱼ` (every digit of a solve would be rounding noise: singular for all
    /// practical purposes; NaN is refused too).
    pub fn step_within(&mut self, budget: &mut Budget) -> Result<Option<CholeskyFactor>> {
        let n = self.a.nrows();
        let mut first = true;
        while self.next < n && (first || budget.allows()) {
            first = false;
            let j = self.next;
            self.factorise_column(j)?;
            budget.spend((j * (n - j)) / MULTIPLY_ADDS_PER_UNIT + 1);
            self.next += 1;
        }
        if self.next < n {
            return Ok(None);
        }
        let a = std::mem::replace(&mut self.a, DMatrix::zeros(0, 0));
        Ok(Some(CholeskyFactor { chol: Cholesky::pack_dirty(a) }))
    }

    /// Column j of L from column j of A and the columns of L before it.
    fn factorise_column(&mut self, j: usize) -> Result<()> {
        let n = self.a.nrows();
        let (done, rest) = self.a.as_mut_slice().split_at_mut(j * n);
        let column = &mut rest[j..n];
        let lower = |k: usize| &done[k * n + j..(k + 1) * n];
        subtract_combination(column, j, |k| lower(k)[0], lower);
        let pivot = column[0];
        // `pivot > floor` is false for NaN too.
        if pivot.partial_cmp(&self.floor) != Some(std::cmp::Ordering::Greater) {
            return Err(Error::NotPositiveDefinite { matrix: self.matrix });
        }
        let root = pivot.sqrt();
        column[0] = root;
        for c in &mut column[1..] {
            *c /= root;
        }
        Ok(())
    }
}

/// The diagonal of `A⁻¹` from `A = LLᵀ`, a few entries at a time: `(A⁻¹)ᵢᵢ = ‖L⁻¹eᵢ‖²`,
/// since `A⁻¹ = L⁻ᵀL⁻¹`. `x = L⁻¹eᵢ` is zero above row i, so its forward substitution
/// starts there and runs down the columns of L (contiguous):
///
/// ```text
/// x = eᵢ;  for c = i … n−1:  x_c ← x_c / L_cc,  x[c+1..] ← x[c+1..] − x_c·L[c+1.., c]
/// ```
///
/// (n − i)²/2 multiply-adds for entry i.
#[derive(Debug, Clone)]
pub struct InverseDiagonalInSlices {
    diagonal: Vec<f64>,
    /// Scratch for x.
    x: Vec<f64>,
}

impl InverseDiagonalInSlices {
    /// Starts on the diagonal of the inverse of the matrix `factor` factorises.
    pub fn new(factor: &CholeskyFactor) -> Self {
        Self { diagonal: Vec::with_capacity(factor.dim()), x: vec![0.0; factor.dim()] }
    }

    /// Entries done and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.diagonal.len(), self.x.len())
    }

    /// Computes entries within `budget` (at least one) from `factor` (the same as at
    /// [`InverseDiagonalInSlices::new`]); the diagonal once the last is done.
    pub fn step_within(&mut self, factor: &CholeskyFactor, budget: &mut Budget) -> Option<DVector<f64>> {
        let l = factor.chol.l_dirty();
        let n = l.nrows();
        let data = l.as_slice();
        let mut first = true;
        while self.diagonal.len() < n && (first || budget.allows()) {
            first = false;
            let i = self.diagonal.len();
            let x = &mut self.x[i..];
            x.fill(0.0);
            x[0] = 1.0;
            forward_substitution(data, n, i, x);
            self.diagonal.push(x.iter().map(|v| v * v).sum());
            budget.spend((n - i) * (n - i) / (2 * MULTIPLY_ADDS_PER_UNIT) + 1);
        }
        (self.diagonal.len() == n).then(|| DVector::from_vec(std::mem::take(&mut self.diagonal)))
    }
}

/// Σᵢ aᵢbᵢ over the entries of `a` (`b` at least as long): the inner product every
/// Gram column, Φᵀv and quality factor is made of. The entries are summed in four
/// interleaved partial sums (entry i into sum i mod 4), added as (s₀ + s₂) + (s₁ + s₃), then
/// the last len mod 4 entries in order: four independent chains of additions instead of one,
/// so the loop is bound by loads rather than by the latency of each addition. Built with
/// wasm's `simd128`, the same sums are kept two to a vector register ([`simd::dot`]): the
/// same operations in the same order, so both builds give the same bits.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let b = &b[..a.len()];
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        simd::dot(a, b)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        // Plain index loops: at opt-level "z" iterator adaptors (zip, chunks) are not always
        // inlined, and then the loop goes through memory.
        let whole = a.len() / 4 * 4;
        let (mut s0, mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0, 0.0);
        let mut i = 0;
        while i < whole {
            let (x, y) = (&a[i..i + 4], &b[i..i + 4]);
            s0 += x[0] * y[0];
            s1 += x[1] * y[1];
            s2 += x[2] * y[2];
            s3 += x[3] * y[3];
            i += 4;
        }
        let mut sum = (s0 + s2) + (s1 + s3);
        for i in whole..a.len() {
            sum += a[i] * b[i];
        }
        sum
    }
}

/// The inner products of `x` with each of `vectors` into `out` (each entry as [`dot`]
/// computes it, to the bit), four vectors at a time: each entry of x is loaded once per four.
pub fn dots(x: &[f64], vectors: &[&[f64]], out: &mut [f64]) {
    let n = x.len();
    let (quads, rest) = vectors.split_at(vectors.len() / 4 * 4);
    for (q, v) in quads.chunks_exact(4).enumerate() {
        let four = [&v[0][..n], &v[1][..n], &v[2][..n], &v[3][..n]];
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let sums = simd::dot_four(x, four);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        let sums = four.map(|v| dot(x, v));
        out[4 * q..4 * q + 4].copy_from_slice(&sums);
    }
    for (o, v) in out[quads.len()..vectors.len()].iter_mut().zip(rest) {
        *o = dot(x, v);
    }
}

/// y ← y − Σᵢ aᵢxᵢ over i = 0 … count − 1 in order, aᵢ = `coefficient(i)` and xᵢ =
/// `column(i)` (each at least as long as y). Four terms at a time: each entry of y takes
/// the same subtractions in the same order as one term at a time (so the same bits), but is
/// loaded and stored once per four, which is what bounds these loops in the browser.
pub fn subtract_combination<'a>(
    y: &mut [f64],
    count: usize,
    coefficient: impl Fn(usize) -> f64,
    column: impl Fn(usize) -> &'a [f64],
) {
    let len = y.len();
    let mut i = 0;
    while i + 4 <= count {
        let [x0, x1, x2, x3] = [0, 1, 2, 3].map(|d| &column(i + d)[..len]);
        let [a0, a1, a2, a3] = [0, 1, 2, 3].map(|d| coefficient(i + d));
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        simd::subtract_four(y, [a0, a1, a2, a3], [x0, x1, x2, x3]);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        for (r, v) in y.iter_mut().enumerate() {
            *v = *v - a0 * x0[r] - a1 * x1[r] - a2 * x2[r] - a3 * x3[r];
        }
        i += 4;
    }
    for i in i..count {
        let (a, x) = (coefficient(i), &column(i)[..len]);
        for (v, &xr) in y.iter_mut().zip(x) {
            *v -= a * xr;
        }
    }
}

/// x ← L⁻¹x for the lower triangle of the column-major n × n `l` and an x that is zero
/// above row `first` (`x` holds rows `first`…n − 1), column by column:
/// x_c ← x_c / L_cc, then x[c+1..] −= x_c·L[c+1.., c]. Four columns at a time below their
/// own rows: each entry takes the same subtractions in the same order as one column at a
/// time (so the same bits), loaded and stored once.
fn forward_substitution(l: &[f64], n: usize, first: usize, x: &mut [f64]) {
    let column = |c: usize| &l[c * n + c..(c + 1) * n];
    let mut c = first;
    while c + 4 <= n {
        for d in c..c + 4 {
            let below = column(d);
            let xd = x[d - first] / below[0];
            x[d - first] = xd;
            for (v, &l) in x[d - first + 1..c + 4 - first].iter_mut().zip(&below[1..]) {
                *v -= l * xd;
            }
        }
        let solved: [f64; 4] = std::array::from_fn(|d| x[c + d - first]);
        subtract_combination(&mut x[c + 4 - first..], 4, |d| solved[d], |d| &column(c + d)[4 - d..]);
        c += 4;
    }
    for c in c..n {
        let below = column(c);
        let xc = x[c - first] / below[0];
        x[c - first] = xc;
        for (v, &l) in x[c - first + 1..].iter_mut().zip(&below[1..]) {
            *v -= l * xc;
        }
    }
}

/// The loops of [`dot`] and [`subtract_combination`] on wasm's 128-bit vectors, two f64
/// lanes each, for the build made with `-C target-feature=+simd128` (the page loads it
/// where the browser validates SIMD, and the scalar build elsewhere). Each lane does what
/// the scalar loop does to its entries, in the same order (wasm has no fused multiply-add
/// to change the rounding), so the two builds agree to the bit.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::{
        f64x2_add, f64x2_extract_lane, f64x2_mul, f64x2_splat, f64x2_sub, v128, v128_load, v128_store,
    };

    /// Two f64 from `s[i]`, `s[i + 1]`.
    #[inline(always)]
    fn load(s: &[f64], i: usize) -> v128 {
        assert!(i + 2 <= s.len());
        // SAFETY: entries i and i + 1 are in `s` (checked above); v128_load reads 16 bytes
        // with no alignment requirement.
        unsafe { v128_load(s.as_ptr().add(i).cast()) }
    }

    /// The sums of the scalar [`super::dot`]: lanes of `low` hold s₀, s₁ and of `high`
    /// s₂, s₃; low + high is (s₀ + s₂, s₁ + s₃).
    pub fn dot(a: &[f64], b: &[f64]) -> f64 {
        let (mut low, mut high) = (f64x2_splat(0.0), f64x2_splat(0.0));
        let whole = a.len() / 4 * 4;
        let mut i = 0;
        while i < whole {
            low = f64x2_add(low, f64x2_mul(load(a, i), load(b, i)));
            high = f64x2_add(high, f64x2_mul(load(a, i + 2), load(b, i + 2)));
            i += 4;
        }
        finish(low, high, a, b)
    }

    /// The end of [`dot`] from its partial sums, s₀, s₁ in `low` and s₂, s₃ in `high`:
    /// (s₀ + s₂) + (s₁ + s₃), then the last len mod 4 products of `x` and `v` in order.
    fn finish(low: v128, high: v128, x: &[f64], v: &[f64]) -> f64 {
        let whole = x.len() / 4 * 4;
        let pair = f64x2_add(low, high);
        let mut sum = f64x2_extract_lane::<0>(pair) + f64x2_extract_lane::<1>(pair);
        for i in whole..x.len() {
            sum += x[i] * v[i];
        }
        sum
    }

    /// [`dot`] of `x` with each of four vectors, x loaded once for the four.
    pub fn dot_four(x: &[f64], v: [&[f64]; 4]) -> [f64; 4] {
        let zero = f64x2_splat(0.0);
        let (mut l0, mut h0, mut l1, mut h1) = (zero, zero, zero, zero);
        let (mut l2, mut h2, mut l3, mut h3) = (zero, zero, zero, zero);
        let whole = x.len() / 4 * 4;
        let mut i = 0;
        while i < whole {
            let (low, high) = (load(x, i), load(x, i + 2));
            l0 = f64x2_add(l0, f64x2_mul(low, load(v[0], i)));
            h0 = f64x2_add(h0, f64x2_mul(high, load(v[0], i + 2)));
            l1 = f64x2_add(l1, f64x2_mul(low, load(v[1], i)));
            h1 = f64x2_add(h1, f64x2_mul(high, load(v[1], i + 2)));
            l2 = f64x2_add(l2, f64x2_mul(low, load(v[2], i)));
            h2 = f64x2_add(h2, f64x2_mul(high, load(v[2], i + 2)));
            l3 = f64x2_add(l3, f64x2_mul(low, load(v[3], i)));
            h3 = f64x2_add(h3, f64x2_mul(high, load(v[3], i + 2)));
            i += 4;
        }
        [finish(l0, h0, x, v[0]), finish(l1, h1, x, v[1]), finish(l2, h2, x, v[2]), finish(l3, h3, x, v[3])]
    }

    /// y ← (((y − a₀x₀) − a₁x₁) − a₂x₂) − a₃x₃, entry by entry, two entries at a time.
    pub fn subtract_four(y: &mut [f64], a: [f64; 4], x: [&[f64]; 4]) {
        let len = y.len();
        let [c0, c1, c2, c3] = a.map(|a| f64x2_splat(a));
        let mut r = 0;
        while r + 2 <= len {
            let mut v = load(y, r);
            v = f64x2_sub(v, f64x2_mul(c0, load(x[0], r)));
            v = f64x2_sub(v, f64x2_mul(c1, load(x[1], r)));
            v = f64x2_sub(v, f64x2_mul(c2, load(x[2], r)));
            v = f64x2_sub(v, f64x2_mul(c3, load(x[3], r)));
            // SAFETY: entries r and r + 1 are in `y` (the loop's condition); v128_store
            // writes 16 bytes with no alignment requirement.
            unsafe { v128_store(y.as_mut_ptr().add(r).cast(), v) };
            r += 2;
        }
        if r < len {
            y[r] = y[r] - a[0] * x[0][r] - a[1] * x[1][r] - a[2] * x[2][r] - a[3] * x[3][r];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spd() -> DMatrix<f64> {
        DMatrix::from_row_slice(3, 3, &[4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0])
    }

    #[test]
    fn solve_and_quadratic_form_match_dense_inverse() {
        let a = spd();
        let b = DVector::from_vec(vec![1.0, -2.0, 0.5]);
        let f = CholeskyFactor::new(a.clone(), "A").unwrap();
        let inv = a.clone().try_inverse().unwrap();
        assert!((f.solve(&b) - &inv * &b).norm() < 1e-14);
        assert!((f.quadratic_form(&b) - b.dot(&(&a * &b))).abs() < 1e-13);
        let quad = f.solve_lower(&b).norm_squared();
        assert!((quad - b.dot(&(&inv * &b))).abs() < 1e-14);
        assert!((f.ln_determinant() - a.determinant().ln()).abs() < 1e-13);
        // L⁻ᵀ (L⁻ᵀ)ᵀ = A⁻¹, column by column of the identity.
        let cols: Vec<_> =
            (0..3).map(|j| f.solve_upper_transpose(&DVector::from_fn(3, |i, _| (i == j) as u8 as f64))).collect();
        let m = DMatrix::from_columns(&cols);
        assert!((&m * m.transpose() - inv).norm() < 1e-14);
    }

    #[test]
    fn inverse_diagonal_matches_the_explicit_inverse() {
        let a = spd();
        let want = a.clone().try_inverse().unwrap().diagonal();
        let got = CholeskyFactor::new(a, "A").unwrap().inverse_diagonal();
        assert!((got - &want).norm() <= 1e-12 * want.norm(), "{want}");
    }

    #[test]
    fn singular_and_indefinite_are_errors() {
        let singular = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let indefinite = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        let nearly = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0 + f64::EPSILON]);
        for a in [singular, indefinite, nearly] {
            let e = CholeskyFactor::new(a, "A").unwrap_err();
            assert_eq!(e.code(), "not-positive-definite");
        }
        let nan = DMatrix::from_row_slice(1, 1, &[f64::NAN]);
        assert_eq!(CholeskyFactor::new(nan, "A").unwrap_err().code(), "not-finite");
    }

    /// A 40 × 40 symmetric positive-definite matrix with entries of both signs: BᵀB + I for
    /// a fixed B of values in (−1, 1).
    fn larger_spd() -> DMatrix<f64> {
        let b = DMatrix::from_fn(40, 40, |i, j| (((i * 37 + j * 11) % 23) as f64 / 11.5) - 1.0);
        b.transpose() * &b + DMatrix::identity(40, 40)
    }

    #[test]
    fn whitened_norms_are_the_quadratic_forms_of_the_inverse() {
        let a = larger_spd();
        let inverse = a.clone().try_inverse().unwrap();
        let factor = CholeskyFactor::new(a, "A").unwrap();
        // B: 40 × 7, given by its rows.
        let b = DMatrix::from_fn(40, 7, |i, j| ((i * 13 + j * 29) % 17) as f64 / 8.5 - 1.0);
        let rows: Vec<Vec<f64>> = b.row_iter().map(|r| r.iter().copied().collect()).collect();
        let got = factor.whitened_norms_sq(7, |k| rows[k].as_slice());
        for (m, column) in b.column_iter().enumerate() {
            let want = column.dot(&(&inverse * column));
            assert!((got[m] - want).abs() <= 1e-10 * want, "column {m}: {} against {want}", got[m]);
        }
        assert_eq!(
            CholeskyFactor::new(DMatrix::identity(1, 1), "I").unwrap().whitened_norms_sq(2, |_| &[3.0, -4.0]),
            [9.0, 16.0]
        );
    }

    #[test]
    fn the_factorisation_in_slices_is_nalgebras_bit_for_bit() {
        let a = larger_spd();
        let want = Cholesky::new(a.clone()).unwrap().unpack();
        let mut slices = CholeskyInSlices::new(a.clone(), "A").unwrap();
        let mut calls = 0;
        let factor = loop {
            calls += 1;
            if let Some(factor) = slices.step_within(&mut Budget::units(1)).unwrap() {
                break factor;
            }
            assert_eq!(slices.progress(), (calls, 40), "one column per call with one unit");
        };
        assert_eq!(calls, 40);
        assert_eq!(factor.chol.clone().unpack(), want, "the same bits");
        assert_eq!(CholeskyFactor::new(a, "A").unwrap().chol.unpack(), want);
    }

    #[test]
    fn the_inverse_diagonal_in_slices_is_the_whole_one() {
        let a = larger_spd();
        let factor = CholeskyFactor::new(a.clone(), "A").unwrap();
        let want = a.try_inverse().unwrap().diagonal();
        let whole = factor.inverse_diagonal();
        assert!((&whole - &want).norm() <= 1e-12 * want.norm());
        let mut slices = InverseDiagonalInSlices::new(&factor);
        let mut calls = 0;
        let sliced = loop {
            calls += 1;
            if let Some(diagonal) = slices.step_within(&factor, &mut Budget::units(1)) {
                break diagonal;
            }
        };
        assert_eq!((calls, sliced), (40, whole));
    }

    #[test]
    fn a_singular_matrix_is_refused_in_slices_at_its_pivot() {
        let mut a = larger_spd();
        // Row and column 30 a copy of row and column 29: the pivot of column 30 vanishes.
        let (c29, d) = (a.column(29).clone_owned(), a[(29, 29)]);
        a.set_column(30, &c29);
        a.set_row(30, &c29.transpose());
        a[(30, 30)] = d;
        let mut slices = CholeskyInSlices::new(a, "A").unwrap();
        let mut budget = Budget::units(usize::MAX);
        assert_eq!(slices.step_within(&mut budget).unwrap_err().code(), "not-positive-definite");
        assert_eq!(slices.progress(), (30, 40), "stopped at column 30");
    }

    #[test]
    fn dot_sums_in_four_interleaved_partial_sums() {
        // Whole numbers: every partial sum exact, so the result is the exact Σ aᵢbᵢ, for
        // every length mod 4 (and a longer b, of which only a's length counts).
        for n in 0..=11 {
            let a: Vec<f64> = (0..n).map(|i| (i as f64) - 3.0).collect();
            let b: Vec<f64> = (0..n + 2).map(|i| 2.0 * i as f64 + 1.0).collect();
            let want: f64 = (0..n).map(|i| ((i as f64) - 3.0) * (2.0 * i as f64 + 1.0)).sum();
            assert_eq!(dot(&a, &b), want, "n = {n}");
        }
        // The order of the sums, seen through rounding: 1 and −1 (entries 0 and 4) cancel within
        // partial sum 0 before 2⁻⁶⁰ (in sum 1) is added; one running sum would lose it against 1.
        let tiny = 2f64.powi(-60);
        assert_eq!(dot(&[1.0, tiny, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0], &[1.0; 8]), tiny);
        // Against a sum in one chain, on numbers that round.
        let a: Vec<f64> = (0..103).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..103).map(|i| (i as f64 * 0.11).cos()).collect();
        let chain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - chain).abs() <= 1e-14 * chain.abs().max(1.0));
    }

    #[test]
    fn dots_are_dot_for_each_vector_to_the_bit() {
        let x: Vec<f64> = (0..37).map(|i| (i as f64 * 0.7).sin()).collect();
        let vectors: Vec<Vec<f64>> = (0..5).map(|k| (0..40).map(|i| ((i * (k + 2)) as f64).cos()).collect()).collect();
        let slices: Vec<&[f64]> = vectors.iter().map(Vec::as_slice).collect();
        for count in 0..=5 {
            let mut out = vec![f64::NAN; count];
            dots(&x, &slices[..count], &mut out);
            let want: Vec<f64> = slices[..count].iter().map(|v| dot(&x, v)).collect();
            assert_eq!(out, want, "{count} vectors");
        }
    }
}
