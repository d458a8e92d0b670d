#![cfg(not(target_arch = "wasm32"))]
//! The predictive chart (`rvm_lab::plot::predictive::draw`) rendered natively to an SVG
//! string with plotters' SVG backend, then read back element by element.
//!
//! Reference numbers come from outside the drawing code: a hand-built scene whose
//! curves are closed forms (bands clamped to the y range here, lines cut where they
//! leave it), the default panel's model recomputed densely in this file (data from
//! `Sinusoid`, Gaussian bumps evaluated by hand, S_N by LU inverse, PRML
//! 3.53/3.54/3.58/3.59), `sin 2πx` for the truth curve, and the `palette` constants
//! written as `#RRGGBB` (the SVG backend writes them uppercase; compared ignoring case).
//! Pixel positions read from the SVG are turned back into data with `PlotArea::to_data`
//! and must land within one pixel (plotters rounds to whole pixels; two for dash ends,
//! which it interpolates between rounded pixels) of the reference curves. `to_data`
//! itself is checked against the mesh lines in the SVG (which span exactly the plotting
//! area), its corners against the data ranges, and against the inverse linear map.

mod common;
use common::svg::{Element, elements, hex};
use nalgebra::{DMatrix, DVector};
use plotters::prelude::*;
use proptest::prelude::*;
use rvm_lab::app::Live;
use rvm_lab::app::panels::predictive::PredictivePanel;
use rvm_lab::basis::Family;
use rvm_lab::data::Sinusoid;
use rvm_lab::plot::PlotArea;
use rvm_lab::plot::palette;
use rvm_lab::plot::predictive::{Link, PredictiveScene, draw};

// ---------------------------------------------------------------------------------------
// Rendering and a minimal SVG reader.
// ---------------------------------------------------------------------------------------

fn render(scene: &PredictiveScene, size: (u32, u32), scale: f64) -> (String, PlotArea) {
    let mut svg = String::new();
    let area = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, scene, scale).expect("drawing to an SVG string succeeds")
    };
    (svg, area)
}

fn with<'a>(els: &'a [Element<'a>], tag: &str, attr: &str, colour: RGBColor) -> Vec<&'a Element<'a>> {
    els.iter().filter(|e| e.tag == tag && e.has_colour(attr, colour)).collect()
}

/// Data units per pixel along x and y.
fn pixel_size(area: &PlotArea) -> (f64, f64) {
    (
        (area.x_range.1 - area.x_range.0) / (area.right - area.left),
        (area.y_range.1 - area.y_range.0) / (area.bottom - area.top),
    )
}

/// Whether the curve y = f(x) passes within `tol` pixels (plus a hair) of pixel `p`: some
/// x' within `tol` pixels of the pixel's x has |f(x') − y| within `tol` pixels.
/// Vertices mapped straight from data are rounded once (tol = 1); dash ends, which
/// plotters interpolates between already-rounded pixels and rounds again, get tol = 2.
fn near_curve(area: &PlotArea, p: (f64, f64), f: &dyn Fn(f64) -> f64, tol: f64) -> bool {
    let (x, y) = area.to_data(p.0, p.1).unwrap_or_else(|| panic!("pixel {p:?} outside the plot {area:?}"));
    let (dx, dy) = pixel_size(area);
    (-40..=40).any(|k| {
        let xk = x + 1.01 * tol * dx * k as f64 / 40.0;
        (f(xk) - y).abs() <= 1.01 * tol * dy
    })
}

fn assert_polyline_on_curve(area: &PlotArea, pts: &[(f64, f64)], f: &dyn Fn(f64) -> f64, what: &str) {
    assert_points_near(area, pts, f, 1.0, what);
}

fn assert_points_near(area: &PlotArea, pts: &[(f64, f64)], f: &dyn Fn(f64) -> f64, tol: f64, what: &str) {
    for &p in pts {
        assert!(
            near_curve(area, p, f, tol),
            "{what}: pixel {p:?} (data {:?}) is off the curve",
            area.to_data(p.0, p.1)
        );
    }
}

/// Piecewise-linear interpolation of (grid, values).
fn interpolate(grid: &[f64], values: &[f64], x: f64) -> f64 {
    let i = grid.partition_point(|&g| g <= x).clamp(1, grid.len() - 1);
    let (x0, x1, y0, y1) = (grid[i - 1], grid[i], values[i - 1], values[i]);
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

/// Count of elements of each kind, and that the text labels are there.
fn assert_labels(els: &[Element]) {
    let texts: Vec<&str> = els.iter().filter(|e| e.tag == "text").map(|e| e.text).collect();
    assert_eq!(texts.iter().filter(|&&t| t == "x").count(), 1, "x axis label in {texts:?}");
    assert_eq!(texts.iter().filter(|&&t| t == "t").count(), 1, "t axis label in {texts:?}");
}

// ---------------------------------------------------------------------------------------
// The default panel, against a dense recomputation of its model.
// ---------------------------------------------------------------------------------------

/// The default panel's predictive mean and standard deviation, recomputed densely from
/// its settings: bias + M − 1 Gaussian bumps evenly spaced on [0, 1], S_N by LU inverse.
fn dense_default_model(panel: &Live<PredictivePanel>) -> impl Fn(f64) -> (f64, f64) {
    let s = panel.settings();
    assert_eq!(s.basis.spec.family, Family::Gaussian, "the default panel uses Gaussian bumps");
    assert!(s.data.extra.is_empty());
    let data = Sinusoid { n: s.data.n, noise: s.data.noise, seed: s.data.seed }.generate().unwrap();
    let (m, width, alpha, beta) = (s.basis.spec.m, s.basis.spec.width, s.precisions.alpha, s.precisions.beta);
    let centres: Vec<f64> = (0..m - 1).map(|j| j as f64 / (m - 2) as f64).collect();
    let phi_of = move |x: f64| {
        DVector::from_fn(
            m,
            |j, _| if j == 0 { 1.0 } else { (-(x - centres[j - 1]).powi(2) / (2.0 * width * width)).exp() },
        )
    };
    let rows: Vec<_> = data.x.iter().map(|&x| phi_of(x).transpose()).collect();
    let phi = DMatrix::from_rows(&rows);
    let s_n = (DMatrix::<f64>::identity(m, m) * alpha + phi.transpose() * &phi * beta).try_inverse().unwrap();
    let m_n = &s_n * phi.transpose() * DVector::from_column_slice(&data.t) * beta;
    move |x: f64| {
        let f = phi_of(x);
        (m_n.dot(&f), (1.0 / beta + f.dot(&(&s_n * &f))).sqrt())
    }
}

#[test]
fn default_panel_draws_every_series() {
    let panel = Live::<PredictivePanel>::try_default().unwrap();
    let scene = panel.panel().scene();
    let (svg, area) = render(scene, (640, 400), 1.0);
    let els = elements(&svg);
    let (y0, y1) = scene.y_range;
    let clamp = move |y: f64| y.clamp(y0, y1);
    let model = dense_default_model(&panel);
    let n_grid = scene.grid.len();
    assert!(n_grid > 100);

    // Bands: one polygon each, ±2σ under ±1σ, upper edge left to right then lower edge back.
    let band2 = with(&els, "polygon", "fill", palette::BAND_2);
    let band1 = with(&els, "polygon", "fill", palette::BAND_1);
    assert_eq!((band2.len(), band1.len()), (1, 1), "one polygon per band");
    assert!(svg.find(&hex(palette::BAND_2)).unwrap() < svg.find(&hex(palette::BAND_1)).unwrap(), "±2σ is drawn first");
    for (band, k) in [(band2[0], 2.0), (band1[0], 1.0)] {
        let pts = band.points();
        assert_eq!(pts.len(), 2 * n_grid, "±{k}σ polygon vertices");
        let upper = |x: f64| clamp(model(x).0 + k * model(x).1);
        let lower = |x: f64| clamp(model(x).0 - k * model(x).1);
        assert_polyline_on_curve(&area, &pts[..n_grid], &upper, &format!("+{k}σ edge"));
        assert_polyline_on_curve(&area, &pts[n_grid..], &lower, &format!("−{k}σ edge"));
    }

    // Lines are cut at the y range rather than flattened; in this scene they all stay
    // inside it, so each is a single unbroken polyline through the whole grid.
    let in_range = |ys: &[f64]| ys.iter().all(|y| (y0..=y1).contains(y));
    assert!(in_range(&scene.mean) && scene.samples.iter().all(|s| in_range(s)), "default curves fit the chart");

    // The mean line: one polyline through the grid, on the dense m_Nᵀφ(x).
    let mean = with(&els, "polyline", "stroke", palette::MEAN);
    assert_eq!(mean.len(), 1);
    assert_eq!(mean[0].points().len(), n_grid);
    assert_polyline_on_curve(&area, &mean[0].points(), &|x| model(x).0, "mean");

    // The truth: dashed, i.e. many short polylines, all on sin 2πx, with gaps between them.
    let truth = with(&els, "polyline", "stroke", palette::TRUTH);
    assert!(truth.len() > 20, "dashed truth curve has {} pieces", truth.len());
    for dash in &truth {
        assert_points_near(&area, &dash.points(), &Sinusoid::truth, 2.0, "truth");
    }
    for pair in truth.windows(2) {
        let (end, start) = (*pair[0].points().last().unwrap(), pair[1].points()[0]);
        let gap = ((start.0 - end.0).powi(2) + (start.1 - end.1).powi(2)).sqrt();
        assert!(gap >= 2.0, "dashes {end:?} → {start:?} have no gap");
    }
    assert_eq!(truth[0].points()[0].0, area.left, "truth starts at the left edge");
    assert!(area.right - truth.last().unwrap().points().last().unwrap().0 <= 10.0, "truth reaches the right edge");

    // One polyline per posterior sample, each through the whole grid, on its own values.
    let samples = with(&els, "polyline", "stroke", palette::SAMPLE);
    assert_eq!(samples.len(), scene.samples.len());
    assert_eq!(samples.len(), 5);
    for (line, values) in samples.iter().zip(&scene.samples) {
        assert_eq!(line.points().len(), n_grid);
        assert_polyline_on_curve(&area, &line.points(), &|x| interpolate(&scene.grid, values, x), "sample");
    }

    // One circle per data point, at the generated data.
    let s = panel.settings();
    let data = Sinusoid { n: s.data.n, noise: s.data.noise, seed: s.data.seed }.generate().unwrap();
    let circles = with(&els, "circle", "stroke", palette::DATA);
    assert_eq!(circles.len(), data.x.len());
    assert_eq!(els.iter().filter(|e| e.tag == "circle").count(), 10);
    let (dx, dy) = pixel_size(&area);
    for (xn, tn) in data.x.iter().zip(&data.t) {
        let hit = circles.iter().any(|c| {
            let (x, t) = area.to_data(c.num("cx"), c.num("cy")).unwrap();
            (x - xn).abs() <= 1.01 * dx && (t - tn).abs() <= 1.01 * dy
        });
        assert!(hit, "no circle at ({xn}, {tn})");
    }
    assert_labels(&els);
}

// ---------------------------------------------------------------------------------------
// A hand-built scene with closed-form curves (some clamped at the top of the y range).
// ---------------------------------------------------------------------------------------

const HAND_X: (f64, f64) = (-1.0, 3.0);
const HAND_Y: (f64, f64) = (-2.0, 6.0);

fn hand_mean(x: f64) -> f64 {
    1.0 + x
}
/// Grows with x, so that mean + 2σ leaves the y range (9 > 6 at x = 3) and is clamped.
fn hand_sd(x: f64) -> f64 {
    0.5 + 0.5 * (x + 1.0)
}
fn hand_truth(x: f64) -> f64 {
    2.0 - 0.5 * x
}
fn hand_sample(k: usize, x: f64) -> f64 {
    0.3 * k as f64 + 0.8 * x - 1.0
}

fn hand_scene(with_truth: bool, n_samples: usize, points: Vec<(f64, f64)>) -> PredictiveScene {
    let grid: Vec<f64> = (0..=40).map(|i| -1.0 + 0.1 * i as f64).collect();
    PredictiveScene {
        x_range: HAND_X,
        y_range: HAND_Y,
        points,
        truth: if with_truth {
            (0..=80).map(|i| -1.0 + 0.05 * i as f64).map(|x| (x, hand_truth(x))).collect()
        } else {
            vec![]
        },
        mean: grid.iter().map(|&x| hand_mean(x)).collect(),
        std_dev: grid.iter().map(|&x| hand_sd(x)).collect(),
        samples: (0..n_samples).map(|k| grid.iter().map(|&x| hand_sample(k, x)).collect()).collect(),
        grid,
        link: Link::Identity,
    }
}

fn hand_points() -> Vec<(f64, f64)> {
    vec![(-1.0, -2.0), (0.0, 0.5), (0.25, 1.75), (1.0, 3.0), (2.2, -1.5), (3.0, 6.0), (2.9, 4.4)]
}

#[test]
fn hand_built_scene_draws_every_series() {
    let scene = hand_scene(true, 3, hand_points());
    let (svg, area) = render(&scene, (800, 500), 1.0);
    let els = elements(&svg);
    let clamp = |y: f64| y.clamp(HAND_Y.0, HAND_Y.1);

    for (colour, k) in [(palette::BAND_2, 2.0), (palette::BAND_1, 1.0)] {
        let band = with(&els, "polygon", "fill", colour);
        assert_eq!(band.len(), 1);
        let pts = band[0].points();
        assert_eq!(pts.len(), 82);
        assert_polyline_on_curve(&area, &pts[..41], &|x| clamp(hand_mean(x) + k * hand_sd(x)), "upper band");
        assert_polyline_on_curve(&area, &pts[41..], &|x| clamp(hand_mean(x) - k * hand_sd(x)), "lower band");
    }
    // The clamped +2σ edge runs along the top of the plot: 1 + x + 2(0.5 + 0.5(x + 1)) =
    // 3 + 2x ≥ 6 for x ≥ 1.5, i.e. grid points 25..=40 sit on pixel row `top` (x = 1.4
    // gives 5.8, a dozen pixels lower).
    let top_row =
        with(&els, "polygon", "fill", palette::BAND_2)[0].points()[..41].iter().filter(|p| p.1 == area.top).count();
    assert_eq!(top_row, 16, "clamped vertices on the top edge");

    let mean = with(&els, "polyline", "stroke", palette::MEAN);
    assert_eq!(mean.len(), 1);
    assert_eq!(mean[0].points().len(), 41);
    assert_polyline_on_curve(&area, &mean[0].points(), &hand_mean, "mean");
    assert_eq!(mean[0].num("stroke-width"), 3.0, "2.5 CSS px, rounded");

    let truth = with(&els, "polyline", "stroke", palette::TRUTH);
    assert!(truth.len() > 20);
    for dash in &truth {
        assert_points_near(&area, &dash.points(), &hand_truth, 2.0, "truth");
    }

    let samples = with(&els, "polyline", "stroke", palette::SAMPLE);
    assert_eq!(samples.len(), 3);
    for (k, line) in samples.iter().enumerate() {
        assert_eq!(line.points().len(), 41);
        assert_polyline_on_curve(&area, &line.points(), &|x| hand_sample(k, x), &format!("sample {k}"));
    }

    let circles = with(&els, "circle", "stroke", palette::DATA);
    assert_eq!(circles.len(), 7);
    let (dx, dy) = pixel_size(&area);
    for (c, &(x, t)) in circles.iter().zip(&hand_points()) {
        let (px, pt) = area.to_data(c.num("cx"), c.num("cy")).unwrap();
        assert!((px - x).abs() <= 1.01 * dx && (pt - t).abs() <= 1.01 * dy, "circle at ({px}, {pt}) for ({x}, {t})");
        assert_eq!(c.num("r"), 4.0);
    }
    // The corner points sit exactly on the corners of the plotting area.
    assert_eq!((circles[0].num("cx"), circles[0].num("cy")), (area.left, area.bottom));
    assert_eq!((circles[5].num("cx"), circles[5].num("cy")), (area.right, area.top));
    assert_labels(&els);
}

#[test]
fn lines_leaving_the_range_are_cut_not_flattened() {
    // y = 3x² − 4 on [−1, 3] with y shown on [−2, 6]: visible for x² ∈ [2/3, 10/3], i.e. on
    // [−1, −0.816] and [0.816, 1.826], so two pieces, each on the parabola, none running
    // along the top or bottom edge.
    let wild = |x: f64| 3.0 * x * x - 4.0;
    let mut scene = hand_scene(false, 0, vec![]);
    scene.samples = vec![scene.grid.iter().map(|&x| wild(x)).collect()];
    scene.mean = scene.grid.iter().map(|&x| wild(x) + 0.5).collect();
    let (svg, area) = render(&scene, (800, 500), 1.0);
    let els = elements(&svg);
    for (colour, f) in [(palette::SAMPLE, &wild as &dyn Fn(f64) -> f64), (palette::MEAN, &|x: f64| wild(x) + 0.5)] {
        let pieces = with(&els, "polyline", "stroke", colour);
        assert_eq!(pieces.len(), 2, "two visible pieces");
        for piece in &pieces {
            let pts = piece.points();
            assert!(pts.len() >= 2);
            assert_polyline_on_curve(&area, &pts, f, "clipped line");
            for pair in pts.windows(2) {
                let on_edge = |p: (f64, f64)| p.1 == area.top || p.1 == area.bottom;
                assert!(!(on_edge(pair[0]) && on_edge(pair[1])), "flattened along an edge: {pair:?}");
            }
        }
        // The first piece starts at the left edge; the second spans about x ∈ [0.816, 1.826].
        let (a, b) = (pieces[0].points(), pieces[1].points());
        assert_eq!(a[0].0, area.left);
        let span = (
            area.to_data(b[0].0, b[0].1).unwrap().0,
            area.to_data(b.last().unwrap().0, b.last().unwrap().1).unwrap().0,
        );
        let (lo, hi) = if colour == palette::SAMPLE {
            ((2.0f64 / 3.0).sqrt(), (10.0f64 / 3.0).sqrt())
        } else {
            ((1.5f64 / 3.0).sqrt(), (9.5f64 / 3.0).sqrt())
        };
        let (dx, _) = pixel_size(&area);
        assert!(
            (span.0 - lo).abs() <= 2.0 * dx && (span.1 - hi).abs() <= 2.0 * dx,
            "second piece {span:?} vs ({lo}, {hi})"
        );
    }
}

#[test]
fn empty_series_draw_nothing() {
    let scene = hand_scene(false, 0, vec![]);
    let (svg, _) = render(&scene, (500, 300), 1.0);
    let els = elements(&svg);
    assert!(with(&els, "polyline", "stroke", palette::TRUTH).is_empty());
    assert!(with(&els, "polyline", "stroke", palette::SAMPLE).is_empty());
    assert_eq!(els.iter().filter(|e| e.tag == "circle").count(), 0);
    assert_eq!(with(&els, "polyline", "stroke", palette::MEAN).len(), 1);
    assert_labels(&els);
}

#[test]
fn lengths_scale_with_the_device_pixel_ratio() {
    // Twice the pixels at scale 2: the plot area doubles (up to the last-pixel offset) and
    // strokes and markers are twice as wide (2.5 → 5, radius 4 → 8).
    let scene = hand_scene(true, 1, hand_points());
    let (_, a1) = render(&scene, (800, 500), 1.0);
    let (svg2, a2) = render(&scene, (1600, 1000), 2.0);
    assert_eq!((a2.left, a2.top), (2.0 * a1.left, 2.0 * a1.top));
    assert_eq!((a2.right + 1.0, a2.bottom + 1.0), (2.0 * (a1.right + 1.0), 2.0 * (a1.bottom + 1.0)));
    let els = elements(&svg2);
    assert_eq!(with(&els, "polyline", "stroke", palette::MEAN)[0].num("stroke-width"), 5.0);
    assert!(with(&els, "circle", "stroke", palette::DATA).iter().all(|c| c.num("r") == 8.0));
}

// ---------------------------------------------------------------------------------------
// PlotArea: where the plot landed, and pixel → data.
// ---------------------------------------------------------------------------------------

fn assert_pair_close(got: Option<(f64, f64)>, want: (f64, f64), what: &str) {
    let (x, y) = got.unwrap_or_else(|| panic!("{what}: None"));
    let tol = 1e-12 * (1.0 + want.0.abs().max(want.1.abs()));
    assert!((x - want.0).abs() <= tol && (y - want.1).abs() <= tol, "{what}: ({x}, {y}) vs {want:?}");
}

fn check_area(scene: &PredictiveScene, size: (u32, u32)) {
    let (svg, area) = render(scene, size, 1.0);
    let (w, h) = (f64::from(size.0), f64::from(size.1));
    // Inside the canvas, with room for the labels left and below.
    assert!(0.0 < area.left && area.left + 100.0 < area.right && area.right < w, "{area:?} in {w} × {h}");
    assert!(0.0 < area.top && area.top + 50.0 < area.bottom && area.bottom < h, "{area:?} in {w} × {h}");
    assert_eq!((area.x_range, area.y_range), (scene.x_range, scene.y_range));

    // The mesh lines of the SVG span exactly the plotting area.
    let els = elements(&svg);
    let lines: Vec<_> = els.iter().filter(|e| e.tag == "line").collect();
    assert!(lines.len() > 10);
    for l in lines {
        let (x1, y1, x2, y2) = (l.num("x1"), l.num("y1"), l.num("x2"), l.num("y2"));
        if x1 == x2 {
            assert_eq!((y1.min(y2), y1.max(y2)), (area.top, area.bottom), "vertical mesh line at x = {x1}");
            assert!((area.left..=area.right).contains(&x1));
        } else {
            assert_eq!(y1, y2);
            assert_eq!((x1.min(x2), x1.max(x2)), (area.left, area.right), "horizontal mesh line at y = {y1}");
        }
    }

    // Corners: left is x₀, right x₁, bottom y₀, top y₁ (y grows upward in data).
    let (x0, x1) = scene.x_range;
    let (y0, y1) = scene.y_range;
    assert_pair_close(area.to_data(area.left, area.top), (x0, y1), "top left");
    assert_pair_close(area.to_data(area.right, area.top), (x1, y1), "top right");
    assert_pair_close(area.to_data(area.left, area.bottom), (x0, y0), "bottom left");
    assert_pair_close(area.to_data(area.right, area.bottom), (x1, y0), "bottom right");
    let (cx, cy) = (0.5 * (area.left + area.right), 0.5 * (area.top + area.bottom));
    assert_pair_close(area.to_data(cx, cy), (0.5 * (x0 + x1), 0.5 * (y0 + y1)), "centre");

    // Outside the plotting area (margins, label areas, off-canvas, NaN): None.
    for (px, py) in [
        (area.left - 1.0, cy),
        (area.right + 1.0, cy),
        (cx, area.top - 1.0),
        (cx, area.bottom + 1.0),
        (area.left - 0.01, area.top),
        (area.right + 0.01, area.bottom),
        (5.0, 5.0),
        (w - 1.0, h - 1.0),
        (-100.0, cy),
        (f64::NAN, cy),
        (cx, f64::NAN),
    ] {
        assert_eq!(area.to_data(px, py), None, "pixel ({px}, {py}) is outside {area:?}");
    }
}

#[test]
fn plot_area_corners_map_to_the_data_range() {
    check_area(Live::<PredictivePanel>::try_default().unwrap().panel().scene(), (640, 400));
    check_area(&hand_scene(true, 2, hand_points()), (800, 500));
    check_area(&hand_scene(false, 0, vec![]), (333, 222));
}

proptest! {
    /// to_data inverts the linear map data → pixel of the rectangle, and refuses pixels
    /// outside it.
    #[test]
    fn to_data_inverts_the_linear_pixel_map(
        left in 0.0f64..200.0, top in 0.0f64..200.0,
        width in 10.0f64..2000.0, height in 10.0f64..2000.0,
        x0 in -100.0f64..100.0, xw in 1e-3f64..1e3,
        y0 in -100.0f64..100.0, yw in 1e-3f64..1e3,
        fx in 0.0f64..=1.0, fy in 0.0f64..=1.0,
        outside in 1e-6f64..50.0,
    ) {
        let area = PlotArea {
            left, top, right: left + width, bottom: top + height,
            x_range: (x0, x0 + xw), y_range: (y0, y0 + yw),
        };
        let (x, y) = (x0 + fx * xw, y0 + fy * yw);
        let (px, py) = (left + (x - x0) / xw * width, top + height - (y - y0) / yw * height);
        if (left..=left + width).contains(&px) && (top..=top + height).contains(&py) {
            let (gx, gy) = area.to_data(px, py).expect("inside");
            prop_assert!((gx - x).abs() <= 1e-9 * (1.0 + x.abs() + xw), "x: {gx} vs {x}");
            prop_assert!((gy - y).abs() <= 1e-9 * (1.0 + y.abs() + yw), "y: {gy} vs {y}");
        }
        prop_assert_eq!(area.to_data(left - outside, top), None);
        prop_assert_eq!(area.to_data(left + width + outside, top), None);
        prop_assert_eq!(area.to_data(left, top - outside), None);
        prop_assert_eq!(area.to_data(left, top + height + outside), None);
    }
}
