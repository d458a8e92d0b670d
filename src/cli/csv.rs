//! A small reader for numeric CSV files: one header line of column names, then rows of
//! numbers separated by commas. No quoting: a cell is the text between two commas, with
//! surrounding spaces (and double quotes around a header name) removed. Blank lines are
//! skipped; line numbers in messages count every line of the file from 1, the header's
//! included. Where the header is optional ([`Table::read_optional_header`], the inputs of
//! `rvm-lab design`), a first line of numbers is data.

use std::path::Path;

use rvm_lab::error::{Compact, MAX_MAGNITUDE, in_range};
use thiserror::Error as ThisError;

/// What is wrong with a CSV file, naming the file (as given) and the line.
#[derive(Debug, Clone, PartialEq, ThisError)]
pub enum CsvError {
    /// The file could not be read (missing, unreadable, not UTF-8).
    #[error("cannot read {file}: {message}")]
    Read {
        /// The file as given.
        file: String,
        /// The operating system's reason.
        message: String,
    },
    /// Nothing but blank lines.
    #[error("{file}: the file is empty (expected a header line of column names)")]
    Empty {
        /// The file as given.
        file: String,
    },
    /// A header and no rows.
    #[error("{file}: no data rows after the header")]
    NoRows {
        /// The file as given.
        file: String,
    },
    /// A cell that does not parse as a number.
    #[error("{file} line {line}, column {column}: '{cell}' is not a number")]
    NotANumber {
        /// The file as given.
        file: String,
        /// Line number, from 1 (the header is line 1).
        line: usize,
        /// Column number, from 1.
        column: usize,
        /// The cell's text.
        cell: String,
    },
    /// A cell that parses to NaN or ±∞.
    #[error("{file} line {line}, column {column}: '{cell}' is not a finite number")]
    NotFinite {
        /// The file as given.
        file: String,
        /// Line number, from 1.
        line: usize,
        /// Column number, from 1.
        column: usize,
        /// The cell's text.
        cell: String,
    },
    /// A cell beyond the range of numbers the lab reads ([`rvm_lab::error::MAX_MAGNITUDE`]),
    /// the page's rule too.
    #[error("{file} line {line}, column {column}: {cell} is beyond the range the lab reads, -{max} to {max}", max = Compact(MAX_MAGNITUDE))]
    BeyondRange {
        /// The file as given.
        file: String,
        /// Line number, from 1.
        line: usize,
        /// Column number, from 1.
        column: usize,
        /// The cell's text.
        cell: String,
    },
    /// A row whose number of cells differs from the header's.
    #[error("{file} line {line}: {got} cells, but the header names {expected} columns")]
    Ragged {
        /// The file as given.
        file: String,
        /// Line number, from 1.
        line: usize,
        /// Columns in the header.
        expected: usize,
        /// Cells in this row.
        got: usize,
    },
    /// No column named, and no one column to take: several, and not exactly one with the
    /// conventional name.
    #[error(
        "{file} line {line}: which column holds the targets? The file has {available}, and not exactly one is \
         named '{conventional}': name it with --column"
    )]
    WhichColumn {
        /// The file as given.
        file: String,
        /// The header's line number.
        line: usize,
        /// The name taken without --column (`t` for regression, `label` for classes).
        conventional: String,
        /// The header's names, comma-separated.
        available: String,
    },
    /// A column name the header does not have.
    #[error("{file} line {line}: no column named '{name}' (the columns are: {available})")]
    UnknownColumn {
        /// The file as given.
        file: String,
        /// The header's line number.
        line: usize,
        /// The name asked for.
        name: String,
        /// The header's names, comma-separated.
        available: String,
    },
}

/// A numeric table read from a CSV file.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The file as given, for messages.
    pub file: String,
    /// Line number of the header.
    pub header_line: usize,
    /// Column names.
    pub header: Vec<String>,
    /// Rows of numbers, each as long as the header.
    pub rows: Vec<Vec<f64>>,
}

impl Table {
    /// Reads and parses the file at `path`.
    ///
    /// # Errors
    /// [`CsvError::Read`] if it cannot be read, else those of [`Table::parse`].
    pub fn read(path: &Path) -> Result<Self, CsvError> {
        let (file, text) = read_text(path)?;
        Table::parse(&file, &text)
    }

    /// Reads and parses the file at `path`, whose header line is optional
    /// ([`Table::parse_optional_header`]).
    ///
    /// # Errors
    /// As [`Table::read`].
    pub fn read_optional_header(path: &Path) -> Result<Self, CsvError> {
        let (file, text) = read_text(path)?;
        Table::parse_optional_header(&file, &text)
    }

    /// Parses `text`, naming it `file` in messages. A leading byte-order mark (Excel's
    /// "CSV UTF-8") is not part of the header.
    ///
    /// # Errors
    /// [`CsvError::Empty`], [`CsvError::NoRows`], [`CsvError::Ragged`],
    /// [`CsvError::NotANumber`], [`CsvError::NotFinite`], each naming the file and line.
    pub fn parse(file: &str, text: &str) -> Result<Self, CsvError> {
        Table::parse_lines(file, text, false)
    }

    /// As [`Table::parse`], but a first line whose cells all read as numbers is data, not
    /// a header: the columns are then named `x` (one column) or `x1`, `x2`, …, and
    /// `header_line` is 0.
    ///
    /// # Errors
    /// As [`Table::parse`].
    pub fn parse_optional_header(file: &str, text: &str) -> Result<Self, CsvError> {
        Table::parse_lines(file, text, true)
    }

    /// The table of `text`, whose first non-blank line is its header, but when
    /// `header_optional` and its cells all read as numbers.
    fn parse_lines(file: &str, text: &str, header_optional: bool) -> Result<Self, CsvError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines =
            text.lines().enumerate().map(|(i, line)| (i + 1, line)).filter(|(_, l)| !l.trim().is_empty()).peekable();
        let &(first_line, first) = lines.peek().ok_or_else(|| CsvError::Empty { file: file.to_owned() })?;
        let cells = first.split(',');
        let (header_line, header) = if header_optional && cells.clone().all(|cell| cell.trim().parse::<f64>().is_ok()) {
            let names: Vec<String> = match cells.count() {
                1 => vec!["x".to_owned()],
                columns => (1..=columns).map(|i| format!("x{i}")).collect(),
            };
            (0, names)
        } else {
            lines.next();
            (first_line, cells.map(|name| name.trim().trim_matches('"').to_owned()).collect())
        };
        let rows =
            lines.map(|(line, text)| parse_row(file, line, text, header.len())).collect::<Result<Vec<_>, _>>()?;
        if rows.is_empty() {
            return Err(CsvError::NoRows { file: file.to_owned() });
        }
        Ok(Self { file: file.to_owned(), header_line, header, rows })
    }

    /// The index of the column called `name`.
    ///
    /// # Errors
    /// [`CsvError::UnknownColumn`] listing the names there are.
    pub fn column_index(&self, name: &str) -> Result<usize, CsvError> {
        self.header.iter().position(|h| h == name).ok_or_else(|| CsvError::UnknownColumn {
            file: self.file.clone(),
            line: self.header_line,
            name: name.to_owned(),
            available: self.header.join(", "),
        })
    }

    /// The column that holds the targets: the one named `asked`; without a name, the only
    /// column, or else the one named `conventional` (`t`, `label`) if exactly one is. A file
    /// `x,t` read as if its first column were t would fit x with no warning.
    ///
    /// # Errors
    /// [`CsvError::UnknownColumn`] for a name the header lacks; [`CsvError::WhichColumn`],
    /// listing the columns, when no name is given and none can be taken.
    pub fn targets_column(&self, asked: Option<&str>, conventional: &str) -> Result<usize, CsvError> {
        if let Some(name) = asked {
            return self.column_index(name);
        }
        let named: Vec<usize> = (0..self.header.len()).filter(|&j| self.header[j] == conventional).collect();
        match (self.header.len(), named.as_slice()) {
            (1, _) => Ok(0),
            (_, &[j]) => Ok(j),
            _ => Err(CsvError::WhichColumn {
                file: self.file.clone(),
                line: self.header_line,
                conventional: conventional.to_owned(),
                available: self.header.join(", "),
            }),
        }
    }

    /// The values of column `index` (which must exist), top to bottom.
    pub fn column(&self, index: usize) -> Vec<f64> {
        self.rows.iter().filter_map(|row| row.get(index).copied()).collect()
    }
}

/// The file at `path` as given (for messages) and its text.
fn read_text(path: &Path) -> Result<(String, String), CsvError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((file, text)),
        Err(e) => Err(CsvError::Read { file, message: e.to_string() }),
    }
}

/// One data row of `columns` numbers.
fn parse_row(file: &str, line: usize, text: &str, columns: usize) -> Result<Vec<f64>, CsvError> {
    let cells: Vec<&str> = text.split(',').map(str::trim).collect();
    if cells.len() != columns {
        return Err(CsvError::Ragged { file: file.to_owned(), line, expected: columns, got: cells.len() });
    }
    cells.iter().enumerate().map(|(i, cell)| parse_cell(file, line, i + 1, cell)).collect()
}

/// One cell, which must be a number the lab reads ([`in_range`]).
fn parse_cell(file: &str, line: usize, column: usize, cell: &str) -> Result<f64, CsvError> {
    let at = || (file.to_owned(), cell.to_owned());
    match cell.parse::<f64>() {
        Ok(v) if in_range(v) => Ok(v),
        Ok(v) if v.is_finite() => {
            let (file, cell) = at();
            Err(CsvError::BeyondRange { file, line, column, cell })
        }
        Ok(_) => {
            let (file, cell) = at();
            Err(CsvError::NotFinite { file, line, column, cell })
        }
        Err(_) => {
            let (file, cell) = at();
            Err(CsvError::NotANumber { file, line, column, cell })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_table_with_blank_lines_and_crlf() {
        let t = Table::parse("a.csv", "x, \"y\"\r\n1,2\r\n\r\n 3 , -4.5e1\n").unwrap();
        assert_eq!(t.header, ["x", "y"]);
        assert_eq!(t.rows, [vec![1.0, 2.0], vec![3.0, -45.0]]);
        assert_eq!(t.column(t.column_index("y").unwrap()), [2.0, -45.0]);
    }

    #[test]
    fn without_a_name_the_targets_are_the_only_column_or_the_conventional_one() {
        let table = |text: &str| Table::parse("T.csv", text).unwrap();
        assert_eq!(table("y\n1\n").targets_column(None, "t").unwrap(), 0, "the only column");
        assert_eq!(table("x,t\n1,2\n").targets_column(None, "t").unwrap(), 1, "the one named t");
        assert_eq!(table("x,label\n1,0\n").targets_column(None, "label").unwrap(), 1);
        assert_eq!(table("x,t\n1,2\n").targets_column(Some("x"), "t").unwrap(), 0, "as asked");
        let refused =
            |text: &str, conventional| table(text).targets_column(None, conventional).unwrap_err().to_string();
        assert_eq!(
            refused("x,y\n1,2\n", "t"),
            "T.csv line 1: which column holds the targets? The file has x, y, and not exactly one is named 't': \
             name it with --column"
        );
        assert!(refused("t,t\n1,2\n", "t").contains("has t, t"), "two named t");
        assert!(refused("x,t\n1,0\n", "label").contains("named 'label'"), "classes want a label column");
    }

    #[test]
    fn the_header_is_optional_where_asked() {
        let t = Table::parse_optional_header("X.csv", "\n0.5\n1e-3\n").unwrap();
        assert_eq!((t.header_line, t.header.as_slice(), t.column(0)), (0, &["x".to_owned()][..], vec![0.5, 1e-3]));
        let t = Table::parse_optional_header("X.csv", "input\n0.5\n").unwrap();
        assert_eq!((t.header_line, t.header.as_slice(), t.rows.len()), (1, &["input".to_owned()][..], 1));
        let t = Table::parse_optional_header("X.csv", "\u{feff}1,2\n3,4\n").unwrap();
        assert_eq!((t.header, t.rows), (vec!["x1".to_owned(), "x2".to_owned()], vec![vec![1.0, 2.0], vec![3.0, 4.0]]));
        let msg = |text: &str| Table::parse_optional_header("X.csv", text).unwrap_err().to_string();
        assert_eq!(msg("0.5\nabc\n"), "X.csv line 2, column 1: 'abc' is not a number");
        assert_eq!(msg("NaN\n"), "X.csv line 1, column 1: 'NaN' is not a finite number");
        assert_eq!(msg(""), "X.csv: the file is empty (expected a header line of column names)");
        assert_eq!(msg("x\n"), "X.csv: no data rows after the header");
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let msg = |text: &str| Table::parse("PHI.csv", text).unwrap_err().to_string();
        assert_eq!(msg("a,b,c\n1,2,3\n1,2,abc\n"), "PHI.csv line 3, column 3: 'abc' is not a number");
        assert_eq!(msg("a,b\n1,2\n\n1\n"), "PHI.csv line 4: 1 cells, but the header names 2 columns");
        assert_eq!(msg("a\nNaN\n"), "PHI.csv line 2, column 1: 'NaN' is not a finite number");
        assert_eq!(msg(""), "PHI.csv: the file is empty (expected a header line of column names)");
        assert_eq!(msg("a,b\n"), "PHI.csv: no data rows after the header");
        assert_eq!(msg("a\n\n"), "PHI.csv: no data rows after the header");
        let t = Table::parse("T.csv", "t,x\n1,2\n").unwrap();
        assert_eq!(
            t.column_index("y").unwrap_err().to_string(),
            "T.csv line 1: no column named 'y' (the columns are: t, x)"
        );
    }
}
