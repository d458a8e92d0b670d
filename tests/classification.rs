//! The RVM classifier (PRML §7.2.3): the IRLS mode against the gradient (7.110) and the
//! log posterior (7.109) recomputed here, the Laplace marginal likelihood (7.114) against
//! the integral ∫ p(t|w)p(w|α) dw by quadrature, finiteness on separable data, and the
//! classic re-estimation (7.116) on Ripley-style two-class data.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use common::glm::{Link, brute_force_log_ml, dense_laplace, dense_statistics, gradient, hessian};

use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use rand_pcg::Pcg64;
use rvm_lab::basis::{kernel_cross_2d, kernel_design_2d};
use rvm_lab::data::TwoClass;
use rvm_lab::rvm::classification::{
    ClassicRvmClassifier, ClassifierSettings, FastRvmClassifier, irls, predict_probability,
};
use rvm_lab::rvm::fast::MIN_DELTA_LN_ALPHA;
use rvm_lab::rvm::likelihood::Likelihood;
use rvm_lab::rvm::{FastSettings, Problem, Selection};
use rvm_lab::solver::{Budget, Solver};

/// The classes' link for the dense checks: y = σ(a), b = y(1 − y).
const BERNOULLI: Link = Link { mean: sigma, weight: |y| y * (1.0 - y) };

/// σ(a) = 1/(1 + e⁻ᵃ), the plain formula (the arguments here stay moderate).
fn sigma(a: f64) -> f64 {
    1.0 / (1.0 + (-a).exp())
}

/// ln p(t|w) − ½wᵀAw (PRML 7.109), with ln σ and ln(1 − σ) taken directly.
fn log_posterior(phi: &DMatrix<f64>, t: &DVector<f64>, alpha: &[f64], w: &DVector<f64>) -> f64 {
    let a = phi * w;
    let fit: f64 = a.iter().zip(t.iter()).map(|(&a, &t)| t * sigma(a).ln() + (1.0 - t) * (1.0 - sigma(a)).ln()).sum();
    fit - 0.5 * (0..w.len()).map(|i| alpha[i] * w[i] * w[i]).sum::<f64>()
}

/// One N(0, 1) draw.
fn normal(rng: &mut Pcg64) -> f64 {
    StandardNormal.sample(rng)
}

/// N points of a random problem: Φ with N(0, 1) entries, labels drawn from σ(Φw) for a
/// random w.
fn random_problem(seed: u64, n: usize, m: usize) -> (DMatrix<f64>, DVector<f64>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let phi = DMatrix::from_fn(n, m, |_, _| normal(&mut rng));
    let w_true = DVector::from_fn(m, |_, _| 2.0 * normal(&mut rng));
    let a: DVector<f64> = &phi * w_true;
    let t = a.map(|a| f64::from(rng.random::<f64>() < sigma(a)));
    (phi, t)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, rng_seed: RngSeed::Fixed(20261121), ..ProptestConfig::default() })]

    /// At the IRLS mode the gradient (7.110), recomputed here, is below 10⁻⁸ of the size
    /// of its terms; the log posterior (7.109) there is at least that at 2M points a
    /// distance 10⁻³ away along ± each axis and at 8 random points; the factor is that of
    /// ΦᵀBΦ + A formed densely.
    #[test]
    fn irls_reaches_a_stationary_maximum(
        seed in 0u64..10_000, n in 3usize..60, m in 1usize..7, ln_alpha in -3.0f64..3.0,
    ) {
        let (phi, t) = random_problem(seed, n, m);
        let alpha: Vec<f64> = (0..m).map(|i| (ln_alpha + 0.3 * i as f64).exp()).collect();
        let mode = irls(&phi, &t, &alpha, &DVector::zeros(m)).unwrap();
        let (g, scale) = gradient(BERNOULLI, &phi, &t, &alpha, &mode.w);
        prop_assert!(g.norm() <= 1e-8 * scale, "‖g‖ = {} of {}", g.norm(), scale);
        let best = log_posterior(&phi, &t, &alpha, &mode.w);
        prop_assert!((best - mode.log_posterior).abs() <= 1e-12 * (1.0 + best.abs()));
        let mut rng = Pcg64::seed_from_u64(seed ^ 0xC1A5);
        let mut directions: Vec<DVector<f64>> = (0..m)
            .flat_map(|i| [1.0, -1.0].map(|s| DVector::from_fn(m, |j, _| if i == j { s } else { 0.0 })))
            .collect();
        directions.extend((0..8).map(|_| DVector::from_fn(m, |_, _| normal(&mut rng)).normalize()));
        for d in directions {
            let nearby = log_posterior(&phi, &t, &alpha, &(&mode.w + d * 1e-3));
            prop_assert!(nearby <= best, "{nearby} > {best}");
        }
        let h = hessian(BERNOULLI, &phi, &alpha, &mode.w);
        let v = DVector::from_fn(m, |i, _| 1.0 + i as f64);
        prop_assert!((mode.factor.solve(&(&h * &v)) - &v).norm() <= 1e-9 * v.norm());
        prop_assert!(mode.iterations <= 30, "{} Newton steps", mode.iterations);
    }
}

/// A 1-D input problem of N points: xₙ evenly on [−2, 2] (shuffled deterministically
/// into labels by σ(1.5x)), design columns chosen by `bias`.
fn one_d_problem(n: usize, bias: bool, seed: u64) -> (DMatrix<f64>, DVector<f64>) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let x: Vec<f64> = (0..n).map(|k| -2.0 + 4.0 * k as f64 / (n - 1) as f64).collect();
    let t = DVector::from_iterator(n, x.iter().map(|&x| f64::from(rng.random::<f64>() < sigma(1.5 * x - 0.3))));
    let cols = 1 + usize::from(bias);
    let phi = DMatrix::from_fn(n, cols, |r, c| if bias && c == 0 { 1.0 } else { x[r] });
    (phi, t)
}

/// Laplace − exact and the mode's stationarity, curvature against finite differences.
fn laplace_gap(phi: &DMatrix<f64>, t: &DVector<f64>, alpha: &[f64], points: usize) -> f64 {
    let m = alpha.len();
    let mode = irls(phi, t, alpha, &DVector::zeros(m)).unwrap();
    // The curvature of the log posterior by central second differences, h = 10⁻⁴: the
    // diagonal of H = −∇∇ ln p (7.111), to ~10⁻⁶ relative.
    let sigma_diag = mode.sigma_diagonal();
    let h_dense = hessian(BERNOULLI, phi, alpha, &mode.w);
    for i in 0..m {
        let h = 1e-4;
        let e = DVector::from_fn(m, |j, _| if i == j { h } else { 0.0 });
        let f = |w: &DVector<f64>| log_posterior(phi, t, alpha, w);
        let first = (f(&(&mode.w + &e)) - f(&(&mode.w - &e))) / (2.0 * h);
        let second = (f(&(&mode.w + &e)) - 2.0 * f(&mode.w) + f(&(&mode.w - &e))) / (h * h);
        assert!(first.abs() < 1e-6 * h_dense[(i, i)], "∂ᵢ ln p = {first}");
        assert!((-second - h_dense[(i, i)]).abs() < 1e-5 * h_dense[(i, i)], "{second} vs {}", h_dense[(i, i)]);
    }
    let sd: Vec<f64> = sigma_diag.iter().map(|s| s.sqrt()).collect();
    let f = |w: &DVector<f64>| log_posterior(phi, t, alpha, w);
    let exact = brute_force_log_ml(&f, alpha, mode.w.as_slice(), &sd, points);
    // The quadrature has converged: half the nodes changes it by < 10⁻⁹.
    let coarse = brute_force_log_ml(&f, alpha, mode.w.as_slice(), &sd, points / 2 + 1);
    assert!((exact - coarse).abs() < 1e-9, "quadrature {exact} vs {coarse}");
    mode.laplace_log_ml(alpha) - exact
}

/// One weight (no bias), α = 1: Laplace − exact for N = 10, 40, 160.
///
/// Observed gaps −0.0198, −0.0079, −0.0041: the Laplace value lies below the exact one
/// here (the skewed logistic posterior has more mass than its Gaussian fit). The test
/// checks the gap is negative, below 0.025 in size, and shrinks as N grows (the Laplace
/// error is O(1/N)).
#[test]
fn laplace_matches_quadrature_with_one_weight() {
    let gaps: Vec<f64> = [10, 40, 160]
        .iter()
        .map(|&n| {
            let (phi, t) = one_d_problem(n, false, 3);
            laplace_gap(&phi, &t, &[1.0], 4001)
        })
        .collect();
    eprintln!("1 weight: Laplace − exact = {gaps:?}");
    assert!(gaps.iter().all(|&g| g < 0.0 && g > -0.025), "{gaps:?}");
    assert!(gaps.windows(2).all(|p| p[1].abs() < p[0].abs()), "{gaps:?}");
}

/// Two weights (bias and slope), α = (0.5, 2): Laplace − exact for N = 10, 40, 160, by a
/// 401 × 401 trapezoid grid. Observed −0.0283, −0.0199, −0.0088; checked as for one
/// weight, within 0.04.
#[test]
fn laplace_matches_quadrature_with_two_weights() {
    let gaps: Vec<f64> = [10, 40, 160]
        .iter()
        .map(|&n| {
            let (phi, t) = one_d_problem(n, true, 5);
            laplace_gap(&phi, &t, &[0.5, 2.0], 401)
        })
        .collect();
    eprintln!("2 weights: Laplace − exact = {gaps:?}");
    assert!(gaps.iter().all(|&g| g < 0.0 && g > -0.04), "{gaps:?}");
    assert!(gaps.windows(2).all(|p| p[1].abs() < p[0].abs()), "{gaps:?}");
}

/// Separable data: xₙ evenly on [−1, 1], tₙ = [xₙ > 0], Φ = [1, x]. Maximum likelihood
/// has no finite solution, but at any α > 0 the mode is finite, and since
/// Ψ(w*) ≥ Ψ(0) = N ln ½ and ln p(t|w) ≤ 0, ½αᵢwᵢ*² ≤ N ln 2: |wᵢ*| ≤ √(2N ln 2/αᵢ).
#[test]
fn separable_data_gives_finite_weights() {
    let n = 40;
    let x: Vec<f64> = (0..n).map(|k| -1.0 + 2.0 * (k as f64 + 0.5) / n as f64).collect();
    let t = DVector::from_iterator(n, x.iter().map(|&x| f64::from(x > 0.0)));
    let phi = DMatrix::from_fn(n, 2, |r, c| if c == 0 { 1.0 } else { x[r] });
    let mut slopes = vec![];
    for alpha in [1.0, 1e-2, 1e-4, 1e-6] {
        let mode = irls(&phi, &t, &[alpha, alpha], &DVector::zeros(2)).unwrap();
        let bound = (2.0 * n as f64 * std::f64::consts::LN_2 / alpha).sqrt();
        assert!(mode.w.iter().all(|w| w.is_finite() && w.abs() <= bound), "α = {alpha}: {}", mode.w);
        let (g, scale) = gradient(BERNOULLI, &phi, &t, &[alpha, alpha], &mode.w);
        assert!(g.norm() <= 1e-8 * scale, "α = {alpha}");
        eprintln!("separable, α = {alpha:e}: w* = {:?}, {} Newton steps", mode.w.as_slice(), mode.iterations);
        slopes.push(mode.w[1]);
    }
    // The weaker the prior, the steeper the sigmoid: the prior is what holds w*.
    assert!(slopes.windows(2).all(|p| p[1] > p[0]), "{slopes:?}");
}

/// The classic loop on the separable data on a kernel design: it ends (converged or at
/// its sweep budget) with finite weights, α and L, and classifies every point right.
#[test]
fn classic_loop_on_separable_data_stays_finite() {
    let n = 40;
    let points: Vec<[f64; 2]> = (0..n).map(|k| [-1.0 + 2.0 * (k as f64 + 0.5) / n as f64, 0.0]).collect();
    let t = DVector::from_iterator(n, points.iter().map(|p| f64::from(p[0] > 0.0)));
    let phi = kernel_design_2d(&points, 0.5, true).unwrap();
    let mut classifier = ClassicRvmClassifier::new(phi, t, ClassifierSettings::default()).unwrap();
    classifier.run().unwrap();
    let fit = classifier.fit();
    eprintln!(
        "separable classic: {} sweeps, converged {}, {} relevant, L = {}, w = {:?}, α = {:?}",
        fit.iterations,
        fit.converged,
        fit.relevant.len(),
        fit.log_marginal_likelihood,
        fit.weights,
        fit.alpha
    );
    assert!(fit.weights.iter().chain(&fit.alpha).all(|v| v.is_finite()));
    assert!(fit.alpha.iter().all(|&a| a > 0.0));
    assert!(fit.log_marginal_likelihood.is_finite());
    assert_eq!(fit.accuracy.unwrap(), 1.0);
    assert!(classifier.history().iter().all(|s| s.log_marginal_likelihood.is_finite()));
}

/// Ripley-style data (N = 100, seed 1), Gaussian kernel of width 0.5 plus a bias, as in
/// Tipping (2001, §5.2): high training accuracy from few relevance vectors, and the final
/// L the largest of the run within 2·10⁻³, no sweep lowering it by 10⁻³ or more.
///
/// Observed: accuracy 0.91 with 4 relevance vectors of 101 columns, L from −36.49 to
/// −29.855 in 216 sweeps, IRLS ≤ 6 Newton steps per sweep. L is only near-monotone: it
/// fell in 159 sweeps, by at most 5.4·10⁻⁵, and ends 7.3·10⁻⁴ below its largest value.
/// The update αᵢ = γᵢ/wᵢ*² (7.115–7.116) holds w* and B fixed while differentiating L in
/// αᵢ, so its fixed point is a stationary point of that frozen approximation, not exactly
/// the maximum of the Laplace L.
#[test]
fn classic_classifier_on_two_class_data() {
    let data = TwoClass { n: 100, seed: 1 }.generate().unwrap();
    let phi = kernel_design_2d(&data.x, 0.5, true).unwrap();
    let t = DVector::from_column_slice(&data.t);
    let mut classifier = ClassicRvmClassifier::new(phi, t.clone(), ClassifierSettings::default()).unwrap();
    classifier.run().unwrap();
    let fit = classifier.fit();
    let history = classifier.history();
    let ls: Vec<f64> = history.iter().map(|s| s.log_marginal_likelihood).collect();
    let falls = ls.windows(2).filter(|p| p[1] < p[0] - 1e-9).count();
    let largest_fall = ls.windows(2).map(|p| p[0] - p[1]).fold(0.0_f64, f64::max);
    let max_irls = history.iter().map(|s| s.irls_iterations).max().unwrap();
    eprintln!(
        "two-class: accuracy {}, {} relevant {:?}, L = {} (start {}), {} sweeps, converged {}, \
         L fell {falls} times (largest {largest_fall:e}), IRLS ≤ {max_irls} steps",
        fit.accuracy.unwrap(),
        fit.relevant.len(),
        fit.relevant,
        fit.log_marginal_likelihood,
        ls[0],
        fit.iterations,
        fit.converged
    );
    assert!(fit.converged);
    assert!(fit.accuracy.unwrap() > 0.85, "{}", fit.accuracy.unwrap());
    assert!(fit.relevant.len() < 25, "{}", fit.relevant.len());
    let best = ls.iter().fold(f64::NEG_INFINITY, |m, &l| m.max(l));
    assert!(fit.log_marginal_likelihood >= best - 2e-3, "{} < {best}", fit.log_marginal_likelihood);
    assert!(largest_fall < 1e-3, "{largest_fall}");
    assert!(ls[ls.len() - 1] > ls[0] + 5.0, "{ls:?}");
    // The accuracy recomputed from the weights and the kernel at the training points.
    let centres: Vec<[f64; 2]> = fit.relevant.iter().filter(|&&m| m > 0).map(|&m| data.x[m - 1]).collect();
    let bias = fit.relevant.first() == Some(&0);
    let rows = kernel_cross_2d(&data.x, &centres, 0.5, bias).unwrap();
    let correct = (0..data.x.len())
        .filter(|&r| {
            let row: Vec<f64> = rows.row(r).iter().copied().collect();
            (predict_probability(&fit.weights, &row) >= 0.5) == (t[r] == 1.0)
        })
        .count();
    assert_eq!(correct as f64 / 100.0, fit.accuracy.unwrap());
    // The fit is a stationary point of its own re-estimation: γᵢ/wᵢ*² = αᵢ to 10⁻⁵.
    let mode = classifier.mode();
    let sigma = mode.sigma_diagonal();
    for (i, &a) in fit.alpha.iter().enumerate() {
        let gamma = 1.0 - a * sigma[i];
        let next = gamma / (mode.w[i] * mode.w[i]);
        assert!((next / a - 1.0).abs() < 1e-5, "α{i}: {a} → {next}");
    }
}

/// The fast classifier (Tipping & Faul 2003 §5, PRML 7.117–7.119) after every step: the
/// mode is stationary (7.110), its Sₘ and Qₘ (turned into sₘ, qₘ) equal those of the dense
/// N × N Gaussian model on t̂, and the reported L equals the dense Laplace L. At the end
/// every active α is its own re-estimate s²/(q² − s) to 10⁻³ in ln, and every inactive
/// column has q² ≤ s or was refused by the alignment test.
#[test]
fn fast_classifier_matches_the_dense_gaussian_model_at_every_step() {
    let data = TwoClass { n: 60, seed: 5 }.generate().unwrap();
    let phi = kernel_design_2d(&data.x, 0.4, true).unwrap();
    let t = DVector::from_column_slice(&data.t);
    let problem = Arc::new(Problem::new(phi.clone(), t.clone()).unwrap());
    for selection in [Selection::Greedy, Selection::Cyclic] {
        let settings = FastSettings { selection, ..FastSettings::default() };
        let mut rvm = FastRvmClassifier::new(Arc::clone(&problem), settings).unwrap();
        let mut worst = 0.0_f64;
        loop {
            let (active, alpha, w) = (rvm.active().to_vec(), rvm.alpha().to_vec(), rvm.mode().w.clone());
            let (g, scale) = gradient(BERNOULLI, &phi.select_columns(&active), &t, &alpha, &w);
            assert!(g.norm() <= 1e-8 * scale, "‖g‖ = {}", g.norm());
            let laplace = dense_laplace((BERNOULLI, log_posterior), &phi, &t, (&active, &alpha), &w);
            assert!((rvm.log_ml() - laplace).abs() <= 1e-9 * laplace.abs(), "{} vs {laplace}", rvm.log_ml());
            assert_eq!(rvm.events().last().unwrap().log_ml, rvm.log_ml());
            for (m, (big_s, big_q)) in
                dense_statistics(BERNOULLI, &phi, &t, (&active, &alpha), &w).into_iter().enumerate()
            {
                // sₘ, qₘ from Sₘ, Qₘ (PRML 7.104–7.105).
                let (s, q) = match active.iter().position(|&k| k == m) {
                    Some(j) => (alpha[j] * big_s / (alpha[j] - big_s), alpha[j] * big_q / (alpha[j] - big_s)),
                    None => (big_s, big_q),
                };
                let (our_s, our_q) = rvm.sparsity_quality(m);
                worst = worst.max((our_s - s).abs() / s.abs()).max((our_q - q).abs() / (1.0 + q.abs()));
            }
            if !rvm.status().is_running() || rvm.iterations() > 400 {
                break;
            }
            rvm.step().unwrap();
        }
        assert!(worst < 1e-8, "{selection:?}: worst relative gap {worst:e}");
        let converged = rvm.status().termination().is_some_and(|t| t.converged());
        assert!(converged, "{selection:?}: {} steps", rvm.iterations());
        let refused: Vec<usize> = rvm.refused().collect();
        for m in 0..phi.ncols() {
            let (s, q) = rvm.sparsity_quality(m);
            match rvm.active().iter().position(|&k| k == m) {
                Some(j) => {
                    assert!(q * q > s);
                    let gap = ((s * s / (q * q - s)).ln() - rvm.alpha()[j].ln()).abs();
                    assert!(gap < MIN_DELTA_LN_ALPHA, "active {m}: {gap}");
                }
                None => assert!(q * q <= s || refused.contains(&m), "inactive {m} would enter"),
            }
        }
        let fit = rvm.fit();
        eprintln!(
            "fast classifier, {selection:?}: {} steps, {} relevant {:?}, accuracy {}, L = {}",
            fit.iterations,
            fit.relevant.len(),
            fit.relevant,
            fit.accuracy.unwrap(),
            fit.log_marginal_likelihood
        );
        assert!(fit.accuracy.unwrap() > 0.85, "{}", fit.accuracy.unwrap());
    }
}

/// A step done in pieces within small budgets (a Newton piece of the mode's search, a block
/// of columns of the statistics: what the page's slices do at N = 400) gives the same
/// events, to the bit, as whole steps, for classes and for counts; while a step is under way
/// the model shows the step before it.
#[test]
fn fast_glm_steps_in_pieces_equal_whole_steps() {
    let classes = TwoClass { n: 80, seed: 4 }.generate().unwrap();
    let labels = (kernel_design_2d(&classes.x, 0.4, true).unwrap(), DVector::from_column_slice(&classes.t));
    let counts = rvm_lab::data::Counts { n: 70, seed: 2 }.generate().unwrap();
    let counts = (rvm_lab::basis::kernel_design(&counts.x, 0.1, true).unwrap(), DVector::from_vec(counts.t));
    for (likelihood, (phi, t)) in [(Likelihood::Bernoulli, labels), (Likelihood::Poisson, counts)] {
        let problem = Arc::new(Problem::new(phi, t).unwrap());
        let start = FastRvmClassifier::with_likelihood(likelihood, problem, FastSettings::default()).unwrap();
        let mut whole = start.clone();
        whole.run().unwrap();
        for units in [1, 3, 40] {
            let mut pieces = start.clone();
            let mut unfinished = 0;
            while pieces.status().is_running() {
                let before = pieces.events().len();
                match pieces.step_within(&mut Budget::units(units)).unwrap() {
                    Some(event) => assert_eq!(Some(&event), pieces.events().last()),
                    None => {
                        unfinished += 1;
                        assert_eq!(pieces.events().len(), before, "an unfinished step is not an event");
                    }
                }
            }
            assert_eq!(pieces.events(), whole.events(), "{likelihood:?}, {units} units");
            assert_eq!(pieces.mode().w, whole.mode().w);
            assert!(unfinished > 0, "{likelihood:?}: some step took more than {units} units");
        }
    }
}

/// The fast and the classic classifier on the same two-class data (N = 200, width 0.3):
/// both sparse and about as accurate, and their Laplace L within a nat of each other.
/// Observed: fast 4 relevance vectors, accuracy 0.930, L = −39.498 in 53 steps; classic 4,
/// 0.935, −39.481 in 109 sweeps.
#[test]
fn fast_and_classic_classifiers_agree() {
    let data = TwoClass { n: 200, seed: 3 }.generate().unwrap();
    let phi = kernel_design_2d(&data.x, 0.3, true).unwrap();
    let t = DVector::from_column_slice(&data.t);
    let problem = Arc::new(Problem::new(phi.clone(), t.clone()).unwrap());
    let mut fast = FastRvmClassifier::new(problem, FastSettings::default()).unwrap();
    fast.run().unwrap();
    let fast = fast.fit();
    let mut classic = ClassicRvmClassifier::new(phi, t, ClassifierSettings::default()).unwrap();
    classic.run().unwrap();
    let classic = classic.fit();
    eprintln!("fast {fast:?}\nclassic {classic:?}");
    assert!(fast.converged && classic.converged);
    assert!(fast.relevant.len() <= 10 && classic.relevant.len() <= 10);
    assert!((fast.accuracy.unwrap() - classic.accuracy.unwrap()).abs() <= 0.02);
    assert!((fast.log_marginal_likelihood - classic.log_marginal_likelihood).abs() < 1.0);
}

#[test]
fn fast_classifier_refuses_labels_other_than_zero_and_one() {
    let phi = DMatrix::from_element(3, 2, 1.0);
    let problem = Arc::new(Problem::new(phi, DVector::from_vec(vec![0.0, 1.0, 2.0])).unwrap());
    let err = FastRvmClassifier::new(problem, FastSettings::default()).unwrap_err();
    assert_eq!(err.code(), "out-of-range");
}
