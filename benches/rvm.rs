//! Native benchmark of the relevance vector machine (`cargo bench --bench rvm`).
//!
//! The sinc problem of Tipping (2001, §5.1) and Tipping & Faul (2003, §5), as
//! [`Sinc::benchmark`]: xₙ ~ U(−10, 10) (seed 0), tₙ = sin(xₙ)/xₙ + N(0, 0.1²), on the
//! Gaussian kernel of width s = 3 centred on every input plus a bias
//! ([`kernel_design`], M = N + 1):
//! - `fast N=…`: [`FastRvm`] from initialisation to convergence (greedy selection, alignment
//!   test, β re-estimated), the design and [`Problem`] (with its Φᵀt and ‖φₘ‖²) given;
//! - `kernel design N=2000`: building the 2000 × 2001 design from the inputs;
//! - `classic MacKay N=100`: [`ClassicRvm`] with [`Rule::MacKay`] to convergence;
//! - `classifier N=…`: [`FastRvmClassifier`] to convergence on [`TwoClass`] data (seed 1)
//!   with the Gaussian kernel of width [`TwoClass::KERNEL_WIDTH`] plus a bias.
//!
//! www/bench.html times the same cases in the browser (`RvmBenchmark` in src/web/mod.rs):
//! both build their problems with `rvm_lab::problems`.
//! Before timing, each problem is solved once and its relevance vectors, L and steps are
//! printed, so the table of figures can be read beside them.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rvm_lab::basis::kernel_design;
use rvm_lab::data::Sinc;
use rvm_lab::problems::{sinc_rvm, two_class_rvm};
use rvm_lab::rvm::classification::FastRvmClassifier;
use rvm_lab::rvm::{ClassicRvm, ClassicSettings, FastRvm, FastSettings, Problem, Rule};
use rvm_lab::solver::Solver;

fn problem(n: usize) -> Arc<Problem> {
    sinc_rvm(n).expect("problem").1
}

fn fast(problem: &Arc<Problem>) -> rvm_lab::rvm::RvmFit {
    let mut rvm = FastRvm::new(Arc::clone(problem), FastSettings::default()).expect("initialisation");
    rvm.run().expect("fast run");
    rvm.fit()
}

fn rvm(c: &mut Criterion) {
    let mut group = c.benchmark_group("fast RVM to convergence");
    for n in [100, 500, 1000, 2000] {
        let problem = problem(n);
        let fit = fast(&problem);
        println!(
            "sinc N={n}: {} relevance vectors, L = {:.4}, {} steps, converged {}",
            fit.relevant.len(),
            fit.log_marginal_likelihood,
            fit.iterations,
            fit.converged
        );
        group.bench_with_input(BenchmarkId::new("fast", n), &problem, |b, p| b.iter(|| fast(black_box(p))));
    }
    group.finish();

    let x = sinc_rvm(2000).expect("problem").0;
    c.bench_function("kernel design N=2000", |b| b.iter(|| kernel_design(black_box(&x), Sinc::KERNEL_WIDTH, true)));

    let small = problem(100);
    let classic = |p: &Arc<Problem>| {
        let mut rvm = ClassicRvm::new(Arc::clone(p), ClassicSettings::with_rule(Rule::MacKay)).expect("start");
        rvm.run().expect("classic run");
        rvm.fit()
    };
    let fit = classic(&small);
    println!(
        "sinc N=100 classic MacKay: {} relevance vectors, L = {:.4}, {} sweeps, converged {}",
        fit.relevant.len(),
        fit.log_marginal_likelihood,
        fit.iterations,
        fit.converged
    );
    c.bench_function("classic MacKay N=100", |b| b.iter(|| classic(black_box(&small))));

    let mut group = c.benchmark_group("fast RVM classifier to convergence");
    for n in [100, 200, 400] {
        let problem = two_class_rvm(n).expect("problem");
        let classify = |p: &Arc<Problem>| {
            let mut rvm = FastRvmClassifier::new(Arc::clone(p), FastSettings::default()).expect("start");
            rvm.run().expect("run");
            rvm.fit()
        };
        let fit = classify(&problem);
        println!(
            "two-class N={n}: {} relevance vectors, accuracy {}, L = {:.4}, {} steps, converged {}",
            fit.relevant.len(),
            fit.accuracy.unwrap_or(f64::NAN),
            fit.log_marginal_likelihood,
            fit.iterations,
            fit.converged
        );
        group.bench_with_input(BenchmarkId::new("classifier", n), &problem, |b, p| b.iter(|| classify(black_box(p))));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = rvm
}
criterion_main!(benches);
