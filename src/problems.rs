//! The fixed problems the benchmarks time — natively (`benches/`) and in the browser
//! (`www/bench.html`, through the web layer, which only forwards) — so that both measure
//! exactly the same work.

use std::sync::Arc;

use nalgebra::DVector;

use crate::basis::{Basis, BasisSpec, Family, kernel_design, kernel_design_2d};
use crate::data::{Sinc, Sinusoid, TwoClass};
use crate::error::Result;
use crate::evidence::Spectrum;
use crate::rvm::classification::{FastRvmClassifier, GlmFit};
use crate::rvm::{FastRvm, FastSettings, Problem, RvmFit};
use crate::solver::Solver;

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
    let spec = BasisSpec { family: Family::Gaussian, m, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
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

/// [`evidence_spectrum`]'s problem, made once, and the surface the benchmarks time.
#[derive(Debug, Clone)]
pub struct EvidenceSurface {
    spectrum: Spectrum,
}

impl EvidenceSurface {
    /// `n` sinusoid points under `m` Gaussian basis functions ([`evidence_spectrum`]).
    ///
    /// # Errors
    /// As [`evidence_spectrum`].
    pub fn new(m: usize, n: usize) -> Result<Self> {
        Ok(Self { spectrum: evidence_spectrum(m, n)? })
    }

    /// A side × side surface over ln α ∈ [−10, 8], ln β ∈ [−6, 12] (equal steps, as the
    /// evidence panel draws it); its maximum, so that the work cannot be skipped.
    ///
    /// # Errors
    /// As [`Spectrum::surface`].
    pub fn maximum(&self, side: usize) -> Result<f64> {
        Ok(self.spectrum.surface((-10.0, 8.0), (-6.0, 12.0), side, side)?.argmax.log_evidence)
    }
}

/// [`sinc_rvm`]'s problem, made once, and the runs the benchmarks time on it.
#[derive(Debug, Clone)]
pub struct SincRvm {
    x: Vec<f64>,
    problem: Arc<Problem>,
}

impl SincRvm {
    /// `n` sinc points, their kernel design and the problem (Φᵀt, ‖φₘ‖²).
    ///
    /// # Errors
    /// As [`sinc_rvm`].
    pub fn new(n: usize) -> Result<Self> {
        let (x, problem) = sinc_rvm(n)?;
        Ok(Self { x, problem })
    }

    /// Builds the N × (N + 1) kernel design again; its last entry, so that the work cannot
    /// be skipped.
    ///
    /// # Errors
    /// As [`sinc_design`].
    pub fn design(&self) -> Result<f64> {
        let phi = sinc_design(&self.x)?;
        Ok(phi[(phi.nrows() - 1, phi.ncols() - 1)])
    }

    /// The fast RVM (default settings) from initialisation to convergence.
    ///
    /// # Errors
    /// As [`FastRvm::run`](crate::solver::Solver::run).
    pub fn fit(&self) -> Result<RvmFit> {
        let mut rvm = FastRvm::new(Arc::clone(&self.problem), FastSettings::default())?;
        rvm.run()?;
        Ok(rvm.fit())
    }
}

/// [`two_class_rvm`]'s problem, made once, and the fast classifier's run on it.
#[derive(Debug, Clone)]
pub struct TwoClassRvm {
    problem: Arc<Problem>,
}

impl TwoClassRvm {
    /// `n` two-class points, their kernel design and the problem.
    ///
    /// # Errors
    /// As [`two_class_rvm`].
    pub fn new(n: usize) -> Result<Self> {
        Ok(Self { problem: two_class_rvm(n)? })
    }

    /// The fast classifier (default settings) from initialisation to convergence.
    ///
    /// # Errors
    /// As [`FastRvmClassifier::run`](crate::solver::Solver::run).
    pub fn fit(&self) -> Result<GlmFit> {
        let mut rvm = FastRvmClassifier::new(Arc::clone(&self.problem), FastSettings::default())?;
        rvm.run()?;
        Ok(rvm.fit())
    }
}

/// The design benchmark of the formula family (issue 35): Φ of N inputs evenly spaced over
/// [0, 1] under M functions (the bias and M − 1, width 0.1) of a family, made once; the
/// benchmarks time [`BasisDesign::design`] for the Gaussian family and for the same
/// functions typed as the formula [`crate::basis::DEFAULT_FORMULA`].
#[derive(Debug, Clone)]
pub struct BasisDesign {
    basis: Basis,
    x: Vec<f64>,
}

impl BasisDesign {
    /// `n` inputs and `m` functions of `family` (the Gaussian family, or the formula of the
    /// Gaussians when `family` is [`Family::Formula`]).
    ///
    /// # Errors
    /// Whatever [`Basis::from_spec`] refuses (in the page's module, a formula before the
    /// formula module is loaded).
    pub fn new(family: Family, n: usize, m: usize) -> Result<Self> {
        let spec = BasisSpec { family, m, width: 0.1, bias: true, ..BasisSpec::default() };
        let x = crate::grid::evenly_spaced(X_RANGE.0, X_RANGE.1, n);
        Ok(Self { basis: Basis::from_spec(&spec, X_RANGE, &[])?, x })
    }

    /// The basis.
    pub fn basis(&self) -> &Basis {
        &self.basis
    }

    /// The inputs.
    pub fn inputs(&self) -> &[f64] {
        &self.x
    }

    /// Φ built again; its last entry, so that the work cannot be skipped.
    ///
    /// # Errors
    /// As [`Basis::design_matrix`].
    pub fn design(&self) -> Result<f64> {
        let phi = self.basis.design_matrix(&self.x)?;
        Ok(phi[(phi.nrows() - 1, phi.ncols() - 1)])
    }
}
