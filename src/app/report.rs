//! What a panel reports beside its chart, as one [`Report`]: readouts, tables, messages,
//! the legend, and where its animation and its background work stand. All words are
//! string-table keys, so the page shows them in the reader's language.

use serde::Serialize;

use super::plotted::{Plotted, push_csv_section};
use crate::error::{Compact, Error, Result};
use crate::plot::LegendEntry;

/// The quantities that may be +∞ as a *value*: the precision α of a basis function, which
/// is infinite when the function is pruned (Tipping 2001 §2.2; PRML 7.101's α = ∞ where
/// q² ≤ s). Keys of readouts, of table columns and of a summary's placeholders. Every other
/// number shown is finite ([`ensure_shown_finite`]).
pub const INFINITE_WHEN_PRUNED: [&str; 5] = ["alpha", "alpha-star", "current-alpha", "alpha-old", "alpha-new"];

/// `Ok` when every number a panel shows — its readouts, tables and chart summary, and the
/// tables of what its charts plot — is finite, or +∞ where it is a pruned basis function's
/// α ([`INFINITE_WHEN_PRUNED`]).
///
/// This is the one check of results, made where a panel's result is committed
/// ([`super::Live`]): a change, or a slice of background work.
///
/// # Errors
/// [`Error::Overflow`] naming the first quantity that is NaN or ±∞, by its string-table key
/// (`readout.beta`, `column.log-ml`, `chart.log-evidence`).
pub fn ensure_shown_finite(report: &Report, plotted: &[Plotted]) -> Result<()> {
    for readout in &report.readouts {
        ensure_shown("readout", readout.key, readout.value)?;
    }
    for table in &report.tables {
        for row in &table.rows {
            for (cell, column) in row.iter().zip(&table.columns) {
                if let Cell::Number(value) = cell {
                    ensure_shown("column", column, *value)?;
                }
            }
        }
    }
    for sentence in &report.summary {
        for (name, word) in &sentence.args {
            if let Word::Number(value) = word {
                ensure_shown("", name, *value)?;
            }
        }
    }
    for table in plotted {
        for row in table.rows() {
            for (value, heading) in row.iter().zip(&table.headings) {
                if !value.is_finite() {
                    return Err(Error::overflow(heading.name.text_key(), *value));
                }
            }
        }
    }
    Ok(())
}

/// `Ok` when `value`, shown as `kind.key` (as `key` for an empty `kind`: a summary's
/// placeholder), is finite or a +∞ that [`INFINITE_WHEN_PRUNED`] admits.
fn ensure_shown(kind: &str, key: &str, value: f64) -> Result<()> {
    if value.is_finite() || (value == f64::INFINITY && INFINITE_WHEN_PRUNED.contains(&key)) {
        return Ok(());
    }
    let quantity = if kind.is_empty() { key.to_owned() } else { format!("{kind}.{key}") };
    Err(Error::overflow(quantity, value))
}

/// Everything a panel shows beside its chart, read at once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// Numbers (N, ln p(t|α,β), …).
    pub readouts: Vec<Readout>,
    /// Small tables (the event log, the methods compared, …).
    pub tables: Vec<Table>,
    /// Messages about the state (e.g. "diverged at iteration k").
    pub messages: Vec<Message>,
    /// The chart's series, for the page's legend.
    pub legend: Vec<LegendEntry>,
    /// The frame shown and the last frame, when the panel animates.
    pub position: Option<(usize, usize)>,
    /// Background work done and in all, while a panel has some.
    pub work: Option<(usize, usize)>,
    /// The chart in words, for a screen reader: what it shows now and its key numbers.
    pub summary: Vec<Sentence>,
}

/// A sentence of a chart's description (`summary.<key>` in the string table, its
/// placeholders filled from `args`), so that the page says it in the reader's language.
#[derive(Debug, Clone, PartialEq)]
pub struct Sentence {
    /// Key of the template (`summary.<key>`).
    pub key: &'static str,
    /// The values of its placeholders.
    pub args: Vec<(&'static str, Word)>,
}

impl Sentence {
    /// `summary.<key>` filled from `args`.
    pub fn new<const N: usize>(key: &'static str, args: [(&'static str, Word); N]) -> Self {
        Self { key, args: Vec::from(args) }
    }

    /// `summary.<key>` filled from the readouts (each by its key) and `more`: a chart's
    /// description in the numbers the panel reports beside it.
    pub fn of_readouts<const N: usize>(
        key: &'static str,
        readouts: &[Readout],
        more: [(&'static str, Word); N],
    ) -> Self {
        let args = readouts.iter().map(|r| (r.key, Word::Number(r.value))).chain(more).collect();
        Self { key, args }
    }
}

/// A value in a [`Sentence`]: a number (written as the readouts are) or a word from the
/// string table (e.g. `cell.add`, `choice.gaussian`).
#[derive(Debug, Clone, PartialEq)]
pub enum Word {
    /// A number (+∞ allowed).
    Number(f64),
    /// The key of a word in the string table.
    Key(String),
    /// Text shown as it is in every language (a formula the reader typed).
    Text(String),
}

impl From<f64> for Word {
    fn from(value: f64) -> Self {
        Word::Number(value)
    }
}

impl From<usize> for Word {
    fn from(value: usize) -> Self {
        Word::Number(value as f64)
    }
}

impl Report {
    /// The readouts and tables as CSV text ([`results_csv`]).
    pub fn csv(&self) -> String {
        results_csv(&self.readouts, &self.tables)
    }

    /// The readout `key`, if reported.
    pub fn readout(&self, key: &str) -> Option<f64> {
        self.readouts.iter().find(|r| r.key == key).map(|r| r.value)
    }
}

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

/// The readouts and tables as CSV text, for "Save results as CSV": a `quantity,value`
/// section with one line per readout, then for each table a line with its key, its
/// column keys and its rows, sections separated by a blank line. Names are the string-table
/// keys (language-neutral); numbers are written in full, in the lab's one format ([`Compact`]:
/// the shortest text that reads back as the same f64, with an exponent below 1e-5 or from
/// 1e16, `26` for a whole number, and `inf` for +∞).
pub fn results_csv(readouts: &[Readout], tables: &[Table]) -> String {
    let mut text = String::from("quantity,value\n");
    for readout in readouts {
        text.push_str(&format!("{},{}\n", readout.key, Compact(readout.value)));
    }
    for table in tables {
        let mut lines = table.rows.iter().map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| match cell {
                    Cell::Label(key) => (*key).to_owned(),
                    Cell::Number(value) => Compact(*value).to_string(),
                })
                .collect();
            cells.join(",")
        });
        push_csv_section(&mut text, table.key, &table.columns.join(","), &mut lines);
    }
    text
}

/// `text` (a CSV export) with a last section `state`: the lines `key,value` of the panel
/// (`panel`, `name`) and of each of its query `pairs`, so an export names what it was made
/// of (a typed formula among it) and the state can be opened again as
/// `?panel=…&key=value…`. A value holding a comma, a quote or a line break is quoted
/// (RFC 4180 §2.6–2.7: quotes inside doubled).
pub fn with_state(mut text: String, name: &str, pairs: &[(String, String)]) -> String {
    let mut lines = vec![format!("panel,{}", csv_field(name))];
    for (key, value) in pairs {
        lines.push(format!("{},{}", csv_field(key), csv_field(value)));
    }
    push_csv_section(&mut text, "state", "key,value", &mut lines.into_iter());
    text
}

/// `field` as one CSV field: as it is, or quoted when it holds a comma, a quote or a line
/// break.
fn csv_field(field: &str) -> String {
    if !field.contains([',', '"', '\n', '\r']) {
        return field.to_owned();
    }
    let mut quoted = String::from('"');
    for c in field.chars() {
        if c == '"' {
            quoted.push('"');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back_as_the_same_numbers() {
        let readouts = [Readout { key: "N", value: 25.0 }, Readout { key: "alpha", value: f64::INFINITY }];
        let third = 1.0 / 3.0;
        let tables = [Table {
            key: "weights",
            columns: vec!["method", "w"],
            rows: vec![vec![Cell::Label("fast"), Cell::Number(third)], vec![Cell::Label("em"), Cell::Number(-2e-9)]],
        }];
        let text = results_csv(&readouts, &tables);
        assert_eq!(text, "quantity,value\nN,25\nalpha,inf\n\nweights\nmethod,w\nfast,0.3333333333333333\nem,-2e-9\n");
        let back: f64 = text.lines().nth(6).unwrap().split(',').nth(1).unwrap().parse().unwrap();
        assert_eq!(back, third);
    }
}
