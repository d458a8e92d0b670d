#![cfg(not(target_arch = "wasm32"))]
//! Bayesian linear regression (`rvm_lab::bayes`) against independent dense computations.
//!
//! Reference numbers are recomputed in this file, never taken from the code under test.
//! Dense comparisons use 1e-10 relative, widened to 10·κ(A)·ε only where the condition
//! number κ(A) of A = αI + βΦᵀΦ (from its eigenvalues) makes that unattainable.
//! - m_N, S_N (PRML 3.53, 3.54): S_N = (αI + βΦᵀΦ)⁻¹ by nalgebra's LU `try_inverse`,
//!   m_N = β S_N Φᵀt, with Φ built here by hand (xʲ, Gaussian bumps) rather than by
//!   `Basis`; the crate factorises A by Cholesky and never forms an inverse to solve.
//! - prediction (PRML 3.58, 3.59): m_Nᵀφ and 1/β + φᵀS_Nφ with the dense S_N, plus the
//!   closed-form Loewner bounds I/(α + β‖Φ‖²_F) ≼ S_N ≼ I/α.
//! - ln p(t|α,β) (PRML 3.86): the log density of N(t | 0, β⁻¹I + α⁻¹ΦΦᵀ) by a Cholesky
//!   of that N × N matrix (the crate works with the M × M matrix A instead).
//! - sampling: the sample mean and covariance of 20 000 draws, within stated multiples of
//!   their standard errors (Gaussian theory: Var(Ŝᵢⱼ) ≈ (Sᵢⱼ² + SᵢᵢSⱼⱼ)/n).
//! - errors: the typed variants promised by the docs, for inputs built to trigger them.

use nalgebra::{Cholesky, DMatrix, DVector};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use rvm_lab::Error;
use rvm_lab::basis::{Basis, Family};
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::data::{Dataset, Sinusoid};
use rvm_lab::error::Bound;

// ---------------------------------------------------------------------------------------
// Helpers: dense references and comparisons.
// ---------------------------------------------------------------------------------------

/// Largest absolute entry.
fn max_abs(a: &DMatrix<f64>) -> f64 {
    a.iter().fold(0.0_f64, |m, &v| m.max(v.abs()))
}

/// Asserts ‖got − want‖_max ≤ rel · ‖want‖_max.
fn assert_matrix_close(got: &DMatrix<f64>, want: &DMatrix<f64>, rel: f64, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    let err = max_abs(&(got - want));
    let scale = max_abs(want);
    assert!(err <= rel * scale, "{what}: max error {err:e} > {rel:e} × {scale:e}\n got {got}\nwant {want}");
}

/// Asserts |got − want| ≤ rel · |want|.
fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: got {got:e}, want {want:e}, rel err {:e}",
        ((got - want) / want).abs()
    );
}

/// Φ for 1, x, …, x^(M−1), entry by entry with `powi`.
fn polynomial_phi(x: &[f64], m: usize) -> DMatrix<f64> {
    DMatrix::from_fn(x.len(), m, |n, j| x[n].powi(j as i32))
}

/// Φ for the bias then exp(−(x − μⱼ)²/2s²).
fn gaussian_phi(x: &[f64], centres: &[f64], s: f64) -> DMatrix<f64> {
    DMatrix::from_fn(x.len(), centres.len() + 1, |n, j| {
        if j == 0 { 1.0 } else { (-(x[n] - centres[j - 1]).powi(2) / (2.0 * s * s)).exp() }
    })
}

/// (S_N, m_N) by an explicit LU inverse: S_N = (αI + βΦᵀΦ)⁻¹, m_N = βS_NΦᵀt.
fn dense_posterior(phi: &DMatrix<f64>, t: &[f64], alpha: f64, beta: f64) -> (DMatrix<f64>, DVector<f64>) {
    let m = phi.ncols();
    let a = DMatrix::<f64>::identity(m, m) * alpha + phi.transpose() * phi * beta;
    let s_n = a.try_inverse().expect("dense A is invertible");
    let m_n = &s_n * phi.transpose() * DVector::from_column_slice(t) * beta;
    (s_n, m_n)
}

/// Relative tolerance for comparing two backward-stable solves with A = αI + βΦᵀΦ:
/// 1e-10, or 10·κ(A)·ε when the condition number κ(A) (from the symmetric eigenvalues)
/// makes a forward error above 1e-10 unavoidable for either method.
fn tolerance(phi: &DMatrix<f64>, alpha: f64, beta: f64) -> f64 {
    let m = phi.ncols();
    let a = DMatrix::<f64>::identity(m, m) * alpha + phi.transpose() * phi * beta;
    let eig = a.symmetric_eigenvalues();
    let kappa = eig.max() / eig.min();
    (1e-10_f64).max(10.0 * kappa * f64::EPSILON)
}

/// ln N(t | 0, C), C = β⁻¹I + α⁻¹ΦΦᵀ, through a Cholesky factor of the N × N matrix C.
fn gaussian_log_density(phi: &DMatrix<f64>, t: &[f64], alpha: f64, beta: f64) -> f64 {
    let n = phi.nrows();
    let c = DMatrix::<f64>::identity(n, n) / beta + phi * phi.transpose() / alpha;
    let chol = Cholesky::new(c).expect("C is positive definite");
    let t = DVector::from_column_slice(t);
    // tᵀC⁻¹t = ‖L⁻¹t‖²; ln|C| = 2 Σ ln Lᵢᵢ.
    let z = chol.l().solve_lower_triangular(&t).expect("L is triangular and nonsingular");
    let ln_det: f64 = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum();
    -0.5 * z.norm_squared() - 0.5 * ln_det - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln()
}

fn hyper(alpha: f64, beta: f64) -> Hyperparameters {
    Hyperparameters::new(alpha, beta).expect("valid hyperparameters")
}

fn sinusoid(n: usize, noise: f64, seed: u64) -> Dataset {
    Sinusoid { n, noise, seed }.generate().expect("sinusoid data")
}

// ---------------------------------------------------------------------------------------
// Posterior mean and covariance, PRML 3.53–3.54.
// ---------------------------------------------------------------------------------------

#[test]
fn polynomial_posterior_matches_dense_inverse() {
    // PRML Fig 3.7-like settings: α = 5·10⁻³, β = 11.1, on 25 noisy sinusoid points.
    let data = sinusoid(25, 0.3, 11);
    for m in [1, 2, 4, 6] {
        let phi = polynomial_phi(&data.x, m);
        // The crate's design matrix is the one built by hand here.
        let from_basis = Basis::polynomial(m, true).unwrap().design_matrix(&data.x).unwrap();
        assert_matrix_close(&from_basis, &phi, 1e-15, "polynomial design matrix");

        let (alpha, beta) = (5e-3, 11.1);
        let post = Posterior::fit(&phi, &data.t, hyper(alpha, beta)).unwrap();
        let (s_n, m_n) = dense_posterior(&phi, &data.t, alpha, beta);
        let tol = tolerance(&phi, alpha, beta);
        assert!(tol <= 3e-10, "M = {m}: tolerance {tol:e}");
        assert_matrix_close(&post.covariance(), &s_n, tol, &format!("S_N, polynomial M = {m}"));
        let got_m = DMatrix::from_column_slice(m, 1, post.mean().as_slice());
        let want_m = DMatrix::from_column_slice(m, 1, m_n.as_slice());
        assert_matrix_close(&got_m, &want_m, tol, &format!("m_N, polynomial M = {m}"));
        assert_eq!(post.hyperparameters(), hyper(alpha, beta));
    }
}

#[test]
fn gaussian_posterior_matches_dense_inverse() {
    // PRML Fig 3.8 settings: 9 functions (bias + 8 bumps on [0, 1]), s = 0.1, α = 2, β = 25.
    let centres: Vec<f64> = (0..8).map(|j| j as f64 / 7.0).collect();
    for (n, seed) in [(1, 3), (4, 5), (10, 1), (100, 9)] {
        let data = sinusoid(n, 0.2, seed);
        let phi = gaussian_phi(&data.x, &centres, 0.1);
        let from_basis =
            Basis::spread(Family::Gaussian, 9, 0.1, true, (0.0, 1.0)).unwrap().design_matrix(&data.x).unwrap();
        assert_matrix_close(&from_basis, &phi, 1e-14, "Gaussian design matrix");

        for (alpha, beta) in [(2.0, 25.0), (1e-3, 100.0), (30.0, 0.5)] {
            let post = Posterior::fit(&phi, &data.t, hyper(alpha, beta)).unwrap();
            let (s_n, m_n) = dense_posterior(&phi, &data.t, alpha, beta);
            let what = format!("N = {n}, α = {alpha}, β = {beta}");
            // 1e-10 except for α = 10⁻³, where κ(A) reaches ~7·10⁵.
            let tol = tolerance(&phi, alpha, beta);
            assert!(tol <= 2e-9, "{what}: tolerance {tol:e}");
            assert_matrix_close(&post.covariance(), &s_n, tol, &format!("S_N, {what}"));
            let got_m = DMatrix::from_column_slice(9, 1, post.mean().as_slice());
            let want_m = DMatrix::from_column_slice(9, 1, m_n.as_slice());
            assert_matrix_close(&got_m, &want_m, tol, &format!("m_N, {what}"));
        }
    }
}

#[test]
fn one_basis_function_in_closed_form() {
    // M = 1, φ(x) = x: A = α + βΣxₙ², m_N = βΣxₙtₙ / A, σ²(x) = 1/β + x²/A.
    let (x, t) = ([0.5, -1.0, 2.0], [1.0, 0.25, -3.0]);
    let (alpha, beta) = (0.7, 3.0);
    let a = alpha + beta * (0.25 + 1.0 + 4.0);
    let m = beta * (0.5 - 0.25 - 6.0) / a;
    let phi = DMatrix::from_column_slice(3, 1, &x);
    let post = Posterior::fit(&phi, &t, hyper(alpha, beta)).unwrap();
    assert_close(post.mean()[0], m, 1e-14, "m_N");
    assert_close(post.covariance()[(0, 0)], 1.0 / a, 1e-14, "S_N");
    let p = post.predict(&DVector::from_element(1, 1.5));
    assert_close(p.mean, 1.5 * m, 1e-14, "predictive mean");
    assert_close(p.variance, 1.0 / beta + 2.25 / a, 1e-14, "predictive variance");
}

// ---------------------------------------------------------------------------------------
// Predictive distribution, PRML 3.58–3.59.
// ---------------------------------------------------------------------------------------

#[test]
fn predictive_matches_dense_quadratic_form() {
    let data = sinusoid(12, 0.25, 4);
    let centres: Vec<f64> = (0..6).map(|j| j as f64 / 5.0).collect();
    type Features = Box<dyn Fn(f64) -> DVector<f64>>;
    let cases: Vec<(DMatrix<f64>, Features)> = vec![
        (polynomial_phi(&data.x, 4), Box::new(|x: f64| DVector::from_fn(4, |j, _| x.powi(j as i32)))),
        (gaussian_phi(&data.x, &centres, 0.2), {
            let c = centres.clone();
            Box::new(move |x: f64| gaussian_phi(&[x], &c, 0.2).row(0).transpose())
        }),
    ];
    for (phi, features) in cases {
        for (alpha, beta) in [(5e-3, 11.1), (2.0, 25.0), (10.0, 0.1)] {
            let post = Posterior::fit(&phi, &data.t, hyper(alpha, beta)).unwrap();
            let (s_n, m_n) = dense_posterior(&phi, &data.t, alpha, beta);
            let tol = tolerance(&phi, alpha, beta);
            // Inside the data, at the edges and extrapolating.
            for x in [-0.5, 0.0, 0.13, 0.5, 0.77, 1.0, 1.6] {
                let f = features(x);
                let p = post.predict(&f);
                let mean = m_n.dot(&f);
                let variance = 1.0 / beta + f.dot(&(&s_n * &f));
                // m_N is accurate relative to max|m_j| (as above), so m_Nᵀφ to max|m_j|·Σ|φ_j|,
                // not to the (possibly cancelling) sum itself.
                let scale = m_n.amax() * f.lp_norm(1);
                assert!((p.mean - mean).abs() <= tol * scale, "mean at x = {x}: {} vs {mean} (scale {scale})", p.mean);
                assert_close(p.variance, variance, tol, &format!("variance at x = {x}, α = {alpha}, β = {beta}"));
            }
        }
    }
}

/// A random basis on [−1, 1]: polynomial with M ≤ 6 or bias + Gaussian bumps with M ≤ 10.
fn any_basis() -> impl Strategy<Value = Basis> {
    prop_oneof![
        (1usize..=6).prop_map(|m| Basis::polynomial(m, true).unwrap()),
        (1usize..=10, 0.05f64..1.0)
            .prop_map(|(m, s)| Basis::spread(Family::Gaussian, m, s, true, (-1.0, 1.0)).unwrap()),
    ]
}

/// Random (x, t) with 1 ≤ N < 30, x ∈ [−1, 1], t ∈ [−5, 5].
fn any_data() -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (1usize..30).prop_flat_map(|n| (prop::collection::vec(-1.0f64..1.0, n), prop::collection::vec(-5.0f64..5.0, n)))
}

/// 10^u for u uniform on [lo, hi].
fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..hi).prop_map(|e| 10f64.powf(e))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// σ²_N(x) ≥ 1/β, and more precisely, since αI ≼ A ≼ (α + β‖Φ‖²_F)I,
    /// 1/β + ‖φ‖²/(α + β‖Φ‖²_F) ≤ σ²_N(x) ≤ 1/β + ‖φ‖²/α.
    #[test]
    fn predictive_variance_is_above_the_noise_floor(
        alpha in log_uniform(-4.0, 4.0),
        beta in log_uniform(-3.0, 4.0),
        basis in any_basis(),
        (x, t) in any_data(),
        x_new in -2.0f64..2.0,
    ) {
        let phi = basis.design_matrix(&x).unwrap();
        let post = Posterior::fit(&phi, &t, hyper(alpha, beta)).unwrap();
        let f = basis.features(x_new);
        let p = post.predict(&f);
        let floor = 1.0 / beta;
        prop_assert!(p.variance >= floor, "σ² = {} < 1/β = {floor}", p.variance);
        let frob = phi.norm_squared();
        let lower = floor + f.norm_squared() / (alpha + beta * frob);
        let upper = floor + f.norm_squared() / alpha;
        prop_assert!(p.variance >= lower * (1.0 - 1e-9), "σ² = {} below {lower}", p.variance);
        prop_assert!(p.variance <= upper * (1.0 + 1e-9), "σ² = {} above {upper}", p.variance);
        // The mean solves the normal equations A m_N = βΦᵀt, up to rounding.
        let m = phi.ncols();
        let a = DMatrix::<f64>::identity(m, m) * alpha + phi.transpose() * &phi * beta;
        let rhs = phi.transpose() * DVector::from_column_slice(&t) * beta;
        let residual = (&a * post.mean() - &rhs).norm();
        prop_assert!(residual <= 1e-9 * (a.norm() * post.mean().norm() + rhs.norm()), "residual {residual:e}");
    }

    /// S_N is symmetric to 1e-12 relative and positive definite (its Cholesky exists).
    #[test]
    fn covariance_is_symmetric_positive_definite(
        alpha in log_uniform(-3.0, 3.0),
        beta in log_uniform(-2.0, 3.0),
        basis in any_basis(),
        (x, t) in any_data(),
    ) {
        let phi = basis.design_matrix(&x).unwrap();
        let post = Posterior::fit(&phi, &t, hyper(alpha, beta)).unwrap();
        let s = post.covariance();
        prop_assert_eq!(s.shape(), (basis.len(), basis.len()));
        let asym = max_abs(&(&s - s.transpose()));
        prop_assert!(asym <= 1e-12 * max_abs(&s), "asymmetry {asym:e} vs max {:e}", max_abs(&s));
        prop_assert!(Cholesky::new(s.clone()).is_some(), "S_N is not positive definite: {s}");
        // Diagonal within the closed-form bounds 1/(α + β‖Φ‖²_F) ≤ (S_N)ᵢᵢ ≤ 1/α.
        let frob = phi.norm_squared();
        for i in 0..s.nrows() {
            prop_assert!(s[(i, i)] <= (1.0 + 1e-9) / alpha);
            prop_assert!(s[(i, i)] >= (1.0 - 1e-9) / (alpha + beta * frob));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Log evidence, PRML 3.86 against the marginal N(t | 0, β⁻¹I + α⁻¹ΦΦᵀ) (PRML 3.85 / 2.115).
// ---------------------------------------------------------------------------------------

#[test]
fn log_evidence_is_the_marginal_gaussian_density() {
    // (α, β, family, M, N); the last three cases have more weights than data points.
    let cases: &[(f64, f64, Family, usize, usize)] = &[
        (2.0, 25.0, Family::Gaussian, 9, 10),
        (5e-3, 11.1, Family::Polynomial, 4, 25),
        (1.0, 1.0, Family::Polynomial, 1, 1),
        (0.3, 4.0, Family::Polynomial, 3, 2),
        (50.0, 1e3, Family::Gaussian, 6, 60),
        (1e-2, 100.0, Family::Gaussian, 30, 8),
        (0.1, 0.5, Family::Gaussian, 12, 3),
    ];
    for &(alpha, beta, family, m, n) in cases {
        let data = sinusoid(n, 0.2, 100 + n as u64);
        let phi = match family {
            Family::Polynomial => polynomial_phi(&data.x, m),
            Family::Gaussian => {
                let centres: Vec<f64> = (0..m - 1).map(|j| j as f64 / (m - 2).max(1) as f64).collect();
                gaussian_phi(&data.x, &centres, 0.15)
            }
            other => unreachable!("no reference Φ for {other:?}"),
        };
        let post = Posterior::fit(&phi, &data.t, hyper(alpha, beta)).unwrap();
        let want = gaussian_log_density(&phi, &data.t, alpha, beta);
        assert_close(
            post.log_evidence(),
            want,
            1e-10,
            &format!("ln p(t|α,β), α = {alpha}, β = {beta}, M = {m}, N = {n}"),
        );
    }
}

#[test]
fn log_evidence_with_no_basis_signal_is_white_noise() {
    // Φ = 0: the marginal is N(t | 0, β⁻¹I) whatever α and M; in closed form
    // ln p = N/2 ln β − β/2 ‖t‖² − N/2 ln 2π.
    let t = [0.3, -1.2, 2.0, 0.0];
    let beta: f64 = 2.5;
    let want = 2.0 * beta.ln() - 0.5 * beta * (0.09 + 1.44 + 4.0) - 2.0 * (2.0 * std::f64::consts::PI).ln();
    for m in [1, 3, 7] {
        let post = Posterior::fit(&DMatrix::zeros(4, m), &t, hyper(0.01, beta)).unwrap();
        assert_close(post.log_evidence(), want, 1e-13, &format!("white noise, M = {m}"));
    }
}

// ---------------------------------------------------------------------------------------
// Sampling from N(m_N, S_N).
// ---------------------------------------------------------------------------------------

#[test]
fn samples_have_the_posterior_mean_and_covariance() {
    // M = 3 polynomial on five points in [0, 1]: weights strongly correlated.
    let x = [0.05, 0.3, 0.5, 0.62, 0.9];
    let t = [0.2, 0.9, 0.1, -0.6, -0.8];
    let (alpha, beta) = (0.5, 10.0);
    let phi = polynomial_phi(&x, 3);
    let post = Posterior::fit(&phi, &t, hyper(alpha, beta)).unwrap();
    let (s_n, m_n) = dense_posterior(&phi, &t, alpha, beta);

    const DRAWS: usize = 20_000;
    let mut rng = Pcg64::seed_from_u64(20_240_601);
    let draws: Vec<DVector<f64>> = (0..DRAWS).map(|_| post.sample(&mut rng)).collect();
    let n = DRAWS as f64;
    let mean = draws.iter().fold(DVector::zeros(3), |acc, w| acc + w) / n;
    let cov = draws.iter().fold(DMatrix::zeros(3, 3), |acc, w| acc + (w - &mean) * (w - &mean).transpose()) / (n - 1.0);

    // Tolerances: 4.5 standard errors. SE(w̄ᵢ) = √(Sᵢᵢ/n); SE(Ŝᵢⱼ) = √((Sᵢⱼ² + SᵢᵢSⱼⱼ)/n).
    const K: f64 = 4.5;
    let se_cov = |i: usize, j: usize| ((s_n[(i, j)].powi(2) + s_n[(i, i)] * s_n[(j, j)]) / n).sqrt();
    for i in 0..3 {
        let se = (s_n[(i, i)] / n).sqrt();
        assert!((mean[i] - m_n[i]).abs() <= K * se, "mean[{i}] = {} vs m_N = {} (SE {se:e})", mean[i], m_n[i]);
        for j in 0..3 {
            assert!(
                (cov[(i, j)] - s_n[(i, j)]).abs() <= K * se_cov(i, j),
                "cov[{i},{j}] = {} vs S_N = {} (SE {:e})",
                cov[(i, j)],
                s_n[(i, j)],
                se_cov(i, j)
            );
        }
    }

    // The test can fail: the likely wrong answers lie outside the tolerance band.
    // (a) independent weights, diag(S_N); (b) the prior α⁻¹I; (c) L⁻¹L⁻ᵀ instead of L⁻ᵀL⁻¹.
    let a = DMatrix::<f64>::identity(3, 3) * alpha + phi.transpose() * &phi * beta;
    let l_inv = Cholesky::new(a).unwrap().l().try_inverse().unwrap();
    let wrong_order = &l_inv * l_inv.transpose();
    let outside = |c: &DMatrix<f64>| (0..3).any(|i| (0..3).any(|j| (c[(i, j)] - s_n[(i, j)]).abs() > K * se_cov(i, j)));
    assert!(outside(&DMatrix::from_diagonal(&s_n.diagonal())), "test cannot tell correlated from independent");
    assert!(outside(&(DMatrix::identity(3, 3) / alpha)), "test cannot tell posterior from prior");
    assert!(outside(&wrong_order), "test cannot tell L⁻ᵀL⁻¹ from L⁻¹L⁻ᵀ");
}

#[test]
fn samples_are_reproducible_for_a_seed() {
    let data = sinusoid(8, 0.2, 2);
    let post = Posterior::fit(&polynomial_phi(&data.x, 2), &data.t, hyper(1.0, 25.0)).unwrap();
    let draw = |seed| post.sample(&mut Pcg64::seed_from_u64(seed));
    assert_eq!(draw(7), draw(7));
    assert_ne!(draw(7), draw(8));
}

// ---------------------------------------------------------------------------------------
// Typed errors, not panics.
// ---------------------------------------------------------------------------------------

#[test]
fn non_positive_precisions_are_out_of_range() {
    for (alpha, beta, name) in [(0.0, 1.0, "α"), (-1.0, 1.0, "α"), (1.0, 0.0, "β"), (1.0, -2.5, "β"), (-0.0, 1.0, "α")]
    {
        match Hyperparameters::new(alpha, beta) {
            Err(Error::OutOfRange { name: got, bound: Bound::Positive, .. }) => assert_eq!(got, name),
            other => panic!("α = {alpha}, β = {beta}: expected OutOfRange, got {other:?}"),
        }
    }
    for (alpha, beta) in [(f64::NAN, 1.0), (1.0, f64::INFINITY), (f64::NEG_INFINITY, 1.0)] {
        assert!(matches!(Hyperparameters::new(alpha, beta), Err(Error::NotFinite { .. })), "α = {alpha}, β = {beta}");
    }
    // The smallest positive values are admissible.
    assert!(Hyperparameters::new(f64::MIN_POSITIVE, 5e-324).is_ok());
}

#[test]
fn empty_targets_are_no_data() {
    for m in [1, 4] {
        let result = Posterior::fit(&DMatrix::zeros(0, m), &[], hyper(1.0, 1.0));
        assert!(matches!(result, Err(Error::NoData)), "M = {m}: {result:?}");
    }
}

#[test]
fn non_finite_inputs_are_not_finite() {
    let basis = Basis::polynomial(3, true).unwrap();
    let x = [0.1, 0.4, 0.8];
    let phi = basis.design_matrix(&x).unwrap();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        match Posterior::fit(&phi, &[0.0, bad, 1.0], hyper(1.0, 1.0)) {
            Err(Error::NotFinite { name, .. }) => assert_eq!(name, "t[1]"),
            other => panic!("t with {bad}: {other:?}"),
        }
        match basis.design_matrix(&[0.1, 0.2, bad]) {
            Err(Error::NotFinite { name, .. }) => assert_eq!(name, "x[2]"),
            other => panic!("x with {bad}: {other:?}"),
        }
        let mut phi_bad = phi.clone();
        phi_bad[(1, 2)] = bad;
        assert!(matches!(Posterior::fit(&phi_bad, &[0.0, 0.5, 1.0], hyper(1.0, 1.0)), Err(Error::NotFinite { .. })));
    }
    // Finite inputs whose powers overflow: x = 1e200 gives x² = ∞, which the design refuses
    // naming the function and the input (the posterior refuses such a Φ too, above).
    match basis.design_matrix(&[1e200]) {
        Err(Error::FunctionNotFinite { j, x, value }) => {
            assert_eq!((j, x.as_str(), value.as_str()), (2, "1e200", "inf"))
        }
        other => panic!("x = 1e200: {other:?}"),
    }
}

#[test]
fn identical_columns_with_tiny_alpha_are_not_positive_definite() {
    // Two Gaussian bumps at the same centre: Φ has two identical columns, so ΦᵀΦ is
    // singular and α = 10⁻³⁰⁰ is far below rounding of βΦᵀΦ.
    let basis = Basis::gaussian(vec![0.3, 0.3], 0.2, false).unwrap();
    let data = sinusoid(10, 0.2, 1);
    let phi = basis.design_matrix(&data.x).unwrap();
    assert_eq!(phi.column(0), phi.column(1));
    for beta in [1.0, 25.0, 1e4] {
        match Posterior::fit(&phi, &data.t, hyper(1e-300, beta)) {
            Err(Error::NotPositiveDefinite { .. }) => {}
            other => panic!("β = {beta}: expected NotPositiveDefinite, got {other:?}"),
        }
    }
    // Numerically (not exactly) rank-deficient Φ: bumps 10⁻¹⁰ apart, and a column that is
    // the sum of two others (1, x, 1 + x with x not a dyadic fraction). Rounding can leave
    // a tiny positive pivot here, which must still be refused.
    let near = Basis::gaussian(vec![0.3, 0.3 + 1e-10], 0.2, false).unwrap().design_matrix(&data.x).unwrap();
    let sum = DMatrix::from_fn(data.x.len(), 3, |n, j| [1.0, data.x[n], 1.0 + data.x[n]][j]);
    for (phi, what) in [(near, "bumps 1e-10 apart"), (sum, "column = sum of two others")] {
        for beta in [1.0, 25.0, 1e4] {
            match Posterior::fit(&phi, &data.t, hyper(1e-300, beta)) {
                Err(Error::NotPositiveDefinite { .. }) => {}
                other => panic!("{what}, β = {beta}: expected NotPositiveDefinite, got {other:?}"),
            }
        }
    }
    // With a sensible α the same Φ is fine, and the two tied weights are equal.
    let post = Posterior::fit(&phi, &data.t, hyper(1.0, 25.0)).unwrap();
    assert_close(post.mean()[0], post.mean()[1], 1e-12, "tied weights");
}

#[test]
fn mismatched_rows_are_dimension_mismatch() {
    let phi = polynomial_phi(&[0.1, 0.2, 0.3], 2);
    for t in [&[1.0, 2.0][..], &[1.0, 2.0, 3.0, 4.0][..]] {
        match Posterior::fit(&phi, t, hyper(1.0, 1.0)) {
            Err(Error::DimensionMismatch { expected, got, .. }) => {
                assert_eq!((expected, got), (t.len(), 3));
            }
            other => panic!("{} targets for 3 rows: {other:?}", t.len()),
        }
    }
}
