//! Native benchmark of a typed formula basis against the built-in family it spells out
//! (`cargo bench --bench formula`), for N = 1000 inputs on [0, 1] and M = 50 functions (the
//! bias and 49, s = 0.1):
//! - `design gaussian`: Φ of [`Family::Gaussian`] (one input at a time, every function);
//! - `design formula`: Φ of the formula `exp(-(x - mu)^2/(2*s^2))`, the same functions
//!   (each function's program over blocks of inputs); the target is at most 3× the
//!   first;
//! - `build formula`: parsing, specialising and compiling the 49 programs, and checking
//!   each finite at 601 points of the domain (what a change of the formula costs before Φ).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rvm_lab::basis::{Basis, BasisSpec, Family};
use rvm_lab::problems::BasisDesign;

const N: usize = 1000;
const M: usize = 50;

fn formula(c: &mut Criterion) {
    // The problems www/bench.html times in wasm too.
    let gaussian = BasisDesign::new(Family::Gaussian, N, M).expect("basis");
    let typed = BasisDesign::new(Family::Formula, N, M).expect("formula");
    let x = gaussian.inputs();
    let difference =
        gaussian.basis().design_matrix(x).expect("design") - typed.basis().design_matrix(x).expect("design");
    assert!(difference.amax() < 1e-14, "the formula is the Gaussian family");

    c.bench_function("design gaussian N=1000 M=50", |b| b.iter(|| black_box(&gaussian).design()));
    c.bench_function("design formula N=1000 M=50", |b| b.iter(|| black_box(&typed).design()));
    let spec = BasisSpec { family: Family::Formula, m: M, width: 0.1, ..BasisSpec::default() };
    c.bench_function("build formula M=50", |b| b.iter(|| Basis::from_spec(black_box(&spec), (0.0, 1.0), &[])));
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = formula
}
criterion_main!(benches);
