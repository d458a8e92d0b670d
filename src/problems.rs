//! The fixed problems the benchmarks time — natively (`benches/`) and in the browser
//! (`www/bench.html`, through the web layer, which only forwards) — so that both measure
//! exactly the same work.

use std::sync::Arc;

use nalgebra::DVector;

use crate::basis::{Basis, BasisSpec, Family, kernel_design, kernel_design_2d};
use crate::data::{Sinc, Sinusoid, TwoClass};
use crate::error::Result;
use crate::evidence::Spectrum;
use crate::rvm::Problem;

/// The inputs the evidence benchmark spreads its basis over.
const X_RANGE: (f64, f64) = (0.0, 1.0);

/// The evidence-surface problem: `n` noisy sinusoid points (σ = 0.3, seed 1) under `m`
/// Gaussian basis functions of width 0.1 (bias included), as a [`Spectrum`] ready for
/// surfaces.
///
/// # Errors
/// Whatever the data, basis or eigendecomposition refuse (e.g. m = 0).
pub fn evidence_spectrum(m: usize, n: usize) -> Result<Spectrum> {
    let data = Sinusoid { n, noise: 0.3, seed: 1 }.generate()?;
    let spec = BasisSpec { family: Family::Gaussian, m, width: 0.1, degree: 3, bias: true };
    let phi = Basis::from_spec(&spec, X_RANGE, &data.x)?.design_matrix(&data.x)?;
    Spectrum::new(&phi, &data.t)
}

/// The regression RVM problem of Tipping (2001, §5.1): [`Sinc::benchmark`]'s `n` points on
/// the Gaussian kernel of width [`Sinc::KERNEL_WIDTH`] centred on every input plus a bias
/// (M = N + 1); also the inputs, to time building the design.
///
/// # Errors
/// Whatever the data or the design refuse (e.g. n = 0).
pub fn sinc_rvm(n: usize) -> Result<(Vec<f64>, Arc<Problem>)> {
    let data = Sinc::benchmark(n).generate()?;
    let phi = sinc_design(&data.x)?;
    let problem = Problem::new(phi, DVector::from_vec(data.t))?;
    Ok((data.x, Arc::new(problem)))
}

/// The kernel design of [`sinc_rvm`] built again from its inputs `x` (its cost is timed too).
///
/// # Errors
/// As [`kernel_design`].
pub fn sinc_design(x: &[f64]) -> Result<nalgebra::DMatrix<f64>> {
    kernel_design(x, Sinc::KERNEL_WIDTH, true)
}

/// The classifier problem: [`TwoClass`] data (`n` points, seed 1) on the Gaussian kernel of
/// width [`TwoClass::KERNEL_WIDTH`] plus a bias.
///
/// # Errors
/// Whatever the data or the design refuse (e.g. n = 0).
pub fn two_class_rvm(n: usize) -> Result<Arc<Problem>> {
    let data = TwoClass { n, seed: 1 }.generate()?;
    let phi = kernel_design_2d(&data.x, TwoClass::KERNEL_WIDTH, true)?;
    Ok(Arc::new(Problem::new(phi, DVector::from_vec(data.t))?))
}
