#![cfg(not(target_arch = "wasm32"))]
//! Fuzzed parsers (issue 18, item 2): property tests of every reader of text the user
//! controls — the URL state of every panel, the page's CSV reader (pasted or dropped data,
//! `x,t` and `x1,x2,class`) and the command line's CSV reader. Each property asserts that
//! the reader never panics, that it gives a value or a typed error (one naming a line, for
//! CSV), and that what the lab prints (a panel's query, a saved CSV) reads back to the same
//! thing: print → parse → print is a fixed point, and numbers come back bit for bit.
//! (The lesson-file validator is JavaScript: tests/e2e/lesson_fuzz.test.mjs.) The typed
//! formula of a basis (`basis::Formula`, issue 35) is fuzzed the same way: any text, and
//! text made of its own tokens, never panics and any error names a character of the text;
//! its canonical text reads back to the same formula with the same values.
//!
//! Every property runs from a fixed seed with a modest number of cases, so a run does not
//! depend on the clock and stays a few seconds long; sizes (N, M, epochs, frames) in the
//! valid strategies are kept small, since each case computes a panel.

use std::sync::LazyLock;

use plotters::prelude::IntoDrawingArea;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rvm_lab::Error;
use rvm_lab::app::{Control, Description, PANELS, PanelModel, ParamSpec, open_panel};
use rvm_lab::backend::PageBackend;
use rvm_lab::basis::{Basis, BasisSpec, Family, Formula, MAX_FORMULA_LEN};
use rvm_lab::data::parse_rows;
use rvm_lab::error::{Compact, FormulaProblem, MAX_MAGNITUDE, in_range};
use rvm_lab::palette::Look;
use rvm_lab::plot::Labels;

/// The command line's CSV reader, compiled here as it is in the `rvm-lab` binary (the
/// binary's modules are not part of the library). Its own unit tests run here too.
#[allow(dead_code)]
#[path = "../src/cli/csv.rs"]
mod cli_csv;

use cli_csv::{CsvError, Table};

/// A fixed seed and `cases` cases, nothing written to disk on failure (the failing case
/// is printed, and goes into this file as a regression test). To fuzz longer by hand, set
/// `PROPTEST_CASES` (cases per property) and/or `PROPTEST_RNG_SEED` (a number): e.g.
/// `PROPTEST_CASES=20000 PROPTEST_RNG_SEED=7 cargo test --release --test fuzz_parsers`.
fn config(cases: u32, seed: u64) -> ProptestConfig {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    ProptestConfig {
        cases: from_env("PROPTEST_CASES").map_or(cases, |n| n as u32),
        rng_seed: RngSeed::Fixed(from_env("PROPTEST_RNG_SEED").unwrap_or(seed)),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// `(key, value)` pairs as the page hands them over.
fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|&(k, v)| (k.to_owned(), v.to_owned())).collect()
}

// ---------------------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------------------

/// Values no control offers: non-numbers, non-finite numbers, signed zeros, extremes,
/// integers past u64, negative sizes, markup, unicode digits, separators of the URL's own
/// lists, empty and blank text.
const NASTY: &[&str] = &[
    "",
    " ",
    "\t",
    "0",
    "-0",
    "+0",
    "0.0",
    "-0.0",
    "1",
    "2",
    "-1",
    "3.5",
    " 7 ",
    "1e308",
    "-1e308",
    "1e309",
    "1e-308",
    "5e-324",
    "NaN",
    "nan",
    "-NaN",
    "inf",
    "-inf",
    "Infinity",
    "-infinity",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "-9223372036854775808",
    "0x10",
    "1_000",
    "1,5",
    "1.5.5",
    "½",
    "٣",
    "３",
    "💥",
    "\u{0}",
    "\u{feff}1",
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "%00",
    "&N=5",
    "true",
    "off",
    "none",
    "polynomial",
    "gaussian",
    "kernel",
    "ripley",
    "triangle",
    "greedy",
    "custom",
    "fig-7-11-right",
    ":",
    "::",
    ",",
    ",,,",
    "1:2",
    "1:2:3",
    "1:2:9",
    "0.5:0.5,0.5:0.5",
    "0.5:NaN",
    "inf:0",
    "1e308:1e308",
    "-5:0.5",
    "99:0.5",
    "0:-0",
    "0.1:0.2:0,0.3:0.4:1",
    "0.1:0.2:-1",
];

/// Keys without a control that some panel reads from the URL, the page's own key, and
/// near misses.
const HIDDEN_KEYS: &[&str] =
    &["points", "step", "centres", "start", "highlight", "class", "panel", "n", "M ", "", "ALPHA", "<b>"];

/// Every panel's description, opened once.
static DESCRIPTIONS: LazyLock<Vec<Description>> = LazyLock::new(|| {
    PANELS
        .iter()
        .map(|entry| (entry.open)(&[], &mut vec![]).expect("every panel's defaults compute").describe())
        .collect()
});

/// Every key any panel has, and the hidden ones.
fn all_keys() -> Vec<String> {
    let mut keys: Vec<String> = HIDDEN_KEYS.iter().map(|&k| k.to_owned()).collect();
    for description in DESCRIPTIONS.iter() {
        for spec in &description.params {
            if !keys.iter().any(|k| k == spec.key) {
                keys.push(spec.key.to_owned());
            }
        }
    }
    keys
}

/// A number as text, any f64 (NaN and ±∞ included).
fn any_number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u128>().prop_map(|v| v.to_string()),
        (-1e6f64..1e6).prop_map(|v| format!("{v:e}")),
    ]
}

/// A hostile value: a nasty one, any number, any text, a list of such (`a:b,…`), or a
/// very long one.
fn hostile_value() -> impl Strategy<Value = String> {
    let part = prop_oneof![prop::sample::select(NASTY).prop_map(str::to_owned), any_number()];
    prop_oneof![
        4 => prop::sample::select(NASTY).prop_map(str::to_owned),
        2 => any_number(),
        2 => any::<String>(),
        2 => prop::collection::vec((part.clone(), part.clone()), 0..6).prop_map(|pairs| {
            pairs.into_iter().map(|(a, b)| format!("{a}:{b}")).collect::<Vec<_>>().join(",")
        }),
        1 => (prop::sample::select(NASTY), 100..5_000usize).prop_map(|(text, n)| text.repeat(n)),
    ]
}

/// A hostile key: any panel's key (most of the time), or any text.
fn hostile_key() -> impl Strategy<Value = String> {
    prop_oneof![4 => prop::sample::select(all_keys()), 1 => any::<String>()]
}

/// A valid value of `spec`, kept small where the size drives the work (N, M, epochs,
/// frames): integers from the bottom of the range, reals anywhere on the slider, printed as
/// the panel prints them (`{}` of the number, which reads back exactly).
fn valid_value(spec: &ParamSpec) -> BoxedStrategy<String> {
    match spec.control {
        Control::Choice { options } => prop::sample::select(options).prop_map(str::to_owned).boxed(),
        Control::Integer { min, max } => (min..=max.min(min + 30)).prop_map(|v| v.to_string()).boxed(),
        Control::Steps { min, max, .. } => (min..=max.min(min + 20)).prop_map(|v| v.to_string()).boxed(),
        Control::Toggle => prop::sample::select(&["0", "1"][..]).prop_map(str::to_owned).boxed(),
        // Written as the lab writes numbers (exponent form below 1e-5), so they read back.
        Control::Real { min, max, log: false } => (min..=max).prop_map(|v| Compact(v).to_string()).boxed(),
        Control::Real { min, max, log: true } => {
            (min.log10()..=max.log10()).prop_map(|e| Compact(10f64.powf(e)).to_string()).boxed()
        }
        Control::Text { presets, .. } => prop::sample::select(presets).prop_map(|(_, text)| text.to_owned()).boxed(),
    }
}

/// A coordinate rounded to `decimals` decimals (as a clicked point is), printed.
fn coordinate(decimals: i32) -> impl Strategy<Value = String> {
    let scale = 10f64.powi(decimals);
    (-20_000i64..=20_000).prop_map(move |k| Compact(k as f64 / scale).to_string())
}

/// Valid `points=` text for a panel: `x:t,…` (four decimals; t a whole count for a panel of
/// counts) for regression, `x₁:x₂:class,…` (three decimals) for `classes` classes.
fn valid_points(classes: Option<usize>, counts: bool) -> BoxedStrategy<String> {
    let list = |points: Vec<String>| points.join(",");
    match classes {
        None if counts => prop::collection::vec((coordinate(4), 0u64..40), 0..6)
            .prop_map(move |p| list(p.into_iter().map(|(x, t)| format!("{x}:{t}")).collect()))
            .boxed(),
        None => prop::collection::vec((coordinate(4), coordinate(4)), 0..6)
            .prop_map(move |p| list(p.into_iter().map(|(x, t)| format!("{x}:{t}")).collect()))
            .boxed(),
        Some(k) => prop::collection::vec((coordinate(3), coordinate(3), 0..k), 0..6)
            .prop_map(move |p| list(p.into_iter().map(|(a, b, c)| format!("{a}:{b}:{c}")).collect()))
            .boxed(),
    }
}

/// The number of classes of a classification panel (the options of its `class` control).
fn classes(description: &Description) -> Option<usize> {
    description.params.iter().find_map(|spec| match spec.control {
        Control::Choice { options } if spec.key == "class" => Some(options.len()),
        _ => None,
    })
}

/// A panel and a valid state for it: some of its parameters (each at most once, in the
/// panel's order) and, for a panel that takes points, some points.
fn valid_state() -> impl Strategy<Value = (usize, Vec<(String, String)>)> {
    (0..PANELS.len()).prop_flat_map(|i| {
        let description = &DESCRIPTIONS[i];
        let params: Vec<_> = description
            .params
            .iter()
            .map(|spec| {
                let key = spec.key.to_owned();
                prop::option::of(valid_value(spec).prop_map(move |v| (key.clone(), v)))
            })
            .collect();
        let points = if description.takes_points {
            let points = valid_points(classes(description), description.layout.counts);
            prop::option::of(points.prop_map(|p| ("points".to_owned(), p))).boxed()
        } else {
            Just(None).boxed()
        };
        (Just(i), params, points)
            .prop_map(|(i, params, points)| (i, within_the_run(params.into_iter().chain([points]).flatten().collect())))
    })
}

/// `pairs` with a count of the run's points (the sequential panel's `k`) at most the N given
/// beside it: a larger one is refused, as the run has no such point.
fn within_the_run(mut pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    let n = pairs.iter().find(|(key, _)| key == "N").and_then(|(_, value)| value.parse::<u64>().ok());
    for (key, value) in &mut pairs {
        if let (true, Some(n), Ok(k)) = (key == "k", n, value.parse::<u64>()) {
            *value = k.min(n).to_string();
        }
    }
    pairs
}

// ---------------------------------------------------------------------------------------
// The URL state.
// ---------------------------------------------------------------------------------------

/// Keys naming a preset that the values set after it override by design (the λ(α) curve's
/// `case` reads `custom` once q² or s differ from the case's): their own value need not
/// read back, only the state's query.
const PRESETS: &[&str] = &["case"];

/// Panel `i` with its defaults.
fn open(i: usize) -> Box<dyn PanelModel> {
    open_panel(PANELS[i].name).expect("every panel's defaults compute")
}

/// The panel drawn into an SVG document, as the page draws it onto its canvas.
fn svg_of(panel: &dyn PanelModel) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let root = PageBackend::svg(&mut svg, (900, 600), Look::Screen).into_drawing_area();
        panel.draw(&root, 1.0, &Labels::default())?;
    }
    Ok(svg)
}

/// Asserts that `query`, applied to a fresh panel `i`, is taken without a notice and
/// prints itself again: the URL of a state is a fixed point of print → parse → print.
fn assert_query_is_a_fixed_point(i: usize, query: &[(String, String)]) -> Result<(), TestCaseError> {
    let name = PANELS[i].name;
    let mut again = open(i);
    let notices = again.apply_query(query);
    prop_assert!(notices.is_empty(), "{name}: its own query {query:?} gave notices {notices:?}");
    prop_assert_eq!(again.query(), query.to_vec(), "{}: print → parse → print moved", name);
    Ok(())
}

proptest! {
    #![proptest_config(config(256, 20_261_801))]

    /// Any pairs on any panel — any panel's keys or any text, hostile values, repeated
    /// keys, any order — never panic: each unusable pair is a notice naming its key (a
    /// whole that does not compute, a notice with no key), every notice says something,
    /// and the state the panel ends in prints a query that reads back to itself.
    #[test]
    fn url_state_takes_anything_and_prints_a_fixed_point(
        i in 0..PANELS.len(),
        pairs in prop::collection::vec((hostile_key(), hostile_value()), 0..8),
    ) {
        let name = PANELS[i].name;
        let mut panel = open(i);
        let notices = panel.apply_query(&pairs);
        for notice in &notices {
            prop_assert!(
                notice.key.is_empty() || pairs.iter().any(|(key, _)| *key == notice.key),
                "{name}: a notice for a key not given: {notice:?}"
            );
            prop_assert!(!notice.error.to_string().is_empty() && !notice.error.code().is_empty());
        }
        // Whatever state the parser let through, the panel reports it and draws it (a
        // drawing refused is a typed error, never a hang or a panic).
        let _ = panel.report();
        let _ = panel.plotted();
        if let Err(error) = svg_of(panel.as_ref()) {
            prop_assert!(!error.to_string().is_empty() && !error.code().is_empty());
        }
        assert_query_is_a_fixed_point(i, &panel.query())?;
    }

    /// Values each control offers (small sizes), and valid `points=` lists (four decimals
    /// for x:t, three and a class for x₁:x₂:class) are all taken — no notice naming a key
    /// — and, when the whole computes, each reads back exactly as given, and the state's
    /// query is a fixed point.
    #[test]
    fn url_state_valid_values_round_trip_exactly((i, pairs) in valid_state()) {
        let name = PANELS[i].name;
        let mut panel = open(i);
        let notices = panel.apply_query(&pairs);
        prop_assert!(notices.iter().all(|n| n.key.is_empty()), "{name}: {pairs:?} refused: {notices:?}");
        if notices.is_empty() {
            for (key, text) in pairs.iter().filter(|(key, _)| !PRESETS.contains(&key.as_str())) {
                prop_assert_eq!(panel.value(key), Some(text.clone()), "{} {}", name, key);
            }
        }
        assert_query_is_a_fixed_point(i, &panel.query())?;
    }
}

proptest! {
    #![proptest_config(config(128, 20_261_802))]

    /// Points placed by hand (the pointer or the add-point form, any finite coordinates)
    /// are rounded as the URL holds them, and the URL gives the same points back, bit for
    /// bit.
    #[test]
    fn placed_points_survive_the_url(
        i in 0..PANELS.len(),
        points in prop::collection::vec((-1e3f64..1e3, -1e3f64..1e3), 1..4),
    ) {
        prop_assume!(DESCRIPTIONS[i].takes_points);
        let mut panel = open(i);
        for &(x, y) in &points {
            // A point far out may make the model refuse; that is a typed error, and the
            // panel keeps its last good state.
            let _ = panel.add_point(x, y);
        }
        let mut again = open(i);
        prop_assert!(again.apply_query(&panel.query()).is_empty());
        let bits = |p: Vec<(f64, f64)>| p.into_iter().map(|(x, y)| (x.to_bits(), y.to_bits())).collect::<Vec<_>>();
        prop_assert_eq!(bits(again.points()), bits(panel.points()));
        prop_assert_eq!(again.query(), panel.query());
    }
}

/// Failing cases found by the properties above, kept as examples.
#[test]
fn url_state_regressions() {
    for i in 0..PANELS.len() {
        let mut panel = open(i);
        panel.apply_query(&owned(&[("N", "-0"), ("points", "1e308:1e308"), ("noise", "1e308")]));
        assert_query_is_a_fixed_point(i, &panel.query()).unwrap();
    }
    // A state with a coordinate near f64::MAX (the sparsity panel's t₁ = 1e308, the fast
    // RVM's data with σ = 6.6e136) made an axis range of infinite width, on which plotters'
    // search for ticks never ended: the page froze while drawing. Either the URL refuses
    // such a value or the drawing does, with a typed error (src/plot/mod.rs, `axes`).
    for (name, pairs) in [("sparsity", &[("t1", "1e308")][..]), ("fast-rvm", &[("noise", "6.6e136")][..])] {
        let i = PANELS.iter().position(|entry| entry.name == name).unwrap();
        let mut panel = open(i);
        if panel.apply_query(&owned(pairs)).is_empty() {
            assert_eq!(svg_of(panel.as_ref()).unwrap_err().code(), "not-finite", "{name} {pairs:?}");
        }
    }
    // The λ(α) curve's `case=custom` with the left case's values printed `case=custom`,
    // which read back as `case=fig-7-11-left` (fixed in src/app/panels/lambda_curve.rs).
    let lambda = PANELS.iter().position(|entry| entry.name == "lambda-curve").unwrap();
    let mut panel = open(lambda);
    assert!(panel.apply_query(&owned(&[("case", "custom")])).is_empty());
    assert_query_is_a_fixed_point(lambda, &panel.query()).unwrap();
}

// ---------------------------------------------------------------------------------------
// The page's CSV reader.
// ---------------------------------------------------------------------------------------

/// A cell of CSV-like text: numbers of every kind, nasty tokens, words.
fn csv_cell() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => any_number(),
        2 => prop::sample::select(NASTY).prop_map(str::to_owned),
        1 => prop::sample::select(&["x", "t", "x1", "x2", "class", "\"x\"", "\u{feff}x", "\u{feff}0.5"][..])
            .prop_map(str::to_owned),
        1 => "\\PC{0,6}",
    ]
}

/// CSV-like text: lines of cells joined by any of the page's separators (mixed), lines
/// ended by `\n` or `\r\n`, blank lines, an optional byte-order mark — or any text at all.
fn csv_text() -> impl Strategy<Value = String> {
    let separator = prop::sample::select(&[",", ";", "\t", " ", ", ", ",,", "\r"][..]);
    let line = prop::collection::vec((csv_cell(), separator), 0..5)
        .prop_map(|cells| cells.into_iter().flat_map(|(cell, sep)| [cell, sep.to_owned()]).collect::<String>());
    let ending = prop::sample::select(&["\n", "\r\n", "\n\n"][..]);
    prop_oneof![
        5 => (any::<bool>(), prop::collection::vec((line, ending), 0..8)).prop_map(|(bom, lines)| {
            let body: String = lines.into_iter().flat_map(|(line, end)| [line, end.to_owned()]).collect();
            if bom { format!("\u{feff}{body}") } else { body }
        }),
        1 => any::<String>(),
    ]
}

/// Any number the lab reads ([`in_range`]): normal, subnormal, zero, of either sign, up to
/// ±[`MAX_MAGNITUDE`], the extremes included.
fn readable() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO | prop::num::f64::NEGATIVE
            | prop::num::f64::POSITIVE)
            .prop_filter("in range", |v| in_range(*v)),
        1 => prop::sample::select(&[MAX_MAGNITUDE, -MAX_MAGNITUDE, f64::MIN_POSITIVE, -0.0, 0.0, 1e-308, 5e-324][..]),
    ]
}

/// A finite number beyond the range the lab reads, up to f64's extremes.
fn beyond_range() -> impl Strategy<Value = f64> {
    prop_oneof![
        (50.0f64..308.25).prop_map(|e| 10f64.powf(e)).prop_filter("beyond", |v| v.is_finite() && !in_range(*v)),
        prop::sample::select(vec![f64::MAX, f64::MIN, MAX_MAGNITUDE.next_up(), -1e51]),
    ]
    .prop_flat_map(|v| prop::sample::select(vec![v, -v]))
}

/// The number of lines `text` has, as [`str::lines`] counts them.
fn line_count(text: &str) -> usize {
    text.lines().count()
}

/// Asserts what [`parse_rows`] promises for `text`: rows of exactly `columns` finite numbers,
/// each with its line (in order, within the text), or an error naming a line of the text
/// (or no data).
fn assert_rows_or_a_line(text: &str, columns: &[&str]) -> Result<(), TestCaseError> {
    match parse_rows(text, columns) {
        Ok(rows) => {
            prop_assert!(!rows.is_empty());
            let mut last = 0;
            for (line, row) in rows {
                prop_assert!(line > last && line <= line_count(text), "line {line} of {text:?}");
                prop_assert_eq!(row.len(), columns.len());
                prop_assert!(row.iter().all(|v| in_range(*v)));
                last = line;
            }
        }
        Err(Error::BadRow { line, columns: named, .. }) => {
            prop_assert!((1..=line_count(text)).contains(&line), "line {line} of {text:?}");
            prop_assert_eq!(named, columns.join(", "));
        }
        Err(Error::BeyondRange { line: Some(line), name, .. }) => {
            prop_assert!((1..=line_count(text)).contains(&line), "line {line} of {text:?}");
            prop_assert!(columns.contains(&name.as_str()));
        }
        Err(Error::NoData) => {}
        Err(other) => prop_assert!(false, "an error of another kind: {other:?}"),
    }
    Ok(())
}

/// The panels whose data a CSV replaces, regression (`x,t`) and classes (`x1,x2,class`),
/// each among the cheapest to compute.
const CSV_PANELS: [&str; 3] = ["least-squares", "classification", "multiclass"];

/// Rows formatted as the page saves them ("Save data as CSV", `PointSink::to_csv`): a
/// header, then the numbers printed with `{}`, comma-separated, one row a line.
fn saved_csv(header: &str, rows: &[Vec<f64>]) -> String {
    let body = rows.iter().map(|row| row.iter().map(f64::to_string).collect::<Vec<_>>().join(",") + "\n");
    std::iter::once(format!("{header}\n")).chain(body).collect()
}

proptest! {
    #![proptest_config(config(512, 20_261_803))]

    /// Any text (mixed separators, `\r\n`, a byte-order mark, NaN/∞, unicode, markup, a
    /// header, one row, nothing) gives rows of finite numbers or an error naming a line,
    /// for both layouts the page reads.
    #[test]
    fn page_csv_gives_rows_or_a_line(text in csv_text()) {
        assert_rows_or_a_line(&text, &["x", "t"])?;
        assert_rows_or_a_line(&text, &["x₁", "x₂", "class"])?;
    }

    /// Rows of any finite numbers, printed with `{}` and joined by any one separator, with
    /// or without a header, `\r\n` and a byte-order mark, read back bit for bit.
    #[test]
    fn page_csv_rows_round_trip_bit_for_bit(
        rows in prop::collection::vec(prop::collection::vec(readable(), 2), 1..20),
        separator in prop::sample::select(&[",", ";", "\t", " ", ", ", " ; "][..]),
        header in any::<bool>(),
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = String::from(if bom { "\u{feff}" } else { "" });
        if header {
            text += &format!("x{separator}t{end}");
        }
        for row in &rows {
            text += &format!("{}{separator}{}{end}", row[0], row[1]);
        }
        let parsed = parse_rows(&text, &["x", "t"]).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        let bits = |row: &[f64]| row.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        prop_assert_eq!(parsed.len(), rows.len());
        for ((line, got), want) in parsed.iter().zip(&rows) {
            prop_assert_eq!(bits(got), bits(want), "line {}", line);
        }
    }
}

proptest! {
    #![proptest_config(config(128, 20_261_804))]

    /// A panel's data saved as CSV and read back are the same data: import → export gives
    /// the text imported (numbers bit for bit), for `x,t` and `x1,x2,class`; any text
    /// imported either replaces the data or is refused with a typed error, the data kept.
    #[test]
    fn panel_csv_save_and_read_round_trip(
        which in 0..CSV_PANELS.len(),
        coordinates in prop::collection::vec((-5f64..5.0, -5f64..5.0, 0usize..3), 1..12),
        hostile in csv_text(),
    ) {
        let name = CSV_PANELS[which];
        let mut panel = open_panel(name).unwrap();
        let text = if name == "least-squares" {
            let rows: Vec<Vec<f64>> = coordinates.iter().map(|&(x, t, _)| vec![x, t]).collect();
            saved_csv("x,t", &rows)
        } else {
            let k = classes(&panel.describe()).unwrap();
            let rows: Vec<Vec<f64>> = coordinates.iter().map(|&(a, b, c)| vec![a, b, (c % k) as f64]).collect();
            saved_csv("x1,x2,class", &rows)
        };
        match panel.import_csv(&text) {
            Ok(()) => prop_assert_eq!(panel.export_csv().unwrap(), Some(text.clone())),
            // Only the model may refuse good rows (e.g. one class only).
            Err(error) => prop_assert!(error.code() != "bad-row" && error.code() != "no-data", "{error}: {text:?}"),
        }
        let before = panel.query();
        if panel.import_csv(&hostile).is_err() {
            prop_assert_eq!(panel.query(), before, "a refused CSV changed the data");
        }
    }
}

/// Failing cases found by the properties above, kept as examples.
#[test]
fn page_csv_regressions() {
    // A byte-order mark (Excel's "CSV UTF-8") before a first row of numbers: the row was
    // taken for a header and dropped without a word.
    let rows = parse_rows("\u{feff}0.5,1\n0.25,2\n", &["x", "t"]).unwrap();
    assert_eq!(rows, vec![(1, vec![0.5, 1.0]), (2, vec![0.25, 2.0])]);
    // Blank but not empty lines of separators only are skipped, not refused.
    assert_eq!(parse_rows(",;\t \n1 2\n", &["x", "t"]).unwrap(), vec![(2, vec![1.0, 2.0])]);
}

// ---------------------------------------------------------------------------------------
// The command line's CSV reader.
// ---------------------------------------------------------------------------------------

/// The line an error names, if it names one.
fn error_line(error: &CsvError) -> Option<usize> {
    match error {
        CsvError::NotANumber { line, .. }
        | CsvError::NotFinite { line, .. }
        | CsvError::BeyondRange { line, .. }
        | CsvError::Ragged { line, .. }
        | CsvError::WhichColumn { line, .. }
        | CsvError::UnknownColumn { line, .. } => Some(*line),
        CsvError::Read { .. } | CsvError::Empty { .. } | CsvError::NoRows { .. } => None,
    }
}

/// A column name as a header holds it: a word without commas, not blank.
fn column_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[A-Za-z_][A-Za-z0-9_]{0,8}",
        1 => prop::sample::select(&["t", "label", "x", "φ₁", "<b>", "NaN"][..]).prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(config(512, 20_261_805))]

    /// Any text gives a table (a header, rows as long as it, every number finite, lines
    /// within the file) or an error naming the file and, for a bad cell or row, a line of
    /// it; asking for the targets' column by any name, or by none, gives a column of the
    /// table or an error naming the header's line.
    #[test]
    fn cli_csv_gives_a_table_or_a_line(
        text in csv_text(),
        asked in prop::option::of(prop_oneof![column_name(), any::<String>()]),
        conventional in prop::sample::select(&["t", "label"][..]),
    ) {
        match Table::parse("F.csv", &text) {
            Ok(table) => {
                prop_assert!((1..=line_count(&text)).contains(&table.header_line));
                prop_assert!(!table.rows.is_empty());
                for row in &table.rows {
                    prop_assert_eq!(row.len(), table.header.len());
                    prop_assert!(row.iter().all(|v| in_range(*v)));
                }
                match table.targets_column(asked.as_deref(), conventional) {
                    Ok(j) => {
                        prop_assert!(j < table.header.len());
                        prop_assert_eq!(table.column(j).len(), table.rows.len());
                    }
                    Err(error) => {
                        prop_assert_eq!(error_line(&error), Some(table.header_line));
                        prop_assert!(error.to_string().starts_with("F.csv line "));
                    }
                }
            }
            Err(error) => {
                prop_assert!(error.to_string().starts_with("F.csv"), "{error}");
                if let Some(line) = error_line(&error) {
                    prop_assert!((1..=line_count(&text)).contains(&line), "{error} of {text:?}");
                }
            }
        }
    }

    /// A header of names and rows of any finite numbers, written as the command line
    /// reads them (commas, `{}`), with or without `\r\n`, blank lines and a byte-order
    /// mark, read back to the same names and the same numbers bit for bit; the targets'
    /// column found by its name is that column.
    #[test]
    fn cli_csv_round_trips_bit_for_bit(
        (header, rows) in (1..5usize).prop_flat_map(|columns| (
            prop::collection::vec(column_name(), columns),
            prop::collection::vec(prop::collection::vec(readable(), columns), 1..12),
        )),
        crlf in any::<bool>(),
        blank in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = String::from(if bom { "\u{feff}" } else { "" });
        text += &(header.join(",") + end);
        for row in &rows {
            if blank {
                text += end;
            }
            text += &(row.iter().map(f64::to_string).collect::<Vec<_>>().join(",") + end);
        }
        let table = Table::parse("F.csv", &text).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        prop_assert_eq!(&table.header, &header);
        let bits = |rows: &[Vec<f64>]| rows.iter().map(|r| r.iter().map(|v| v.to_bits()).collect()).collect::<Vec<Vec<u64>>>();
        prop_assert_eq!(bits(&table.rows), bits(&rows));
        for (j, name) in header.iter().enumerate() {
            if header.iter().filter(|h| *h == name).count() == 1 {
                prop_assert_eq!(table.targets_column(Some(name), "t").unwrap(), j);
            }
        }
    }
}

/// Failing cases found by the properties above, kept as examples.
#[test]
fn cli_csv_regressions() {
    // A byte-order mark (Excel's "CSV UTF-8") went into the first column's name, so that
    // `--column t` found no column named t in "t, x", and without --column the file
    // "had t, x, and not exactly one named 't'".
    let table = Table::parse("T.csv", "\u{feff}t,x\n1,2\n").unwrap();
    assert_eq!(table.header, ["t", "x"]);
    assert_eq!(table.targets_column(None, "t").unwrap(), 0);
    assert_eq!(table.targets_column(Some("t"), "t").unwrap(), 0);
}

// ---------------------------------------------------------------------------------------
// One input rule on every path (issue 32, point 3).
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(64, 20_261_806))]

    /// A number beyond ±10⁵⁰ is refused on every path — the page's CSV reader, the command
    /// line's, a point typed into a panel, the URL's points and a value typed into a box —
    /// each message naming the range; the same number scaled into it is read on every path.
    #[test]
    fn every_path_refuses_the_same_numbers(value in beyond_range(), at in 0..3usize) {
        let max = "1e50";
        let mut rows = vec![[0.25, 0.5], [0.5, -0.25], [0.75, 0.125]];
        rows[at][1] = value;
        let text = |rows: &[[f64; 2]]| rows.iter().map(|[x, t]| format!("{x},{t}\n")).collect::<String>();
        let page = parse_rows(&text(&rows), &["x", "t"]).unwrap_err();
        prop_assert_eq!(page.code(), "beyond-range-line");
        prop_assert!(page.to_string().starts_with(&format!("line {}: t must be between -{max} and {max}", at + 1)), "{}", page);
        let file = format!("x,t\n{}", text(&rows));
        let cli = Table::parse("T.csv", &file).unwrap_err();
        prop_assert!(cli.to_string().contains(&format!("is beyond the range the lab reads, -{max} to {max}")), "{}", cli);
        let mut panel = open_panel("least-squares").unwrap();
        let typed = panel.add_point(0.5, value).unwrap_err();
        prop_assert_eq!(typed.code(), "beyond-range");
        let point = format!("0.5:{value}");
        let notices = panel.apply_query(&owned(&[("points", &point)]));
        prop_assert!(notices.iter().any(|n| n.error.code() == "beyond-range"), "{:?}", notices);
        prop_assert_eq!(panel.set("s", &value.abs().to_string()).unwrap_err().code(), "beyond-range");
        // Scaled to 1e50 in size, the very same paths read it.
        rows[at][1] = value.signum() * MAX_MAGNITUDE;
        prop_assert!(parse_rows(&text(&rows), &["x", "t"]).is_ok());
        let file = format!("x,t\n{}", text(&rows));
        prop_assert!(Table::parse("T.csv", &file).is_ok());
        prop_assert!(panel.import_csv(&text(&rows)).is_ok());
    }
}

// ---------------------------------------------------------------------------------------
// The typed formula of a basis (issue 35).
// ---------------------------------------------------------------------------------------

/// Pieces of formulas, good and bad: names (known, near misses, other scripts), numbers
/// (good and not), operators, calls, parentheses, the characters other keyboards type.
const FORMULA_TOKENS: &[&str] = &[
    "x", "mu", "μ", "s", "j", "K", "pi", "e", "2", "0.5", ".5", "1e-3", "2.5E+3", "1e999", "1.2.3", ".", "+", "-", "*",
    "/", "^", "**", "(", ")", ",", " ", "exp(", "ln(", "log(", "sqrt(", "abs(", "sin(", "tanh(", "sigmoid(", "erf(",
    "min(", "max(", "sign(", "sigma", "σ", "X", "exq", "²", "³", "−", "×", "（", "）", "＋", "中", "💥", "=", "\u{0}",
    "\t",
];

/// A formula that reads, built from the grammar: names, numbers as the lab prints them,
/// binary operators with and without parentheses, unary minus, calls of one and two
/// arguments.
fn valid_formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        6 => prop::sample::select(&["x", "mu", "μ", "s", "j", "K", "pi", "e", "x", "x"][..]).prop_map(str::to_owned),
        1 => (0u32..1000).prop_map(|n| n.to_string()),
        1 => (0.0..10.0f64).prop_map(|v| v.to_string()),
        1 => (1e-8..1e8f64).prop_map(|v| format!("{v:e}")),
    ];
    let operators = &["+", "-", "*", "/", "^", " + ", " - "][..];
    let unary = &["exp", "ln", "log", "log10", "sqrt", "abs", "sin", "cos", "tan", "sinh", "cosh", "tanh"][..];
    let more = &["sigmoid", "erf", "sign", "floor", "ceil"][..];
    leaf.prop_recursive(5, 32, 2, move |inner| {
        prop_oneof![
            (inner.clone(), prop::sample::select(operators), inner.clone())
                .prop_map(|(a, op, b)| format!("{a}{op}{b}")),
            (inner.clone(), prop::sample::select(operators), inner.clone())
                .prop_map(|(a, op, b)| format!("({a}){op}({b})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            (prop::sample::select(unary), inner.clone()).prop_map(|(f, a)| format!("{f}({a})")),
            (prop::sample::select(more), inner.clone()).prop_map(|(f, a)| format!("{f}({a})")),
            (prop::sample::select(&["min", "max"][..]), inner.clone(), inner.clone())
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
        ]
    })
}

/// The formula basis of `text`: the bias and one function on [0, 1], s = 0.2.
fn formula_basis(text: &str) -> Result<Basis, Error> {
    let spec = BasisSpec { family: Family::Formula, m: 2, width: 0.2, formula: text.into(), ..BasisSpec::default() };
    Basis::from_spec(&spec, (0.0, 1.0), &[])
}

/// Any error of reading `text` names a character of it (or the end), counting characters.
fn assert_formula_error_in_text(text: &str, error: &Error) -> Result<(), TestCaseError> {
    let Error::Formula { at, .. } = error else {
        return Err(TestCaseError::fail(format!("{text:?}: not a formula error: {error:?}")));
    };
    if let Some(at) = *at {
        prop_assert!((1..=text.chars().count() + 1).contains(&at), "{:?}: at {} of {}", text, at, error);
    }
    prop_assert!(!error.to_string().is_empty());
    Ok(())
}

/// `text` and its canonical text read the same: the same formula, printed the same, and a
/// basis of each gives the same Φ (or the same error). The canonical text may be longer
/// (`mu` for `μ`, spaces around + and −): beyond the limit it is refused as too long.
fn assert_formula_reads_back(text: &str) -> Result<(), TestCaseError> {
    let formula = match Formula::parse(text) {
        Ok(formula) => formula,
        Err(error) => return assert_formula_error_in_text(text, &error),
    };
    let printed = formula.to_string();
    let again = Formula::parse(&printed);
    if printed.chars().count() > MAX_FORMULA_LEN {
        prop_assert_eq!(again.map_err(|e| e.code()), Err("formula-too-long"));
        return Ok(());
    }
    prop_assert_eq!(again.as_ref(), Ok(&formula), "{:?} printed as {:?}", text, printed);
    prop_assert_eq!(again.map(|f| f.to_string()), Ok(printed.clone()));
    let x = [0.0, 0.1, 0.37, 0.5, 0.99, 1.0, -3.0, 2.5];
    let design = |text: &str| formula_basis(text).and_then(|b| b.design_matrix(&x));
    prop_assert_eq!(design(text), design(&printed), "{:?} printed as {:?}", text, printed);
    Ok(())
}

proptest! {
    #![proptest_config(config(512, 20_261_807))]

    /// Any text at all never panics the parser or the basis, and any error names a
    /// character of the text.
    #[test]
    fn any_text_as_a_formula_never_panics(text in any::<String>()) {
        assert_formula_reads_back(&text)?;
        let _ = formula_basis(&text);
    }

    /// Text made of the grammar's own tokens (mostly not a formula) never panics; whatever
    /// reads, reads back from its canonical text.
    #[test]
    fn formula_tokens_in_any_order_never_panic(tokens in prop::collection::vec(prop::sample::select(FORMULA_TOKENS), 0..40)) {
        assert_formula_reads_back(&tokens.concat())?;
        assert_formula_reads_back(&tokens.join(" "))?;
    }

    /// A formula built from the grammar reads back from its canonical text to the same
    /// formula, with the same Φ.
    #[test]
    fn a_formula_reads_back_from_its_canonical_text(text in valid_formula()) {
        let parsed = Formula::parse(&text);
        prop_assume!(!matches!(parsed, Err(Error::Formula { problem: FormulaProblem::TooLong { .. } | FormulaProblem::TooDeep { .. }, .. })));
        prop_assert!(parsed.is_ok(), "{:?}: {:?}", text, parsed);
        assert_formula_reads_back(&text)?;
    }
}
