//! One answer in any units. A student's data come in their own units; scaling them must not
//! change the fit, only its numbers' units:
//!
//! - targets times c: the same relevance set and path (every event's action and basis
//!   function, every sweep's pruning), precisions α and β times 1/c² (so α·c², β·c² are the
//!   same), weights μ and predictions times c, variances times c², and the log marginal
//!   likelihood L shifted by exactly −N ln c (so L + N ln c is the same);
//! - inputs times c, with the basis's widths and centres scaled with them: the same design,
//!   so the same numbers.
//!
//! For c from 10⁻⁵⁰ to 10⁵⁰, the whole range of sizes the lab reads (drawn, with the data's seed, by proptest from a fixed seed),
//! every method is compared with itself at c = 1: the evidence by each re-estimation scheme
//! (PRML 3.92, 3.95, 9.63), the posterior and predictive (PRML 3.53–3.59), the fast RVM
//! (Tipping & Faul 2003) with each selection, the classic RVM by MacKay's rule and by EM,
//! the binary, Poisson and multiclass classifiers (inputs scaled), and the command line.
//! Before the relative thresholds of `linalg::target_variance`, `evidence::initial_guess` and
//! `FIRST_ALPHA_PER_SPARSITY`, the RVMs collapsed to one relevance vector for c ≤ 10⁻⁸ and EM
//! stopped at α = 1 for c ≥ 10⁸.

#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;
use std::sync::Arc;

use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rvm_lab::basis::{Basis, Family, kernel_design, kernel_design_2d};
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::data::{Mixture, MixtureLayout, Sinc, Sinusoid, TwoClass};
use rvm_lab::evidence::{Scheme, initial_guess, maximise};
use rvm_lab::rvm::classic::ClassicSettings;
use rvm_lab::rvm::classification::{ClassicRvmClassifier, ClassifierSettings, FastRvmClassifier};
use rvm_lab::rvm::likelihood::Likelihood;
use rvm_lab::rvm::multiclass::ClassicMulticlassRvm;
use rvm_lab::rvm::{ClassicRvm, FastRvm, FastSettings, Problem, Rule, Selection};
use rvm_lab::solver::Solver;
use serde_json::Value;

/// Relative agreement asked of the numbers of two runs that differ only in units: rounding
/// t·c (half an ulp per target) and then a few hundred steps of arithmetic.
const RELATIVE: f64 = 1e-8;

/// `a` and `b` agree to [`RELATIVE`] of the larger, or both are ∞.
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= RELATIVE * a.abs().max(b.abs())
}

fn assert_close(what: &str, got: f64, want: f64) {
    assert!(close(got, want), "{what}: {got} in other units, {want} in the data's");
}

fn assert_all_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_close(&format!("{what}[{k}]"), *g, *w);
    }
}

/// L + N ln c in other units against L: the shift is exact, so agreement is to rounding of
/// the sums that make L (a few ulps of their largest term, N|ln c| among them).
fn assert_shifted(what: &str, log_ml_scaled: f64, n: usize, c: f64, log_ml: f64) {
    let shift = n as f64 * c.ln();
    let slack = 1e-10 * (log_ml.abs() + shift.abs() + n as f64);
    let back = log_ml_scaled + shift;
    assert!((back - log_ml).abs() <= slack, "{what}: L + N ln c = {back}, L = {log_ml} (c = {c})");
}

fn times(v: &[f64], c: f64) -> Vec<f64> {
    v.iter().map(|x| x * c).collect()
}

/// c = 10^e for e in [−50, 50]: data up to the largest size the lab reads, [`rvm_lab::error::MAX_MAGNITUDE`], and as far below 1.
fn scale() -> impl Strategy<Value = f64> {
    (-50.0..=50.0_f64).prop_map(|e| 10_f64.powf(e))
}

/// The regression problem of the RVM tests: `n` sinc points on the Gaussian kernel of width 3
/// plus a bias, the targets times `c`.
fn sinc(n: usize, seed: u64, c: f64) -> (Vec<f64>, Arc<Problem>) {
    let data = Sinc { n, noise: 0.1, seed }.generate().unwrap();
    let phi = kernel_design(&data.x, 3.0, true).unwrap();
    (data.x.clone(), Arc::new(Problem::new(phi, DVector::from_vec(times(&data.t, c))).unwrap()))
}

/// The evidence's problem: `n` points of the noisy sinusoid on nine Gaussians of width 0.1.
fn sinusoid(n: usize, seed: u64) -> (DMatrix<f64>, Vec<f64>) {
    let data = Sinusoid { n, noise: 0.3, seed }.generate().unwrap();
    let basis = Basis::spread(Family::Gaussian, 9, 0.1, false, (0.0, 1.0)).unwrap();
    (basis.design_matrix(&data.x).unwrap(), data.t)
}

/// The fast run to its end: every event's action and basis function, and the fit.
fn fast_run(problem: Arc<Problem>, selection: Selection) -> FastRvm {
    let mut rvm = FastRvm::new(problem, FastSettings { selection, seed: 7, ..FastSettings::default() }).unwrap();
    rvm.run().unwrap();
    rvm
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: RngSeed::Fixed(20261127), ..ProptestConfig::default() })]

    /// The evidence maximised by every scheme, from `initial_guess`: the same iterations,
    /// α·c², β·c², γ, L + N ln c and posterior mean m_N/c.
    #[test]
    fn the_evidence_by_every_scheme(c in scale(), seed in 0..4_u64) {
        let (phi, t) = sinusoid(40, seed);
        let tc = times(&t, c);
        for scheme in Scheme::ALL {
            let want = maximise(&phi, &t, scheme, initial_guess(&t).unwrap());
            let got = maximise(&phi, &tc, scheme, initial_guess(&tc).unwrap());
            let (Ok(want), Ok(got)) = (want.as_ref(), got.as_ref()) else {
                assert_eq!(got.map(|_| ()), want.map(|_| ()), "{scheme:?}: the same outcome");
                continue;
            };
            assert_eq!(got.iterations, want.iterations, "{scheme:?}: iterations");
            assert_close("α·c²", got.alpha * c * c, want.alpha);
            assert_close("β·c²", got.beta * c * c, want.beta);
            assert_close("γ", got.gamma, want.gamma);
            assert_shifted("evidence", got.log_evidence, t.len(), c, want.log_evidence);
            assert_all_close("m_N/c", &times(got.mean().as_slice(), 1.0 / c), want.mean().as_slice());
        }
    }

    /// The posterior and predictive at α/c², β/c²: m_N and the predictive mean times c, S_N
    /// and the predictive variance times c², ln p(t|α,β) shifted by −N ln c.
    #[test]
    fn the_posterior_and_predictive(c in scale(), seed in 0..4_u64, alpha in 1e-3..1e3_f64, beta in 1e-2..1e3_f64) {
        let (phi, t) = sinusoid(25, seed);
        let want = Posterior::fit(&phi, &t, Hyperparameters::new(alpha, beta).unwrap()).unwrap();
        let got = Posterior::fit(&phi, &times(&t, c), Hyperparameters::new(alpha / (c * c), beta / (c * c)).unwrap()).unwrap();
        assert_all_close("m_N/c", &times(got.mean().as_slice(), 1.0 / c), want.mean().as_slice());
        assert_all_close("S_N/c²", &times(got.covariance().as_slice(), 1.0 / (c * c)), want.covariance().as_slice());
        assert_shifted("ln p(t|α,β)", got.log_evidence(), t.len(), c, want.log_evidence());
        let basis = Basis::spread(Family::Gaussian, 9, 0.1, false, (0.0, 1.0)).unwrap();
        for x in [0.0, 0.37, 1.2] {
            let (a, b) = (got.predict(&basis.features(x)), want.predict(&basis.features(x)));
            assert_close("predictive mean/c", a.mean / c, b.mean);
            assert_close("predictive variance/c²", a.variance / (c * c), b.variance);
        }
    }

    /// The fast RVM with each selection: the same events (action and basis function, step by
    /// step) and relevance vectors, α·c², β·c², μ/c and L + N ln c.
    #[test]
    fn the_fast_rvm(c in scale(), seed in 0..4_u64) {
        for selection in [Selection::Greedy, Selection::Cyclic, Selection::Random] {
            let (_, problem) = sinc(60, seed, 1.0);
            let (_, scaled) = sinc(60, seed, c);
            let (want, got) = (fast_run(problem, selection), fast_run(scaled, selection));
            let path = |rvm: &FastRvm| rvm.events().iter().map(|e| (e.action, e.basis)).collect::<Vec<_>>();
            assert_eq!(path(&got), path(&want), "{selection:?}: the events");
            let (fit, fit1) = (got.fit(), want.fit());
            assert_eq!(fit.relevant, fit1.relevant);
            assert_all_close("α·c²", &times(&fit.alpha, c * c), &fit1.alpha);
            assert_close("β·c²", fit.beta * c * c, fit1.beta);
            assert_all_close("μ/c", &times(&fit.weights, 1.0 / c), &fit1.weights);
            assert_shifted("L", got.log_ml(), 60, c, want.log_ml());
        }
    }

    /// The classic RVM by MacKay's rule and by EM, 300 sweeps: the same sweeps (the
    /// remaining basis functions after each), α·c², β·c² and L + N ln c.
    #[test]
    fn the_classic_rvm(c in scale(), seed in 0..4_u64) {
        for rule in [Rule::MacKay, Rule::Em] {
            let settings = ClassicSettings { max_sweeps: 300, ..ClassicSettings::with_rule(rule) };
            let mut want = ClassicRvm::new(sinc(30, seed, 1.0).1, settings).unwrap();
            let mut got = ClassicRvm::new(sinc(30, seed, c).1, settings).unwrap();
            loop {
                let (a, b) = (got.step(), want.step());
                assert_eq!(a.is_ok(), b.is_ok(), "{rule:?}: the same outcome");
                if a.is_err() { break; }
                assert_eq!(got.active(), want.active(), "{rule:?}: the remaining basis functions");
            }
            let (fit, fit1) = (got.fit(), want.fit());
            assert_eq!((fit.relevant.clone(), fit.iterations, fit.converged), (fit1.relevant.clone(), fit1.iterations, fit1.converged));
            assert_all_close("α·c²", &times(&fit.alpha, c * c), &fit1.alpha);
            assert_close("β·c²", fit.beta * c * c, fit1.beta);
            assert_shifted("L", fit.log_marginal_likelihood, 30, c, fit1.log_marginal_likelihood);
        }
    }

    /// The binary and Poisson classifiers, fast and classic, and the multiclass one, with the
    /// inputs and the kernel's width times c: the same fits.
    #[test]
    fn the_classifiers_with_inputs_in_other_units(c in scale(), seed in 0..3_u64) {
        let data = TwoClass { n: 60, seed }.generate().unwrap();
        let scaled: Vec<[f64; 2]> = data.x.iter().map(|p| [p[0] * c, p[1] * c]).collect();
        let width = TwoClass::KERNEL_WIDTH;
        let phi = kernel_design_2d(&data.x, width, true).unwrap();
        let phi_c = kernel_design_2d(&scaled, width * c, true).unwrap();
        let t = DVector::from_column_slice(&data.t);
        let counts = DVector::from_iterator(t.len(), data.x.iter().map(|p| (3.0 * (p[0] + 1.0).abs()).floor()));
        for (likelihood, targets) in [(Likelihood::Bernoulli, &t), (Likelihood::Poisson, &counts)] {
            let fast = |phi: &DMatrix<f64>| {
                let problem = Arc::new(Problem::new(phi.clone(), targets.clone()).unwrap());
                let mut rvm = FastRvmClassifier::with_likelihood(likelihood, problem, FastSettings::default()).unwrap();
                rvm.run().unwrap();
                rvm.fit()
            };
            let classic = |phi: &DMatrix<f64>| {
                let mut rvm = ClassicRvmClassifier::with_likelihood(likelihood, phi.clone(), targets.clone(), ClassifierSettings::default()).unwrap();
                rvm.run().unwrap();
                rvm.fit()
            };
            for (got, want) in [(fast(&phi_c), fast(&phi)), (classic(&phi_c), classic(&phi))] {
                assert_eq!((got.relevant.clone(), got.iterations), (want.relevant.clone(), want.iterations), "{likelihood:?}");
                assert_all_close("α", &got.alpha, &want.alpha);
                assert_close("L", got.log_marginal_likelihood, want.log_marginal_likelihood);
            }
        }
        let three = Mixture { n: 45, layout: MixtureLayout::Triangle, seed }.generate().unwrap();
        let scaled: Vec<[f64; 2]> = three.x.iter().map(|p| [p[0] * c, p[1] * c]).collect();
        let settings = ClassifierSettings { max_sweeps: 40, ..ClassifierSettings::default() };
        let mut want = ClassicMulticlassRvm::new(kernel_design_2d(&three.x, 0.4, true).unwrap(), &three.t, 3, settings).unwrap();
        let mut got = ClassicMulticlassRvm::new(kernel_design_2d(&scaled, 0.4 * c, true).unwrap(), &three.t, 3, settings).unwrap();
        let (a, b) = (got.run(), want.run());
        assert_eq!(a.is_ok(), b.is_ok());
        assert_eq!((got.relevant(), got.history().len()), (want.relevant(), want.history().len()));
        assert_all_close("multiclass α", got.alpha().as_slice(), want.alpha().as_slice());
        assert_close("multiclass L", got.log_ml(), want.log_ml());
    }
}

/// The fast RVM with the inputs, the kernel's width and the targets all in other units.
#[test]
fn the_fast_rvm_with_inputs_and_targets_in_other_units() {
    let data = Sinc { n: 80, noise: 0.1, seed: 2 }.generate().unwrap();
    let want = fast_run(
        Arc::new(Problem::new(kernel_design(&data.x, 3.0, true).unwrap(), DVector::from_vec(data.t.clone())).unwrap()),
        Selection::Greedy,
    );
    for (cx, ct) in [(1e-9, 1e6), (1e9, 1e-6), (2.5e4, 3e-11)] {
        let phi = kernel_design(&times(&data.x, cx), 3.0 * cx, true).unwrap();
        let got =
            fast_run(Arc::new(Problem::new(phi, DVector::from_vec(times(&data.t, ct))).unwrap()), Selection::Greedy);
        assert_eq!(got.fit().relevant, want.fit().relevant, "x × {cx}, t × {ct}");
        assert_close("β·c²", got.beta() * ct * ct, want.beta());
        assert_shifted("L", got.log_ml(), 80, ct, want.log_ml());
    }
}

/// Writes Φ and t·c as the command line reads them; returns the two paths.
fn write_problem(dir: &std::path::Path, phi: &DMatrix<f64>, t: &[f64], c: f64) -> (String, String) {
    let header: Vec<String> = (0..phi.ncols()).map(|j| format!("phi{j}")).collect();
    let mut design = format!("{}\n", header.join(","));
    for row in phi.row_iter() {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:e}")).collect();
        design += &format!("{}\n", cells.join(","));
    }
    let targets = format!("t\n{}\n", t.iter().map(|v| format!("{:e}", v * c)).collect::<Vec<_>>().join("\n"));
    let (p, q) = (dir.join(format!("phi-{c:e}.csv")), dir.join(format!("t-{c:e}.csv")));
    std::fs::write(&p, design).unwrap();
    std::fs::write(&q, targets).unwrap();
    (p.to_string_lossy().into_owned(), q.to_string_lossy().into_owned())
}

fn cli(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_rvm-lab")).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn number(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// `rvm-lab evidence` (fixed point and EM) and `rvm-lab rvm` (fast, classic, EM) on the
/// targets in other units: the same answers, in those units.
#[test]
fn the_command_line_in_any_units() {
    let dir = std::env::temp_dir().join(format!("rvm-lab-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (phi, t) = sinusoid(40, 1);
    let (_, sinc_problem) = sinc(40, 1, 1.0);
    let sinc_t: Vec<f64> = sinc_problem.targets().iter().copied().collect();
    let sinc_dir = dir.join("sinc");
    std::fs::create_dir_all(&sinc_dir).unwrap();
    let base = write_problem(&dir, &phi, &t, 1.0);
    let sinc_base = write_problem(&sinc_dir, sinc_problem.design(), &sinc_t, 1.0);
    // Up to 1e49: the data, a few units in size, stay within the 1e50 the command line reads.
    for c in [1e-50, 1e-12, 1e-8, 1e-4, 1e4, 1e8, 1e12, 1e49] {
        let (p, q) = write_problem(&dir, &phi, &t, c);
        for method in ["fixed-point", "em"] {
            let want = cli(&["evidence", "--design", &base.0, "--targets", &base.1, "--method", method]);
            let got = cli(&["evidence", "--design", &p, "--targets", &q, "--method", method]);
            assert_close("α·c²", number(&got, "alpha") * c * c, number(&want, "alpha"));
            assert_close("β·c²", number(&got, "beta") * c * c, number(&want, "beta"));
            assert_shifted("ln evidence", number(&got, "log_evidence"), 40, c, number(&want, "log_evidence"));
        }
        let (p, q) = write_problem(&sinc_dir, sinc_problem.design(), &sinc_t, c);
        for method in ["fast", "classic", "em"] {
            let want = cli(&["rvm", "--design", &sinc_base.0, "--targets", &sinc_base.1, "--method", method]);
            let got = cli(&["rvm", "--design", &p, "--targets", &q, "--method", method]);
            assert_eq!(got["relevant"], want["relevant"], "rvm --method {method}, c = {c}");
            assert_close("β·c²", number(&got, "beta") * c * c, number(&want, "beta"));
            assert_shifted(
                "L",
                number(&got, "log_marginal_likelihood"),
                40,
                c,
                number(&want, "log_marginal_likelihood"),
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
