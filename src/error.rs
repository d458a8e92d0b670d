//! The one error type of the numeric core, and the checks that produce it.
//!
//! Every variant carries the offending value, so that a message can say what was wrong
//! ("β must be > 0, but is -1"). [`Error::code`] and [`Error::args`] give the same
//! content in a form the page translates into 中文 or English; `Display` is English.
//!
//! This is the ground floor of the crate: it imports nothing from it.

use nalgebra::{DMatrix, DVector};
use serde::Serialize;
use thiserror::Error as ThisError;

/// Result type of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A number as a person reads it and a parser reads it back: its shortest digits that
/// round-trip, in exponent form from 10¹⁶ up and below 10⁻⁵ in size (`1e308`, `-2.5e-7`),
/// plainly between (`0.1`, `-42`, `123456.75`). Rust's own `{}` never uses an exponent: 10³⁰⁸
/// came out as 309 digits, in messages, permalinks and CSV files alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Compact(pub f64);

impl std::fmt::Display for Compact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let size = self.0.abs();
        if size.is_finite() && size != 0.0 && !(1e-5..1e16).contains(&size) {
            write!(f, "{:e}", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// What went wrong, with the value that caused it.
#[derive(Debug, Clone, PartialEq, ThisError)]
pub enum Error {
    /// A parameter outside its admissible range, e.g. α ≤ 0.
    #[error("{name} must be {bound}, but is {value}")]
    OutOfRange {
        /// Symbol of the parameter as the user sees it (`"α"`, `"M"`).
        name: &'static str,
        /// The rejected value, as given.
        value: String,
        /// The admissible range.
        bound: Bound,
    },
    /// A number that does not parse, or is NaN or ±∞.
    #[error("{name} must be a finite number, but is {value}")]
    NotFinite {
        /// Symbol or name of the quantity.
        name: String,
        /// The rejected value, as given.
        value: String,
    },
    /// A number beyond [`MAX_MAGNITUDE`] in size, as data or as a setting: refused on every
    /// path alike ([`ensure_in_range`]).
    #[error("{}", beyond_range(*.line, name, value))]
    BeyondRange {
        /// Symbol or column of the quantity (`t`, `x₁`, `s`).
        name: String,
        /// The rejected value.
        value: String,
        /// For a row of CSV data: its line number, counting from 1.
        line: Option<usize>,
    },
    /// A choice parameter given a value outside its list.
    #[error("{name} must be one of {options}, but is {value}")]
    UnknownChoice {
        /// Name of the parameter.
        name: &'static str,
        /// The rejected value.
        value: String,
        /// The admissible values, comma-separated.
        options: String,
    },
    /// A key that no parameter of the panel has.
    #[error("unknown parameter {key}")]
    UnknownParameter {
        /// The key as given.
        key: String,
    },
    /// No data points: the posterior needs N ≥ 1.
    #[error("no data points: N must be at least 1")]
    NoData,
    /// Arrays whose lengths must agree do not.
    #[error("{what}: expected {expected} values, got {got}")]
    DimensionMismatch {
        /// Which arrays disagree.
        what: &'static str,
        /// Length required.
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// A matrix that must be symmetric positive definite is not, numerically.
    #[error(
        "the matrix {matrix} is not positive definite (numerically singular): \
         regularise more (raise α) or use fewer basis functions"
    )]
    NotPositiveDefinite {
        /// The matrix as a formula, e.g. `"A = αI + βΦᵀΦ"`.
        matrix: &'static str,
    },
    /// An iterative factorisation ran out of its iteration budget (never seen on finite
    /// input; the cap keeps the page responsive instead of looping).
    #[error("{algorithm} did not converge in {iterations} iterations")]
    NotConverged {
        /// What was being computed, e.g. `"SVD of Φ"`.
        algorithm: &'static str,
        /// The iteration budget that was exhausted.
        iterations: usize,
    },
    /// A re-estimation of α, β met an update with no finite positive value (the evidence
    /// grows without bound as α or β → ∞).
    #[error("re-estimation of α, β stopped at update {iteration}: {reason}")]
    Degenerate {
        /// The refused update, counting from 1.
        iteration: usize,
        /// What was wrong.
        reason: Degeneracy,
    },
    /// A row of pasted or dropped CSV data that is not what the panel reads.
    #[error("line {line} ({text}) is not a row of {columns}")]
    BadRow {
        /// Its line number, counting from 1.
        line: usize,
        /// The line as given (shortened).
        text: String,
        /// What a row holds, e.g. `"x, t"`.
        columns: String,
        /// For rows of classes: the largest class (the last column is a whole number from 0
        /// to it), so that the page can say so in the reader's language.
        classes: Option<usize>,
    },
    /// A row of pasted or dropped CSV counts whose count is not one.
    #[error("line {line} ({text}) is not a row of x, t: the count t must be a whole number from 0 to {max}")]
    BadCount {
        /// Its line number, counting from 1.
        line: usize,
        /// The row's numbers (x, t).
        text: String,
        /// The largest count.
        max: u64,
    },
    /// The chart backend failed (e.g. the canvas went away).
    #[error("drawing failed: {0}")]
    Drawing(String),
    /// A drawing made in parts came to a chart of the next part ([`crate::parts`]): the
    /// part ends there. [`crate::parts::draw_part`] takes it for the part's end, so it is
    /// never shown.
    #[error("the drawing stopped at the end of a part")]
    PartEnded,
    /// A computed result that came out NaN or ±∞ where a number belongs (a step overflowed,
    /// or divided 0 by 0). It is refused where a result is committed — a panel's change or
    /// its background step ([`crate::app::Live`]), the command line's output — so that a
    /// page keeps its last good state and the command line exits 1.
    #[error("the result {quantity} came out as {value}, beyond the range of numbers: it was not kept")]
    Overflow {
        /// The quantity: a key of the page's string table (`readout.beta`, `column.alpha`,
        /// `chart.log-evidence`), or the field of the command line's output (`weights[3]`).
        quantity: String,
        /// Its value: `NaN`, `inf` or `-inf`.
        value: String,
    },
    /// A step asked of an iterative method whose run has already ended
    /// ([`crate::solver::Solver::step`]).
    #[error("the run is over after {iterations} steps: there is no next step")]
    RunOver {
        /// Steps the run took.
        iterations: usize,
    },
    /// A typed formula φ(x) that cannot be a basis family ([`crate::basis::Formula`]): its
    /// text does not read, at a character, or its functions would not vary.
    #[error("{}", formula_message(problem, *at))]
    Formula {
        /// What is wrong.
        problem: FormulaProblem,
        /// Where: the character, counting characters (not bytes) from 1; `None` for a
        /// problem of the whole formula (too long, empty, not varying).
        at: Option<usize>,
    },
    /// A basis function with no finite value at an input: a formula that divides by zero,
    /// overflows or leaves its domain there, or a power of a huge x.
    #[error(
        "φ_{j}(x) has no finite value at x = {x} (it comes out {value}): a division by zero, an overflow, \
         or a root or logarithm of a negative number"
    )]
    FunctionNotFinite {
        /// The function: j = 1 … K, as the formula's `j` counts (the bias not included).
        j: usize,
        /// The input.
        x: String,
        /// What came out: `NaN`, `inf` or `-inf`.
        value: String,
    },
    /// A typed formula's function with no finite value at an input, and the operation that
    /// first gave none there though its operands were numbers: `ln(-1)`, `1/0`, `exp(1000)`.
    /// (The operation is boxed: every `Result` carries the largest variant's size.)
    #[error("φ_{j}(x) has no finite value at x = {x}: {fault}")]
    FormulaFault {
        /// The function: j = 1 … K.
        j: usize,
        /// The input.
        x: String,
        /// The operation and why it gives no value.
        fault: Box<Fault>,
    },
}

/// The operation of a formula that first gives no finite value ([`Error::FormulaFault`]).
#[derive(Debug, Clone, PartialEq, Eq, ThisError)]
#[error("{operation} is {value}, {cause}")]
pub struct Fault {
    /// Why it gives none.
    pub cause: Cause,
    /// The operation, with its operands' values (`ln(-1)`, `1/0`).
    pub operation: String,
    /// What it gives: `NaN`, `inf` or `-inf`.
    pub value: String,
}

/// Why an operation of a formula has no finite value ([`Error::FormulaFault`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// ln or log10 of a number below 0.
    LogOfNegative,
    /// ln or log10 of 0 (−∞).
    LogOfZero,
    /// The square root of a number below 0.
    RootOfNegative,
    /// A fractional power of a number below 0.
    PowerOfNegative,
    /// A division by 0 (a negative power of 0 too).
    DivisionByZero,
    /// A finite result beyond what f64 holds (±1.8·10³⁰⁸).
    Overflow,
    /// No value at all from numbers (∞ − ∞ or 0 · ∞ of an overflow before it).
    Undefined,
}

impl Cause {
    /// Every cause.
    const ALL: [Cause; 7] = [
        Cause::LogOfNegative,
        Cause::LogOfZero,
        Cause::RootOfNegative,
        Cause::PowerOfNegative,
        Cause::DivisionByZero,
        Cause::Overflow,
        Cause::Undefined,
    ];

    /// The cause with [`Cause::code`] `code` (as it crossed from the formula module).
    pub fn from_code(code: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|cause| cause.code() == code)
    }

    /// Its key in the page's strings (`cause.<code>`).
    pub fn code(self) -> &'static str {
        match self {
            Cause::LogOfNegative => "log-negative",
            Cause::LogOfZero => "log-zero",
            Cause::RootOfNegative => "root-negative",
            Cause::PowerOfNegative => "power-negative",
            Cause::DivisionByZero => "division-by-zero",
            Cause::Overflow => "overflow",
            Cause::Undefined => "undefined",
        }
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Cause::LogOfNegative => "the logarithm of a negative number",
            Cause::LogOfZero => "the logarithm of 0",
            Cause::RootOfNegative => "the square root of a negative number",
            Cause::PowerOfNegative => "a fractional power of a negative number",
            Cause::DivisionByZero => "a division by zero",
            Cause::Overflow => "a number too large for the computer (beyond ±1.8e308)",
            Cause::Undefined => "a value with no meaning (such as ∞ − ∞ or 0 · ∞)",
        })
    }
}

impl Error {
    /// The error of the formula module with code `code` and values `args` (name, value, as
    /// [`Error::args`] gives them), as it crossed to the page's module; `None` for a code
    /// that is not a formula's.
    #[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
    pub fn from_formula_module(code: &str, args: impl Iterator<Item = (String, String)>) -> Option<Error> {
        let mut at = None;
        let mut values = vec![];
        for (name, value) in args {
            match (name.as_str(), FORMULA_ARG_NAMES.iter().find(|known| **known == name)) {
                ("at", _) => at = value.parse().ok(),
                (_, Some(known)) => values.push((*known, value)),
                (_, None) => {}
            }
        }
        let code = FORMULA_CODES.iter().find(|known| **known == code)?;
        Some(Error::Formula { problem: FormulaProblem { code, args: values }, at })
    }

    /// [`Error::Overflow`]: the computed `quantity` came out as `value` (NaN or ±∞).
    pub fn overflow(quantity: impl Into<String>, value: f64) -> Self {
        Error::Overflow { quantity: quantity.into(), value: Compact(value).to_string() }
    }

    /// A stable identifier of the kind of error, used to look up a translated message.
    pub fn code(&self) -> &'static str {
        match self {
            Error::OutOfRange { .. } => "out-of-range",
            Error::NotFinite { .. } => "not-finite",
            Error::BeyondRange { line: None, .. } => "beyond-range",
            Error::BeyondRange { line: Some(_), .. } => "beyond-range-line",
            Error::UnknownChoice { .. } => "unknown-choice",
            Error::UnknownParameter { .. } => "unknown-parameter",
            Error::NoData => "no-data",
            Error::DimensionMismatch { .. } => "dimension-mismatch",
            Error::NotPositiveDefinite { .. } => "not-positive-definite",
            Error::NotConverged { .. } => "not-converged",
            Error::Degenerate { .. } => "degenerate",
            Error::BadRow { .. } => "bad-row",
            Error::BadCount { .. } => "bad-count",
            Error::Drawing(_) => "drawing",
            Error::PartEnded => "part-ended",
            Error::RunOver { .. } => "run-over",
            Error::Overflow { .. } => "overflow",
            Error::Formula { problem, .. } => problem.code(),
            Error::FunctionNotFinite { .. } => "function-not-finite",
            Error::FormulaFault { .. } => "formula-fault",
        }
    }

    /// The values that fill the translated message of [`Error::code`].
    pub fn args(&self) -> Vec<(&'static str, String)> {
        match self {
            Error::OutOfRange { name, value, bound } => {
                let mut args =
                    vec![("name", (*name).to_owned()), ("value", value.clone()), ("bound", bound.code().to_owned())];
                args.extend(bound.limits());
                args
            }
            Error::NotFinite { name, value } => {
                vec![("name", name.clone()), ("value", value.clone())]
            }
            Error::BeyondRange { name, value, line } => {
                let mut args = vec![("name", name.clone()), ("value", value.clone())];
                args.push(("max", Compact(MAX_MAGNITUDE).to_string()));
                args.extend(line.map(|line| ("line", line.to_string())));
                args
            }
            Error::UnknownChoice { name, value, options } => {
                vec![("name", (*name).to_owned()), ("value", value.clone()), ("options", options.clone())]
            }
            Error::UnknownParameter { key } => vec![("key", key.clone())],
            Error::NoData | Error::PartEnded => vec![],
            Error::DimensionMismatch { what, expected, got } => {
                vec![("what", (*what).to_owned()), ("expected", expected.to_string()), ("got", got.to_string())]
            }
            Error::NotPositiveDefinite { matrix } => vec![("matrix", (*matrix).to_owned())],
            Error::NotConverged { algorithm, iterations } => {
                vec![("algorithm", (*algorithm).to_owned()), ("iterations", iterations.to_string())]
            }
            Error::Degenerate { iteration, reason } => {
                vec![("iteration", iteration.to_string()), ("reason", reason.code().to_owned())]
            }
            Error::BadRow { line, text, columns, classes } => {
                let mut args = vec![("line", line.to_string()), ("text", text.clone()), ("columns", columns.clone())];
                args.extend(classes.map(|max| ("classes", max.to_string())));
                args
            }
            Error::BadCount { line, text, max } => {
                vec![("line", line.to_string()), ("text", text.clone()), ("max", max.to_string())]
            }
            Error::Drawing(message) => vec![("message", message.clone())],
            Error::RunOver { iterations } => vec![("iterations", iterations.to_string())],
            Error::Overflow { quantity, value } => vec![("quantity", quantity.clone()), ("value", value.clone())],
            Error::Formula { problem, at } => {
                let mut args: Vec<_> = at.map(|at| ("at", at.to_string())).into_iter().collect();
                args.extend(problem.args());
                args
            }
            Error::FunctionNotFinite { j, x, value } => {
                vec![("j", j.to_string()), ("x", x.clone()), ("value", value.clone())]
            }
            Error::FormulaFault { j, x, fault } => vec![
                ("j", j.to_string()),
                ("x", x.clone()),
                ("operation", fault.operation.clone()),
                ("value", fault.value.clone()),
                ("cause", fault.cause.code().to_owned()),
            ],
        }
    }
}

/// Why a re-estimation update of α or β has no finite positive value
/// ([`Error::Degenerate`], and the termination of such a run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Degeneracy {
    /// m_Nᵀm_N = 0 (Φᵀt = 0): α = γ/m_Nᵀm_N would be infinite.
    ZeroMean,
    /// N − γ ≤ 0: 1/β = ‖t − Φm_N‖²/(N − γ) would not be positive.
    NoNoiseFreedom,
    /// ‖t − Φm_N‖² = 0 (t lies in the span of Φ): β would be infinite.
    ZeroResidual,
    /// The new α or β, or a quantity at it, overflowed or underflowed.
    Overflow,
}

impl Degeneracy {
    /// A stable identifier, for the page's translated text.
    pub fn code(self) -> &'static str {
        match self {
            Degeneracy::ZeroMean => "zero-mean",
            Degeneracy::NoNoiseFreedom => "no-noise-freedom",
            Degeneracy::ZeroResidual => "zero-residual",
            Degeneracy::Overflow => "overflow",
        }
    }
}

impl std::fmt::Display for Degeneracy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Degeneracy::ZeroMean => "m_Nᵀm_N = 0 (Φᵀt = 0), so α = γ/m_Nᵀm_N would be infinite",
            Degeneracy::NoNoiseFreedom => "N − γ ≤ 0, so β = (N − γ)/‖t − Φm_N‖² would not be positive",
            Degeneracy::ZeroResidual => "‖t − Φm_N‖² = 0 (t lies in the span of Φ), so β would be infinite",
            Degeneracy::Overflow => "α or β left the range of finite positive numbers",
        })
    }
}

/// Every [`FormulaProblem`]'s code (the page's module knows a problem by it).
pub const FORMULA_CODES: [&str; 15] = [
    "formula-empty",
    "formula-too-long",
    "formula-too-deep",
    "formula-unexpected",
    "formula-ends-early",
    "formula-unclosed",
    "formula-unknown-name",
    "formula-unknown-name-suggestion",
    "formula-argument-count",
    "formula-bad-number",
    "formula-missing-operator",
    "formula-needs-parentheses",
    "formula-no-x",
    "formula-same-functions",
    "formula-module-missing",
];

/// The names of every [`FormulaProblem`]'s values (besides `at`).
pub const FORMULA_ARG_NAMES: [&str; 9] =
    ["length", "max", "token", "name", "suggestion", "function", "expected", "got", "text"];

/// What is wrong with a typed formula ([`Error::Formula`]). Each has its own
/// [`code`](FormulaProblem::code), so that the page words each in the reader's language.
#[cfg(any(not(target_arch = "wasm32"), feature = "formula-module"))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormulaProblem {
    /// Nothing but spaces.
    Empty,
    /// More characters than the limit.
    TooLong {
        /// Characters given.
        length: usize,
        /// The limit ([`crate::basis::MAX_FORMULA_LEN`]).
        max: usize,
    },
    /// Parentheses, unary minus signs, powers and calls nested deeper than the limit.
    TooDeep {
        /// The limit ([`crate::basis::MAX_FORMULA_DEPTH`]).
        max: usize,
    },
    /// A character or token that cannot come where it is (`)` after `+`, `,` outside a
    /// call, `!`).
    Unexpected {
        /// The token as typed.
        token: String,
    },
    /// The text ends where a number, a name or `(` must come (`x +`).
    EndsEarly,
    /// A `(` that is never closed (`at` is the `(`).
    Unclosed,
    /// A name that is neither a variable, a constant nor a function.
    UnknownName {
        /// The name as typed.
        name: String,
        /// The known name it most likely means (by edit distance, or a usual other name
        /// such as `sigma` for `s`), if one is close.
        suggestion: Option<String>,
    },
    /// A function called with the wrong number of arguments.
    ArgumentCount {
        /// The function.
        function: String,
        /// Arguments it takes.
        expected: usize,
        /// Arguments given.
        got: usize,
    },
    /// A number that does not read (`1.2.3`, `.`), or is beyond the range of f64 (`1e999`).
    BadNumber {
        /// The text.
        text: String,
    },
    /// Two operands with no operator between them (`2x`, `x(x + 1)`): `at` is the second.
    MissingOperator {
        /// The second operand's first token, as typed.
        token: String,
    },
    /// A function name without its parenthesised argument (`exp x`).
    NeedsParentheses {
        /// The function.
        function: String,
    },
    /// The formula does not use x: every function would be a constant.
    NoX,
    /// With two or more functions, the formula uses neither mu nor j: every function would
    /// be the same.
    SameFunctions,
    /// The page's formula module (which holds the parser, loaded when a formula is first
    /// asked for) is not there: not loaded yet, or it could not be.
    ModuleMissing,
}

#[cfg(any(not(target_arch = "wasm32"), feature = "formula-module"))]
impl FormulaProblem {
    /// [`FormulaProblem::TooLong`].
    pub fn too_long(length: usize, max: usize) -> Self {
        FormulaProblem::TooLong { length, max }
    }

    /// A stable identifier, the [`Error::code`] of the [`Error::Formula`] holding it.
    pub fn code(&self) -> &'static str {
        match self {
            FormulaProblem::Empty => "formula-empty",
            FormulaProblem::TooLong { .. } => "formula-too-long",
            FormulaProblem::TooDeep { .. } => "formula-too-deep",
            FormulaProblem::Unexpected { .. } => "formula-unexpected",
            FormulaProblem::EndsEarly => "formula-ends-early",
            FormulaProblem::Unclosed => "formula-unclosed",
            FormulaProblem::UnknownName { suggestion: None, .. } => "formula-unknown-name",
            FormulaProblem::UnknownName { suggestion: Some(_), .. } => "formula-unknown-name-suggestion",
            FormulaProblem::ArgumentCount { .. } => "formula-argument-count",
            FormulaProblem::BadNumber { .. } => "formula-bad-number",
            FormulaProblem::MissingOperator { .. } => "formula-missing-operator",
            FormulaProblem::NeedsParentheses { .. } => "formula-needs-parentheses",
            FormulaProblem::NoX => "formula-no-x",
            FormulaProblem::SameFunctions => "formula-same-functions",
            FormulaProblem::ModuleMissing => "formula-module-missing",
        }
    }

    /// The values that fill its translated message (besides `at`).
    pub fn args(&self) -> Vec<(&'static str, String)> {
        match self {
            FormulaProblem::TooLong { length, max } => vec![("length", length.to_string()), ("max", max.to_string())],
            FormulaProblem::TooDeep { max } => vec![("max", max.to_string())],
            FormulaProblem::Unexpected { token } | FormulaProblem::MissingOperator { token } => {
                vec![("token", token.clone())]
            }
            FormulaProblem::UnknownName { name, suggestion } => {
                let mut args = vec![("name", name.clone())];
                args.extend(suggestion.clone().map(|s| ("suggestion", s)));
                args
            }
            FormulaProblem::ArgumentCount { function, expected, got } => {
                vec![("function", function.clone()), ("expected", expected.to_string()), ("got", got.to_string())]
            }
            FormulaProblem::BadNumber { text } => vec![("text", text.clone())],
            FormulaProblem::NeedsParentheses { function } => vec![("function", function.clone())],
            FormulaProblem::Empty
            | FormulaProblem::EndsEarly
            | FormulaProblem::Unclosed
            | FormulaProblem::NoX
            | FormulaProblem::SameFunctions
            | FormulaProblem::ModuleMissing => vec![],
        }
    }
}

/// In the page's module, what is wrong with a typed formula: its code and values as they
/// crossed from the formula module, where the problem was found (the page's strings word it;
/// the module does not carry the parser's types, nor their English texts).
#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormulaProblem {
    code: &'static str,
    args: Vec<(&'static str, String)>,
}

#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
impl FormulaProblem {
    /// Too long: `length` characters, at most `max`.
    pub fn too_long(length: usize, max: usize) -> Self {
        Self { code: "formula-too-long", args: vec![("length", length.to_string()), ("max", max.to_string())] }
    }

    /// The formula module is not there.
    pub fn module_missing() -> Self {
        Self { code: "formula-module-missing", args: vec![] }
    }

    /// Its code, one of [`FORMULA_CODES`].
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The values that fill its translated message (besides `at`).
    pub fn args(&self) -> Vec<(&'static str, String)> {
        self.args.clone()
    }
}

/// The text of [`Error::Formula`] in the page's module: its code and where (the page shows
/// its own words for the code).
#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
fn formula_message(problem: &FormulaProblem, at: Option<usize>) -> String {
    let at = at.map_or(String::new(), |at| format!(" at character {at}"));
    format!("the formula is refused ({}){at}", problem.code)
}

/// The text of [`Error::Formula`]: the problem, and where (" at character 14").
#[cfg(any(not(target_arch = "wasm32"), feature = "formula-module"))]
fn formula_message(problem: &FormulaProblem, at: Option<usize>) -> String {
    let at = at.map_or(String::new(), |at| format!(" at character {at}"));
    match problem {
        FormulaProblem::Empty => "the formula is empty".to_owned(),
        FormulaProblem::TooLong { length, max } => {
            format!("the formula is too long: {length} characters, at most {max}")
        }
        FormulaProblem::TooDeep { max } => format!("the formula is nested too deep{at}: at most {max} levels"),
        FormulaProblem::Unexpected { token } => format!("unexpected '{token}'{at}"),
        FormulaProblem::EndsEarly => format!("the formula ends too soon{at}: a number, a name or '(' must follow"),
        FormulaProblem::Unclosed => format!("missing ')' for the '('{at}"),
        FormulaProblem::UnknownName { name, suggestion: None } => format!("unknown name '{name}'{at}"),
        FormulaProblem::UnknownName { name, suggestion: Some(known) } => {
            format!("unknown name '{name}'{at} — did you mean {known}?")
        }
        FormulaProblem::ArgumentCount { function, expected, got } => {
            let plural = if *expected == 1 { "" } else { "s" };
            format!("{function}{at} takes {expected} argument{plural}, got {got}")
        }
        FormulaProblem::BadNumber { text } => format!("'{text}'{at} is not a number"),
        FormulaProblem::MissingOperator { token } => {
            format!("missing an operator before '{token}'{at}: write 2*x, not 2x")
        }
        FormulaProblem::NeedsParentheses { function } => {
            format!("{function}{at} needs its argument in parentheses: {function}(…)")
        }
        FormulaProblem::NoX => "the formula does not depend on x: every function would be a constant".to_owned(),
        FormulaProblem::SameFunctions => {
            "every function is the same: the formula does not depend on mu or j".to_owned()
        }
        FormulaProblem::ModuleMissing => "the formula module is not loaded".to_owned(),
    }
}

/// The admissible range of a parameter, named in [`Error::OutOfRange`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Strictly positive.
    Positive,
    /// Zero or more.
    NonNegative,
    /// A whole number in `min..=max`.
    WholeBetween {
        /// Smallest admissible value.
        min: u64,
        /// Largest admissible value.
        max: u64,
    },
    /// At most `max`.
    AtMost {
        /// Largest admissible value.
        max: u64,
    },
    /// From −`max` to `max`.
    Within {
        /// Largest admissible magnitude.
        max: u64,
    },
}

impl Bound {
    /// A stable identifier, for the page's translated text.
    pub fn code(&self) -> &'static str {
        match self {
            Bound::Positive => "positive",
            Bound::NonNegative => "non-negative",
            Bound::WholeBetween { .. } => "whole-between",
            Bound::AtMost { .. } => "at-most",
            Bound::Within { .. } => "within",
        }
    }

    /// The numbers in the bound's text, as `min`/`max` arguments.
    fn limits(&self) -> Vec<(&'static str, String)> {
        match self {
            Bound::Positive | Bound::NonNegative => vec![],
            Bound::WholeBetween { min, max } => vec![("min", min.to_string()), ("max", max.to_string())],
            Bound::AtMost { max } | Bound::Within { max } => vec![("max", max.to_string())],
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Positive => write!(f, "> 0"),
            Bound::NonNegative => write!(f, "≥ 0"),
            Bound::WholeBetween { min, max } => write!(f, "a whole number from {min} to {max}"),
            Bound::AtMost { max } => write!(f, "at most {max}"),
            Bound::Within { max } => write!(f, "between -{max} and {max}"),
        }
    }
}

/// `Ok(())` when `index` is one of `count` things (a data point, a handle), else
/// [`Error::OutOfRange`] naming `name` and the indices there are.
pub fn ensure_index(name: &'static str, index: usize, count: usize) -> Result<()> {
    if index < count {
        return Ok(());
    }
    let bound = Bound::WholeBetween { min: 0, max: count.saturating_sub(1) as u64 };
    Err(Error::OutOfRange { name, value: index.to_string(), bound })
}

/// `Ok(value)` when `value` is finite, else [`Error::NotFinite`] naming it.
pub fn ensure_finite(name: &str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::NotFinite { name: name.to_owned(), value: Compact(value).to_string() })
    }
}

/// The largest size of a number the lab reads, as data or as a setting: 10⁵⁰.
///
/// Every method gives one answer in any units as long as what it forms from the data stays
/// inside f64 (10⁻³⁰⁸ … 10³⁰⁸). The highest power of the data's scale c among those is the
/// fourth: s² in the fast RVM's α = s²/(q² − s) (PRML 7.101, s ∝ c⁻²), 10⁻²⁰⁰ for c = 10⁵⁰.
/// `tests/scale.rs` checks every method for targets (and inputs) times c = 10⁻⁵⁰ … 10⁵⁰; at
/// 10¹⁰⁰, s² underflowed to 0 and the fast RVM's L came out −∞, and at 10³⁰⁸ the first square
/// overflowed. So a number beyond it is refused, with a message naming this range, on every
/// path: CSV data in the page and on the command line, values typed into the page or given
/// on the command line, and the URL's keys.
pub const MAX_MAGNITUDE: f64 = 1e50;

/// Whether `value` is a number the lab reads: finite, and at most [`MAX_MAGNITUDE`] in size.
pub fn in_range(value: f64) -> bool {
    value.is_finite() && value.abs() <= MAX_MAGNITUDE
}

/// `Ok(value)` when [`in_range`].
///
/// # Errors
/// [`Error::NotFinite`] for NaN or ±∞, [`Error::BeyondRange`] beyond ±[`MAX_MAGNITUDE`].
pub fn ensure_in_range(name: &str, value: f64) -> Result<f64> {
    ensure_finite(name, value)?;
    if in_range(value) {
        Ok(value)
    } else {
        Err(Error::BeyondRange { name: name.to_owned(), value: Compact(value).to_string(), line: None })
    }
}

/// The text of [`Error::BeyondRange`].
fn beyond_range(line: Option<usize>, name: &str, value: &str) -> String {
    let max = Compact(MAX_MAGNITUDE);
    let rule = format!("{name} must be between -{max} and {max}, but is {value}");
    match line {
        Some(line) => format!("line {line}: {rule}"),
        None => rule,
    }
}

/// `Ok(value)` when a computed result `value` is finite, else [`Error::Overflow`] naming
/// it as `quantity` (a symbol such as `ln p(t|α,β)`, or a key of the page's strings).
pub fn ensure_result(quantity: &str, value: f64) -> Result<f64> {
    if value.is_finite() { Ok(value) } else { Err(Error::overflow(quantity, value)) }
}

/// `Ok(value)` when `value` is finite and strictly positive (a precision, a width).
pub fn ensure_positive(name: &'static str, value: f64) -> Result<f64> {
    ensure_finite(name, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(Error::OutOfRange { name, value: Compact(value).to_string(), bound: Bound::Positive })
    }
}

/// `Ok(value)` when `value` is finite and ≥ 0 (a standard deviation, a count).
pub fn ensure_non_negative(name: &'static str, value: f64) -> Result<f64> {
    ensure_finite(name, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::OutOfRange { name, value: Compact(value).to_string(), bound: Bound::NonNegative })
    }
}

/// `value` if it is finite and within ±`max`.
///
/// # Errors
/// [`Error::NotFinite`] for NaN or ±∞, [`Error::OutOfRange`] beyond ±`max`.
pub fn ensure_within(name: &'static str, value: f64, max: u64) -> Result<f64> {
    ensure_finite(name, value)?;
    if value.abs() <= max as f64 {
        Ok(value)
    } else {
        Err(Error::OutOfRange { name, value: Compact(value).to_string(), bound: Bound::Within { max } })
    }
}

/// `value` as a whole number from 0 to `max` (a class label, a count read back from a
/// number).
///
/// # Errors
/// [`Error::OutOfRange`] naming `name` and that range for anything else, NaN and ±∞
/// included.
pub fn ensure_whole(name: &'static str, value: f64, max: u64) -> Result<usize> {
    if (0.0..=max as f64).contains(&value) && value.fract() == 0.0 {
        Ok(value as usize)
    } else {
        Err(Error::OutOfRange { name, value: value.to_string(), bound: Bound::WholeBetween { min: 0, max } })
    }
}

/// Checks every entry of `values`, naming the first non-finite one as `name[i]`.
pub fn ensure_all_finite(name: &str, values: &[f64]) -> Result<()> {
    // The name is formatted only for the offending entry: formatting one per entry took
    // ~50 ns each, 0.2 s for a 2000 × 2001 design.
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => ensure_finite(&format!("{name}[{i}]"), values[i]).map(|_| ()),
        None => Ok(()),
    }
}

/// Checks a regression problem: N ≥ 1 targets, one row of Φ per target, M ≥ 1 columns,
/// everything finite.
///
/// # Errors
/// [`Error::NoData`] for N = 0; [`Error::DimensionMismatch`] if Φ has not one row per
/// target; [`Error::OutOfRange`] for M = 0; [`Error::NotFinite`] for NaN/∞ in Φ or t.
pub fn check_design(phi: &DMatrix<f64>, t: &[f64]) -> Result<()> {
    if t.is_empty() {
        return Err(Error::NoData);
    }
    if phi.nrows() != t.len() {
        return Err(Error::DimensionMismatch { what: "design matrix rows", expected: t.len(), got: phi.nrows() });
    }
    if phi.ncols() == 0 {
        return Err(Error::OutOfRange { name: "M", value: "0".to_owned(), bound: Bound::Positive });
    }
    ensure_all_finite("Φ", phi.as_slice())?;
    ensure_all_finite("t", t)
}

/// Checks that a weight vector `w` (named `what` in messages) has M finite entries.
///
/// # Errors
/// [`Error::DimensionMismatch`] for a length other than `m`, [`Error::NotFinite`] for NaN/∞.
pub fn check_weights(what: &'static str, w: &DVector<f64>, m: usize) -> Result<()> {
    if w.len() != m {
        return Err(Error::DimensionMismatch { what, expected: m, got: w.len() });
    }
    ensure_all_finite(what, w.as_slice())
}

/// `Ok` when `min ≤ value ≤ max`, else [`Error::OutOfRange`] naming the range.
///
/// # Errors
/// [`Error::OutOfRange`] outside the range.
pub fn check_whole(name: &'static str, value: usize, min: usize, max: usize) -> Result<()> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        let bound = Bound::WholeBetween { min: min as u64, max: max as u64 };
        Err(Error::OutOfRange { name, value: value.to_string(), bound })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact_in_messages() {
        let cases = [
            (1e308, "1e308"),
            (-1e308, "-1e308"),
            (-2.5e-7, "-2.5e-7"),
            (0.1, "0.1"),
            (-42.0, "-42"),
            (123_456.75, "123456.75"),
            (9_999_999_999_999_998.0, "9999999999999998"),
            (1e16, "1e16"),
            (1e-5, "0.00001"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
        ];
        for (value, text) in cases {
            assert_eq!(Compact(value).to_string(), text);
        }
        let e = ensure_positive("β", -1e308).unwrap_err();
        assert_eq!(e.to_string(), "β must be > 0, but is -1e308");
    }

    #[test]
    fn messages_name_the_value() {
        let e = ensure_positive("β", -1.0).unwrap_err();
        assert_eq!(e.to_string(), "β must be > 0, but is -1");
        assert_eq!(e.code(), "out-of-range");
        let e = ensure_all_finite("x", &[0.0, f64::NAN]).unwrap_err();
        assert_eq!(e.to_string(), "x[1] must be a finite number, but is NaN");
    }

    #[test]
    fn design_checks_name_the_problem() {
        let phi = DMatrix::from_element(2, 1, 1.0);
        assert_eq!(check_design(&phi, &[]).unwrap_err(), Error::NoData);
        assert_eq!(check_design(&phi, &[1.0]).unwrap_err().code(), "dimension-mismatch");
        assert_eq!(check_design(&DMatrix::zeros(2, 0), &[1.0, 2.0]).unwrap_err().code(), "out-of-range");
        assert_eq!(
            check_design(&phi, &[1.0, f64::NAN]).unwrap_err().to_string(),
            "t[1] must be a finite number, but is NaN"
        );
        assert!(check_design(&phi, &[1.0, 2.0]).is_ok());
        let w = DVector::from_vec(vec![1.0, 2.0]);
        assert_eq!(check_weights("w", &w, 3).unwrap_err().code(), "dimension-mismatch");
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn formula_problems_have_a_code_each_and_say_where() {
        use FormulaProblem::*;
        let problems = [
            Empty,
            TooLong { length: 201, max: 200 },
            TooDeep { max: 32 },
            Unexpected { token: ")".into() },
            EndsEarly,
            Unclosed,
            UnknownName { name: "y".into(), suggestion: None },
            UnknownName { name: "sigma".into(), suggestion: Some("s".into()) },
            ArgumentCount { function: "exp".into(), expected: 1, got: 2 },
            BadNumber { text: "1.2.3".into() },
            MissingOperator { token: "x".into() },
            NeedsParentheses { function: "exp".into() },
            NoX,
            SameFunctions,
            ModuleMissing,
        ];
        let codes: std::collections::BTreeSet<_> = problems.iter().map(FormulaProblem::code).collect();
        assert_eq!(codes.len(), problems.len());
        assert!(codes.iter().all(|code| code.starts_with("formula-")));
        // The page's module knows a problem that crossed from the formula module by these
        // lists: every code, and every value's name.
        assert_eq!(codes, FORMULA_CODES.into_iter().collect());
        let names: std::collections::BTreeSet<_> =
            problems.iter().flat_map(|p| p.args()).map(|(name, _)| name).collect();
        assert_eq!(names, FORMULA_ARG_NAMES.into_iter().collect());
        let owned = |args: &[(&'static str, &str)]| args.iter().map(|&(k, v)| (k, v.to_owned())).collect::<Vec<_>>();
        let e = Error::Formula { problem: Unexpected { token: ")".into() }, at: Some(14) };
        assert_eq!((e.to_string(), e.code()), ("unexpected ')' at character 14".into(), "formula-unexpected"));
        assert_eq!(e.args(), owned(&[("at", "14"), ("token", ")")]));
        let e = Error::Formula { problem: ArgumentCount { function: "min".into(), expected: 2, got: 1 }, at: Some(3) };
        assert_eq!(e.to_string(), "min at character 3 takes 2 arguments, got 1");
        assert_eq!(e.args(), owned(&[("at", "3"), ("function", "min"), ("expected", "2"), ("got", "1")]));
        let e = Error::Formula { problem: SameFunctions, at: None };
        assert_eq!((e.code(), e.args()), ("formula-same-functions", vec![]));
        let e = Error::FunctionNotFinite { j: 3, x: "0".into(), value: "NaN".into() };
        assert_eq!(e.args(), owned(&[("j", "3"), ("x", "0"), ("value", "NaN")]));
        assert!(e.to_string().starts_with("φ_3(x) has no finite value at x = 0 (it comes out NaN)"));
    }

    // proptest is a native dev-dependency only.
    #[cfg(not(target_arch = "wasm32"))]
    mod round_trip {
        use proptest::prelude::*;

        use super::Compact;

        proptest! {
            /// A compact number reads back to the very same number: every f64 bit pattern
            /// that is finite, subnormals included.
            #[test]
            fn compact_numbers_read_back(bits in any::<u64>()) {
                let value = f64::from_bits(bits);
                prop_assume!(value.is_finite());
                let back: f64 = Compact(value).to_string().parse().unwrap();
                prop_assert_eq!(back.to_bits(), value.to_bits());
            }
        }
    }
}
