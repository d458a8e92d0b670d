//! Dense linear algebra the models share: a checked Cholesky factorisation, and the
//! iteration cap of the SVD and eigendecompositions.
//!
//! The models never form an explicit inverse. A symmetric positive-definite matrix
//! `A = LLᵀ` is factorised once; solves, quadratic forms `xᵀA⁻¹x = ‖L⁻¹x‖²`, the log
//! determinant and Gaussian samples with covariance `A⁻¹` all go through `L`.

use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

use crate::error::{Error, Result};

/// Sweeps of the implicit-shift QR iteration the SVD may spend per singular value before
/// it gives up with [`Error::NotConverged`]. LAPACK's `dbdsqr` allows 6, so the cap only
/// ever stops a pathological loop instead of freezing the page.
pub const SVD_SWEEPS_PER_VALUE: usize = 100;

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
        let n = a.nrows();
        crate::error::ensure_all_finite(matrix, a.as_slice())?;
        let max_diag = a.diagonal().iter().fold(0.0_f64, |m, &d| m.max(d));
        let not_pd = Error::NotPositiveDefinite { matrix };
        let chol = Cholesky::new(a).ok_or_else(|| not_pd.clone())?;
        let floor = n as f64 * f64::EPSILON * max_diag;
        // `l * l > floor` is false for NaN too, so a NaN pivot is refused as well.
        let usable = |l: f64| l * l > floor;
        if !chol.l_dirty().diagonal().iter().all(|&l| usable(l)) {
            return Err(not_pd);
        }
        Ok(Self { chol })
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

    /// `L⁻¹B` for every column of `b` at once; the squared norm of column m is
    /// `bₘᵀA⁻¹bₘ`.
    pub fn solve_lower_matrix(&self, mut b: DMatrix<f64>) -> DMatrix<f64> {
        self.chol.l_dirty().solve_lower_triangular_mut(&mut b);
        b
    }

    /// The diagonal of `A⁻¹`: `(A⁻¹)ᵢᵢ = ‖L⁻¹eᵢ‖²`, since `A⁻¹ = L⁻ᵀL⁻¹`. `L⁻¹eᵢ` is zero
    /// above row i, so each forward substitution starts at row i: n³/6 operations in all,
    /// a third of solving for the whole of `L⁻¹`.
    pub fn inverse_diagonal(&self) -> DVector<f64> {
        let l = self.chol.l_dirty();
        let n = l.nrows();
        let mut x = vec![0.0; n];
        DVector::from_fn(n, |i, _| {
            let mut norm_sq = 0.0;
            for r in i..n {
                let mut v = if r == i { 1.0 } else { 0.0 };
                for (c, &xc) in x.iter().enumerate().take(r).skip(i) {
                    v -= l[(r, c)] * xc;
                }
                x[r] = v / l[(r, r)];
                norm_sq += x[r] * x[r];
            }
            norm_sq
        })
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
}
