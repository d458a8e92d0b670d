//! `rvm-lab docs panels`: the URL-key tables of `docs/panels.md`, written from the panels
//! themselves, so that the reference cannot drift from the code.
//!
//! Each panel's table lists its controls as the page builds them — the parameter list the
//! panel declares ([`PanelModel::describe`]: key, control, range or choices), each value of
//! a panel opened with its defaults ([`PanelModel::value`]) and the label the page shows
//! beside the control (`param.<key>` and `choice.<option>` in `www/strings/en.js`, with the
//! panel's own `www/strings/en/<panel>.js` over it, as the page merges them) — then the keys
//! the panel reads from the URL that have no control ([`UNSEEN`]: which of them a panel
//! takes is asked of the panel). A table sits between `<!-- keys:<panel> begin -->` and
//! `<!-- keys:<panel> end -->`; the hand-written text around it is kept as it is.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use rvm_lab::app::centres::CENTRES_KEY;
use rvm_lab::app::lesson::HIGHLIGHT_KEY;
use rvm_lab::app::settings::POINTS_KEY;
use rvm_lab::app::{Control, PANELS, PanelModel, ParamSpec, open_panel};
use rvm_lab::error::Compact;

use super::CliError;

/// The reference this command keeps, relative to the repository.
pub const PANELS_DOC: &str = "docs/panels.md";

/// The command that rewrites it, as the check's message names it.
pub const FIX: &str = "cargo run -- docs panels";

/// The parsed command line of `rvm-lab docs panels`.
#[derive(Debug, Clone, PartialEq)]
pub struct DocsArgs {
    /// The repository's folder (the current one by default).
    pub root: PathBuf,
    /// Only compare: write nothing, and fail if the file is not what the code generates.
    pub check: bool,
}

/// A key a panel reads from the URL that no control shows.
struct Unseen {
    /// The key.
    key: &'static str,
    /// What it sets.
    sets: &'static str,
    /// Its form in the URL (an example of the panel's own is added for points).
    form: &'static str,
}

/// Every key without a control that some panel reads; each panel's table lists those the
/// panel knows, and a key of a panel's URL that is neither a control nor here stops the
/// generator.
const UNSEEN: [Unseen; 4] = [
    Unseen {
        key: POINTS_KEY,
        sets: "data points added by hand: a click on the chart, the add-point form, a drag, a paste",
        form: "a list of points, each its coordinates joined by `:`",
    },
    Unseen {
        key: CENTRES_KEY,
        sets: "basis centres dragged by hand (j counts the functions after the bias)",
        form: "`j:μ,…`, e.g. `2:0.35`",
    },
    Unseen {
        key: HIGHLIGHT_KEY,
        sets: "the basis function φₘ drawn highlighted, with its λ(α) beside (a lesson's `highlight`)",
        form: "whole number m, or `none`",
    },
    Unseen {
        key: "start",
        sets: "where the runs start: a click on the chart (the evidence surface's (ln α, ln β); gradient descent's (w₀, w₁) when M = 2)",
        form: "two numbers joined by `:`",
    },
];

/// The point a panel is asked to take, to show its `points` form.
const EXAMPLE_POINT: (f64, f64) = (0.25, 1.0);

/// Runs `rvm-lab docs panels`: the message to print.
///
/// # Errors
/// [`CliError::Docs`] if a file cannot be read or written, a panel has no block, or (with
/// `--check`) the committed file differs from what the code generates.
pub fn run(args: &DocsArgs) -> Result<String, CliError> {
    let path = args.root.join(PANELS_DOC);
    let committed = read(&path)?;
    let generated = regenerate(&committed, &args.root)?;
    if generated == committed {
        return Ok(format!("{PANELS_DOC} is up to date"));
    }
    if args.check {
        let block = first_differing_block(&committed, &generated).unwrap_or("(outside the blocks)");
        return Err(CliError::Docs(format!(
            "{PANELS_DOC} is not what the panels generate (first difference: keys:{block}); run `{FIX}` to update it"
        )));
    }
    fs::write(&path, generated).map_err(|e| CliError::Docs(format!("cannot write {}: {e}", path.display())))?;
    Ok(format!("{PANELS_DOC} updated"))
}

/// `doc` with every panel's block written anew from the panels and the strings under `root`.
///
/// # Errors
/// [`CliError::Docs`] for a missing block, strings file or panel.
pub fn regenerate(doc: &str, root: &Path) -> Result<String, CliError> {
    let mut out = doc.to_owned();
    for entry in PANELS {
        let words = Words::of_panel(root, entry.name)?;
        let mut panel = open_panel(entry.name).map_err(|e| CliError::Docs(format!("panel {}: {e}", entry.name)))?;
        out = replace_block(&out, entry.name, &key_table(panel.as_mut(), &words)?)?;
    }
    Ok(out)
}

/// The name of the first block whose text differs between `a` and `b`.
fn first_differing_block<'a>(a: &str, b: &str) -> Option<&'a str> {
    PANELS.iter().map(|entry| entry.name).find(|name| block(a, name) != block(b, name))
}

/// The markers around panel `name`'s block.
fn markers(name: &str) -> (String, String) {
    (format!("<!-- keys:{name} begin -->\n"), format!("<!-- keys:{name} end -->"))
}

/// The text between panel `name`'s markers, if both are there.
fn block<'d>(doc: &'d str, name: &str) -> Option<&'d str> {
    let (begin, end) = markers(name);
    let start = doc.find(&begin)? + begin.len();
    let length = doc[start..].find(&end)?;
    Some(&doc[start..start + length])
}

/// `doc` with the text between panel `name`'s markers replaced by `body`.
///
/// # Errors
/// [`CliError::Docs`] if the markers are not both there, in order.
fn replace_block(doc: &str, name: &str, body: &str) -> Result<String, CliError> {
    let old = block(doc, name).ok_or_else(|| {
        let (begin, end) = markers(name);
        CliError::Docs(format!("{PANELS_DOC} has no block `{}` … `{end}` for panel {name}", begin.trim_end()))
    })?;
    // `old` is a slice of `doc`: its offset places the replacement.
    let start = old.as_ptr() as usize - doc.as_ptr() as usize;
    Ok(format!("{}{body}{}", &doc[..start], &doc[start + old.len()..]))
}

/// The table of `panel`'s URL keys: its controls, then the keys it reads without one.
///
/// # Errors
/// [`CliError::Docs`] if the panel's URL holds a key that is neither a control nor in
/// [`UNSEEN`].
fn key_table(panel: &mut dyn PanelModel, words: &Words) -> Result<String, CliError> {
    let params = panel.describe().params;
    let described = |key: &str| params.iter().any(|p| p.key == key) || UNSEEN.iter().any(|u| u.key == key);
    if let Some((key, _)) = panel.query().into_iter().find(|(key, _)| !described(key)) {
        let name = panel.describe().name;
        return Err(CliError::Docs(format!(
            "panel {name} reads the URL key `{key}`, which has no control: describe it in UNSEEN (src/cli/docs.rs)"
        )));
    }
    let mut table = String::from("| key | what it sets | range or choices | default |\n|---|---|---|---|\n");
    for spec in params.iter().copied() {
        let default = default_text(panel, &spec);
        let row = [format!("`{}`", spec.key), words.label(&spec), range_text(&spec.control, words), default];
        table.push_str(&table_row(&row));
    }
    let read: Vec<&Unseen> = UNSEEN.iter().filter(|unseen| reads_key(panel, unseen.key)).collect();
    for unseen in read {
        let default = panel.value(unseen.key).filter(|v| !v.is_empty()).map_or("none".to_owned(), |v| format!("`{v}`"));
        let row = [format!("`{}`", unseen.key), unseen.sets.to_owned(), form_text(panel, unseen), default];
        table.push_str(&table_row(&row));
    }
    Ok(table)
}

/// Whether `panel` reads `key`: whether it takes an empty value for it (no points, no moved
/// centre, no highlight: the defaults, so the panel stays as it was) rather than refusing
/// the key as unknown.
fn reads_key(panel: &mut dyn PanelModel, key: &str) -> bool {
    panel.set(key, "").map_or_else(|e| e.code() != "unknown-parameter", |()| true)
}

/// An unseen key's form; for points, with the form of the panel's own (a point added to a
/// copy opened afresh).
fn form_text(panel: &dyn PanelModel, unseen: &Unseen) -> String {
    if unseen.key != POINTS_KEY {
        return unseen.form.to_owned();
    }
    let example = open_panel(panel.describe().name).ok().and_then(|mut copy| {
        copy.add_point(EXAMPLE_POINT.0, EXAMPLE_POINT.1).ok()?;
        copy.value(POINTS_KEY)
    });
    match example {
        Some(text) => format!("{}, e.g. `{text}`", unseen.form),
        None => unseen.form.to_owned(),
    }
}

/// The default of `spec` on `panel` (opened with its defaults), marked when the page greys
/// it out in that state.
fn default_text(panel: &dyn PanelModel, spec: &ParamSpec) -> String {
    let value = panel.value(spec.key).unwrap_or_default();
    if panel.is_active(spec.key) { format!("`{value}`") } else { format!("`{value}` (greyed out)") }
}

/// What a control admits, in words.
fn range_text(control: &Control, words: &Words) -> String {
    match *control {
        Control::Choice { options } => options.iter().map(|option| words.choice(option)).collect::<Vec<_>>().join("; "),
        Control::Integer { min, max } => format!("whole number {min} – {max}"),
        Control::Steps { min, max, presets } => {
            let presets = presets.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
            let buttons = if presets.is_empty() { String::new() } else { format!("; buttons {presets}") };
            format!("whole number {min} – {max}{buttons}")
        }
        Control::Toggle => "`1` on, `0` off".to_owned(),
        Control::Real { min, max, log } => {
            let scale = if log { ", log scale" } else { "" };
            format!("number; slider {} – {}{scale}", Compact(min), Compact(max))
        }
        Control::Text { max_len, presets } => {
            let presets = presets.iter().map(|(_, text)| format!("`{text}`")).collect::<Vec<_>>().join(", ");
            format!("a formula in x, mu, s, j, K, at most {max_len} characters; buttons {presets}")
        }
    }
}

/// One row of a Markdown table, each cell's `|` escaped.
fn table_row(cells: &[String]) -> String {
    let cells: Vec<String> = cells.iter().map(|cell| cell.replace('|', "\\|")).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// The page's English words for one panel: the language's strings with the panel's own over
/// them, as the page merges them (`www/i18n.js`).
struct Words(BTreeMap<String, String>);

impl Words {
    /// Reads `www/strings/en.js`, `www/strings/en/formula.js` and, if there is one,
    /// `www/strings/en/<panel>.js` under `root`.
    ///
    /// # Errors
    /// [`CliError::Docs`] if `en.js` cannot be read.
    fn of_panel(root: &Path, panel: &str) -> Result<Self, CliError> {
        let strings = root.join("www/strings");
        let mut words = parse_strings(&read(&strings.join("en.js"))?);
        // The panel's own words, and the formula family's (which load with the formula module).
        for own in [panel, "formula"] {
            if let Ok(own) = fs::read_to_string(strings.join(format!("en/{own}.js"))) {
                words.extend(parse_strings(&own));
            }
        }
        Ok(Self(words))
    }

    /// The label of a control (`param.<key>`), or its symbol if the strings have none.
    fn label(&self, spec: &ParamSpec) -> String {
        self.0.get(&format!("param.{}", spec.key)).cloned().unwrap_or_else(|| spec.symbol.to_owned())
    }

    /// A choice as the URL takes it, with the words of its menu entry (`choice.<option>`).
    fn choice(&self, option: &str) -> String {
        match self.0.get(&format!("choice.{option}")) {
            Some(words) if words != option => format!("`{option}` {words}"),
            _ => format!("`{option}`"),
        }
    }
}

/// The `'key': 'value'` pairs of a strings file (an object literal of single- or
/// double-quoted strings, `//` comments between them).
fn parse_strings(source: &str) -> BTreeMap<String, String> {
    let mut pairs = BTreeMap::new();
    let mut pending_key = None;
    let mut rest = source;
    while let Some((literal, after)) = next_literal(rest) {
        rest = after;
        if after.trim_start().starts_with(':') {
            pending_key = Some(literal);
        } else if let Some(key) = pending_key.take() {
            pairs.insert(key, literal);
        }
    }
    pairs
}

/// The next string literal of `source` (skipping `//` comments) and the text after it.
fn next_literal(source: &str) -> Option<(String, &str)> {
    for (at, c) in source.char_indices() {
        match c {
            '/' if source[at..].starts_with("//") => {
                let end = source[at..].find('\n').map_or(source.len(), |n| at + n);
                return next_literal(&source[end..]);
            }
            '\'' | '"' => return read_literal(&source[at + 1..], c),
            _ => {}
        }
    }
    None
}

/// The literal that starts `text` (just after its opening `quote`), its escapes undone, and
/// the text after its closing quote.
fn read_literal(text: &str, quote: char) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?.1),
            c if c == quote => return Some((value, &text[at + 1..])),
            c => value.push(c),
        }
    }
    None
}

/// The text of `path`.
///
/// # Errors
/// [`CliError::Docs`] naming the file.
fn read(path: &Path) -> Result<String, CliError> {
    fs::read_to_string(path).map_err(|e| CliError::Docs(format!("cannot read {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_read_as_the_page_reads_them() {
        let source = "// a comment: 'not': 'this'\nexport default {\n  'param.a': 'Width s',\n  'param.b':\n    \"it\\'s \\\"q\\\"\",\n};\n";
        let words = parse_strings(source);
        assert_eq!(words.get("param.a").map(String::as_str), Some("Width s"));
        assert_eq!(words.get("param.b").map(String::as_str), Some("it's \"q\""));
        assert_eq!(words.len(), 2);
    }

    #[test]
    fn a_block_is_replaced_between_its_markers_only() {
        let doc = "intro\n<!-- keys:basis begin -->\nold\n<!-- keys:basis end -->\nafter\n";
        let new = replace_block(doc, "basis", "new\n").unwrap();
        assert_eq!(new, "intro\n<!-- keys:basis begin -->\nnew\n<!-- keys:basis end -->\nafter\n");
        assert_eq!(block(&new, "basis"), Some("new\n"));
        assert!(matches!(replace_block(doc, "evidence", ""), Err(CliError::Docs(_))));
    }

    #[test]
    fn cells_escape_the_table_bar() {
        assert_eq!(table_row(&["a".into(), "p(t|α)".into()]), "| a | p(t\\|α) |\n");
    }

    #[test]
    fn which_unseen_keys_a_panel_reads() {
        let mut fast = open_panel("fast-rvm").unwrap();
        let mut evidence = open_panel("evidence").unwrap();
        let reads = |panel: &mut dyn PanelModel| -> Vec<&str> {
            UNSEEN.iter().map(|unseen| unseen.key).filter(|key| reads_key(panel, key)).collect()
        };
        assert_eq!(reads(fast.as_mut()), [POINTS_KEY, CENTRES_KEY, HIGHLIGHT_KEY]);
        assert_eq!(reads(evidence.as_mut()), [POINTS_KEY, "start"]);
    }
}
