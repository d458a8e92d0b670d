//! Native benchmark of the evidence surface (`cargo bench --bench evidence`).
//!
//! The lab's evidence panel samples ln p(t|α,β) over a grid of (ln α, ln β). Here, for
//! N = 1000 sinusoid points and M = 20 functions (bias + 19 Gaussians, s = 0.1):
//! - `spectrum`: building [`Spectrum`] (ΦᵀΦ, one symmetric eigendecomposition, Φᵀt);
//! - `surface 256×256 spectral`: the 65 536-cell surface from a ready spectrum on a grid
//!   with equal steps in ln α and ln β (as the panel draws it): O(M) per ratio α/β, O(1) a cell;
//! - `surface 256×256 per cell`: the same, with unequal steps, O(M) a cell;
//! - `surface 16×16 direct`: the same formula cell by cell through
//!   `Posterior::fit(..).log_evidence()` (ΦᵀΦ, a Cholesky factor of A and a solve per cell,
//!   O(NM² + M³)), on a 256-cell grid; scale by 256 to compare with the 65 536-cell one.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rvm_lab::basis::{Basis, Family};
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::data::Sinusoid;
use rvm_lab::evidence::Spectrum;
use rvm_lab::grid::Surface;

const LN_ALPHA: (f64, f64) = (-8.0, 8.0);
/// As wide as [`LN_ALPHA`]: equal steps.
const LN_BETA: (f64, f64) = (-5.0, 11.0);
/// Narrower: unequal steps, the per-cell path.
const LN_BETA_NARROW: (f64, f64) = (-3.0, 8.0);

fn evidence(c: &mut Criterion) {
    let data = Sinusoid { n: 1000, noise: 0.3, seed: 1 }.generate().expect("data");
    let basis = Basis::spread(Family::Gaussian, 20, 0.1, true, (0.0, 1.0)).expect("basis");
    let phi = basis.design_matrix(&data.x).expect("design");
    assert_eq!(phi.shape(), (1000, 20));
    let t = data.t;

    c.bench_function("spectrum N=1000 M=20", |b| b.iter(|| Spectrum::new(black_box(&phi), black_box(&t))));

    let spectrum = Spectrum::new(&phi, &t).expect("spectrum");
    c.bench_function("surface 256x256 spectral N=1000 M=20", |b| {
        b.iter(|| spectrum.surface(black_box(LN_ALPHA), black_box(LN_BETA), 256, 256))
    });
    c.bench_function("surface 256x256 per cell N=1000 M=20", |b| {
        b.iter(|| spectrum.surface(black_box(LN_ALPHA), black_box(LN_BETA_NARROW), 256, 256))
    });

    // About 0.45 s an iteration: ten samples need more than the default time.
    let mut direct = c.benchmark_group("direct");
    direct.measurement_time(Duration::from_secs(8));
    direct.bench_function("surface 16x16 direct Cholesky N=1000 M=20", |b| {
        b.iter(|| {
            Surface::sample(black_box(LN_ALPHA), black_box(LN_BETA), 16, 16, |la, lb| {
                let hyper = Hyperparameters::new(la.exp(), lb.exp()).expect("positive");
                Posterior::fit(&phi, &t, hyper).map_or(f64::NAN, |p| p.log_evidence())
            })
        })
    });
    direct.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = evidence
}
criterion_main!(benches);
