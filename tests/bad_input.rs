#![cfg(not(target_arch = "wasm32"))]
//! Bad input on every panel (issue: "the page never shows NaN or freezes"): ill-conditioned
//! designs — M > N, duplicate inputs, a degree-20 polynomial on [0, 1], a width of 1e-9,
//! a single point — either give a clear typed error (the panel keeps its last good state)
//! or a well-defined answer whose every reported number and every drawn coordinate is
//! finite. Absurd sizes are refused with a message naming the limit.

use plotters::prelude::*;
use rvm_lab::app::{PanelModel, names, open_panel};
use rvm_lab::backend::PageBackend;
use rvm_lab::palette::Look;
use rvm_lab::plot::Labels;
use rvm_lab::solver::Budget;

const NASTY: &[&[(&str, &str)]] = &[
    &[("basis", "polynomial"), ("M", "21"), ("N", "10")],
    &[("basis", "gaussian"), ("M", "15"), ("N", "5")],
    &[("basis", "gaussian"), ("s", "1e-9")],
    &[("basis", "sigmoid"), ("s", "1e-9")],
    &[("basis", "wavelet"), ("s", "1e-9")],
    &[("basis", "kernel"), ("N", "12"), ("s", "1e-9")],
    &[("N", "0"), ("points", "0.5:0.1,0.5:0.9,0.5:-0.3")],
    &[("N", "1")],
    &[("noise", "0")],
    &[("basis", "bspline"), ("degree", "5"), ("M", "10")],
    &[("basis", "fourier"), ("M", "19"), ("N", "8")],
];

fn pairs(query: &[(&str, &str)]) -> Vec<(String, String)> {
    query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn svg_of(panel: &dyn PanelModel) -> String {
    let mut svg = String::new();
    {
        let root = PageBackend::svg(&mut svg, (900, 600), Look::Screen).into_drawing_area();
        panel.draw(&root, 1.0, &Labels::default()).expect("drawing succeeds");
    }
    svg
}

#[test]
fn ill_conditioned_designs_give_an_error_or_finite_numbers() {
    for name in names() {
        for query in NASTY {
            let mut panel = open_panel(name).unwrap();
            let notices = panel.apply_query(&pairs(query));
            while panel.work(Budget::unlimited()) {}
            for readout in panel.report().readouts {
                assert!(readout.value.is_finite(), "{name} {query:?}: {} = {}", readout.key, readout.value);
            }
            for table in panel.report().tables {
                for cell in table.rows.iter().flatten() {
                    if let rvm_lab::app::Cell::Number(v) = cell {
                        assert!(v.is_finite(), "{name} {query:?}: table {}", table.key);
                    }
                }
            }
            let svg = svg_of(panel.as_ref());
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{name} {query:?} drew a non-finite coordinate");
            // Whatever was refused is said, in a message naming the value.
            for notice in notices {
                assert!(!notice.error.to_string().is_empty());
            }
        }
    }
}

#[test]
fn absurd_sizes_are_refused_naming_the_limit() {
    for name in names() {
        let mut panel = open_panel(name).unwrap();
        let before = panel.query();
        let keys: Vec<_> = panel.describe().params.iter().map(|p| p.key).collect();
        for (key, absurd) in [("M", "1000000"), ("N", "10000000")] {
            if !keys.contains(&key) {
                continue;
            }
            let error = panel.set(key, absurd).unwrap_err().to_string();
            assert!(error.starts_with(&format!("{key} must be a whole number from ")), "{name}: {error}");
            assert!(error.ends_with(&format!(", but is {absurd}")), "{name}: {error}");
        }
        assert_eq!(panel.query(), before, "{name}: the state is kept");
    }
}

/// Issue 16: a slider never offers a value its panel refuses — every whole-number slider's
/// top end is a value the panel takes as a setting (gradient descent and regularisation
/// offered M up to 30 with limits 10 and 20, regularisation N up to 200 with a limit of 100).
#[test]
fn every_slider_top_is_a_value_its_panel_accepts() {
    use rvm_lab::app::params::Control;
    for name in names() {
        let mut panel = open_panel(name).unwrap();
        for spec in panel.describe().params {
            let (Control::Integer { max, .. } | Control::Steps { max, .. }) = spec.control else { continue };
            // A setting out of its range is refused as "<key> must be a whole number from …";
            // any other error (no data, a degenerate design) is the model's, not the slider's.
            let refused = panel.set(spec.key, &max.to_string()).err().map(|e| e.to_string());
            let out_of_range = refused.as_deref().is_some_and(|e| e.starts_with(&format!("{} must be", spec.key)));
            assert!(!out_of_range, "{name}: {} = {max}: {refused:?}", spec.key);
        }
    }
}
