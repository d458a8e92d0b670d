#![cfg(not(target_arch = "wasm32"))]
//! What a panel's CSV exports and its chart's words say of the state they come from: on
//! every panel with a basis menu, a typed formula is named by the chart's description and
//! by both CSV exports ("Save results", "Save plotted data"), and the state section of an
//! export opens the same panel again.
//!
//! Where the expected values come from: the formula and the settings set here; the state
//! section read back by a CSV field reader written here from RFC 4180 §2 (not the writer
//! under test), and judged by opening a fresh panel at it and comparing everything it
//! exports with the original's.

use rvm_lab::app::panel::{plotted_data_csv, results_csv};
use rvm_lab::app::{Control, PanelModel, Sentence, Word, names, open_panel};

/// A Laplace bump written with `max` (its commas must be quoted in a CSV field) and a `"`
/// nowhere: `exp(−|x − μ|/s)`.
const FORMULA: &str = "exp(-max(x-mu,mu-x)/s)";

/// The panels whose basis menu offers the formula family.
fn panels_with_a_formula() -> Vec<&'static str> {
    names()
        .filter(|&name| {
            let panel = open_panel(name).unwrap();
            panel.describe().params.iter().any(|p| {
                p.key == "basis" && matches!(p.control, Control::Choice { options } if options.contains(&"formula"))
            })
        })
        .collect()
}

fn with_formula(name: &str) -> Box<dyn PanelModel> {
    let mut panel = open_panel(name).unwrap();
    let pairs = [("basis", "formula"), ("formula", FORMULA), ("M", "7")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let notices = panel.apply_query(&pairs);
    assert!(notices.is_empty(), "{name}: {notices:?}");
    panel
}

/// The fields of one CSV line (RFC 4180 §2.5–2.7: a quoted field may hold commas, and `""`
/// inside it is one `"`).
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted, mut chars) = (vec![], String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', false) if field.is_empty() => quoted = true,
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            (',', false) => out.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    out.push(field);
    out
}

/// The `state` section, the file's last, as (key, value) pairs.
fn state_section(csv: &str) -> Vec<(String, String)> {
    let section = csv.trim_end().rsplit("\n\n").next().unwrap();
    let mut lines = section.lines();
    assert_eq!(lines.next(), Some("state"), "the last section is the state:\n{csv}");
    assert_eq!(lines.next(), Some("key,value"));
    lines
        .map(|line| match fields(line).as_slice() {
            [key, value] => (key.clone(), value.clone()),
            other => panic!("not a key and a value: {other:?} in {line}"),
        })
        .collect()
}

/// `csv` without its `time-ms` columns (the methods' wall-clock times, never twice the same).
fn timeless(csv: &str) -> String {
    let mut out = String::new();
    for section in csv.split("\n\n") {
        let mut lines = section.lines();
        let caption = lines.next().unwrap_or_default();
        let headings = lines.next().unwrap_or_default();
        let timed = headings.split(',').position(|h| h == "time-ms");
        let keep = |line: &str| -> String {
            let cells = line.split(',').enumerate().filter(|&(i, _)| Some(i) != timed);
            cells.map(|(_, cell)| cell).collect::<Vec<_>>().join(",")
        };
        out.push_str(&format!("{caption}\n{}\n", keep(headings)));
        for line in lines {
            out.push_str(&keep(line));
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[test]
fn every_panel_with_a_basis_offers_the_formula() {
    let panels = panels_with_a_formula();
    for name in ["basis", "least-squares", "gradient-descent", "regularisation", "predictive", "evidence", "fast-rvm"] {
        assert!(panels.contains(&name), "{name} in {panels:?}");
    }
}

#[test]
fn a_typed_formula_is_named_by_the_charts_description_on_every_panel_with_a_basis() {
    let sentence = Sentence::new("basis-formula", [("formula", Word::Text(FORMULA.to_owned()))]);
    for name in panels_with_a_formula() {
        let summary = with_formula(name).report().summary;
        assert_eq!(summary.iter().filter(|s| **s == sentence).count(), 1, "{name}: {summary:?}");
        let without = open_panel(name).unwrap().report().summary;
        assert!(without.iter().all(|s| s.key != "basis-formula"), "{name} with its default basis: {without:?}");
    }
}

#[test]
fn both_csv_exports_end_with_the_state_that_opens_the_panel_again() {
    for name in panels_with_a_formula() {
        let panel = with_formula(name);
        let results = results_csv(panel.as_ref(), false);
        let plotted = plotted_data_csv(panel.as_ref());
        let state = state_section(&results);
        assert_eq!(state, state_section(&plotted), "{name}: both exports carry one state");
        assert_eq!(state[0], ("panel".to_owned(), name.to_owned()));
        assert!(state.contains(&("formula".to_owned(), FORMULA.to_owned())), "{name}: {state:?}");
        assert!(results.contains(&format!("\nformula,\"{FORMULA}\"\n")), "{name}: the formula's commas are quoted");
        // The state read back opens a panel whose exports are the same, byte for byte (but
        // for the time each method took).
        let mut again = open_panel(name).unwrap();
        let notices = again.apply_query(&state[1..]);
        assert!(notices.is_empty(), "{name}: {notices:?}");
        assert_eq!(timeless(&results_csv(again.as_ref(), false)), timeless(&results), "{name}");
        assert_eq!(plotted_data_csv(again.as_ref()), plotted, "{name}");
    }
}

#[test]
fn a_field_with_a_quote_or_a_line_break_is_quoted_and_reads_back() {
    let pairs =
        [("note", "say \"hi\", twice"), ("lines", "a\nb"), ("plain", "0.5")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let text = rvm_lab::app::report::with_state("quantity,value\nN,3.0\n".to_owned(), "basis", &pairs);
    assert_eq!(
        text,
        "quantity,value\nN,3.0\n\nstate\nkey,value\npanel,basis\nnote,\"say \"\"hi\"\", twice\"\nlines,\"a\nb\"\nplain,0.5\n"
    );
    assert_eq!(fields("note,\"say \"\"hi\"\", twice\""), ["note", "say \"hi\", twice"]);
}
