//! The relevance vector machine: the fast method's incremental statistics against a
//! from-scratch recompute through the N × N covariance C, monotone L, the stationarity
//! conditions at convergence, and the classic, EM and fast methods against each other and
//! against scikit-learn's ARDRegression.

#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

mod common;

use common::finished;
use common::fixtures::{path, read_csv, read_json};

use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Normal};
use rand_pcg::Pcg64;
use rvm_lab::rvm::classic::ClassicSettings;
use rvm_lab::rvm::fast::MIN_DELTA_LN_ALPHA;
use rvm_lab::rvm::{Action, ClassicRvm, FastRvm, FastSettings, Problem, Rule, Selection};
use rvm_lab::solver::{Solver, Status, Termination};

/// Gaussian kernel design exp(−(x − xₙ)²/2s²) on every input, with a bias column first.
fn kernel_design(x: &[f64], width: f64) -> DMatrix<f64> {
    rvm_lab::basis::kernel_design(x, width, true).unwrap()
}

/// N noisy samples of sinc on [−10, 10] (Tipping's benchmark data).
fn sinc_data(n: usize, noise: f64, seed: u64) -> (Vec<f64>, DVector<f64>) {
    let data = rvm_lab::data::Sinc { n, noise, seed }.generate().unwrap();
    let t = DVector::from_column_slice(&data.t);
    (data.x, t)
}

/// Everything the fast method maintains, computed from C = β⁻¹I + Φ_𝒜A⁻¹Φ_𝒜ᵀ directly.
struct FromScratch {
    sigma: DMatrix<f64>,
    mu: DVector<f64>,
    big_s: DVector<f64>,
    big_q: DVector<f64>,
    log_ml: f64,
}

fn from_scratch(phi: &DMatrix<f64>, t: &DVector<f64>, active: &[usize], alpha: &[f64], beta: f64) -> FromScratch {
    let n = phi.nrows();
    let phi_a = phi.select_columns(active);
    let a_inv = DMatrix::from_diagonal(&DVector::from_iterator(alpha.len(), alpha.iter().map(|a| 1.0 / a)));
    let c = DMatrix::identity(n, n) / beta + &phi_a * a_inv * phi_a.transpose();
    let chol = c.clone().cholesky().expect("C is positive definite");
    let c_inv = chol.inverse();
    let big_s = DVector::from_iterator(phi.ncols(), phi.column_iter().map(|p| (p.transpose() * &c_inv * p)[0]));
    let big_q = phi.transpose() * &c_inv * t;
    let log_ml =
        -0.5 * (n as f64 * (2.0 * std::f64::consts::PI).ln() + chol.ln_determinant() + (t.transpose() * &c_inv * t)[0]);
    let a = DMatrix::from_diagonal(&DVector::from_column_slice(alpha));
    let sigma = (a + phi_a.transpose() * &phi_a * beta).try_inverse().expect("Σ⁻¹ is invertible");
    let mu = &sigma * phi_a.transpose() * t * beta;
    FromScratch { sigma, mu, big_s, big_q, log_ml }
}

/// max |a − b| / max |b|.
fn relative_gap(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    a.iter().zip(b).fold(0.0_f64, |m, (x, y)| m.max((x - y).abs())) / scale
}

/// max |a − b| / scale, the scale of each entry given.
fn scaled_gap(a: &[f64], b: &[f64], scale: impl Fn(usize) -> f64) -> f64 {
    a.iter().zip(b).enumerate().fold(0.0_f64, |m, (i, (x, y))| m.max((x - y).abs() / scale(i)))
}

/// Σ and μ are compared relative to their largest entry; Sₘ and Qₘ relative to the size of
/// the terms their formulas subtract, β‖φₘ‖² and β‖φₘ‖‖t‖ (as the model explains the data,
/// Q shrinks far below those, and its rounding error does not); L, a sum over N points,
/// relative to max(|L|, N) (it passes through 0).
fn assert_matches_scratch(rvm: &FastRvm, tolerance: f64) {
    let p = rvm.problem();
    let (beta, phi, t) = (rvm.beta(), p.design(), p.targets());
    let scratch = from_scratch(phi, t, rvm.active(), rvm.alpha(), beta);
    let (big_s, big_q) = rvm.statistics();
    let norm = |m: usize| phi.column(m).norm();
    let step = rvm.iterations();
    let gaps = [
        ("Σ", relative_gap(rvm.covariance().as_slice(), scratch.sigma.as_slice())),
        ("μ", relative_gap(rvm.mean().as_slice(), scratch.mu.as_slice())),
        ("S", scaled_gap(big_s.as_slice(), scratch.big_s.as_slice(), |m| beta * norm(m).powi(2))),
        ("Q", scaled_gap(big_q.as_slice(), scratch.big_q.as_slice(), |m| beta * norm(m) * t.norm())),
        ("L", scaled_gap(&[rvm.log_ml()], &[scratch.log_ml], |_| scratch.log_ml.abs().max(t.len() as f64))),
    ];
    for (name, gap) in gaps {
        assert!(gap < tolerance, "step {step}: {name} differs from the recompute by {gap:e} relative");
    }
}

fn fast(phi: DMatrix<f64>, t: DVector<f64>, settings: FastSettings) -> FastRvm {
    FastRvm::new(Arc::new(Problem::new(phi, t).unwrap()), settings).unwrap()
}

#[test]
fn sinc_runs_to_convergence_with_the_incremental_statistics_exact() {
    let (x, t) = sinc_data(60, 0.1, 3);
    let mut rvm = fast(kernel_design(&x, 3.0), t, FastSettings::default());
    assert_matches_scratch(&rvm, 1e-9);
    while rvm.status().is_running() {
        rvm.step().unwrap();
        assert_matches_scratch(&rvm, 1e-9);
    }
    assert!(rvm.status().termination().is_some_and(|t| t.converged()));
    let fit = rvm.fit();
    eprintln!(
        "fast sinc N=60: {} steps, {} RVs, L = {}, β = {}",
        fit.iterations,
        fit.relevant.len(),
        fit.log_marginal_likelihood,
        fit.beta
    );
}

/// A random problem: kernel columns of random width on random inputs, some random dense
/// columns, and targets from a random sparse model plus noise.
fn random_problem(seed: u64, n: usize) -> (DMatrix<f64>, DVector<f64>, f64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    // Jittered grid, inputs at least half a spacing apart, widths up to 1.5 spacings:
    // inputs that all but coincide give near-copy columns, Σ⁻¹ then reaches condition
    // numbers (10⁷ and more) at which the recompute itself (an explicit inverse) no longer
    // holds 1e-9.
    let spacing = 10.0 / n as f64;
    let x: Vec<f64> = (0..n).map(|i| -5.0 + spacing * (i as f64 + rng.random_range(0.0..0.5))).collect();
    let width = rng.random_range(0.3..1.5) * spacing;
    let extra = rng.random_range(0..4);
    let normal = Normal::new(0.0, 1.0).unwrap();
    let kernel = kernel_design(&x, width);
    let phi = DMatrix::from_fn(n, kernel.ncols() + extra, |r, c| {
        if c < kernel.ncols() { kernel[(r, c)] } else { normal.sample(&mut rng) }
    });
    let w =
        DVector::from_fn(
            phi.ncols(),
            |_, _| if rng.random_range(0.0..1.0) < 0.15 { normal.sample(&mut rng) } else { 0.0 },
        );
    let noise = rng.random_range(0.02..0.5);
    let t = &phi * w + DVector::from_fn(n, |_, _| noise * normal.sample(&mut rng));
    (phi, t, 1.0 / (noise * noise))
}

fn selection(k: u8) -> Selection {
    [Selection::Greedy, Selection::Cyclic, Selection::Random][usize::from(k % 3)]
}

proptest! {
    // A fixed seed: CI runs the same 64 cases every time. Of 1500 cases run locally, one
    // (cyclic selection, fixed noise, 36 steps without a refactorisation) drifted to 2.7e-9.
    #![proptest_config(ProptestConfig { cases: 64, rng_seed: RngSeed::Fixed(20261121), ..ProptestConfig::default() })]

    /// After every step the incrementally updated Σ, μ, S, Q and L equal a recompute from
    /// C to 1e-9 relative, and L never falls (beyond 1e-9 relative).
    ///
    /// With the alignment test on, as by default. Off, runs that add neighbouring kernel
    /// columns one after another (cyclic selection, cond Σ⁻¹ ≥ 10⁵) drift past 1e-9 through
    /// the rank-one re-estimations and deletions in a few per cent of these random
    /// problems (measured: up to 5·10⁻⁹ within 50 steps); `alignment_off_on_sinc…` covers
    /// the switch on a realistic problem.
    #[test]
    fn every_step_matches_a_recompute_and_never_lowers_l(
        seed in 0u64..10_000, n in 10usize..40, k in 0u8..3, noise in any::<bool>(),
    ) {
        // With the noise fixed, at its true precision (the reference's default start, 100/var t,
        // would overfit and drive Σ⁻¹ towards singular).
        let (phi, t, beta) = random_problem(seed, n);
        let beta = (!noise).then_some(beta);
        let settings = FastSettings { selection: selection(k), alignment_test: true, estimate_noise: noise, beta, seed, max_steps: 60 };
        let mut rvm = fast(phi, t, settings);
        assert_matches_scratch(&rvm, 1e-9);
        let mut last = rvm.log_ml();
        while rvm.status().is_running() {
            rvm.step().unwrap();
            assert_matches_scratch(&rvm, 1e-9);
            let l = rvm.log_ml();
            prop_assert!(l >= last - 1e-9 * last.abs(), "step {}: L fell from {last} to {l}", rvm.iterations());
            last = l;
        }
    }
}

#[test]
fn alignment_off_on_sinc_matches_a_recompute_at_every_step() {
    let (x, t) = sinc_data(80, 0.1, 11);
    for selection in [Selection::Greedy, Selection::Cyclic, Selection::Random] {
        let settings = FastSettings { selection, alignment_test: false, ..FastSettings::default() };
        let mut rvm = fast(kernel_design(&x, 3.0), t.clone(), settings);
        while rvm.status().is_running() {
            rvm.step().unwrap();
            assert_matches_scratch(&rvm, 1e-9);
        }
    }
}

/// At convergence every active i has αᵢ = sᵢ²/(qᵢ² − sᵢ) (within the |Δ ln α| tolerance)
/// and every inactive i has qᵢ² ≤ sᵢ, or was refused by the alignment test (PRML 7.101).
fn assert_stationary(rvm: &FastRvm) {
    assert!(rvm.status().termination().is_some_and(|t| t.converged()), "converged");
    let refused: Vec<usize> = rvm.refused().collect();
    for m in 0..rvm.problem().m() {
        let (s, q) = rvm.sparsity_quality(m);
        let theta = q * q - s;
        match rvm.active().iter().position(|&a| a == m) {
            Some(j) => {
                assert!(theta > 0.0, "active {m} has θ = {theta}");
                let best = s * s / theta;
                let gap = (best.ln() - rvm.alpha()[j].ln()).abs();
                assert!(gap < MIN_DELTA_LN_ALPHA, "active {m}: α = {} but s²/θ = {best}", rvm.alpha()[j]);
            }
            None => assert!(theta <= 0.0 || refused.contains(&m), "inactive {m} has θ = {theta} > 0"),
        }
    }
}

#[test]
fn converged_runs_are_stationary_for_every_selection() {
    for seed in 0..6 {
        let (phi, t, _) = random_problem(seed, 30);
        for k in 0..3 {
            let settings = FastSettings { selection: selection(k), seed, ..FastSettings::default() };
            let mut rvm = fast(phi.clone(), t.clone(), settings);
            rvm.run().unwrap();
            assert_stationary(&rvm);
            assert_eq!(rvm.events().last().unwrap().action, Action::Converged);
        }
    }
}

/// sᵢ, qᵢ of every column at the given model, from the recompute through C.
fn sparsity_quality(problem: &Problem, active: &[usize], alpha: &[f64], beta: f64) -> Vec<(f64, f64)> {
    let scratch = from_scratch(problem.design(), problem.targets(), active, alpha, beta);
    (0..problem.m())
        .map(|m| {
            let (big_s, big_q) = (scratch.big_s[m], scratch.big_q[m]);
            match active.iter().position(|&a| a == m) {
                Some(j) => (alpha[j] * big_s / (alpha[j] - big_s), alpha[j] * big_q / (alpha[j] - big_s)),
                None => (big_s, big_q),
            }
        })
        .collect()
}

/// The largest |ln αᵢ − ln(sᵢ²/θᵢ)| over the active columns (∞ if one has θ ≤ 0) and the
/// largest gain ½[q²/s − 1 − ln(q²/s)] an inactive column could still bring (PRML 7.101).
fn stationarity(problem: &Problem, fit: &rvm_lab::rvm::RvmFit) -> (f64, f64) {
    let sq = sparsity_quality(problem, &fit.relevant, &fit.alpha, fit.beta);
    let mut worst_alpha = 0.0_f64;
    let mut worst_gain = 0.0_f64;
    for (m, &(s, q)) in sq.iter().enumerate() {
        let theta = q * q - s;
        match fit.relevant.iter().position(|&a| a == m) {
            Some(j) if theta > 0.0 => worst_alpha = worst_alpha.max(((s * s / theta).ln() - fit.alpha[j].ln()).abs()),
            Some(_) => worst_alpha = f64::INFINITY,
            None if theta > 0.0 => {
                let r = q * q / s;
                worst_gain = worst_gain.max(0.5 * (r - 1.0 - r.ln()));
            }
            None => {}
        }
    }
    (worst_alpha, worst_gain)
}

#[test]
fn classic_em_and_fast_reach_maxima_of_the_same_l_on_sinc() {
    let (x, t) = sinc_data(100, 0.1, 7);
    let problem = Arc::new(Problem::new(kernel_design(&x, 3.0), t).unwrap());
    let f = finished(FastRvm::new(problem.clone(), FastSettings::default()).unwrap()).fit();
    let m = finished(ClassicRvm::new(problem.clone(), ClassicSettings::with_rule(Rule::MacKay)).unwrap()).fit();
    let em_settings = ClassicSettings { max_sweeps: 10_000, ..ClassicSettings::with_rule(Rule::Em) };
    let e = finished(ClassicRvm::new(problem.clone(), em_settings).unwrap()).fit();
    for fit in [&f, &m, &e] {
        let scratch = from_scratch(problem.design(), problem.targets(), &fit.relevant, &fit.alpha, fit.beta);
        assert!((fit.log_marginal_likelihood - scratch.log_ml).abs() < 1e-9 * scratch.log_ml.abs());
    }
    // Fast and MacKay converge to stationary points: every active αᵢ at sᵢ²/θᵢ, and no
    // inactive column could add more than 10⁻⁴ (the sinc problem has several maxima, so
    // the sets of vectors differ).
    for (fit, alpha_tolerance) in [(&f, MIN_DELTA_LN_ALPHA), (&m, 1e-4)] {
        assert!(fit.converged);
        let (alpha_gap, gain) = stationarity(&problem, fit);
        assert!(alpha_gap < alpha_tolerance && gain < 1e-4, "Δ ln α = {alpha_gap:e}, gain = {gain:e}");
    }
    // EM creeps (αᵢ of a dying weight grows by about sᵢ per sweep) but climbs the same L.
    let best = f.log_marginal_likelihood.max(m.log_marginal_likelihood);
    for fit in [&f, &m, &e] {
        assert!(best - fit.log_marginal_likelihood < 0.5, "L = {} against {best}", fit.log_marginal_likelihood);
        assert!((4..=15).contains(&fit.relevant.len()), "{} relevance vectors", fit.relevant.len());
    }
}

#[test]
fn em_never_lowers_l() {
    for seed in 0..4 {
        let (phi, t, _) = random_problem(seed, 25);
        let problem = Arc::new(Problem::new(phi, t).unwrap());
        let mut em = ClassicRvm::new(problem, ClassicSettings::with_rule(Rule::Em)).unwrap();
        let mut last = em.log_ml();
        for _ in 0..300 {
            if !em.status().is_running() {
                break;
            }
            let pruned_before = em.active().len();
            em.step().unwrap();
            // A pruning removes a weight whose γ < 10⁻³, which can cost up to ~10⁻⁶.
            let slack = if em.active().len() < pruned_before { 1e-5 } else { 1e-9 * last.abs() };
            assert!(em.log_ml() >= last - slack, "seed {seed}: L fell from {last} to {}", em.log_ml());
            last = em.log_ml();
        }
    }
}

/// EM with a least gain stops at the first sweep that gains less than it — L recomputed from
/// scratch before and after that sweep — and at no earlier one; without it, it goes on.
#[test]
fn em_stalls_at_the_first_sweep_that_gains_less_than_its_least_gain() {
    let (x, t) = sinc_data(50, 0.1, 3);
    let problem = Arc::new(Problem::new(kernel_design(&x, 3.0), t).unwrap());
    let min_gain = 1e-4;
    let settings = ClassicSettings { min_gain, ..ClassicSettings::with_rule(Rule::Em) };
    let mut em = ClassicRvm::new(problem.clone(), settings).unwrap();
    let scratch_l = |em: &ClassicRvm| {
        let fit = em.fit();
        from_scratch(problem.design(), problem.targets(), &fit.relevant, &fit.alpha, fit.beta).log_ml
    };
    let mut gains = vec![];
    while em.status().is_running() {
        let before = scratch_l(&em);
        em.step().unwrap();
        gains.push(scratch_l(&em) - before);
    }
    let sweeps = gains.len();
    assert_eq!(em.status(), Status::Terminated(Termination::Stalled { iterations: sweeps }));
    assert!(sweeps > 10 && sweeps < 5000, "{sweeps} sweeps");
    assert!(gains[sweeps - 1] < min_gain, "the last gain {}", gains[sweeps - 1]);
    assert!(gains[..sweeps - 1].iter().all(|&g| g >= min_gain - 1e-9), "an earlier sweep gained less");
    // Without a least gain the same run goes on past that sweep.
    let mut on = ClassicRvm::new(problem, ClassicSettings::with_rule(Rule::Em)).unwrap();
    for _ in 0..=sweeps {
        on.step().unwrap();
    }
    assert!(on.status().is_running());
}

/// The sinc data of `tests/fixtures/sinc_data.csv` on the kernel basis of width 3 with a
/// bias, as `scripts/fixtures/ard_sinc.py` builds it.
fn sinc_fixture() -> (Arc<Problem>, serde_json::Value) {
    let (header, rows) = read_csv(&path("sinc_data.csv"));
    assert_eq!(header, ["x", "t"]);
    let x: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    let t = DVector::from_iterator(rows.len(), rows.iter().map(|r| r[1]));
    let phi = kernel_design(&x, 3.0);
    (Arc::new(Problem::new(phi, t).unwrap()), read_json("sinc_ard_sklearn.json"))
}

fn numbers(value: &serde_json::Value) -> Vec<f64> {
    value.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
}

#[test]
fn scikit_learn_ard_solution_is_a_maximum_of_our_l() {
    let (problem, sk) = sinc_fixture();
    let relevant: Vec<usize> =
        sk["relevant"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let (alpha, beta) = (numbers(&sk["alpha"]), sk["beta"].as_f64().unwrap());
    // Our L and μ at sklearn's α, β against NumPy's (Cholesky of the N × N C).
    let ours = rvm_lab::rvm::ActivePosterior::compute(&problem, &relevant, &alpha, beta).unwrap();
    let want = sk["log_marginal_likelihood"].as_f64().unwrap();
    assert!((ours.log_ml - want).abs() < 1e-9 * want.abs(), "L = {} against {want}", ours.log_ml);
    let mu = numbers(&sk["weights_numpy"]);
    assert!(relative_gap(ours.mu.as_slice(), &mu) < 1e-9);
    // It is a maximum by our sparsity and quality: every αᵢ = sᵢ²/θᵢ (sklearn fixes α to
    // about 1e-8), no inactive column could add to L.
    let fit = rvm_lab::rvm::RvmFit {
        relevant: relevant.clone(),
        weights: mu,
        alpha,
        beta,
        log_marginal_likelihood: want,
        iterations: 0,
        converged: true,
    };
    let (alpha_gap, gain) = stationarity(&problem, &fit);
    assert!(alpha_gap < 1e-6 && gain == 0.0, "Δ ln α = {alpha_gap:e}, gain = {gain:e}");
}

/// From their own starts, fast and classic reach other maxima of the same L than sklearn's
/// (the sinc problem has several: neighbouring kernels trade places), each stationary and
/// within a few tenths of a nat of it.
#[test]
fn our_methods_reach_maxima_near_scikit_learn_ard_on_sinc() {
    let (problem, sk) = sinc_fixture();
    let want = sk["log_marginal_likelihood"].as_f64().unwrap();
    let mut rvm = FastRvm::new(problem.clone(), FastSettings::default()).unwrap();
    rvm.run().unwrap();
    let fast = rvm.fit();
    assert_stationary(&rvm);
    let classic = finished(ClassicRvm::new(problem.clone(), ClassicSettings::with_rule(Rule::MacKay)).unwrap()).fit();
    // A pruned weight never comes back in the classic method: here one pruned column could
    // still add 2·10⁻³ nats (the fast method would add it).
    let (alpha_gap, gain) = stationarity(&problem, &classic);
    assert!(alpha_gap < 1e-4 && gain < 1e-2, "classic: Δ ln α = {alpha_gap:e}, gain = {gain:e}");
    for fit in [&fast, &classic] {
        assert!(fit.converged);
        assert!(
            (fit.log_marginal_likelihood - want).abs() < 0.25,
            "L = {} against {want}",
            fit.log_marginal_likelihood
        );
        assert!((6..=8).contains(&fit.relevant.len()), "{:?}", fit.relevant);
    }
}
