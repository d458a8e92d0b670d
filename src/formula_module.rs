//! The formula module: the same crate built with the feature `formula-module` into
//! `www/pkg/formula_bg.wasm`, which holds only the formula family's parser and programs
//! ([`crate::basis::FormulaSet`]). The page loads it when a formula is first asked for and
//! puts its three calls where the page's module reaches them (`www/formula.js`); the page's
//! module calls them for its formula bases (`basis::formula_link`). Like `web`, this module
//! converts and forwards, and holds no mathematics.
//!
//! A compiled set stays here under a handle until the page's module frees it: its slot times
//! two, plus one if the formula uses `mu` (so the page's module knows without asking). An error
//! crosses as one string, the error's code then its values' names and values, a line each
//! (`"formula-unexpected\nat\n12\ntoken\n)"`), which the page's module reads back
//! (`Error::from_formula_module`). (No value holds a line break: the lexer skips them as spaces.)

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::basis::FormulaSet;
use crate::error::Error;

thread_local! {
    /// The compiled sets, by handle; a freed handle's slot is used again.
    static SETS: RefCell<Vec<Option<FormulaSet>>> = const { RefCell::new(Vec::new()) };
}

/// Compiles the functions of the formula `text` at `centres` (one per function) and width s
/// on the domain [lo, hi] (finite, lo < hi): a handle to them. They are not checked finite
/// here: the page's module does that.
///
/// # Errors
/// The error as its lines (see the module documentation).
#[wasm_bindgen]
pub fn compile(text: &str, centres: Vec<f64>, width: f64, lo: f64, hi: f64) -> Result<u32, JsValue> {
    let set = FormulaSet::unchecked(text, centres, width, (lo, hi)).map_err(|e| error_strings(&e))?;
    let uses_centres = u32::from(set.uses_centres());
    let slot = SETS.with_borrow_mut(|sets| match sets.iter().position(Option::is_none) {
        Some(free) => {
            sets[free] = Some(set);
            free
        }
        None => {
            sets.push(Some(set));
            sets.len() - 1
        }
    });
    Ok((slot as u32) << 1 | uses_centres)
}

/// Why function `j` (from 0) of `handle` has no finite value at `x` (`FormulaSet::explain`):
/// the lines `cause`, `operation`, `value`; empty where it has one, or for a handle that is
/// not one.
#[wasm_bindgen]
pub fn explain(handle: u32, j: usize, x: f64) -> String {
    SETS.with_borrow(|sets| match sets.get((handle >> 1) as usize) {
        Some(Some(set)) => set.explain(j, x),
        _ => None,
    })
    .map_or_else(String::new, |fault| [fault.cause.code(), &fault.operation, &fault.value].join("\n"))
}

/// Writes the columns of the functions of `handle` at inputs `x` into `out` (column after
/// column); leaves `out` as it is for a handle that is not one.
#[wasm_bindgen]
pub fn fill(handle: u32, x: &[f64], out: &mut [f64]) {
    SETS.with_borrow(|sets| {
        if let Some(Some(set)) = sets.get((handle >> 1) as usize) {
            set.fill_columns(x, out);
        }
    });
}

/// Drops the functions of `handle`.
#[wasm_bindgen]
pub fn free(handle: u32) {
    SETS.with_borrow_mut(|sets| {
        if let Some(slot) = sets.get_mut((handle >> 1) as usize) {
            *slot = None;
        }
    });
}

/// The lines `code`, `name`, `value`, `name`, `value` … of an error (of a formula, the only
/// kind compiling one gives: its problem's values alone, so the module writes no numbers).
fn error_strings(error: &Error) -> JsValue {
    let mut lines = vec![error.code().to_owned()];
    if let Error::Formula { problem, at } = error {
        let at = at.map(|at| ("at", at.to_string()));
        for (name, value) in at.into_iter().chain(problem.args()) {
            lines.extend([name.to_owned(), value]);
        }
    }
    JsValue::from_str(&lines.join("\n"))
}
