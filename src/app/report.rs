//! What a panel reports beside its chart: readouts, tables and messages. All carry
//! string-table keys, so the page shows them in the reader's language.

use serde::Serialize;

/// A number the panel reports (N, ln p(t|α,β), …).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Readout {
    /// Key of the readout's label in the string table (`readout.<key>`).
    pub key: &'static str,
    /// The value: finite, or +∞ where the quantity is infinite (the most probable α of a
    /// basis vector that is best pruned); never NaN.
    pub value: f64,
}

/// One cell of a [`Table`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cell {
    /// Text looked up in the string table (`cell.<key>`).
    Label(&'static str),
    /// A number.
    Number(f64),
}

/// A small table (e.g. the lecture's epoch / batch size / iteration table).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Key of the caption (`table.<key>`).
    pub key: &'static str,
    /// Keys of the column headers (`column.<key>`).
    pub columns: Vec<&'static str>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

/// A message about the current state, e.g. `diverged` with `iteration = 17`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    /// Key of the template (`message.<code>`).
    pub code: String,
    /// Values that fill the template.
    pub args: Vec<(&'static str, String)>,
    /// Whether it warns (shown in the error colour).
    pub warning: bool,
}

impl Message {
    /// A note with translated text `message.<code>` filled from `args`.
    pub fn info<const N: usize>(code: &str, args: [(&'static str, String); N]) -> Self {
        Self { code: code.to_owned(), args: Vec::from(args), warning: false }
    }

    /// The same, shown as a warning.
    pub fn warning<const N: usize>(code: &str, args: [(&'static str, String); N]) -> Self {
        Self { warning: true, ..Self::info(code, args) }
    }
}
