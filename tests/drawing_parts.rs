#![cfg(not(target_arch = "wasm32"))]
//! A drawing made in parts (`rvm_lab::parts`, as the page makes its first drawing of a
//! panel, a few charts per task) is the drawing made at once: every panel, at its defaults,
//! drawn through the page's SVG backend once whole and once a chart per part (no time for
//! more), gives the same shapes in the same order, each once, and as many parts as the
//! drawing has charts (counted from the SVG: each chart's grid, or a class map's cells).

mod common;
use common::svg::{Element, elements};
use plotters::prelude::*;
use rvm_lab::app::{PanelModel, open_panel, panels};
use rvm_lab::backend::PageBackend;
use rvm_lab::palette::Look;
use rvm_lab::parts::{self, Part};
use rvm_lab::plot::{Labels, palette};

const SIZE: (u32, u32) = (1100, 600);

/// The SVG document of the part of `panel`'s drawing from chart `from` within `ms`, and
/// the chart the next part begins with.
fn part(panel: &dyn PanelModel, from: usize, ms: f64) -> (String, Option<usize>) {
    let mut svg = String::new();
    let next = {
        let root = PageBackend::svg(&mut svg, SIZE, Look::Screen).into_drawing_area();
        match parts::draw_part(from, ms, || panel.draw(&root, 1.0, &Labels::default())) {
            Ok(Part::Complete(_)) => None,
            Ok(Part::Next(chart)) => Some(chart),
            Err(e) => panic!("drawing to an SVG string succeeds: {e}"),
        }
    };
    (svg, next)
}

/// The elements of an SVG document: its lines without the document's opening and closing.
fn body(svg: &str) -> Vec<&str> {
    let lines: Vec<&str> = svg.lines().collect();
    assert!(lines.len() >= 2 && lines[0].starts_with("<svg") && lines[lines.len() - 1] == "</svg>", "{svg}");
    lines[1..lines.len() - 1].to_vec()
}

#[test]
fn a_drawing_in_parts_is_the_drawing_at_once_on_every_panel() {
    let mut multi_chart = 0;
    for name in panels::names() {
        let panel = open_panel(name).expect("every panel opens at its defaults");
        let (whole, next) = part(panel.as_ref(), 0, f64::INFINITY);
        assert_eq!(next, None, "{name}: with time enough, one part");
        let charts = charts(&whole);
        let whole = body(&whole);

        let mut joined: Vec<String> = vec![];
        let (mut from, mut count) = (0, 0);
        loop {
            let (svg, next) = part(panel.as_ref(), from, 0.0);
            let shapes = body(&svg);
            assert!(!shapes.is_empty(), "{name}: the part from chart {from} draws something");
            joined.extend(shapes.iter().map(|s| (*s).to_owned()));
            count += 1;
            match next {
                Some(chart) => {
                    assert!(chart > from, "{name}: the parts move on");
                    from = chart;
                }
                None => break,
            }
        }
        assert_eq!(joined, whole, "{name}: the parts together are the whole drawing");
        assert_eq!(count, charts.max(1), "{name}: one part per chart with no time for more");
        multi_chart += usize::from(count > 1);
    }
    assert!(multi_chart >= 5, "most panels draw several charts: {multi_chart}");
}

/// The charts of an SVG drawing: its runs of mesh lines (translucent `<line>`s in the ink
/// colour, with the axis names written among them), each chart's first shapes; and its class
/// maps, which draw no grid under their cells (a run of many `<rect>`s that no mesh comes
/// before, but for the ticks and words of its own axes).
fn charts(svg: &str) -> usize {
    let els = elements(svg);
    let is_mesh = |e: &Element| e.tag == "line" && e.has_colour("stroke", palette::INK) && e.num("opacity") < 1.0;
    let is_axis = |e: &Element| e.tag == "text" || (e.tag == "polyline" && e.has_colour("stroke", palette::INK));
    let (mut runs, mut in_run, mut cells) = (0, false, 0);
    for (i, element) in els.iter().enumerate() {
        if is_mesh(element) {
            runs += usize::from(!in_run);
            in_run = true;
        } else if element.tag != "text" {
            in_run = false;
        }
        cells = if element.tag == "rect" { cells + 1 } else { 0 };
        if cells == MAP_RECTANGLES {
            let before = els[..i + 1 - MAP_RECTANGLES].iter().rev().find(|e| !is_axis(e));
            runs += usize::from(!before.is_some_and(is_mesh));
        }
    }
    runs
}

/// Rectangles in a row that make a colour map (a chart's background and frame are one or
/// two).
const MAP_RECTANGLES: usize = 20;
