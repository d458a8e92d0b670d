#![cfg(not(target_arch = "wasm32"))]
//! A lesson's exercise may hide the curve that generated the data ("find the noise level":
//! `Lab.showTruth(false)`, [`Labels::hide_truth`]). Then no panel draws it, lists it in its
//! legend or says the true noise, in its readouts or its results — and everything else stays
//! as it was. (The page then offers no data table of the chart: tests/e2e/student.test.mjs.)
//!
//! Where the expected values come from: each panel drawn twice as SVG, with and without the
//! curve, and compared element by element (the SVG read by `common::svg`, not by the code
//! under test); the legend and the tables with the curve shown are the reference.

mod common;

use common::svg::elements;
use plotters::drawing::IntoDrawingArea;
use rvm_lab::app::panel::{results_csv, shown_report};
use rvm_lab::app::{PanelModel, names, open_panel};
use rvm_lab::backend::PageBackend;
use rvm_lab::palette::{Look, TRUTH};
use rvm_lab::plot::{Labels, TRUTH_SERIES};

/// The panel drawn as SVG, the generating curve hidden or not.
fn svg_of(panel: &dyn PanelModel, hide_truth: bool) -> String {
    let mut labels = Labels::default();
    labels.hide_truth = hide_truth;
    let mut svg = String::new();
    {
        let root = PageBackend::svg(&mut svg, (900, 600), Look::Screen).into_drawing_area();
        panel.draw(&root, 1.0, &labels).unwrap();
    }
    svg
}

/// The elements drawn in the generating curve's colour.
fn in_truth_colour(svg: &str) -> usize {
    elements(svg).iter().filter(|e| e.has_colour("stroke", TRUTH)).count()
}

#[test]
fn a_hidden_truth_is_neither_drawn_nor_listed_and_nothing_else_changes() {
    let mut with_truth = 0;
    for name in names() {
        let panel = open_panel(name).unwrap();
        let report = panel.report();
        let has_truth = report.legend.iter().any(|entry| TRUTH_SERIES.contains(&entry.key));
        let (shown, hidden) = (svg_of(panel.as_ref(), false), svg_of(panel.as_ref(), true));
        // Everything but the curve is drawn the same: the hidden drawing's elements are the
        // shown one's with those of the curve's colour left out.
        let others = |svg: &str| {
            elements(svg)
                .iter()
                .filter(|e| !e.has_colour("stroke", TRUTH))
                .map(|e| e.attrs.to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(others(&shown), others(&hidden), "{name}: something besides the curve changed");
        if has_truth {
            with_truth += 1;
            assert!(in_truth_colour(&hidden) < in_truth_colour(&shown), "{name}: the curve is still drawn");
        } else {
            assert_eq!(in_truth_colour(&hidden), in_truth_colour(&shown), "{name} has no generating curve to hide");
        }
        // The legend does not name it; the true noise is not said.
        let kept = shown_report(panel.report(), true);
        assert!(kept.legend.iter().all(|e| !TRUTH_SERIES.contains(&e.key)), "{name}: {:?}", kept.legend);
        assert_eq!(
            kept.legend.len() + usize::from(has_truth),
            report.legend.len(),
            "{name}: only the curve's entry goes"
        );
        assert!(kept.readouts.iter().all(|r| r.key != "true-noise-sd"), "{name}");
        assert!(!results_csv(panel.as_ref(), true).contains("true-noise-sd"), "{name}");
    }
    assert!(with_truth >= 7, "the panels that draw the generating curve: {with_truth}");
}
