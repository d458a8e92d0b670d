//! The evidence at any (α, β) in O(M), from one eigendecomposition of ΦᵀΦ (lecture notes on
//! linear models, eq 36).
//!
//! With ΦᵀΦ = UΛUᵀ (eigenvalues λᵢ, orthonormal eigenvectors uᵢ), the posterior precision A
//! = αI + βΦᵀΦ (PRML 3.81, lecture notes on linear models, eq 31) has the same eigenvectors
//! and the eigenvalues
//!
//! ```text
//! dᵢ = α + βλᵢ
//! ```
//!
//! so every quantity of the evidence framework is a sum over i of scalars. Writing
//! qᵢ = uᵢᵀΦᵀt for the coordinates of Φᵀt in the eigenbasis:
//!
//! ```text
//! m_N        = Σᵢ cᵢuᵢ,  cᵢ = βqᵢ/dᵢ           (A m_N = βΦᵀt, PRML 3.84, lecture notes on linear models, eq 32)
//! m_Nᵀm_N    = Σᵢ cᵢ² = β² Σᵢ qᵢ²/dᵢ²
//! Tr S_N     = Σᵢ 1/dᵢ                          (S_N = A⁻¹)
//! ln|A|      = Σᵢ ln dᵢ
//! γ          = Σᵢ βλᵢ/dᵢ = M − α Tr S_N         (lecture notes on linear models, eq 39, PRML 3.91, 9.64)
//! ‖t − Φm_N‖² = tᵀt − 2m_NᵀΦᵀt + m_NᵀΦᵀΦm_N
//!            = tᵀt − β Σᵢ qᵢ²/dᵢ − αβ Σᵢ qᵢ²/dᵢ²
//! ```
//!
//! where the last line uses −2cᵢqᵢ + λᵢcᵢ² = −βqᵢ²(dᵢ + α)/dᵢ². Directions with λᵢ = 0
//! (M > N, or collinear columns) simply have dᵢ = α and contribute nothing to γ; no
//! quantity divides by λᵢ, so a singular ΦᵀΦ is fine. The residual is a difference, so it
//! is clamped at 0: when t lies in the span of Φ it is exact to rounding (≈ ε·tᵀt).

use nalgebra::{DMatrix, DVector, SymmetricEigen};
use serde::Serialize;

use crate::error::{Bound, Compact, Error, Result, ensure_finite, ensure_result};
use crate::error::{check_design, check_whole};
use crate::grid::Surface;
use crate::linalg::SVD_SWEEPS_PER_VALUE;

/// Largest |ln α| or |ln β| a surface may span: e³⁰⁰ ≈ 2·10¹³⁰, far past any useful
/// precision, while the sums stay finite.
pub const MAX_LN_PRECISION: u64 = 300;

/// Most cells along either side of a surface (10⁶ cells in all at most).
pub const MAX_GRID_SIDE: usize = 1000;

/// ΦᵀΦ as error messages name it.
const GRAM: &str = "ΦᵀΦ";

/// Everything the evidence framework needs of (Φ, t), diagonalised once.
///
/// Built by one symmetric eigendecomposition of ΦᵀΦ; afterwards each (α, β) costs O(M),
/// whatever N. See the module documentation for the formulas.
#[derive(Debug, Clone)]
pub struct Spectrum {
    /// λᵢ ≥ 0, eigenvalues of ΦᵀΦ (those that are zero up to rounding set to exactly 0).
    eigenvalues: DVector<f64>,
    /// qᵢ = uᵢᵀΦᵀt.
    projections: DVector<f64>,
    /// The eigenvectors uᵢ, as columns in the order of the eigenvalues.
    eigenvectors: DMatrix<f64>,
    /// tᵀt.
    targets_norm_sq: f64,
    /// N, the number of targets.
    n: usize,
}

/// The evidence framework's quantities at one (α, β), from one O(M) pass over the spectrum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Evaluation {
    /// Prior precision α.
    pub alpha: f64,
    /// Noise precision β.
    pub beta: f64,
    /// γ = Σᵢ βλᵢ/(α + βλᵢ), the effective number of parameters (lecture notes on linear
    /// models, eq 39, PRML 3.91).
    pub gamma: f64,
    /// m_Nᵀm_N = β² Σᵢ qᵢ²/(α + βλᵢ)².
    pub mean_norm_sq: f64,
    /// ‖t − Φm_N‖² = tᵀt − β Σᵢ qᵢ²/dᵢ − αβ Σᵢ qᵢ²/dᵢ², clamped at 0.
    pub residual_sq: f64,
    /// Tr S_N = Σᵢ 1/(α + βλᵢ).
    pub trace_covariance: f64,
    /// ln|A| = Σᵢ ln(α + βλᵢ).
    pub ln_det_precision: f64,
    /// ln p(t|α,β) (PRML 3.86); see [`Spectrum::log_evidence`].
    pub log_evidence: f64,
}

impl Evaluation {
    /// Whether every number is finite.
    pub fn is_finite(&self) -> bool {
        [
            self.alpha,
            self.beta,
            self.gamma,
            self.mean_norm_sq,
            self.residual_sq,
            self.trace_covariance,
            self.ln_det_precision,
            self.log_evidence,
        ]
        .iter()
        .all(|v| v.is_finite())
    }
}

/// The log evidence sampled over a grid of (ln α, ln β), and its largest cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceGrid {
    /// ln p(t|α,β) at the cell centres; x is ln α, y is ln β, so `values[iy·nx + ix]` is
    /// the cell (ln α)ᵢₓ, (ln β)ᵢᵧ. No levels are set: see [`Surface::with_geometric_levels`].
    pub surface: Surface,
    /// The cell with the largest value.
    pub argmax: GridMaximum,
}

impl EvidenceGrid {
    /// ln p(t|α,β) at the cell centres, row by row from the smallest ln β (index iy·nx + ix).
    pub fn values(&self) -> &[f64] {
        &self.surface.values
    }
}

/// The largest cell of an [`EvidenceGrid`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GridMaximum {
    /// Column: the index along ln α.
    pub ix: usize,
    /// Row: the index along ln β.
    pub iy: usize,
    /// ln α at the cell centre.
    pub ln_alpha: f64,
    /// ln β at the cell centre.
    pub ln_beta: f64,
    /// ln p(t|α,β) there.
    pub log_evidence: f64,
}

impl Spectrum {
    /// Diagonalises ΦᵀΦ = UΛUᵀ once (nalgebra's `SymmetricEigen`) and keeps λᵢ,
    /// qᵢ = uᵢᵀΦᵀt, tᵀt and N.
    ///
    /// Eigenvalues up to c = max(N, M)·ε·λ_max are rounding noise of a zero eigenvalue
    /// (M > N, or collinear columns; the cut-off the SVD of [`crate::linear`] uses, squared
    /// singular values being eigenvalues here): such a direction gets λᵢ = 0 and qᵢ = 0, as
    /// for an exact null direction of Φ, where qᵢ = uᵢᵀΦᵀt = (Φuᵢ)ᵀt = 0. Left in, a noise
    /// λᵢ ≈ 10⁻¹⁶ would count βλᵢ/(α + βλᵢ) ≈ 1 towards γ once β/α ≫ 10¹⁶, pushing γ past
    /// rank Φ.
    ///
    /// # Errors
    /// [`Error::NoData`], [`Error::DimensionMismatch`], [`Error::OutOfRange`] (M = 0) and
    /// [`Error::NotFinite`] as [`check_design`] says, and [`Error::NotFinite`] if ΦᵀΦ
    /// overflows; [`Error::NotConverged`] if the eigenvalue iteration exceeds its budget
    /// ([`SVD_SWEEPS_PER_VALUE`] sweeps per eigenvalue, never seen on finite input).
    pub fn new(phi: &DMatrix<f64>, t: &[f64]) -> Result<Self> {
        check_design(phi, t)?;
        let gram = phi.tr_mul(phi);
        if let Some(&entry) = gram.iter().find(|v| !v.is_finite()) {
            return Err(Error::overflow(GRAM, entry));
        }
        let t = DVector::from_column_slice(t);
        let targets_norm_sq = ensure_result("tᵀt", t.norm_squared())?;
        let iterations = SVD_SWEEPS_PER_VALUE * gram.nrows();
        let algorithm = "eigendecomposition of ΦᵀΦ";
        let eigen = SymmetricEigen::try_new(gram, f64::EPSILON, iterations)
            .ok_or(Error::NotConverged { algorithm, iterations })?;
        let mut projections = eigen.eigenvectors.tr_mul(&phi.tr_mul(&t));
        let mut eigenvalues = eigen.eigenvalues;
        let cutoff = null_cutoff(&eigenvalues, t.len());
        for (lambda, q) in eigenvalues.iter_mut().zip(projections.iter_mut()) {
            if *lambda <= cutoff {
                (*lambda, *q) = (0.0, 0.0);
            }
        }
        Ok(Self { eigenvalues, projections, eigenvectors: eigen.eigenvectors, targets_norm_sq, n: t.len() })
    }

    /// N, the number of targets.
    pub fn n(&self) -> usize {
        self.n
    }

    /// M, the number of basis functions.
    pub fn m(&self) -> usize {
        self.eigenvalues.len()
    }

    /// λᵢ, the eigenvalues of ΦᵀΦ (in nalgebra's order, not sorted), all ≥ 0; those that
    /// are zero up to rounding are exactly 0 (see [`Spectrum::new`]).
    pub fn eigenvalues(&self) -> &[f64] {
        self.eigenvalues.as_slice()
    }

    /// qᵢ = uᵢᵀΦᵀt, in the order of [`Spectrum::eigenvalues`].
    pub fn projections(&self) -> &[f64] {
        self.projections.as_slice()
    }

    /// tᵀt.
    pub fn targets_norm_sq(&self) -> f64 {
        self.targets_norm_sq
    }

    /// All quantities at (α, β), in one O(M) pass; see the module documentation.
    ///
    /// Meant for α > 0 and β > 0 (as [`crate::bayes::Hyperparameters`] guarantees); other
    /// values give meaningless numbers (possibly NaN), never a panic.
    pub fn evaluate(&self, alpha: f64, beta: f64) -> Evaluation {
        let mut sums = Sums::default();
        for (&lambda, &q) in self.eigenvalues.iter().zip(self.projections.iter()) {
            sums.add(alpha, beta, lambda, q);
        }
        let mean_norm_sq = beta * beta * sums.q_sq_over_d_sq;
        let residual_sq =
            (self.targets_norm_sq - beta * sums.q_sq_over_d - alpha * beta * sums.q_sq_over_d_sq).max(0.0);
        let (n, m) = (self.n as f64, self.m() as f64);
        // E(m_N) = β/2 ‖t − Φm_N‖² + α/2 m_Nᵀm_N (PRML 3.82, lecture notes on linear
        // models, eq 33).
        let misfit = 0.5 * beta * residual_sq + 0.5 * alpha * mean_norm_sq;
        let log_evidence = 0.5 * m * alpha.ln() + 0.5 * n * beta.ln()
            - misfit
            - 0.5 * sums.ln_det
            - 0.5 * n * std::f64::consts::TAU.ln();
        Evaluation {
            alpha,
            beta,
            gamma: sums.gamma,
            mean_norm_sq,
            residual_sq,
            trace_covariance: sums.trace,
            ln_det_precision: sums.ln_det,
            log_evidence,
        }
    }

    /// The posterior mean m_N = Σᵢ cᵢuᵢ with cᵢ = βqᵢ/(α + βλᵢ) (A m_N = βΦᵀt, PRML 3.84,
    /// lecture notes on linear models, eq 32), in O(M²): a sweep over α forms ΦᵀΦ and solves
    /// nothing again. Null directions (λᵢ = qᵢ = 0) add nothing, as in exact arithmetic.
    ///
    /// Meant for α > 0 and β > 0, as [`Spectrum::evaluate`].
    pub fn mean(&self, alpha: f64, beta: f64) -> DVector<f64> {
        let coefficients = self.eigenvalues.zip_map(&self.projections, |lambda, q| beta * q / (alpha + beta * lambda));
        &self.eigenvectors * coefficients
    }

    /// The log evidence (log marginal likelihood), PRML 3.86:
    ///
    /// ```text
    /// ln p(t|α,β) = M/2 ln α + N/2 ln β − E(m_N) − ½ ln|A| − N/2 ln 2π
    /// E(m_N)      = β/2 ‖t − Φm_N‖² + α/2 m_Nᵀm_N          (PRML 3.82, lecture notes on linear models, eq 33)
    /// ln|A|       = Σᵢ ln(α + βλᵢ)
    /// ```
    ///
    /// The seed's eq 35 prints −M/2 ln 2π: a typo, since p(t|α,β) is a density over the N
    /// targets (lecture notes on linear models, eq 28 has (β/2π)^(N/2)(α/2π)^(M/2) and the
    /// integral gives back (2π)^(M/2), leaving (2π)^(−N/2)). Equals
    /// [`crate::bayes::Posterior::log_evidence`].
    pub fn log_evidence(&self, alpha: f64, beta: f64) -> f64 {
        self.evaluate(alpha, beta).log_evidence
    }

    /// γ = Σᵢ βλᵢ/(α + βλᵢ) (lecture notes on linear models, eq 39, PRML 3.91): how many
    /// directions the data determine, 0 ≤ γ < rank Φ ≤ min(N, M).
    pub fn gamma(&self, alpha: f64, beta: f64) -> f64 {
        self.evaluate(alpha, beta).gamma
    }

    /// m_Nᵀm_N = Σᵢ (βqᵢ/(α + βλᵢ))².
    pub fn mean_norm_sq(&self, alpha: f64, beta: f64) -> f64 {
        self.evaluate(alpha, beta).mean_norm_sq
    }

    /// ‖t − Φm_N‖² = tᵀt − β Σᵢ qᵢ²/dᵢ − αβ Σᵢ qᵢ²/dᵢ² with dᵢ = α + βλᵢ, clamped at 0.
    pub fn residual_sq(&self, alpha: f64, beta: f64) -> f64 {
        self.evaluate(alpha, beta).residual_sq
    }

    /// Tr S_N = Σᵢ 1/(α + βλᵢ).
    pub fn trace_covariance(&self, alpha: f64, beta: f64) -> f64 {
        self.evaluate(alpha, beta).trace_covariance
    }

    /// The gradient of ln p(t|α,β) in log coordinates, (∂/∂ln α, ∂/∂ln β) = (α∂/∂α, β∂/∂β):
    ///
    /// ```text
    /// ∂ln p/∂α = M/(2α) − ½ m_Nᵀm_N − ½ Σᵢ 1/(α + βλᵢ)      (lecture notes on linear models, eq 37)
    /// ∂ln p/∂β = N/(2β) − ½ ‖t − Φm_N‖² − γ/(2β)           (lecture notes on linear models, eq 41)
    /// ⇒ ∂ln p/∂ln α = ½(γ − α m_Nᵀm_N),   ∂ln p/∂ln β = ½(N − γ − β‖t − Φm_N‖²)
    /// ```
    ///
    /// using M − α Σᵢ 1/dᵢ = γ (lecture notes on linear models, eq 39). Both vanish exactly
    /// at the fixed point of lecture notes on linear models, eq 45.
    pub fn gradient_ln(&self, alpha: f64, beta: f64) -> (f64, f64) {
        let e = self.evaluate(alpha, beta);
        (0.5 * (e.gamma - alpha * e.mean_norm_sq), 0.5 * (self.n as f64 - e.gamma - beta * e.residual_sq))
    }

    /// ln p(t|α,β) at the centres of an nx × ny grid over ln α ∈ `ln_alpha` (x, columns)
    /// and ln β ∈ `ln_beta` (y, rows), in the layout of [`Surface::sample`]:
    /// `values[iy·nx + ix]`, rows from the bottom. Each cell costs O(M).
    ///
    /// # Errors
    /// [`Error::NotFinite`] for a NaN/∞ range end; [`Error::OutOfRange`] for a range end
    /// beyond ±[`MAX_LN_PRECISION`], or nx, ny outside 1..=[`MAX_GRID_SIDE`].
    pub fn surface(&self, ln_alpha: (f64, f64), ln_beta: (f64, f64), nx: usize, ny: usize) -> Result<EvidenceGrid> {
        check_ln_range("ln α", ln_alpha)?;
        check_ln_range("ln β", ln_beta)?;
        check_whole("nx", nx, 1, MAX_GRID_SIDE)?;
        check_whole("ny", ny, 1, MAX_GRID_SIDE)?;
        let step_a = (ln_alpha.1 - ln_alpha.0) / nx as f64;
        let step_b = (ln_beta.1 - ln_beta.0) / ny as f64;
        let surface = if (step_a - step_b).abs() <= 1e-12 * step_a.abs().max(step_b.abs()) {
            self.surface_by_ratio(ln_alpha, ln_beta, nx, ny)
        } else {
            Surface::sample(ln_alpha, ln_beta, nx, ny, |la, lb| self.log_evidence(la.exp(), lb.exp()))
        };
        let argmax = grid_maximum(&surface);
        Ok(EvidenceGrid { surface, argmax })
    }

    /// The sums that depend on (α, β) only through r = α/β: with dᵢ = β(r + λᵢ),
    /// m_N = (rI + ΦᵀΦ)⁻¹Φᵀt depends on r alone, and so do γ, m_Nᵀm_N and ‖t − Φm_N‖²;
    /// ln|A| = M ln β + Σᵢ ln(r + λᵢ).
    fn ratio_sums(&self, r: f64) -> RatioSums {
        let mut sums = RatioSums::default();
        for (&lambda, &q) in self.eigenvalues.iter().zip(self.projections.iter()) {
            let e = r + lambda;
            sums.q_sq_over_e += q * q / e;
            sums.q_sq_over_e_sq += (q / e) * (q / e);
            sums.ln_e += e.ln();
        }
        sums
    }

    /// ln p(t|α,β) (PRML 3.86) from the ratio sums at r = α/β, in O(1):
    /// m_Nᵀm_N = Σ qᵢ²/eᵢ², ‖t − Φm_N‖² = tᵀt − Σ qᵢ²/eᵢ − r Σ qᵢ²/eᵢ² with eᵢ = r + λᵢ.
    /// `a` and `b` are (ln, exp) of α and β, computed once per column and row.
    fn log_evidence_by_ratio(
        &self,
        (ln_alpha, alpha): (f64, f64),
        (ln_beta, beta): (f64, f64),
        sums: &RatioSums,
    ) -> f64 {
        let (n, m) = (self.n as f64, self.m() as f64);
        let mean_norm_sq = sums.q_sq_over_e_sq;
        let residual_sq = (self.targets_norm_sq - sums.q_sq_over_e - (alpha / beta) * mean_norm_sq).max(0.0);
        let misfit = 0.5 * beta * residual_sq + 0.5 * alpha * mean_norm_sq;
        let ln_det = m * ln_beta + sums.ln_e;
        0.5 * m * ln_alpha + 0.5 * n * ln_beta - misfit - 0.5 * ln_det - 0.5 * n * std::f64::consts::TAU.ln()
    }

    /// The surface on a grid with equal steps in ln α and ln β: there ln r = ln α − ln β
    /// takes only nx + ny − 1 values, so the O(M) sums are made once per value of r and
    /// every cell costs O(1) — the same numbers as [`Spectrum::log_evidence`] per cell.
    fn surface_by_ratio(&self, ln_alpha: (f64, f64), ln_beta: (f64, f64), nx: usize, ny: usize) -> Surface {
        let mut surface = Surface::sample(ln_alpha, ln_beta, nx, ny, |_, _| 0.0);
        // Diagonal k = ix − iy + (ny − 1) holds the cells with ln r = ln α_ix − ln β_iy.
        let sums: Vec<RatioSums> = (0..nx + ny - 1)
            .map(|k| {
                let (ix, iy) = if k < ny { (0, ny - 1 - k) } else { (k - (ny - 1), 0) };
                let (la, lb) = surface.cell_centre(ix, iy);
                self.ratio_sums((la - lb).exp())
            })
            .collect();
        let with_exp = |v: f64| (v, v.exp());
        let alphas: Vec<(f64, f64)> = (0..nx).map(|ix| with_exp(surface.cell_centre(ix, 0).0)).collect();
        for iy in 0..ny {
            let b = with_exp(surface.cell_centre(0, iy).1);
            for (ix, &a) in alphas.iter().enumerate() {
                surface.values[iy * nx + ix] = self.log_evidence_by_ratio(a, b, &sums[ix + ny - 1 - iy]);
            }
        }
        surface
    }
}

/// c = max(N, M)·ε·max(λ_max, 0): eigenvalues of ΦᵀΦ at or below it are zero up to rounding.
fn null_cutoff(eigenvalues: &DVector<f64>, n: usize) -> f64 {
    let lambda_max = eigenvalues.iter().fold(0.0_f64, |m, &l| m.max(l));
    n.max(eigenvalues.len()) as f64 * f64::EPSILON * lambda_max
}

/// Sums over the eigen-directions at one ratio r = α/β, with eᵢ = r + λᵢ.
#[derive(Default)]
struct RatioSums {
    /// Σ qᵢ²/eᵢ.
    q_sq_over_e: f64,
    /// Σ qᵢ²/eᵢ².
    q_sq_over_e_sq: f64,
    /// Σ ln eᵢ.
    ln_e: f64,
}

/// Running sums over the eigen-directions at one (α, β), with dᵢ = α + βλᵢ.
#[derive(Default)]
struct Sums {
    /// Σ βλᵢ/dᵢ = γ.
    gamma: f64,
    /// Σ 1/dᵢ = Tr S_N.
    trace: f64,
    /// Σ ln dᵢ = ln|A|.
    ln_det: f64,
    /// Σ qᵢ²/dᵢ.
    q_sq_over_d: f64,
    /// Σ qᵢ²/dᵢ².
    q_sq_over_d_sq: f64,
}

impl Sums {
    /// Adds the direction with eigenvalue `lambda` and projection `q`.
    fn add(&mut self, alpha: f64, beta: f64, lambda: f64, q: f64) {
        let d = alpha + beta * lambda;
        let q_over_d = q / d;
        self.gamma += beta * lambda / d;
        self.trace += 1.0 / d;
        self.ln_det += d.ln();
        self.q_sq_over_d += q * q_over_d;
        self.q_sq_over_d_sq += q_over_d * q_over_d;
    }
}

/// Checks a range of ln α or ln β: finite ends within ±[`MAX_LN_PRECISION`].
fn check_ln_range(name: &'static str, (lo, hi): (f64, f64)) -> Result<()> {
    for end in [lo, hi] {
        ensure_finite(name, end)?;
        if end.abs() > MAX_LN_PRECISION as f64 {
            let bound = Bound::AtMost { max: MAX_LN_PRECISION };
            let name = if name == "ln α" { "|ln α|" } else { "|ln β|" };
            return Err(Error::OutOfRange { name, value: Compact(end.abs()).to_string(), bound });
        }
    }
    Ok(())
}

/// The cell with the largest value (the first of equals; NaN cells never win, and an
/// all-NaN grid gives cell (0, 0)).
fn grid_maximum(surface: &Surface) -> GridMaximum {
    let best = surface.values.iter().enumerate().filter(|(_, v)| !v.is_nan()).fold(
        None,
        |best: Option<(usize, f64)>, (i, &v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((i, v)),
        },
    );
    let (index, log_evidence) = best.unwrap_or((0, f64::NAN));
    let (ix, iy) = (index % surface.nx, index / surface.nx);
    let (ln_alpha, ln_beta) = surface.cell_centre(ix, iy);
    GridMaximum { ix, iy, ln_alpha, ln_beta, log_evidence }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_ratio_surface_equals_the_cell_by_cell_one() {
        // Equal steps in ln α and ln β take the O(1)-per-cell path; compare every cell with
        // the O(M) evaluation of the same point, on a design with M > N (zero eigenvalues).
        let phi = DMatrix::from_fn(5, 7, |i, j| ((i * 7 + j) as f64 * 0.37).sin());
        let spectrum = Spectrum::new(&phi, &[0.3, -1.2, 0.8, 2.0, -0.4]).unwrap();
        let grid = spectrum.surface((-6.0, 4.0), (-3.0, 7.0), 40, 40).unwrap();
        for iy in 0..40 {
            for ix in 0..40 {
                let (la, lb) = grid.surface.cell_centre(ix, iy);
                let direct = spectrum.log_evidence(la.exp(), lb.exp());
                let fast = grid.values()[iy * 40 + ix];
                assert!((fast - direct).abs() <= 1e-10 * direct.abs().max(1.0), "({ix}, {iy}): {fast} vs {direct}");
            }
        }
    }
    use super::*;

    /// Φ = [1; 1], t = (1, 3): λ = 2, q = ±4 (the sign of u is nalgebra's), tᵀt = 10.
    fn two_points() -> Spectrum {
        Spectrum::new(&DMatrix::from_element(2, 1, 1.0), &[1.0, 3.0]).unwrap()
    }

    #[test]
    fn one_weight_by_hand() {
        let s = two_points();
        assert_eq!((s.n(), s.m(), s.targets_norm_sq()), (2, 1, 10.0));
        assert!((s.eigenvalues()[0] - 2.0).abs() < 1e-15);
        // α = β = 1: A = 3, m = 4/3, S = 1/3, γ = 2/3, residual = (1 − 4/3)² + (3 − 4/3)² = 26/9.
        let e = s.evaluate(1.0, 1.0);
        assert!((e.mean_norm_sq - 16.0 / 9.0).abs() < 1e-14);
        assert!((e.trace_covariance - 1.0 / 3.0).abs() < 1e-15);
        assert!((e.gamma - 2.0 / 3.0).abs() < 1e-15);
        assert!((e.residual_sq - 26.0 / 9.0).abs() < 1e-14);
        assert!((s.mean(1.0, 1.0)[0] - 4.0 / 3.0).abs() < 1e-15);
        // ln p = ln N(t | 0, I + 11ᵀ): det 3, tᵀC⁻¹t = 10 − 16/3 = 14/3.
        let want = -0.5 * (14.0 / 3.0) - 0.5 * 3.0_f64.ln() - std::f64::consts::TAU.ln();
        assert!((e.log_evidence - want).abs() < 1e-14);
    }

    #[test]
    fn the_mean_solves_the_normal_equations() {
        // m_N from the eigenbasis solves (αI + βΦᵀΦ) m = βΦᵀt to rounding (a backward error
        // of well under 10³ε), and agrees with the Cholesky solve of Posterior::fit to about ε·κ(A),
        // for a tall and a wide (M > N, null directions) design.
        use crate::bayes::{Hyperparameters, Posterior};
        for (n, m) in [(30, 6), (4, 7)] {
            let phi = DMatrix::from_fn(n, m, |i, j| ((i * m + j) as f64 * 0.61).cos());
            let t = DVector::from_fn(n, |i, _| (i as f64 * 0.9).sin());
            let spectrum = Spectrum::new(&phi, t.as_slice()).unwrap();
            for (alpha, beta) in [(1e-3, 25.0), (2.0, 0.5), (1e3, 1e3)] {
                let got = spectrum.mean(alpha, beta);
                let a = DMatrix::identity(m, m) * alpha + phi.tr_mul(&phi) * beta;
                let backward = (&a * &got - phi.tr_mul(&t) * beta).norm() / (a.norm() * got.norm());
                assert!(backward < 1e-13, "{n}×{m}, α {alpha}, β {beta}: backward error {backward:e}");
                let want = Posterior::fit(&phi, t.as_slice(), Hyperparameters::new(alpha, beta).unwrap()).unwrap();
                let d = spectrum.eigenvalues().iter().map(|l| alpha + beta * l);
                let kappa = d.clone().fold(0.0, f64::max) / d.fold(f64::INFINITY, f64::min);
                let error = (&got - want.mean()).norm() / want.mean().norm();
                assert!(error <= 1e-12 * kappa, "{n}×{m}, α {alpha}, β {beta}: {error:e}, κ(A) {kappa:e}");
            }
        }
    }

    #[test]
    fn exact_fit_and_wide_basis_stay_finite() {
        // M = 3 > N = 2 and t in the span: a zero eigenvalue and a zero residual.
        let phi = DMatrix::from_row_slice(2, 3, &[1.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        let s = Spectrum::new(&phi, &[1.0, -2.0]).unwrap();
        assert!(s.eigenvalues().iter().all(|&l| l >= 0.0));
        let e = s.evaluate(1e-8, 1e8);
        assert!(e.is_finite(), "{e:?}");
        assert!(e.residual_sq < 1e-12, "{e:?}");
        // γ < rank Φ = 2, up to rounding: here 2 − 10⁻¹⁶ rounds to 2.
        assert!(e.gamma <= 2.0 && s.gamma(1.0, 1.0) < 2.0);
        let (ga, gb) = s.gradient_ln(1e-8, 1e8);
        assert!(ga.is_finite() && gb.is_finite());
    }

    #[test]
    fn surface_layout_and_checks() {
        let s = two_points();
        let grid = s.surface((-2.0, 2.0), (-3.0, 1.0), 4, 2).unwrap();
        assert_eq!(grid.values().len(), 8);
        // Cell (ix, iy) = (1, 1) is ln α = −0.5, ln β = 0.
        assert_eq!(grid.values()[4 + 1], s.log_evidence((-0.5_f64).exp(), 1.0));
        let best = grid.values().iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(grid.argmax.log_evidence, best);
        assert_eq!(grid.values()[grid.argmax.iy * 4 + grid.argmax.ix], best);
        assert_eq!(s.surface((0.0, 1.0), (0.0, 1.0), 0, 2).unwrap_err().code(), "out-of-range");
        assert_eq!(
            s.surface((0.0, 301.0), (0.0, 1.0), 2, 2).unwrap_err().to_string(),
            "|ln α| must be at most 300, but is 301"
        );
        assert_eq!(s.surface((0.0, 1.0), (f64::NAN, 1.0), 2, 2).unwrap_err().code(), "not-finite");
    }
}
