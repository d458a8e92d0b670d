//! The benchmarks of www/bench.html, exported by the bench module only: the crate built with
//! the feature `bench` (scripts/build.sh), which is the page's module with these besides. The
//! page's own module leaves them out, so its readers do not download them. They forward to
//! the core's [`crate::problems`]; the page times the calls.

use wasm_bindgen::prelude::*;

use super::js_result;
use super::to_js::ToJs;
use crate::basis::Family;
use crate::problems;

/// The evidence-surface benchmark of www/bench.html ([`problems::EvidenceSurface`]); the
/// page times the calls, this only forwards.
#[wasm_bindgen]
pub struct EvidenceBenchmark {
    problem: problems::EvidenceSurface,
}

#[wasm_bindgen]
impl EvidenceBenchmark {
    /// `n` sinusoid points under `m` Gaussian basis functions.
    #[wasm_bindgen(constructor)]
    pub fn new(m: usize, n: usize) -> Result<EvidenceBenchmark, JsValue> {
        Ok(EvidenceBenchmark { problem: js_result(problems::EvidenceSurface::new(m, n))? })
    }

    /// A side × side surface; its maximum.
    pub fn surface(&self, side: usize) -> Result<f64, JsValue> {
        js_result(self.problem.maximum(side))
    }
}

/// The RVM benchmark of www/bench.html ([`problems::SincRvm`]), the same problem as the
/// native `cargo bench --bench rvm`. The page times the calls; this only forwards.
#[wasm_bindgen]
pub struct RvmBenchmark {
    problem: problems::SincRvm,
}

#[wasm_bindgen]
impl RvmBenchmark {
    /// `n` sinc points, their kernel design and the problem, made once.
    #[wasm_bindgen(constructor)]
    pub fn new(n: usize) -> Result<RvmBenchmark, JsValue> {
        Ok(RvmBenchmark { problem: js_result(problems::SincRvm::new(n))? })
    }

    /// Builds the kernel design again; its last entry.
    pub fn design(&self) -> Result<f64, JsValue> {
        js_result(self.problem.design())
    }

    /// The fast RVM's fit `{relevant, weights, alpha, beta, log_marginal_likelihood,
    /// iterations, converged}`.
    pub fn fit(&self) -> Result<JsValue, JsValue> {
        Ok(js_result(self.problem.fit())?.to_js())
    }
}

/// The fast RVM classifier on two-class data, for www/bench.html ([`problems::TwoClassRvm`],
/// the `classifier N=…` cases of benches/rvm.rs); this only forwards.
#[wasm_bindgen]
pub struct ClassifierBenchmark {
    problem: problems::TwoClassRvm,
}

#[wasm_bindgen]
impl ClassifierBenchmark {
    /// `n` two-class points, their kernel design and the problem, made once.
    #[wasm_bindgen(constructor)]
    pub fn new(n: usize) -> Result<ClassifierBenchmark, JsValue> {
        Ok(ClassifierBenchmark { problem: js_result(problems::TwoClassRvm::new(n))? })
    }

    /// The fast classifier's fit `{relevant, weights, alpha, log_marginal_likelihood,
    /// iterations, converged, accuracy}`.
    pub fn fit(&self) -> Result<JsValue, JsValue> {
        Ok(js_result(self.problem.fit())?.to_js())
    }
}

/// The design of a basis, for www/bench.html ([`problems::BasisDesign`], the cases of
/// benches/formula.rs): the Gaussian family, or the same functions as a formula (the page
/// loads the formula module first); this only forwards.
#[wasm_bindgen]
pub struct DesignBenchmark {
    problem: problems::BasisDesign,
}

#[wasm_bindgen]
impl DesignBenchmark {
    /// `n` inputs and `m` functions, of the family named `family` (`gaussian` or `formula`).
    #[wasm_bindgen(constructor)]
    pub fn new(family: &str, n: usize, m: usize) -> Result<DesignBenchmark, JsValue> {
        let family = match family {
            "formula" => Family::Formula,
            _ => Family::Gaussian,
        };
        Ok(DesignBenchmark { problem: js_result(problems::BasisDesign::new(family, n, m))? })
    }

    /// Builds Φ again; its last entry.
    pub fn design(&self) -> Result<f64, JsValue> {
        js_result(self.problem.design())
    }
}
