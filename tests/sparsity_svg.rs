#![cfg(not(target_arch = "wasm32"))]
//! The charts of the sparsity analysis (PRML §7.2.2) rendered to SVG with plotters' SVG
//! backend and read back element by element: `plot::lambda::LambdaChart` (Fig 7.11, its
//! numbers from `app::scene::LambdaCurve`) on its own, and the sparsity (Fig 7.10) and
//! lambda-curve panels through `PanelModel::draw` at a wide (1100 × 550) and a narrow (360
//! × 700) size.
//!
//! Where the expected numbers come from (never from the code under test):
//! - λ(α) = ½[ln α − ln(α + s) + q²/(α + s)] written out here (PRML 7.97); its maximiser
//!   s²/(q² − s) (7.101) worked by hand for the textbook cases (1/3 for q² = 4, s = 1;
//!   none for q² = 1, s = 2).
//! - ln p(t|α) = ln N(t | 0, C) with C = β⁻¹I + α⁻¹φφᵀ (7.92) by the explicit 2×2
//!   determinant and inverse; the ellipse checked against that inverse, the noise circle
//!   against the radius β^{-1/2}; s = β‖φ‖², q = βφᵀt by hand.
//! - Colours from the `palette` constants (the SVG backend writes uppercase hex); texts as
//!   the chart's English labels, which the SVG backend writes with `>` escaped.
//! - Pixels turned back into data with the `PlotArea` the chart returns. Tolerances: one
//!   pixel for points mapped straight from data (plotters rounds to whole pixels), one and
//!   a half along the ellipse and circle (rounded in both directions), two for dash ends.

mod common;
use common::svg::{Element, elements};
use plotters::coord::Shift;
use plotters::prelude::*;
use rvm_lab::app::scene::LambdaCurve;
use rvm_lab::app::{PanelModel, open_panel};
use rvm_lab::backend::PageBackend;
use rvm_lab::palette::Look;
use rvm_lab::plot::lambda::LambdaChart;
use rvm_lab::plot::{Labels, PlotArea, palette, split_pair};
use rvm_lab::rvm::sparsity::SparsityQuality;

const WIDE: (u32, u32) = (1100, 550);
const NARROW: (u32, u32) = (360, 700);

/// Draws with `draw` onto an SVG of `size`; the SVG and the area `draw` returned.
fn render(size: (u32, u32), draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> PlotArea) -> (String, PlotArea) {
    let mut svg = String::new();
    let area = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root)
    };
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "a non-finite coordinate in the SVG");
    (svg, area)
}

fn chart_svg(chart: &LambdaChart, size: (u32, u32)) -> (String, PlotArea) {
    render(size, |root| chart.draw(root, 1.0, &Labels::default()).expect("drawing succeeds"))
}

fn panel_svg(panel: &dyn PanelModel, size: (u32, u32)) -> (String, PlotArea) {
    let mut svg = String::new();
    let area = {
        let root = PageBackend::svg(&mut svg, size, Look::Screen).into_drawing_area();
        panel.draw(&root, 1.0, &Labels::default()).expect("drawing succeeds")
    };
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "a non-finite coordinate in the SVG");
    (svg, area)
}

/// λ(α) of PRML 7.97, written out.
fn lambda(s: f64, q2: f64, alpha: f64) -> f64 {
    0.5 * (alpha.ln() - (alpha + s).ln() + q2 / (alpha + s))
}

/// Data units per pixel along x and y.
fn pixel_size(area: &PlotArea) -> (f64, f64) {
    (
        (area.x_range.1 - area.x_range.0) / (area.right - area.left),
        (area.y_range.1 - area.y_range.0) / (area.bottom - area.top),
    )
}

fn to_data(area: &PlotArea, p: (f64, f64)) -> (f64, f64) {
    area.to_data(p.0, p.1).unwrap_or_else(|| panic!("pixel {p:?} outside the plot {area:?}"))
}

/// Whether pixel `p` is within `tol` pixels of the data point `want` along both axes.
fn lands_on(area: &PlotArea, p: (f64, f64), want: (f64, f64), tol: f64) -> bool {
    let (x, y) = to_data(area, p);
    let (dx, dy) = pixel_size(area);
    (x - want.0).abs() <= 1.01 * tol * dx && (y - want.1).abs() <= 1.01 * tol * dy
}

/// Whether the curve y = f(x) passes within `tol` pixels of pixel `p`.
fn near_curve(area: &PlotArea, p: (f64, f64), f: &dyn Fn(f64) -> f64, tol: f64) -> bool {
    let (x, y) = to_data(area, p);
    let (dx, dy) = pixel_size(area);
    (-40..=40).any(|k| (f(x + 1.01 * tol * dx * f64::from(k) / 40.0) - y).abs() <= 1.01 * tol * dy)
}

fn inside(area: &PlotArea, e: &Element) -> bool {
    let a = e.anchors();
    !a.is_empty() && a.iter().all(|&(x, y)| area.left <= x && x <= area.right && area.top <= y && y <= area.bottom)
}

/// Elements `tag` of `colour` in `attr` lying on `area`.
fn on<'a>(els: &'a [Element<'a>], area: &PlotArea, tag: &str, attr: &str, colour: RGBColor) -> Vec<&'a Element<'a>> {
    els.iter().filter(|e| e.tag == tag && e.has_colour(attr, colour) && inside(area, e)).collect()
}

/// The λ or ln p curve: opaque ink polylines 2 pixels wide with many points.
fn curve<'a>(els: &'a [Element<'a>], area: &PlotArea) -> Vec<(f64, f64)> {
    let pieces = on(els, area, "polyline", "stroke", palette::INK).into_iter();
    let pieces = pieces.filter(|e| e.num("opacity") == 1.0 && e.num("stroke-width") == 2.0 && e.points().len() > 10);
    pieces.flat_map(|e| e.points()).collect()
}

/// The centre of the one circle on `area` filled (or, with `attr` = "stroke", outlined)
/// in `colour`.
fn circle_at(els: &[Element], area: &PlotArea, attr: &str, colour: RGBColor) -> (f64, f64) {
    let found = on(els, area, "circle", attr, colour);
    assert_eq!(found.len(), 1, "one circle of {attr} {colour:?}: {found:?}");
    (found[0].num("cx"), found[0].num("cy"))
}

fn has_text(els: &[Element], text: &str) -> bool {
    els.iter().any(|e| e.tag == "text" && e.text == text)
}

// ---------------------------------------------------------------------------------------
// LambdaChart on its own.
// ---------------------------------------------------------------------------------------

#[test]
fn fig_7_11_left_marks_its_maximum_at_one_third_and_the_current_alpha() {
    let (s, q2) = (1.0, 4.0);
    let lambda_curve =
        LambdaCurve { current: Some(2.0), ..LambdaCurve::new(SparsityQuality::from_q_squared(s, q2).unwrap()) };
    let chart = lambda_curve.chart().unwrap();
    let (svg, area) = chart_svg(&chart, (600, 400));
    let els = elements(&svg);
    assert_eq!(area.x_range, (-5.0, 5.0), "ln s ± 5");
    let f = |x: f64| lambda(s, q2, x.exp());

    let points = curve(&els, &area);
    assert!(points.len() >= 100, "{} points", points.len());
    for &p in &points {
        assert!(near_curve(&area, p, &f, 1.0), "λ curve off at pixel {p:?}");
    }
    assert_eq!((points[0].0, points.last().unwrap().0), (area.left, area.right), "the curve spans ln α");

    // The maximum at α* = 1/3 with λ(1/3) = ½(3 − ln 4), labelled.
    let top = circle_at(&els, &area, "fill", palette::MEAN);
    assert!(lands_on(&area, top, ((1.0f64 / 3.0).ln(), 0.5 * (3.0 - 4f64.ln())), 1.0), "maximum at {top:?}");
    assert!(has_text(&els, "α* = 0.3333"));
    assert!(on(&els, &area, "polygon", "fill", palette::MEAN).is_empty(), "no arrow to ∞");

    // The current α = 2: a grey vertical line through the plot and a ring on the curve.
    let grey: Vec<_> =
        on(&els, &area, "polyline", "stroke", palette::INK).into_iter().filter(|e| e.num("opacity") < 1.0).collect();
    assert_eq!(grey.len(), 1);
    let line = grey[0].points();
    assert_eq!((line[0].1.max(line[1].1), line[0].1.min(line[1].1)), (area.bottom, area.top));
    assert!(lands_on(&area, line[0], (2f64.ln(), to_data(&area, line[0]).1), 1.0));
    let ring = circle_at(&els, &area, "stroke", palette::INK);
    assert!(lands_on(&area, ring, (2f64.ln(), f(2f64.ln())), 1.0), "ring at {ring:?}");

    // The level λ(∞) = 0, dashed in grey across the whole range.
    let dashes = on(&els, &area, "polyline", "stroke", palette::SAMPLE);
    assert!(dashes.len() > 10, "{} dashes", dashes.len());
    for p in dashes.iter().flat_map(|d| d.points()) {
        assert!(lands_on(&area, p, (to_data(&area, p).0, 0.0), 1.0), "level at {p:?}");
    }
}

#[test]
fn fig_7_11_right_rises_to_zero_and_points_its_maximum_to_infinity() {
    let (s, q2) = (2.0, 1.0);
    let chart = LambdaCurve::new(SparsityQuality::from_q_squared(s, q2).unwrap()).chart().unwrap();
    let (svg, area) = chart_svg(&chart, (600, 400));
    let els = elements(&svg);
    assert_eq!(area.x_range, (-5.0, 6.0), "ln 2 ± 5 to whole numbers");
    let points = curve(&els, &area);
    for &p in &points {
        assert!(near_curve(&area, p, &|x| lambda(s, q2, x.exp()), 1.0), "λ curve off at pixel {p:?}");
    }
    assert!(points.windows(2).all(|w| w[1].1 <= w[0].1), "λ increases: pixels climb from left to right");
    assert!(to_data(&area, *points.last().unwrap()).1 < 0.0);
    // No finite maximum: an arrow along λ = 0 whose head touches the right edge.
    assert!(on(&els, &area, "circle", "fill", palette::MEAN).is_empty());
    let heads = on(&els, &area, "polygon", "fill", palette::MEAN);
    assert_eq!(heads.len(), 1);
    assert!(heads[0].points().iter().any(|&p| lands_on(&area, p, (6.0, 0.0), 1.0)), "{:?}", heads[0]);
    assert!(has_text(&els, "α* = ∞"));
    assert!(on(&els, &area, "circle", "stroke", palette::INK).is_empty(), "no current α");
}

#[test]
fn a_shifted_chart_draws_the_whole_log_evidence_and_a_pruned_current_alpha_at_the_edge() {
    let (s, q2, offset) = (1.0, 4.0, -3.0);
    let shifted = LambdaCurve {
        current: Some(f64::INFINITY),
        offset,
        y_name: ("log-p-alpha", "ln p(t|α)"),
        ..LambdaCurve::new(SparsityQuality::from_q_squared(s, q2).unwrap())
    };
    let chart = shifted.chart().unwrap();
    let (svg, area) = chart_svg(&chart, (500, 350));
    let els = elements(&svg);
    assert!(has_text(&els, "ln p(t|α)"));
    for p in curve(&els, &area) {
        assert!(near_curve(&area, p, &|x| offset + lambda(s, q2, x.exp()), 1.0), "curve off at pixel {p:?}");
    }
    let top = circle_at(&els, &area, "fill", palette::MEAN);
    assert!(lands_on(&area, top, ((1.0f64 / 3.0).ln(), offset + 0.5 * (3.0 - 4f64.ln())), 1.0));
    // α = ∞: a ring on the level ln p(t|∞) = offset at the right edge, no vertical line.
    let ring = circle_at(&els, &area, "stroke", palette::INK);
    assert!(lands_on(&area, ring, (area.x_range.1, offset), 1.0), "ring at {ring:?}");
    assert!(on(&els, &area, "polyline", "stroke", palette::INK).iter().all(|e| e.num("opacity") == 1.0));
}

#[test]
fn a_hand_built_invalid_chart_is_refused_not_drawn() {
    let bad = LambdaCurve::new(SparsityQuality { s: 0.0, q: 1.0 });
    assert_eq!(bad.chart().unwrap_err().code(), "out-of-range");
    let bad = LambdaCurve { offset: f64::NAN, ..LambdaCurve::new(SparsityQuality { s: 1.0, q: 1.0 }) };
    assert_eq!(bad.chart().unwrap_err().code(), "not-finite");
    // A chart built by hand with a non-finite number is refused by the drawing itself.
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (300, 200)).into_drawing_area();
    let good = LambdaCurve::new(SparsityQuality { s: 1.0, q: 1.0 }).chart().unwrap();
    let bad = LambdaChart { level: f64::NAN, ..good };
    assert_eq!(bad.draw(&root, 1.0, &Labels::default()).unwrap_err().code(), "not-finite");
}

// ---------------------------------------------------------------------------------------
// The sparsity panel (Fig 7.10).
// ---------------------------------------------------------------------------------------

/// ln N(t | 0, C) for C = β⁻¹I + α⁻¹φφᵀ by the explicit 2×2 determinant and inverse.
fn log_evidence(t: [f64; 2], phi: [f64; 2], beta: f64, alpha: f64) -> f64 {
    let inverse = covariance_inverse(phi, beta, alpha);
    let det = 1.0 / (inverse[0][0] * inverse[1][1] - inverse[0][1] * inverse[1][0]);
    let quad = mahalanobis_sq(&inverse, t);
    -(2.0 * std::f64::consts::PI).ln() - 0.5 * det.ln() - 0.5 * quad
}

fn covariance_inverse(phi: [f64; 2], beta: f64, alpha: f64) -> [[f64; 2]; 2] {
    let (a, b, d) =
        (1.0 / beta + phi[0] * phi[0] / alpha, phi[0] * phi[1] / alpha, 1.0 / beta + phi[1] * phi[1] / alpha);
    let det = a * d - b * b;
    [[d / det, -b / det], [-b / det, a / det]]
}

fn mahalanobis_sq(inverse: &[[f64; 2]; 2], v: [f64; 2]) -> f64 {
    inverse[0][0] * v[0] * v[0] + 2.0 * inverse[0][1] * v[0] * v[1] + inverse[1][1] * v[1] * v[1]
}

#[test]
fn the_sparsity_panel_draws_fig_7_10_and_the_evidence_against_ln_alpha() {
    let mut panel = open_panel("sparsity").unwrap();
    let (t, phi, beta, alpha) = ([1.0, 1.2], [1.0, 0.5], 4.0, 5.0);
    let text = |v: f64| v.to_string();
    for (key, value) in
        [("t1", t[0]), ("t2", t[1]), ("phi1", phi[0]), ("phi2", phi[1]), ("beta", beta), ("alpha", alpha)]
    {
        assert_eq!(panel.value(key), Some(text(value)), "the defaults this test assumes");
    }
    // s = β‖φ‖² = 5, q = βφᵀt = 6.4: α* = s²/(q² − s) = 25/35.96.
    let (s, q) = (beta * (phi[0] * phi[0] + phi[1] * phi[1]), beta * (phi[0] * t[0] + phi[1] * t[1]));
    let best = s * s / (q * q - s);
    let inverse = covariance_inverse(phi, beta, alpha);
    for size in [WIDE, NARROW] {
        let (svg, area) = panel_svg(panel.as_ref(), size);
        let els = elements(&svg);
        let (dx, dy) = pixel_size(&area);
        assert!((dx / dy - 1.0).abs() < 0.02, "{size:?}: one scale on both axes ({dx}, {dy})");
        let shorter =
            if area.x_range.1 - area.x_range.0 < area.y_range.1 - area.y_range.0 { area.x_range } else { area.y_range };
        assert!((shorter.0 + 2.0).abs() < 1e-12 && (shorter.1 - 2.0).abs() < 1e-12, "{area:?}");

        // The ellipse xᵀC⁻¹x = 1: every vertex within 1.5 pixels of it, along its ray.
        let ellipse: Vec<_> =
            on(&els, &area, "polyline", "stroke", palette::MEAN).iter().flat_map(|e| e.points()).collect();
        assert!(ellipse.len() >= 60, "{size:?}: {} points", ellipse.len());
        for &p in &ellipse {
            let (x, y) = to_data(&area, p);
            let m = mahalanobis_sq(&inverse, [x, y]).sqrt();
            assert!(
                x.hypot(y) * (1.0 - 1.0 / m).abs() <= 1.5 * dx,
                "{size:?}: ellipse vertex {p:?} at Mahalanobis {m}"
            );
        }
        // The noise circle of radius β^{-1/2} = 0.5, dashed.
        let dashes = on(&els, &area, "polyline", "stroke", palette::TRUTH);
        assert!(dashes.len() > 10);
        for p in dashes.iter().flat_map(|d| d.points()) {
            let (x, y) = to_data(&area, p);
            assert!((x.hypot(y) - 0.5).abs() <= 2.0 * dx, "{size:?}: circle point {p:?}");
        }
        // φ: a shaft from the origin and a head at its tip; t: a cross centred on it.
        let shaft = on(&els, &area, "polyline", "stroke", palette::DATA);
        assert_eq!(shaft.len(), 1);
        assert!(lands_on(&area, shaft[0].points()[0], (0.0, 0.0), 1.0));
        let head = on(&els, &area, "polygon", "fill", palette::DATA);
        assert!(head[0].points().iter().any(|&p| lands_on(&area, p, (phi[0], phi[1]), 1.0)), "{head:?}");
        let cross: Vec<_> =
            on(&els, &area, "line", "stroke", palette::INK).into_iter().filter(|e| e.num("opacity") == 1.0).collect();
        assert_eq!(cross.len(), 2, "{size:?}: two strokes of the cross");
        let centre = |e: &Element| ((e.num("x1") + e.num("x2")) / 2.0, (e.num("y1") + e.num("y2")) / 2.0);
        assert!(cross.iter().all(|e| lands_on(&area, centre(e), (t[0], t[1]), 1.0)));
        assert!(has_text(&els, "t") && has_text(&els, "φ"));

        // The other chart: ln p(t|α) against ln α, beside (wide) or below (narrow) the plane,
        // where the same chart drawn alone on the same half lands.
        let sq = SparsityQuality::new(s, q).unwrap();
        let alone = LambdaCurve {
            current: Some(alpha),
            offset: log_evidence(t, phi, beta, f64::INFINITY),
            ..LambdaCurve::new(sq)
        }
        .chart()
        .unwrap();
        let (_, right) =
            render(size, |root| alone.draw(&split_pair(root, 1.0, 0.5).1, 1.0, &Labels::default()).unwrap());
        if size == WIDE {
            assert!(right.left > area.right)
        } else {
            assert!(right.top > area.bottom)
        }
        let points = curve(&els, &right);
        assert!(points.len() >= 100);
        for &p in &points {
            let f = |x: f64| log_evidence(t, phi, beta, x.exp());
            assert!(near_curve(&right, p, &f, 1.0), "{size:?}: ln p(t|α) off at pixel {p:?}");
        }
        let top = circle_at(&els, &right, "fill", palette::MEAN);
        assert!(lands_on(&right, top, (best.ln(), log_evidence(t, phi, beta, best)), 1.0), "{size:?}: α* at {top:?}");
        let ring = circle_at(&els, &right, "stroke", palette::INK);
        assert!(
            lands_on(&right, ring, (alpha.ln(), log_evidence(t, phi, beta, alpha)), 1.0),
            "{size:?}: α at {ring:?}"
        );
    }

    // Pruned (α = ∞): the ellipse is the noise circle itself.
    panel.set("pruned", "1").unwrap();
    let (svg, area) = panel_svg(panel.as_ref(), WIDE);
    let els = elements(&svg);
    let dx = pixel_size(&area).0;
    for p in on(&els, &area, "polyline", "stroke", palette::MEAN).iter().flat_map(|e| e.points()) {
        let (x, y) = to_data(&area, p);
        assert!((x.hypot(y) - 0.5).abs() <= 1.5 * dx, "pruned ellipse point {p:?}");
    }
}

// ---------------------------------------------------------------------------------------
// The lambda-curve panel (Fig 7.11).
// ---------------------------------------------------------------------------------------

#[test]
fn the_lambda_panel_draws_the_curve_beside_the_s_q2_plane() {
    let mut panel = open_panel("lambda-curve").unwrap();
    for (case, (s, q2)) in [("fig-7-11-left", (1.0, 4.0)), ("fig-7-11-right", (2.0, 1.0))] {
        panel.set("case", case).unwrap();
        for size in [WIDE, NARROW] {
            let (svg, area) = panel_svg(panel.as_ref(), size);
            let els = elements(&svg);
            assert_eq!((area.x_range, area.y_range), ((0.0, 5.0), (0.0, 5.0)), "the plane is the interactive chart");
            // The basis vector at (s, q²), rings at both textbook cases.
            let dot = circle_at(&els, &area, "fill", palette::DATA);
            assert!(lands_on(&area, dot, (s, q2), 1.0), "{case} {size:?}: dot at {dot:?}");
            let rings = on(&els, &area, "circle", "stroke", palette::SAMPLE);
            assert_eq!(rings.len(), 2);
            for want in [(1.0, 4.0), (2.0, 1.0)] {
                assert!(
                    rings.iter().any(|r| lands_on(&area, (r.num("cx"), r.num("cy")), want, 1.0)),
                    "ring at {want:?}"
                );
            }
            // Kept above q² = s: the shaded triangle and the dashed diagonal.
            let kept = on(&els, &area, "polygon", "fill", palette::MEAN);
            assert_eq!(kept.len(), 1);
            for (p, want) in kept[0].points().into_iter().zip([(0.0, 0.0), (5.0, 5.0), (0.0, 5.0)]) {
                assert!(lands_on(&area, p, want, 1.0), "{p:?} vs {want:?}");
            }
            let diagonal = on(&els, &area, "polyline", "stroke", palette::INK);
            let dashes: Vec<_> = diagonal.iter().filter(|e| e.num("stroke-width") == 2.0).collect();
            assert!(dashes.len() > 5);
            for p in dashes.iter().flat_map(|d| d.points()) {
                let (x, y) = to_data(&area, p);
                assert!((x - y).abs() <= 2.0 * pixel_size(&area).0.max(pixel_size(&area).1), "diagonal at {p:?}");
            }
            assert!(has_text(&els, "q² &gt; s: kept, α* = s²/(q² − s)") && has_text(&els, "q² ≤ s: pruned, α* = ∞"));
            // The λ curve lies left of (wide) or above (narrow) the plane.
            let lambda_curve: Vec<_> = els
                .iter()
                .filter(|e| e.tag == "polyline" && e.has_colour("stroke", palette::INK) && e.points().len() > 100)
                .collect();
            assert_eq!(lambda_curve.len(), 1, "{case} {size:?}");
            let pts = lambda_curve[0].points();
            if size == WIDE {
                assert!(pts.iter().all(|p| p.0 < area.left), "{case}: curve left of the plane");
            } else {
                assert!(pts.iter().all(|p| p.1 < area.top), "{case}: curve above the plane");
            }
            assert_eq!(has_text(&els, "α* = ∞"), case == "fig-7-11-right");
            assert_eq!(has_text(&els, "α* = 0.3333"), case == "fig-7-11-left");
        }
    }
}
