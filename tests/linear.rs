#![cfg(not(target_arch = "wasm32"))]
//! Maximum likelihood, gradient descent, ridge and lasso (`rvm_lab::linear`) against
//! independent computations.
//!
//! Where each reference comes from (never from the code under test):
//! - w_ML: the normal equations ΦᵀΦw = Φᵀt (lecture notes on linear models, eq 4) solved by
//!   nalgebra's `Cholesky` on well-conditioned designs (the crate uses an SVD and never
//!   forms ΦᵀΦ); on rank-deficient designs, a dense pseudo-inverse Φ⁺ = VΣ⁺Uᵀ assembled
//!   here from nalgebra's SVD factors with the documented cut-off max(N, M)·ε·σ_max, plus
//!   the defining properties of the minimum-norm solution: Φᵀ(t − Φw) = 0 and w ⟂ null(Φ),
//!   the null space taken from a full SVD (Φ padded with zero rows) or written down by hand
//!   for duplicated columns.
//! - β_ML and E_RMS: their definitions (lecture notes on linear models, eq 8, PRML 1.3) as
//!   explicit loops; a line through two points and a three-point fit worked by hand.
//! - gradient descent: the least-squares / ridge solutions above; the lecture's update rule
//!   w := w − αΣ_{n∈I}φₙ(φₙᵀw − tₙ) replayed here from the reported sample indices; the
//!   epoch / batch size / iteration table of the lecture notes on linear models (N = 100);
//!   divergence worked by hand on Φ = [1; 1], t = 0, w₀ = 1, where every update multiplies
//!   w by 1 − 2α (batch) or 1 − α (each SGD step), so the loss after k updates is 9ᵏ for α
//!   = 2 (batch) or 4 (SGD).
//! - ridge: (ΦᵀΦ + λI)w = Φᵀt solved by nalgebra's LU; for tiny λ on a singular design, the
//!   augmented least-squares problem [Φ; √λ I]w ≈ [t; 0] by the pseudo-inverse above.
//! - lasso: the KKT (subgradient) conditions of ½‖t − Φw‖² + λ‖w‖₁; the closed form
//!   w = soft(Φᵀt, λ) when ΦᵀΦ = I (Φ from nalgebra's QR); w = 0 exactly for λ ≥ ‖Φᵀt‖_∞.
//! - soft thresholding: the lecture's three cases (lecture notes on linear models, eq 21)
//!   and the optimality condition of ½(x − z)² + λ|x|; the Lipschitz constant: σ_max² of a
//!   diagonal and of a rank-one Φ.
//! - errors: the typed variants promised by the docs, for inputs built to trigger them.

use nalgebra::{Cholesky, DMatrix, DVector, SVD};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_distr::{Distribution, StandardNormal};
use rand_pcg::Pcg64;
use rvm_lab::Error;
use rvm_lab::data::Sinusoid;
use rvm_lab::linear::gradient::{
    GradientDescent, GradientDescentSettings, GradientEvent, Schedule, iterations_per_epoch,
};
use rvm_lab::linear::least_squares::{self, rms_error};
use rvm_lab::linear::regularised::{
    LassoFit, LassoSettings, lasso, lasso_lambda_max, lasso_path, lipschitz, ridge, ridge_path, soft_threshold,
};
use rvm_lab::solver::{Solver, Status, Termination};

// ---------------------------------------------------------------------------------------
// Helpers: designs and dense references, built here by hand.
// ---------------------------------------------------------------------------------------

/// Φ for 1, x, …, x^(M−1), entry by entry with `powi`.
fn polynomial_phi(x: &[f64], m: usize) -> DMatrix<f64> {
    DMatrix::from_fn(x.len(), m, |n, j| x[n].powi(j as i32))
}

/// Φ for the bias then Gaussian bumps exp(−(x − μⱼ)²/2s²).
fn gaussian_phi(x: &[f64], centres: &[f64], s: f64) -> DMatrix<f64> {
    DMatrix::from_fn(x.len(), centres.len() + 1, |n, j| {
        if j == 0 { 1.0 } else { (-(x[n] - centres[j - 1]).powi(2) / (2.0 * s * s)).exp() }
    })
}

/// The seeded sinusoid of PRML §1.1 with σ = 0.3.
fn sinusoid(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let d = Sinusoid { n, noise: 0.3, seed }.generate().unwrap();
    (d.x, d.t)
}

/// An N × M matrix of independent standard normal entries.
fn random_matrix(n: usize, m: usize, seed: u64) -> DMatrix<f64> {
    let mut rng = Pcg64::seed_from_u64(seed);
    DMatrix::from_fn(n, m, |_, _| StandardNormal.sample(&mut rng))
}

/// w solving ΦᵀΦw = Φᵀt by Cholesky (lecture notes on linear models, eq 4), for full-column-rank Φ.
fn normal_equations(phi: &DMatrix<f64>, t: &[f64]) -> DVector<f64> {
    let t = DVector::from_column_slice(t);
    Cholesky::new(phi.transpose() * phi).expect("ΦᵀΦ positive definite").solve(&(phi.transpose() * t))
}

/// The dense pseudo-inverse Φ⁺ = V Σ⁺ Uᵀ, with σ ≤ max(N, M)·ε·σ_max set to zero.
fn pseudo_inverse(phi: &DMatrix<f64>) -> DMatrix<f64> {
    let svd = SVD::new(phi.clone(), true, true);
    let (u, v_t) = (svd.u.unwrap(), svd.v_t.unwrap());
    let sigma_max = svd.singular_values.max();
    let cutoff = phi.nrows().max(phi.ncols()) as f64 * f64::EPSILON * sigma_max;
    let sigma_plus = DMatrix::from_diagonal(&svd.singular_values.map(|s| if s > cutoff { 1.0 / s } else { 0.0 }));
    v_t.transpose() * sigma_plus * u.transpose()
}

/// Orthonormal vectors spanning null(Φ): rows of Vᵀ of the full SVD of Φ padded with zero
/// rows to M × M, whose singular values are ≤ max(N, M)·ε·σ_max.
fn null_space(phi: &DMatrix<f64>) -> Vec<DVector<f64>> {
    let (n, m) = phi.shape();
    let mut padded = DMatrix::zeros(m.max(n), m);
    padded.view_mut((0, 0), (n, m)).copy_from(phi);
    let svd = SVD::new(padded, false, true);
    let v_t = svd.v_t.unwrap();
    let cutoff = n.max(m) as f64 * f64::EPSILON * svd.singular_values.max();
    (0..m).filter(|&i| svd.singular_values[i] <= cutoff).map(|i| v_t.row(i).transpose()).collect()
}

/// (1/N) Σₙ (φₙᵀw − tₙ)², written as a loop.
fn mean_squared_residual(phi: &DMatrix<f64>, t: &[f64], w: &DVector<f64>) -> f64 {
    let mut sum = 0.0;
    for n in 0..t.len() {
        let mut y = 0.0;
        for j in 0..w.len() {
            y += phi[(n, j)] * w[j];
        }
        sum += (y - t[n]).powi(2);
    }
    sum / t.len() as f64
}

/// Asserts ‖got − want‖ ≤ rel · max(‖want‖, floor).
fn assert_vec_close(got: &DVector<f64>, want: &DVector<f64>, rel: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let err = (got - want).norm();
    let scale = want.norm().max(1e-300);
    assert!(err <= rel * scale, "{what}: ‖error‖ = {err:e} > {rel:e} × {scale:e}\n got {got}\nwant {want}");
}

fn settings(schedule: Schedule, learning_rate: f64, epochs: usize) -> GradientDescentSettings {
    GradientDescentSettings { schedule, learning_rate, epochs, seed: 42, ridge: 0.0, tolerance: 0.0 }
}

/// A finished run from w = 0.
fn run(phi: &DMatrix<f64>, t: &[f64], settings: GradientDescentSettings) -> GradientDescent {
    let mut gd = GradientDescent::new(phi.clone(), t.to_vec(), DVector::zeros(phi.ncols()), settings).unwrap();
    let end = gd.run();
    assert_eq!(end, Ok(Termination::Finished { iterations: gd.iteration() }));
    gd
}

/// All `Update` events of a run, stepping until it stops.
fn updates(gd: &mut GradientDescent) -> Vec<(usize, usize, Vec<usize>)> {
    let mut out = Vec::new();
    while gd.status().is_running() {
        match gd.step().unwrap() {
            GradientEvent::Update { iteration, epoch, samples, .. } => out.push((iteration, epoch, samples)),
            GradientEvent::Stopped { .. } => return out,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Maximum likelihood (lecture notes on linear models, eq 4–8).
// ---------------------------------------------------------------------------------------

#[test]
fn least_squares_matches_the_normal_equations_by_cholesky() {
    let (x, t) = sinusoid(25, 3);
    let designs = [
        ("line", polynomial_phi(&x, 2)),
        ("cubic", polynomial_phi(&x, 4)),
        ("gaussian bumps", gaussian_phi(&x, &[0.2, 0.4, 0.6, 0.8], 0.2)),
    ];
    for (what, phi) in designs {
        let fit = least_squares::fit(&phi, &t).unwrap();
        // κ(ΦᵀΦ) ≤ 10⁵ here, so the normal equations keep ~11 digits.
        assert_vec_close(fit.weights(), &normal_equations(&phi, &t), 1e-9, what);
        assert_eq!(fit.rank(), phi.ncols(), "{what}");
    }
}

#[test]
fn beta_is_the_inverse_mean_squared_residual() {
    let (x, t) = sinusoid(30, 5);
    for m in 1..=6 {
        let phi = polynomial_phi(&x, m);
        let fit = least_squares::fit(&phi, &t).unwrap();
        let msr = mean_squared_residual(&phi, &t, fit.weights());
        assert!((fit.beta() * msr - 1.0).abs() < 1e-12, "M = {m}: β = {}, 1/msr = {}", fit.beta(), 1.0 / msr);
        let rms = rms_error(&phi, &t, fit.weights()).unwrap();
        assert!((rms - msr.sqrt()).abs() < 1e-14, "M = {m}");
    }
    // The noise is σ = 0.3, so a cubic's 1/β_ML is near σ² = 0.09 (loosely: N = 30).
    let fit = least_squares::fit(&polynomial_phi(&x, 4), &t).unwrap();
    assert!((0.04..0.15).contains(&(1.0 / fit.beta())), "1/β = {}", 1.0 / fit.beta());
}

#[test]
fn line_through_two_points_by_hand() {
    // (0, 1) and (2, 5): w = (1, 2) exactly, residual 0, so β_ML = ∞ and E_RMS = 0.
    let phi = polynomial_phi(&[0.0, 2.0], 2);
    let fit = least_squares::fit(&phi, &[1.0, 5.0]).unwrap();
    assert_vec_close(fit.weights(), &DVector::from_vec(vec![1.0, 2.0]), 1e-14, "w");
    assert_eq!((fit.rank(), fit.beta()), (2, f64::INFINITY));
    assert!(rms_error(&phi, &[1.0, 5.0], fit.weights()).unwrap() < 1e-14);
    // Three points: x = (0, 1, 2), t = (0, 1, 3) → w = (−1/6, 3/2), residual mean square 1/18.
    let phi = polynomial_phi(&[0.0, 1.0, 2.0], 2);
    let fit = least_squares::fit(&phi, &[0.0, 1.0, 3.0]).unwrap();
    assert_vec_close(fit.weights(), &DVector::from_vec(vec![-1.0 / 6.0, 1.5]), 1e-14, "w");
    assert!((fit.beta() - 18.0).abs() < 1e-12);
}

#[test]
fn rank_deficient_fits_are_the_minimum_norm_pseudo_inverse_answer() {
    // M > N: 4 points, polynomial of degree 6 (M = 7), and duplicate inputs with
    // duplicated columns (1, x, 2x) — both exactly rank-deficient, both well scaled.
    let x = [0.1, 0.4, 0.7, 0.9];
    let over = polynomial_phi(&x, 7);
    let dup_x = [0.2, 0.2, 0.5, 0.5, 0.9];
    let collinear = DMatrix::from_fn(5, 3, |n, j| [1.0, dup_x[n], 2.0 * dup_x[n]][j]);
    let t_over = [0.3, -1.0, 0.5, 2.0];
    let t_dup = [0.9, 1.1, 0.2, 0.4, -0.7];
    for (what, phi, t, rank) in [("M > N", &over, &t_over[..], 4), ("collinear columns", &collinear, &t_dup[..], 2)] {
        let fit = least_squares::fit(phi, t).unwrap();
        assert_eq!(fit.rank(), rank, "{what}");
        let reference = pseudo_inverse(phi) * DVector::from_column_slice(t);
        assert_vec_close(fit.weights(), &reference, 1e-10, what);
        // Least squares: the residual is orthogonal to the columns of Φ.
        let residual = DVector::from_column_slice(t) - phi * fit.weights();
        assert!((phi.transpose() * &residual).norm() < 1e-12, "{what}: Φᵀr ≠ 0");
        // Minimum norm: w has no component in null(Φ).
        let null = null_space(phi);
        assert_eq!(null.len(), phi.ncols() - rank, "{what}: null space");
        for v in &null {
            assert!(
                v.dot(fit.weights()).abs() < 1e-12 * fit.weights().norm(),
                "{what}: w·v = {}",
                v.dot(fit.weights())
            );
        }
    }
    // The duplicated column (x, 2x) has the null vector (0, 2, −1)/√5, by hand.
    let fit = least_squares::fit(&collinear, &t_dup).unwrap();
    let v = DVector::from_vec(vec![0.0, 2.0, -1.0]) / 5.0_f64.sqrt();
    assert!(v.dot(fit.weights()).abs() < 1e-13);
    // M > N interpolates: β_ML = ∞, not NaN or a huge finite number.
    assert_eq!(least_squares::fit(&over, &t_over).unwrap().beta(), f64::INFINITY);
}

#[test]
fn degree_twenty_polynomial_is_finite_and_fits_no_worse_than_lower_degrees() {
    let (x, t) = sinusoid(30, 11);
    let phi = polynomial_phi(&x, 21);
    let fit = least_squares::fit(&phi, &t).unwrap();
    assert!(fit.weights().iter().all(|w| w.is_finite()));
    assert!(fit.rank() < 21, "rank {}", fit.rank());
    assert!(!fit.beta().is_nan() && fit.beta() > 0.0);
    // The pseudo-inverse answer fits the same values. Both keep singular values down to the
    // cut-off, so ‖w‖ is huge and Φw carries rounding of order ε‖Φ‖‖w‖: the tolerance.
    let reference = pseudo_inverse(&phi) * DVector::from_column_slice(&t);
    let rounding = 30.0 * f64::EPSILON * phi.norm() * (fit.weights().norm() + reference.norm());
    let gap = (&phi * fit.weights() - &phi * &reference).norm();
    assert!(gap <= rounding, "Φw differs by {gap:e} > {rounding:e}");
    // Nested models: the residual of degree 20 is at most that of degree 9 (M = 10).
    let lower = least_squares::fit(&polynomial_phi(&x, 10), &t).unwrap();
    assert!(fit.beta() >= lower.beta() * (1.0 - 1e-9), "β₂₀ = {} < β₉ = {}", fit.beta(), lower.beta());
}

// ---------------------------------------------------------------------------------------
// Gradient descent (lecture notes on linear models, eq 9–10, BGD/SGD/MBGD).
// ---------------------------------------------------------------------------------------

/// Φ = [1, x] on 20 evenly spaced x in [−1, 1] and t = 0.5 + 2x exactly: every per-point
/// gradient vanishes at w* = (0.5, 2), so all three schedules converge to it linearly.
/// ΦᵀΦ = diag(20, Σx²) and ‖φₙ‖² ≤ 2, so α = 0.05 (batch, = 1/λ_max), 0.1 (batches of 4)
/// and 0.5 (SGD) are all stable.
#[test]
fn every_schedule_converges_on_consistent_data() {
    let x: Vec<f64> = (0..20).map(|i| -1.0 + 2.0 * i as f64 / 19.0).collect();
    let t: Vec<f64> = x.iter().map(|x| 0.5 + 2.0 * x).collect();
    let phi = polynomial_phi(&x, 2);
    let want = DVector::from_vec(vec![0.5, 2.0]);
    let cases = [(Schedule::Batch, 0.05), (Schedule::MiniBatch { batch: 4 }, 0.1), (Schedule::Stochastic, 0.5)];
    for (schedule, rate) in cases {
        let gd = run(&phi, &t, settings(schedule, rate, 300));
        assert_vec_close(gd.weights(), &want, 1e-10, &format!("{schedule:?}"));
        assert!(gd.losses().last().unwrap() < &1e-18, "{schedule:?}: {:?}", gd.losses().last());
    }
}

/// The noisy sinusoid, line model (M = 2, N = 25). Batch GD converges to w_ML to rounding;
/// with a constant learning rate SGD and MBGD only reach a neighbourhood whose size grows
/// with α, so they are held to a stated tolerance: ‖w − w_ML‖ ≤ 0.5% of ‖w_ML‖ (measured
/// 0.1% at α = 0.002), and the loss within 0.01% of the minimum (measured 0.0003%).
#[test]
fn every_schedule_reaches_least_squares_on_the_sinusoid() {
    let (x, t) = sinusoid(25, 1);
    let phi = polynomial_phi(&x, 2);
    let want = normal_equations(&phi, &t);
    let best = 0.5 * (&phi * &want - DVector::from_column_slice(&t)).norm_squared();
    let batch = run(&phi, &t, settings(Schedule::Batch, 0.04, 1000));
    assert_vec_close(batch.weights(), &want, 1e-10, "batch");
    for (schedule, rate) in [(Schedule::MiniBatch { batch: 5 }, 0.002), (Schedule::Stochastic, 0.002)] {
        let gd = run(&phi, &t, settings(schedule, rate, 2000));
        assert_vec_close(gd.weights(), &want, 5e-3, &format!("{schedule:?}"));
        let loss = *gd.losses().last().unwrap();
        assert!(loss <= best * 1.0001, "{schedule:?}: loss {loss} vs minimum {best}");
    }
}

#[test]
fn epochs_and_iterations_follow_the_lecture_table() {
    // The lecture notes on linear models' epoch / batch size / iteration table: N = 100;
    // batch size 100 → 1, 50 → 2, 10 → 10, 1 → 100 iterations per epoch.
    let x: Vec<f64> = (0..100).map(|i| i as f64 / 100.0).collect();
    let t: Vec<f64> = x.iter().map(|x| x * x).collect();
    let phi = polynomial_phi(&x, 2);
    let table = [
        (Schedule::Batch, 1),
        (Schedule::MiniBatch { batch: 100 }, 1),
        (Schedule::MiniBatch { batch: 50 }, 2),
        (Schedule::MiniBatch { batch: 10 }, 10),
        (Schedule::MiniBatch { batch: 1 }, 100),
        (Schedule::Stochastic, 100),
        (Schedule::MiniBatch { batch: 30 }, 4),
    ];
    for (schedule, per_epoch) in table {
        assert_eq!(iterations_per_epoch(100, schedule), per_epoch, "{schedule:?}");
        let mut gd =
            GradientDescent::new(phi.clone(), t.clone(), DVector::zeros(2), settings(schedule, 0.001, 3)).unwrap();
        let events = updates(&mut gd);
        assert_eq!(events.len(), 3 * per_epoch, "{schedule:?}");
        assert_eq!((gd.iteration(), gd.epoch()), (3 * per_epoch, 3), "{schedule:?}");
        assert_eq!((gd.losses().len(), gd.path().len()), (3 * per_epoch + 1, 3 * per_epoch + 1));
        assert_eq!(gd.status(), Status::Terminated(Termination::Finished { iterations: 3 * per_epoch }));
        // Iterations count from 1; each epoch has `per_epoch` of them and uses 100 points.
        for (k, (iteration, epoch, _)) in events.iter().enumerate() {
            assert_eq!((*iteration, *epoch), (k + 1, k / per_epoch + 1), "{schedule:?}");
        }
        let used: usize = events.iter().map(|(_, _, s)| s.len()).sum();
        assert_eq!(used, 300, "{schedule:?}");
    }
}

#[test]
fn every_epoch_visits_every_index_exactly_once() {
    // N = 10 in batches of 3: sizes 3, 3, 3, 1 in every epoch, a permutation of 0..10.
    let (x, t) = sinusoid(10, 2);
    let phi = polynomial_phi(&x, 2);
    for (schedule, sizes) in [(Schedule::MiniBatch { batch: 3 }, vec![3, 3, 3, 1]), (Schedule::Stochastic, vec![1; 10])]
    {
        let mut gd =
            GradientDescent::new(phi.clone(), t.clone(), DVector::zeros(2), settings(schedule, 0.01, 5)).unwrap();
        let events = updates(&mut gd);
        let mut orders = Vec::new();
        for epoch in 1..=5 {
            let batches: Vec<&Vec<usize>> = events.iter().filter(|e| e.1 == epoch).map(|e| &e.2).collect();
            assert_eq!(batches.iter().map(|b| b.len()).collect::<Vec<_>>(), sizes, "{schedule:?} epoch {epoch}");
            let order: Vec<usize> = batches.into_iter().flatten().copied().collect();
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "{schedule:?} epoch {epoch}: {order:?}");
            orders.push(order);
        }
        // Reshuffled each epoch (five equal orders of 10 points would have chance 1/10!⁴).
        assert!(orders.windows(2).any(|w| w[0] != w[1]), "{schedule:?}: {orders:?}");
        assert_ne!(orders[0], (0..10).collect::<Vec<_>>(), "{schedule:?}: not shuffled");
    }
}

#[test]
fn the_seed_reproduces_a_run_and_another_seed_changes_it() {
    let (x, t) = sinusoid(20, 4);
    let phi = polynomial_phi(&x, 3);
    for schedule in [Schedule::Stochastic, Schedule::MiniBatch { batch: 6 }] {
        let a = run(&phi, &t, settings(schedule, 0.05, 4));
        let b = run(&phi, &t, settings(schedule, 0.05, 4));
        let c = run(&phi, &t, GradientDescentSettings { seed: 43, ..settings(schedule, 0.05, 4) });
        assert_eq!(a.path(), b.path(), "{schedule:?}");
        assert_eq!(a.losses(), b.losses(), "{schedule:?}");
        assert_ne!(a.path(), c.path(), "{schedule:?}");
    }
    // Batch GD draws no random numbers: the seed does not matter.
    let a = run(&phi, &t, settings(Schedule::Batch, 0.02, 10));
    let c = run(&phi, &t, GradientDescentSettings { seed: 7, ..settings(Schedule::Batch, 0.02, 10) });
    assert_eq!(a.path(), c.path());
}

#[test]
fn updates_follow_the_lecture_formula() {
    // Replays w := w − α[Σ_{n∈I} φₙ(φₙᵀw − tₙ) + (|I|/N)λw] from the reported indices,
    // and the loss ½Σₙ(φₙᵀw − tₙ)² + λ/2‖w‖² over all points.
    let (x, t) = sinusoid(7, 9);
    let phi = gaussian_phi(&x, &[0.25, 0.75], 0.3);
    let cases = [(Schedule::Stochastic, 0.0), (Schedule::MiniBatch { batch: 3 }, 0.5), (Schedule::Batch, 0.5)];
    for (schedule, lambda) in cases {
        let s = GradientDescentSettings { ridge: lambda, ..settings(schedule, 0.1, 2) };
        let initial = DVector::from_vec(vec![0.5, -1.0, 2.0]);
        let mut gd = GradientDescent::new(phi.clone(), t.clone(), initial.clone(), s).unwrap();
        let mut w = initial;
        while let Ok(GradientEvent::Update { samples, loss, step_norm, .. }) = gd.step() {
            let mut gradient = &w * (lambda * samples.len() as f64 / 7.0);
            for &n in &samples {
                let phi_n = phi.row(n).transpose();
                gradient += &phi_n * (phi_n.dot(&w) - t[n]);
            }
            let next = &w - gradient * 0.1;
            assert!(((&next - &w).norm() - step_norm).abs() < 1e-14, "{schedule:?}");
            w = next;
            assert_vec_close(gd.weights(), &w, 1e-13, &format!("{schedule:?}"));
            let want: f64 = (0..7).map(|n| 0.5 * (phi.row(n).transpose().dot(&w) - t[n]).powi(2)).sum::<f64>()
                + 0.5 * lambda * w.norm_squared();
            assert!((loss - want).abs() < 1e-13 * want, "{schedule:?}: loss {loss} vs {want}");
        }
    }
}

#[test]
fn divergence_is_reported_at_the_right_iteration_without_nan() {
    // Φ = [1; 1], t = (0, 0), w₀ = 1, E(w) = w². Batch, α = 2: w := w − 2·2w = −3w.
    // SGD, α = 4: each point gives w := w − 4w = −3w. Either way E(w_k) = 9ᵏ, which first
    // exceeds 10¹² · max(1, E(w₀) = 1) at k = 13 (9¹² ≈ 2.8·10¹¹, 9¹³ ≈ 2.5·10¹²).
    let phi = DMatrix::from_element(2, 1, 1.0);
    for (schedule, rate) in [(Schedule::Batch, 2.0), (Schedule::Stochastic, 4.0)] {
        let mut gd = GradientDescent::new(
            phi.clone(),
            vec![0.0, 0.0],
            DVector::from_element(1, 1.0),
            settings(schedule, rate, 100),
        )
        .unwrap();
        assert_eq!(gd.run(), Ok(Termination::Diverged { iteration: 13 }), "{schedule:?}");
        assert_eq!((gd.iteration(), gd.path().len(), gd.losses().len()), (12, 13, 13), "{schedule:?}");
        assert_eq!(gd.weights()[0], 3.0_f64.powi(12), "{schedule:?}");
        assert_eq!(*gd.losses().last().unwrap(), 9.0_f64.powi(12), "{schedule:?}");
        assert!(gd.losses().iter().all(|l| l.is_finite()));
        assert!(gd.path().iter().all(|w| w.iter().all(|v| v.is_finite())));
        // Stepping again changes nothing and the run stays ended where it diverged.
        assert_eq!(gd.step(), Err(Error::RunOver { iterations: 12 }));
        assert_eq!(gd.status(), Status::Terminated(Termination::Diverged { iteration: 13 }));
        assert_eq!(gd.path().len(), 13);
    }
    // An overflow on the very first update: E(w₁) = ∞ is refused, w stays w₀.
    let mut gd =
        GradientDescent::new(phi, vec![0.0, 0.0], DVector::from_element(1, 1.0), settings(Schedule::Batch, 1e300, 5))
            .unwrap();
    assert_eq!(gd.run(), Ok(Termination::Diverged { iteration: 1 }));
    assert_eq!(gd.path(), [DVector::from_element(1, 1.0)]);
    assert_eq!(gd.losses(), [1.0]);
}

#[test]
fn ridge_gradient_descent_matches_the_ridge_closed_form() {
    // Cubic on the sinusoid with λ = 0.5: minimise E_D + λ/2‖w‖², whose minimiser solves
    // (ΦᵀΦ + λI)w = Φᵀt (reference: nalgebra LU). Batch GD to 10⁻⁹; SGD and MBGD with a
    // constant rate to a stated 0.5% of ‖w‖ (measured 0.1%; their neighbourhood shrinks
    // with α).
    let (x, t) = sinusoid(25, 6);
    let phi = polynomial_phi(&x, 4);
    let lambda = 0.5;
    let a = phi.transpose() * &phi + DMatrix::identity(4, 4) * lambda;
    let want = a.clone().lu().solve(&(phi.transpose() * DVector::from_column_slice(&t))).unwrap();
    assert_vec_close(&ridge(&phi, &t, lambda).unwrap(), &want, 1e-12, "closed form");
    let lambda_max = a.symmetric_eigenvalues().max();
    let batch =
        run(&phi, &t, GradientDescentSettings { ridge: lambda, ..settings(Schedule::Batch, 1.0 / lambda_max, 20_000) });
    assert_vec_close(batch.weights(), &want, 1e-9, "batch");
    for schedule in [Schedule::MiniBatch { batch: 5 }, Schedule::Stochastic] {
        let s = GradientDescentSettings { ridge: lambda, ..settings(schedule, 0.002, 5000) };
        assert_vec_close(run(&phi, &t, s).weights(), &want, 5e-3, &format!("{schedule:?}"));
    }
}

#[test]
fn gradient_descent_refuses_bad_settings_with_typed_errors() {
    let (x, t) = sinusoid(10, 0);
    let phi = polynomial_phi(&x, 2);
    let new = |s: GradientDescentSettings| GradientDescent::new(phi.clone(), t.clone(), DVector::zeros(2), s);
    let out_of_range = |s| matches!(new(s), Err(Error::OutOfRange { .. }));
    assert!(out_of_range(settings(Schedule::Batch, -0.1, 1)));
    assert!(out_of_range(settings(Schedule::MiniBatch { batch: 0 }, 0.1, 1)));
    assert!(out_of_range(settings(Schedule::MiniBatch { batch: 11 }, 0.1, 1)));
    assert!(out_of_range(GradientDescentSettings { ridge: -0.5, ..settings(Schedule::Batch, 0.1, 1) }));
    // SGD on 10 points: at most 10⁶ updates, so at most 100 000 epochs; the limit is named.
    let e = new(settings(Schedule::Stochastic, 0.1, 100_001)).unwrap_err();
    assert_eq!(e.to_string(), "epochs must be a whole number from 1 to 100000, but is 100001");
    assert!(new(settings(Schedule::Stochastic, 0.1, 100_000)).is_ok());
    assert!(matches!(new(settings(Schedule::Batch, f64::NAN, 1)), Err(Error::NotFinite { .. })));
    let mut bad_t = t.clone();
    bad_t[3] = f64::NAN;
    let e = GradientDescent::new(phi.clone(), bad_t, DVector::zeros(2), settings(Schedule::Batch, 0.1, 1)).unwrap_err();
    assert_eq!(e.to_string(), "t[3] must be a finite number, but is NaN");
    let e = GradientDescent::new(DMatrix::zeros(0, 2), vec![], DVector::zeros(2), settings(Schedule::Batch, 0.1, 1));
    assert_eq!(e.unwrap_err(), Error::NoData);
    let e = GradientDescent::new(phi.clone(), t.clone(), DVector::zeros(3), settings(Schedule::Batch, 0.1, 1));
    assert!(matches!(e, Err(Error::DimensionMismatch { expected: 2, got: 3, .. })));
}

#[test]
fn events_serialise_as_plain_values() {
    let phi = DMatrix::from_element(2, 1, 1.0);
    let mut gd =
        GradientDescent::new(phi, vec![1.0, 3.0], DVector::zeros(1), settings(Schedule::Batch, 0.25, 1)).unwrap();
    let update = serde_json::to_value(gd.step().unwrap()).unwrap();
    let want = serde_json::json!({
        "type": "update", "iteration": 1, "epoch": 1, "samples": [0, 1], "loss": 2.0, "step_norm": 1.0
    });
    assert_eq!(update, want);
    assert_eq!(gd.status(), Status::Terminated(Termination::Finished { iterations: 1 }));
    let stopped = serde_json::to_value(GradientEvent::Stopped { termination: Termination::Finished { iterations: 1 } });
    let want = serde_json::json!({ "type": "stopped", "termination": { "type": "finished", "iterations": 1 } });
    assert_eq!(stopped.unwrap(), want);
    let schedule = serde_json::to_value(Schedule::MiniBatch { batch: 5 }).unwrap();
    assert_eq!(schedule, serde_json::json!({ "type": "mini-batch", "batch": 5 }));
}

// ---------------------------------------------------------------------------------------
// Ridge and lasso (lecture notes on linear models, eq 11–21).
// ---------------------------------------------------------------------------------------

#[test]
fn ridge_on_a_design_with_a_duplicated_column_matches_the_reduced_problem() {
    // Columns (1, x, x, x²): ΦᵀΦ is singular. By symmetry the two copies of x get equal
    // weights c, and with d = √2·c the problem is ridge on the full-rank design
    // (1, √2·x, x²) with the same λ/2‖·‖² (2c² = d²). Reference: that 3-column system
    // (Φ_rᵀΦ_r + λI)v = Φ_rᵀt by nalgebra's LU, then w = (v₀, v₁/√2, v₁/√2, v₂).
    // Tiny λ (down to 10⁻³⁰) exercises the SVD branch, large λ the Cholesky one.
    let x = [0.1, 0.3, 0.3, 0.6, 0.8, 0.8];
    let t = [0.5, 1.0, 0.9, -0.2, -0.9, -1.1];
    let phi = DMatrix::from_fn(6, 4, |n, j| [1.0, x[n], x[n], x[n] * x[n]][j]);
    let reduced = DMatrix::from_fn(6, 3, |n, j| [1.0, 2.0_f64.sqrt() * x[n], x[n] * x[n]][j]);
    let t_vec = DVector::from_column_slice(&t);
    for lambda in [1e-30_f64, 1e-16, 1e-8, 1e-4, 1e-2, 10.0] {
        let a = reduced.transpose() * &reduced + DMatrix::identity(3, 3) * lambda;
        let v = a.lu().solve(&(reduced.transpose() * &t_vec)).unwrap();
        let c = v[1] / 2.0_f64.sqrt();
        let want = DVector::from_vec(vec![v[0], c, c, v[2]]);
        assert_vec_close(&ridge(&phi, &t, lambda).unwrap(), &want, 1e-9, &format!("λ = {lambda:e}"));
    }
    // λ = 0 is the minimum-norm least-squares answer.
    let want = pseudo_inverse(&phi) * t_vec;
    assert_vec_close(&ridge(&phi, &t, 0.0).unwrap(), &want, 1e-10, "λ = 0");
}

#[test]
fn ridge_path_shrinks_the_weights_as_lambda_grows() {
    let (x, t) = sinusoid(15, 8);
    let phi = polynomial_phi(&x, 10);
    let ln_lambdas: Vec<f64> = (0..=12).map(|i| -30.0 + 3.0 * i as f64).collect();
    let path = ridge_path(&phi, &t, &ln_lambdas).unwrap();
    assert_eq!(path.len(), ln_lambdas.len());
    for (w, &ln) in path.iter().zip(&ln_lambdas) {
        assert!(w.iter().all(|v| v.is_finite()), "ln λ = {ln}");
        // Each point solves (ΦᵀΦ + λI)w = Φᵀt: the gradient Φᵀ(Φw − t) + λw vanishes.
        let gradient = phi.transpose() * (&phi * w - DVector::from_column_slice(&t)) + w * ln.exp();
        assert!(gradient.norm() < 1e-6 * (phi.transpose() * DVector::from_column_slice(&t)).norm(), "ln λ = {ln}");
    }
    // ‖w_λ‖ decreases with λ (each filter factor σ/(σ² + λ) does).
    for pair in path.windows(2) {
        assert!(pair[1].norm() <= pair[0].norm() * (1.0 + 1e-9), "{} then {}", pair[0].norm(), pair[1].norm());
    }
    assert!(matches!(ridge_path(&phi, &t, &[f64::NAN]), Err(Error::NotFinite { .. })));
}

/// Checks the lasso optimality (KKT) conditions at w for ½‖t − Φw‖² + λ‖w‖₁:
/// g = Φᵀ(t − Φw); gⱼ = λ sign(wⱼ) where wⱼ ≠ 0, |gⱼ| ≤ λ where wⱼ = 0 (relative `tol`).
fn assert_kkt(phi: &DMatrix<f64>, t: &[f64], lambda: f64, fit: &LassoFit, tol: f64) {
    let g = phi.transpose() * (DVector::from_column_slice(t) - phi * &fit.weights);
    for (j, (&w, &g)) in fit.weights.iter().zip(g.iter()).enumerate() {
        if w == 0.0 {
            assert!(g.abs() <= lambda * (1.0 + tol), "λ = {lambda}: w[{j}] = 0 but |g| = {} > λ", g.abs());
        } else {
            assert!((g - lambda * w.signum()).abs() <= tol * lambda, "λ = {lambda}: w[{j}] = {w}, g = {g}");
        }
    }
}

#[test]
fn lasso_satisfies_the_kkt_conditions_and_is_sparse() {
    // Random Gaussian design (N = 40, M = 8), well conditioned; t from a sparse w plus noise.
    let phi = random_matrix(40, 8, 21);
    let truth = DVector::from_vec(vec![3.0, 0.0, -2.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    let noise = random_matrix(40, 1, 22).column(0) * 0.5;
    let t: Vec<f64> = (&phi * &truth + noise).iter().copied().collect();
    let lambda_max = lasso_lambda_max(&phi, &t).unwrap();
    for fraction in [0.001, 0.05, 0.2, 0.5, 0.9] {
        let lambda = fraction * lambda_max;
        let fit = lasso(&phi, &t, lambda, &LassoSettings::default(), None).unwrap();
        assert!(fit.converged, "λ = {lambda}: {} iterations", fit.iterations);
        assert_kkt(&phi, &t, lambda, &fit, 1e-6);
    }
    // Mid-range λ recovers the support {0, 2, 5} and sets the rest exactly to zero.
    let fit = lasso(&phi, &t, 0.2 * lambda_max, &LassoSettings::default(), None).unwrap();
    let support: Vec<usize> = (0..8).filter(|&j| fit.weights[j] != 0.0).collect();
    assert_eq!(support, [0, 2, 5], "{}", fit.weights);
}

#[test]
fn lasso_on_an_orthonormal_design_is_soft_thresholding_of_phi_t_t() {
    // ΦᵀΦ = I (Φ = Q of a QR): the lasso separates, wⱼ = sign(zⱼ) max(|zⱼ| − λ, 0), z = Φᵀt.
    let q = random_matrix(20, 5, 31).qr().q();
    let t: Vec<f64> = random_matrix(20, 1, 32).iter().map(|v| 2.0 * v).collect();
    let z = q.transpose() * DVector::from_column_slice(&t);
    for lambda in [0.0, 0.3, 1.0, 2.5] {
        let want = z.map(|z| z.signum() * (z.abs() - lambda).max(0.0));
        let fit = lasso(&q, &t, lambda, &LassoSettings::default(), None).unwrap();
        assert_vec_close(&fit.weights, &want, 1e-12, &format!("λ = {lambda}"));
        assert!((lipschitz(&q) - 1.0).abs() < 1e-12);
    }
}

#[test]
fn lasso_with_lambda_at_least_the_max_correlation_is_exactly_zero() {
    let (x, t) = sinusoid(20, 12);
    let phi = polynomial_phi(&x, 5);
    // ‖Φᵀt‖_∞ by a loop here; the crate's value agrees to rounding.
    let max_correlation = (0..5).map(|j| (0..20).map(|n| phi[(n, j)] * t[n]).sum::<f64>().abs()).fold(0.0, f64::max);
    assert!((lasso_lambda_max(&phi, &t).unwrap() - max_correlation).abs() < 1e-13 * max_correlation);
    // (1 + 10⁻¹²) absorbs the rounding of the two summation orders.
    let warm = DVector::from_vec(vec![1.0, -2.0, 3.0, -4.0, 5.0]);
    for lambda in [max_correlation * (1.0 + 1e-12), 10.0 * max_correlation, 1e12] {
        for start in [None, Some(&warm)] {
            let fit = lasso(&phi, &t, lambda, &LassoSettings::default(), start).unwrap();
            assert!(fit.weights.iter().all(|&w| w == 0.0), "λ = {lambda}: {}", fit.weights);
            assert!(fit.converged);
        }
    }
    // Just below λ_max one weight is non-zero.
    let fit = lasso(&phi, &t, 0.99 * max_correlation, &LassoSettings::default(), None).unwrap();
    assert_eq!(fit.weights.iter().filter(|&&w| w != 0.0).count(), 1, "{}", fit.weights);
}

#[test]
fn lasso_path_with_warm_starts_satisfies_kkt_everywhere() {
    let phi = random_matrix(30, 6, 41);
    let t: Vec<f64> = random_matrix(30, 1, 42).iter().copied().collect();
    let ln_max = lasso_lambda_max(&phi, &t).unwrap().ln();
    // Deliberately not sorted: the results come back in the order asked.
    let ln_lambdas = [ln_max - 3.0, ln_max + 1.0, ln_max - 0.5, ln_max - 6.0, ln_max - 1.5];
    let settings = LassoSettings::default();
    let path = lasso_path(&phi, &t, &ln_lambdas, &settings).unwrap();
    let mut cold_iterations = 0;
    for (fit, &ln) in path.iter().zip(&ln_lambdas) {
        assert!(fit.converged, "ln λ = {ln}");
        assert_kkt(&phi, &t, ln.exp(), fit, 1e-6);
        let cold = lasso(&phi, &t, ln.exp(), &settings, None).unwrap();
        assert_vec_close(&fit.weights, &cold.weights, 1e-7, &format!("ln λ = {ln}"));
        cold_iterations += cold.iterations;
    }
    assert!(path[1].weights.iter().all(|&w| w == 0.0), "above λ_max");
    let warm_iterations: usize = path.iter().map(|f| f.iterations).sum();
    assert!(warm_iterations < cold_iterations, "warm {warm_iterations} vs cold {cold_iterations}");
}

#[test]
fn soft_threshold_follows_the_three_cases_of_the_lecture() {
    // The lecture notes on linear models, eq 21, with λ = 2: z + λ for z < −λ, 0 for |z| ≤ λ, z
    // − λ for z > λ.
    let cases = [
        (-5.0, -3.0),
        (-2.5, -0.5),
        (-2.0, 0.0),
        (-1.0, 0.0),
        (0.0, 0.0),
        (1.5, 0.0),
        (2.0, 0.0),
        (2.25, 0.25),
        (7.0, 5.0),
    ];
    for (z, want) in cases {
        assert_eq!(soft_threshold(z, 2.0), want, "z = {z}");
    }
    assert_eq!(soft_threshold(-0.3, 0.0), -0.3);
}

#[test]
fn lipschitz_matches_closed_forms() {
    // A diagonal 5 × 3 Φ: σ = |dⱼ|, so L = max dⱼ².
    let mut diagonal = DMatrix::zeros(5, 3);
    for (j, d) in [0.5, -4.0, 3.0].into_iter().enumerate() {
        diagonal[(j, j)] = d;
    }
    assert!((lipschitz(&diagonal) - 16.0).abs() < 1e-13);
    // Rank one Φ = uvᵀ: ΦᵀΦ = ‖u‖² vvᵀ, whose only non-zero eigenvalue is ‖u‖²‖v‖².
    let u = DVector::from_vec(vec![1.0, 2.0, -2.0, 0.5]);
    let v = DVector::from_vec(vec![3.0, 0.0, -4.0]);
    let rank_one = &u * v.transpose();
    let want = u.norm_squared() * v.norm_squared();
    assert!((lipschitz(&rank_one) - want).abs() < 1e-12 * want);
}

// ---------------------------------------------------------------------------------------
// Bad input: answers or typed errors, never NaN.
// ---------------------------------------------------------------------------------------

#[test]
fn awkward_designs_give_finite_answers_everywhere() {
    let (x, t) = sinusoid(12, 13);
    let mut dup_x = x.clone();
    dup_x[1] = dup_x[0];
    dup_x[5] = dup_x[4];
    let designs = [
        ("M > N", polynomial_phi(&x[..5], 9), t[..5].to_vec()),
        ("duplicate inputs", polynomial_phi(&dup_x, 4), t.clone()),
        ("degree 20", polynomial_phi(&x, 21), t.clone()),
        ("zero design", DMatrix::zeros(12, 3), t.clone()),
    ];
    let finite = |w: &DVector<f64>| w.iter().all(|v| v.is_finite());
    for (what, phi, t) in &designs {
        let fit = least_squares::fit(phi, t).unwrap();
        assert!(finite(fit.weights()) && !fit.beta().is_nan(), "{what}");
        for lambda in [0.0, 1e-300, 1e-12, 1.0] {
            assert!(finite(&ridge(phi, t, lambda).unwrap()), "{what}, ridge λ = {lambda}");
        }
        let short = LassoSettings { max_iterations: 2000, ..LassoSettings::default() };
        let fit = lasso(phi, t, 1e-3, &short, None).unwrap();
        assert!(finite(&fit.weights), "{what}, lasso");
        let mut gd = GradientDescent::new(
            phi.clone(),
            t.clone(),
            DVector::zeros(phi.ncols()),
            settings(Schedule::Stochastic, 0.1, 50),
        )
        .unwrap();
        gd.run().unwrap();
        assert!(gd.path().iter().all(finite) && gd.losses().iter().all(|l| l.is_finite()), "{what}, GD");
    }
}

#[test]
fn invalid_input_gives_typed_errors() {
    let phi = polynomial_phi(&[0.0, 0.5, 1.0], 2);
    let t = [1.0, 2.0, 3.0];
    assert_eq!(least_squares::fit(&DMatrix::zeros(0, 2), &[]).unwrap_err(), Error::NoData);
    assert!(matches!(least_squares::fit(&phi, &t[..2]), Err(Error::DimensionMismatch { expected: 2, got: 3, .. })));
    assert!(matches!(least_squares::fit(&DMatrix::zeros(3, 0), &t), Err(Error::OutOfRange { name: "M", .. })));
    let mut nan_phi = phi.clone();
    nan_phi[(1, 1)] = f64::NAN;
    assert!(matches!(least_squares::fit(&nan_phi, &t), Err(Error::NotFinite { .. })));
    assert!(matches!(rms_error(&phi, &t, &DVector::from_element(2, f64::INFINITY)), Err(Error::NotFinite { .. })));
    assert!(matches!(ridge(&phi, &t, -1.0), Err(Error::OutOfRange { name: "λ", .. })));
    assert!(matches!(ridge(&phi, &t, f64::INFINITY), Err(Error::NotFinite { .. })));
    assert!(matches!(lasso(&phi, &t, -1.0, &LassoSettings::default(), None), Err(Error::OutOfRange { .. })));
    let wrong = DVector::zeros(3);
    let e = lasso(&phi, &t, 1.0, &LassoSettings::default(), Some(&wrong)).unwrap_err();
    assert!(matches!(e, Error::DimensionMismatch { what: "warm start", .. }), "{e:?}");
    assert!(matches!(lasso_path(&phi, &t, &[800.0], &LassoSettings::default()), Err(Error::Overflow { .. })));
}

// ---------------------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Least squares on any small design: the residual is orthogonal to every column
    /// (normal equations, lecture notes on linear models, eq 4) and β is positive or +∞, never NaN.
    #[test]
    fn residual_is_orthogonal_to_the_columns(n in 1usize..8, m in 1usize..7, seed in 0u64..1000) {
        let phi = random_matrix(n, m, seed);
        let t: Vec<f64> = random_matrix(n, 1, seed + 10_000).iter().copied().collect();
        let fit = least_squares::fit(&phi, &t).unwrap();
        let residual = DVector::from_column_slice(&t) - &phi * fit.weights();
        let scale = phi.norm() * DVector::from_column_slice(&t).norm();
        prop_assert!((phi.transpose() * residual).norm() <= 1e-10 * scale.max(1.0));
        prop_assert!(fit.beta() > 0.0);
        prop_assert_eq!(fit.rank(), n.min(m));
    }

    /// soft(z, λ) minimises ½(x − z)² + λ|x|: the optimality condition behind eq 21 of the
    /// lecture notes on linear models (x − z + λ sign x = 0 if x ≠ 0; |z| ≤ λ if x = 0),
    /// and no grid point does better.
    #[test]
    fn soft_threshold_minimises_its_objective(z in -10.0f64..10.0, lambda in 0.0f64..5.0) {
        let x = soft_threshold(z, lambda);
        if x == 0.0 {
            prop_assert!(z.abs() <= lambda);
        } else {
            prop_assert!((x - z + lambda * x.signum()).abs() < 1e-12);
        }
        let f = |x: f64| 0.5 * (x - z).powi(2) + lambda * x.abs();
        for k in -200..=200 {
            let y = k as f64 * 0.05;
            prop_assert!(f(x) <= f(y) + 1e-12);
        }
    }

    /// L = σ_max² bounds ‖Φv‖² ≤ L‖v‖² for every v, with equality for the top singular vector.
    #[test]
    fn lipschitz_bounds_the_quadratic_form(n in 1usize..7, m in 1usize..7, seed in 0u64..1000) {
        let phi = random_matrix(n, m, seed);
        let l = lipschitz(&phi);
        let v = random_matrix(m, 1, seed + 1).column(0).into_owned();
        prop_assert!((&phi * &v).norm_squared() <= l * v.norm_squared() * (1.0 + 1e-12));
        let top = (phi.transpose() * &phi).symmetric_eigenvalues().max();
        prop_assert!((l - top).abs() <= 1e-10 * top.max(1.0));
    }
}
