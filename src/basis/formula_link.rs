//! The formula family in the page's module. Its parser and programs (`basis::formula`, about
//! 11 KB gzipped) live in a module of their own, the formula module (`src/formula_module.rs`,
//! the same crate built with the feature `formula-module`: `www/pkg/formula_bg.wasm`), which
//! the page loads when a formula is first asked for, so that the readers who never type one
//! do not download it. The web layer installs the formula module's calls
//! ([`install_formula_module`]); [`FormulaSet`] is the same API as the parser's own over
//! them, so [`super::Basis`] does not tell the two apart.

use std::cell::Cell;
use std::rc::Rc;

use super::{Domain, check_formula_functions, explained};
use crate::error::{Error, Fault, FormulaProblem, Result};

/// The formula module's calls, as the web layer reaches them.
#[derive(Debug, Clone, Copy)]
pub struct FormulaModule {
    /// Compiles the functions of the formula `text` at centres μⱼ and width s on the domain
    /// [lo, hi], not checked finite (the parser's `FormulaSet::unchecked`): a handle to them,
    /// whose lowest bit says whether the formula uses `mu`.
    pub compile: fn(text: &str, centres: &[f64], width: f64, lo: f64, hi: f64) -> Result<u32>,
    /// Writes the K columns of the functions of `handle` at inputs `x` into `out`, column
    /// after column (as the parser's `FormulaSet::fill_columns`).
    pub fill: fn(handle: u32, x: &[f64], out: &mut [f64]),
    /// Lets the formula module drop the functions of `handle`.
    pub free: fn(handle: u32),
    /// Why function `j` (from 0) of `handle` has no finite value at `x` (the parser's
    /// `FormulaSet::explain`).
    pub explain: fn(handle: u32, j: usize, x: f64) -> Option<Fault>,
}

thread_local! {
    /// The installed calls (the page's module runs on one thread).
    static MODULE: Cell<Option<FormulaModule>> = const { Cell::new(None) };
}

/// Makes `module` the formula module the formula family calls.
pub fn install_formula_module(module: FormulaModule) {
    MODULE.set(Some(module));
}

/// The installed formula module, or `formula-module-missing`.
fn module() -> Result<FormulaModule> {
    MODULE.get().ok_or(Error::Formula { problem: FormulaProblem::module_missing(), at: None })
}

/// Functions compiled in the formula module, dropped there with the last copy of the basis.
#[derive(Debug)]
struct Handle(u32);

impl Drop for Handle {
    fn drop(&mut self) {
        if let Ok(module) = module() {
            (module.free)(self.0);
        }
    }
}

/// The K functions of a formula basis: what they were compiled from, and their handle.
#[derive(Debug, Clone)]
pub(super) struct FormulaSet {
    text: Rc<str>,
    centres: Vec<f64>,
    width: f64,
    domain: Domain,
    handle: Rc<Handle>,
}

/// Two sets are equal when they were compiled from the same formula, centres, width and
/// domain (their handles differ).
impl PartialEq for FormulaSet {
    fn eq(&self, other: &Self) -> bool {
        (&self.text, &self.centres, self.width, self.domain) == (&other.text, &other.centres, other.width, other.domain)
    }
}

impl FormulaSet {
    /// The functions of the formula `text` at `centres`, width s, checked finite over
    /// `domain` ([`check_formula_functions`]).
    ///
    /// # Errors
    /// As the parser's `FormulaSet::new`; `formula-module-missing` before the
    /// formula module is loaded.
    pub(super) fn new(text: &str, centres: Vec<f64>, width: f64, domain: Domain) -> Result<Self> {
        let module = module()?;
        let handle = Rc::new(Handle((module.compile)(text, &centres, width, domain.lo, domain.hi)?));
        check_formula_functions(domain, 0..centres.len(), |grid, out| (module.fill)(handle.0, grid, out))
            .map_err(|error| explained(error, |j, x| (module.explain)(handle.0, j, x)))?;
        Ok(Self { text: Rc::from(text), centres, width, domain, handle })
    }

    /// K.
    pub(super) fn len(&self) -> usize {
        self.centres.len()
    }

    /// The centres μⱼ.
    pub(super) fn centres(&self) -> &[f64] {
        &self.centres
    }

    /// Whether the formula uses its centre `mu` (the handle's lowest bit).
    pub(super) fn uses_centres(&self) -> bool {
        self.handle.0 & 1 == 1
    }

    /// Moves the centre of function `j` (< K) to `mu`: the functions compiled anew.
    ///
    /// # Errors
    /// As [`FormulaSet::new`]; the set stays as it was.
    pub(super) fn move_centre(&mut self, j: usize, mu: f64) -> Result<()> {
        let mut centres = self.centres.clone();
        centres[j] = mu;
        *self = Self::new(&self.text, centres, self.width, self.domain)?;
        Ok(())
    }

    /// Writes the K values at `x` into `out`; NaN or ±∞ where a function has no value.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        self.fill_columns(std::slice::from_ref(&x), out);
    }

    /// Writes the K columns of Φ for inputs `x` into `out` (column after column, as long
    /// as x each); NaN or ±∞ where a function has no value.
    pub(super) fn fill_columns(&self, x: &[f64], out: &mut [f64]) {
        // A set exists only once the module compiled it, so the module is there.
        if let Ok(module) = module() {
            (module.fill)(self.handle.0, x, out);
        }
    }
}
