#![cfg(not(target_arch = "wasm32"))]
//! The four panels of F1–F4 (basis, least-squares, gradient-descent, regularisation) drawn
//! through `PanelModel::draw` to an SVG string with the page's SVG backend, at a wide
//! (1100 × 600) and a narrow (360 × 900) size, then read back element by element: every
//! series is there, in its colour, in the right chart, at the right pixels.
//!
//! Where the expected numbers come from (never from the views under test):
//! - Counts: the panels' settings and the models' definitions — M curves for M basis
//!   functions (M = N + bias for the kernel family), a handle on each centre of a centred
//!   family, N circles for N generated points, one update per epoch for batch GD, N for
//!   SGD and ⌈N/b⌉ for mini-batch GD (so iterations + 1 vertices per loss curve and per
//!   path), M coefficient paths per path chart, and the charts each panel's module
//!   documentation lists (1, 2, 5 and 3).
//! - Values, recomputed densely here: data from `Sinusoid { n, noise, seed }`; basis
//!   functions from their formulas with evenly spaced centres j/(K − 1); w_ML from the
//!   normal equations (Cholesky) for the cubic and the line, and from an SVD solve for the
//!   error curve over M = 1..=12 (train and test RMS, the held-out set being the one the
//!   least-squares panel documents: 100 points with seed + 1 000 003); batch GD from its
//!   update w ← w − ηΦᵀ(Φw − t) from w = 0; E(w) = ½‖t − Φw‖² for the loss floor, the
//!   loss curves and the order of the error bands; ridge from (ΦᵀΦ + λI)w = Φᵀt; lasso by
//!   coordinate descent, with λ_max = ‖Φᵀt‖∞ above which it is 0; sin 2πx for the truth;
//!   colours from the `palette` constants and the gradient panel's #0072B2, #D55E00,
//!   #CC79A7 (the SVG backend writes uppercase hex, compared ignoring case).
//! - Pixels: turned back into data with the `PlotArea` that `draw` returns (the
//!   interactive chart) or, for the other charts, with one built from the chart's mesh
//!   lines (which span exactly its plotting area) and either ranges known from the
//!   definitions (M from 0.5 to 12.5 and E_RMS from 0 to 1.5, ln λ from −12 to 5, x
//!   from 0 to 1), checked against the chart's numeric tick labels to a pixel, or, when
//!   the range depends on the data, a straight-line fit of the tick labels' values to
//!   their pixels. Tolerances: one pixel for points mapped straight from data (plotters
//!   rounds to whole pixels), two for dash ends (interpolated between rounded pixels)
//!   and for anything read through a range fitted to rounded tick positions.
//! - For every panel, at both sizes: the returned area is the mesh of one chart and its
//!   corners map back to its data ranges; the charts sit side by side when wide and are
//!   stacked full width when narrow; no attribute or text contains NaN or inf.

mod common;
use common::svg::{Element, elements, hex};
use nalgebra::{DMatrix, DVector, RowDVector};
use plotters::prelude::*;
use rvm_lab::app::panels::basis::BasisPanel;
use rvm_lab::app::panels::gradient_descent::GradientPanel;
use rvm_lab::app::panels::least_squares::LeastSquaresPanel;
use rvm_lab::app::panels::regularisation::RegularisationPanel;
use rvm_lab::app::{Live, PanelModel, open_panel};
use rvm_lab::backend::PageBackend;
use rvm_lab::basis::Family;
use rvm_lab::data::{Dataset, Sinusoid};
use rvm_lab::palette::Look;
use rvm_lab::plot::{Labels, PlotArea, palette};
use rvm_lab::solver::Budget;

const WIDE: (u32, u32) = (1100, 600);
const NARROW: (u32, u32) = (360, 900);
const SIZES: [(u32, u32); 2] = [WIDE, NARROW];

/// Colours of BGD, SGD and MBGD in the gradient-descent panel.
const GD_COLOURS: [RGBColor; 3] = [RGBColor(0x00, 0x72, 0xB2), RGBColor(0xD5, 0x5E, 0x00), RGBColor(0xCC, 0x79, 0xA7)];
/// Their titles.
const GD_NAMES: [&str; 3] = ["BGD", "SGD", "MBGD"];

// ---------------------------------------------------------------------------------------
// Rendering and a minimal SVG reader (as in chart_svg.rs).
// ---------------------------------------------------------------------------------------

/// Draws `panel` at `size` (scale 1, English labels); the SVG and the interactive area.
fn render(panel: &dyn PanelModel, size: (u32, u32)) -> (String, PlotArea) {
    let mut svg = String::new();
    let area = {
        let root = PageBackend::svg(&mut svg, size, Look::Screen).into_drawing_area();
        panel.draw(&root, 1.0, &Labels::default()).expect("drawing to an SVG string succeeds")
    };
    for bad in ["NaN", "inf"] {
        if let Some(at) = svg.find(bad) {
            panic!("{bad} in the SVG at {size:?}: …{}…", &svg[at.saturating_sub(120)..(at + 40).min(svg.len())]);
        }
    }
    (svg, area)
}

/// Elements `tag` whose `attr` is `colour` and which lie wholly on the plotting area `rect`.
fn within<'a>(els: &'a [Element<'a>], rect: &Rect, tag: &str, attr: &str, colour: RGBColor) -> Vec<&'a Element<'a>> {
    els.iter().filter(|e| e.tag == tag && e.has_colour(attr, colour) && rect.holds_all(&e.anchors())).collect()
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

/// Whether the curve y = f(x) passes within `tol` pixels (plus a hair) of pixel `p`: some
/// x' within `tol` pixels of the pixel's x has |f(x') − y| within `tol` pixels.
fn near_curve(area: &PlotArea, p: (f64, f64), f: &dyn Fn(f64) -> f64, tol: f64) -> bool {
    let (x, y) = to_data(area, p);
    let (dx, dy) = pixel_size(area);
    (-40..=40).any(|k| {
        let xk = x + 1.01 * tol * dx * f64::from(k) / 40.0;
        (f(xk) - y).abs() <= 1.01 * tol * dy
    })
}

fn assert_points_near(area: &PlotArea, pts: &[(f64, f64)], f: &dyn Fn(f64) -> f64, tol: f64, what: &str) {
    assert!(!pts.is_empty(), "{what}: no points");
    for &p in pts {
        assert!(
            near_curve(area, p, f, tol),
            "{what}: pixel {p:?} (data {:?}) is off the curve",
            area.to_data(p.0, p.1)
        );
    }
}

/// Whether pixel `p` maps to within `tol` pixels of the data point `want` (both axes).
fn lands_on(area: &PlotArea, p: (f64, f64), want: (f64, f64), tol: f64) -> bool {
    let (x, y) = to_data(area, p);
    let (dx, dy) = pixel_size(area);
    (x - want.0).abs() <= 1.01 * tol * dx && (y - want.1).abs() <= 1.01 * tol * dy
}

/// Piecewise-linear interpolation of the points (xs, ys), xs increasing.
fn interpolate(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let i = xs.partition_point(|&g| g <= x).clamp(1, xs.len() - 1);
    let (x0, x1, y0, y1) = (xs[i - 1], xs[i], ys[i - 1], ys[i]);
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

// ---------------------------------------------------------------------------------------
// Charts found in the SVG: plotting areas from the mesh, ranges from the tick labels.
// ---------------------------------------------------------------------------------------

/// A plotting area in pixels, edges included.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Rect {
    fn of(area: &PlotArea) -> Self {
        Self { left: area.left, top: area.top, right: area.right, bottom: area.bottom }
    }

    fn holds(&self, (x, y): (f64, f64)) -> bool {
        (self.left..=self.right).contains(&x) && (self.top..=self.bottom).contains(&y)
    }

    fn holds_all(&self, pts: &[(f64, f64)]) -> bool {
        !pts.is_empty() && pts.iter().all(|&p| self.holds(p))
    }

    /// The chart on this rectangle with the given data ranges.
    fn with_ranges(self, x_range: (f64, f64), y_range: (f64, f64)) -> PlotArea {
        PlotArea { left: self.left, top: self.top, right: self.right, bottom: self.bottom, x_range, y_range }
    }
}

/// Whether `e` is a mesh line: a translucent `<line>` in the ink colour (the only other
/// `<line>`s, the least-squares cross, are opaque).
fn is_mesh(e: &Element) -> bool {
    e.tag == "line" && e.has_colour("stroke", palette::INK) && e.num("opacity") < 1.0
}

/// The plotting area of every chart, in drawing order. Each chart draws its mesh as one
/// run of `<line>`s (light lines, the x-axis name, bold lines; then its axes and labels),
/// the vertical lines spanning exactly its top to bottom and the horizontal ones its left
/// to right.
fn charts(els: &[Element]) -> Vec<Rect> {
    let mut rects = vec![];
    let mut i = 0;
    while i < els.len() {
        if !is_mesh(&els[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        while i < els.len() && (is_mesh(&els[i]) || els[i].tag == "text") {
            if is_mesh(&els[i]) {
                end = i + 1;
            }
            i += 1;
        }
        i = end;
        let (mut x_spans, mut y_spans) = (vec![], vec![]);
        for line in els[start..end].iter().filter(|e| is_mesh(e)) {
            let (x1, y1, x2, y2) = (line.num("x1"), line.num("y1"), line.num("x2"), line.num("y2"));
            if x1 == x2 {
                y_spans.push((y1.min(y2), y1.max(y2)));
            } else {
                assert_eq!(y1, y2, "mesh lines are horizontal or vertical: {line:?}");
                x_spans.push((x1.min(x2), x1.max(x2)));
            }
        }
        assert!(!x_spans.is_empty() && !y_spans.is_empty(), "a mesh has lines both ways");
        assert!(x_spans.iter().all(|s| *s == x_spans[0]), "one chart's horizontal lines share their span");
        assert!(y_spans.iter().all(|s| *s == y_spans[0]), "one chart's vertical lines share their span");
        rects.push(Rect { left: x_spans[0].0, right: x_spans[0].1, top: y_spans[0].0, bottom: y_spans[0].1 });
    }
    rects
}

/// The numeric tick labels of the chart on `rect`: (pixel x, value) under the x axis and
/// (pixel y, value) left of the y axis.
type Ticks = Vec<(f64, f64)>;

fn ticks(els: &[Element], rect: &Rect) -> (Ticks, Ticks) {
    let (mut along_x, mut along_y) = (vec![], vec![]);
    for e in els.iter().filter(|e| e.tag == "text") {
        let Ok(value) = e.text.parse::<f64>() else { continue };
        let (x, y) = (e.num("x"), e.num("y"));
        match (e.attr("text-anchor"), e.attr("dy")) {
            (Some("middle"), Some("0.76em"))
                if (rect.left - 1.0..=rect.right + 1.0).contains(&x) && rect.bottom < y && y <= rect.bottom + 25.0 =>
            {
                along_x.push((x, value));
            }
            (Some("end"), Some("0.5ex"))
                if rect.left - 25.0 <= x && x < rect.left && (rect.top - 1.0..=rect.bottom + 1.0).contains(&y) =>
            {
                along_y.push((y, value));
            }
            _ => {}
        }
    }
    (along_x, along_y)
}

/// value = a + b·pixel through the labelled ticks (least squares), at pixels p0 and p1.
fn fit_ticks(ticks: &[(f64, f64)], p0: f64, p1: f64) -> (f64, f64) {
    assert!(ticks.len() >= 2, "too few tick labels to read a range: {ticks:?}");
    let n = ticks.len() as f64;
    let mp = ticks.iter().map(|t| t.0).sum::<f64>() / n;
    let mv = ticks.iter().map(|t| t.1).sum::<f64>() / n;
    let sxy: f64 = ticks.iter().map(|(p, v)| (p - mp) * (v - mv)).sum();
    let sxx: f64 = ticks.iter().map(|(p, _)| (p - mp).powi(2)).sum();
    let at = |p: f64| mv + sxy / sxx * (p - mp);
    (at(p0), at(p1))
}

/// The chart on `rect` with both ranges read off its tick labels.
fn labelled(els: &[Element], rect: &Rect) -> PlotArea {
    let (along_x, along_y) = ticks(els, rect);
    rect.with_ranges(fit_ticks(&along_x, rect.left, rect.right), fit_ticks(&along_y, rect.bottom, rect.top))
}

/// Every numeric tick label of the chart sits within a pixel of its value (at least two
/// along each axis).
fn assert_ticks_agree(els: &[Element], area: &PlotArea, what: &str) {
    let (along_x, along_y) = ticks(els, &Rect::of(area));
    assert!(along_x.len() >= 2 && along_y.len() >= 2, "{what}: tick labels {along_x:?} {along_y:?}");
    let (cx, cy) = (0.5 * (area.left + area.right), 0.5 * (area.top + area.bottom));
    let (dx, dy) = pixel_size(area);
    for (px, value) in along_x {
        let x = to_data(area, (px, cy)).0;
        assert!((x - value).abs() <= 1.01 * dx, "{what}: x tick {value} at pixel {px} reads {x}");
    }
    for (py, value) in along_y {
        let y = to_data(area, (cx, py)).1;
        assert!((y - value).abs() <= 1.01 * dy, "{what}: y tick {value} at pixel {py} reads {y}");
    }
}

/// A range read off the labels is within `tol` pixels of the expected one at both ends.
fn assert_range_near(area: &PlotArea, got: (f64, f64), want: (f64, f64), per_pixel: f64, tol: f64, what: &str) {
    let ok = (got.0 - want.0).abs() <= tol * per_pixel && (got.1 - want.1).abs() <= tol * per_pixel;
    assert!(ok, "{what}: range {got:?}, expected {want:?} ({area:?})");
}

fn assert_pair_close(got: Option<(f64, f64)>, want: (f64, f64), what: &str) {
    let (x, y) = got.unwrap_or_else(|| panic!("{what}: None"));
    let tol = 1e-12 * (1.0 + want.0.abs().max(want.1.abs()));
    assert!((x - want.0).abs() <= tol && (y - want.1).abs() <= tol, "{what}: ({x}, {y}) vs {want:?}");
}

/// The returned area's corners map back to its data ranges (y grows upward in data), its
/// centre to the middle, and pixels just outside it to nothing.
fn assert_corners(area: &PlotArea, size: (u32, u32)) {
    let (w, h) = (f64::from(size.0), f64::from(size.1));
    assert!(0.0 < area.left && area.left + 100.0 < area.right && area.right < w, "{area:?} in {size:?}");
    assert!(0.0 < area.top && area.top + 50.0 < area.bottom && area.bottom < h, "{area:?} in {size:?}");
    let (x0, x1) = area.x_range;
    let (y0, y1) = area.y_range;
    assert!(x0 < x1 && y0 < y1 && [x0, x1, y0, y1].iter().all(|v| v.is_finite()), "{area:?}");
    assert_pair_close(area.to_data(area.left, area.top), (x0, y1), "top left");
    assert_pair_close(area.to_data(area.right, area.top), (x1, y1), "top right");
    assert_pair_close(area.to_data(area.left, area.bottom), (x0, y0), "bottom left");
    assert_pair_close(area.to_data(area.right, area.bottom), (x1, y0), "bottom right");
    let (cx, cy) = (0.5 * (area.left + area.right), 0.5 * (area.top + area.bottom));
    assert_pair_close(area.to_data(cx, cy), (0.5 * (x0 + x1), 0.5 * (y0 + y1)), "centre");
    for (px, py) in [(area.left - 1.0, cy), (area.right + 1.0, cy), (cx, area.top - 1.0), (cx, area.bottom + 1.0)] {
        assert_eq!(area.to_data(px, py), None, "pixel ({px}, {py}) is outside {area:?}");
    }
}

/// The one element of `found`, with a message naming what was looked for.
fn only<'a>(found: Vec<&'a Element<'a>>, what: &str) -> &'a Element<'a> {
    assert_eq!(found.len(), 1, "{what}: {found:?}");
    found[0]
}

/// A bold title `text` above the chart on `rect`, at its right end.
fn assert_title(els: &[Element], rect: &Rect, text: &str) {
    let titles: Vec<_> = els.iter().filter(|e| e.tag == "text" && e.text == text).collect();
    let title = only(titles, &format!("title {text}"));
    assert_eq!(title.attr("font-weight"), Some("bold"), "{title:?}");
    let (x, y) = (title.num("x"), title.num("y"));
    assert!(rect.top - 30.0 <= y && y < rect.top && (x - rect.right).abs() <= 2.0, "{text} at ({x}, {y}) for {rect:?}");
}

/// Circles on `rect` of `colour`, one at each data point (within `tol` pixels).
fn assert_circles_at(area: &PlotArea, circles: &[&Element], data: &Dataset, tol: f64, what: &str) {
    assert_eq!(circles.len(), data.len(), "{what}: one circle per point");
    for (x, t) in data.x.iter().zip(&data.t) {
        let hit = circles.iter().any(|c| lands_on(area, (c.num("cx"), c.num("cy")), (*x, *t), tol));
        assert!(hit, "{what}: no circle at ({x}, {t})");
    }
}

/// Splits polylines into dashes (at most 10 pixels long) and the rest.
fn split_dashes<'a>(lines: Vec<&'a Element<'a>>) -> (Vec<&'a Element<'a>>, Vec<&'a Element<'a>>) {
    let length = |e: &Element| e.points().windows(2).map(|p| (p[1].0 - p[0].0).hypot(p[1].1 - p[0].1)).sum::<f64>();
    lines.into_iter().partition(|e| length(e) <= 10.0)
}

/// A dashed curve: many short polylines on `f`, with gaps between them.
fn assert_dashed_on(area: &PlotArea, dashes: &[&Element], f: &dyn Fn(f64) -> f64, tol: f64, what: &str) {
    assert!(dashes.len() > 10, "{what}: dashed curve has {} pieces", dashes.len());
    for dash in dashes {
        assert_points_near(area, &dash.points(), f, tol, what);
    }
    let gaps = dashes.windows(2).filter(|pair| {
        let (end, start) = (*pair[0].points().last().unwrap(), pair[1].points()[0]);
        (start.0 - end.0).hypot(start.1 - end.1) >= 2.0
    });
    assert!(gaps.count() + 1 >= dashes.len(), "{what}: dashes without gaps");
}

/// The charts' layout: narrow, all span the full width, stacked top to bottom without
/// overlapping; wide with several charts, at least two side by side.
fn assert_layout(rects: &[Rect], size: (u32, u32)) {
    if size == NARROW {
        assert!(rects.iter().all(|r| (r.left, r.right) == (rects[0].left, rects[0].right)), "stacked: {rects:?}");
        let mut sorted = rects.to_vec();
        sorted.sort_by(|a, b| a.top.total_cmp(&b.top));
        assert!(sorted.windows(2).all(|p| p[0].bottom < p[1].top), "stacked without overlap: {rects:?}");
    } else if rects.len() > 1 {
        let side_by_side = rects.iter().any(|a| rects.iter().any(|b| a.right < b.left && a.bottom > b.top));
        assert!(side_by_side, "wide charts sit side by side: {rects:?}");
    }
}

// ---------------------------------------------------------------------------------------
// The models, recomputed densely.
// ---------------------------------------------------------------------------------------

fn generated(n: usize, noise: f64, seed: u64) -> Dataset {
    Sinusoid { n, noise, seed }.generate().unwrap()
}

/// k centres evenly spaced on [0, 1], ends included (one: the middle).
fn evenly(k: usize) -> Vec<f64> {
    match k {
        0 => vec![],
        1 => vec![0.5],
        _ => (0..k).map(|j| j as f64 / (k - 1) as f64).collect(),
    }
}

fn gaussian(x: f64, mu: f64, s: f64) -> f64 {
    (-(x - mu).powi(2) / (2.0 * s * s)).exp()
}

type Features = Box<dyn Fn(f64) -> DVector<f64>>;

/// φ(x) = (1?, exp(−(x − μⱼ)²/2s²) …).
fn gaussian_features(centres: Vec<f64>, s: f64, bias: bool) -> Features {
    let b = usize::from(bias);
    Box::new(move |x| {
        DVector::from_fn(b + centres.len(), |j, _| if j < b { 1.0 } else { gaussian(x, centres[j - b], s) })
    })
}

/// φ(x) = (1, x, …, x^(M−1)) with the bias, (x, …, x^M) without.
fn polynomial_features(m: usize, bias: bool) -> Features {
    let first = i32::from(!bias);
    Box::new(move |x| DVector::from_fn(m, |j, _| x.powi(first + j as i32)))
}

fn design(x: &[f64], features: &Features) -> DMatrix<f64> {
    let rows: Vec<RowDVector<f64>> = x.iter().map(|&xn| features(xn).transpose()).collect();
    DMatrix::from_rows(&rows)
}

/// (ΦᵀΦ + λI)w = Φᵀt by Cholesky (λ = 0: the normal equations of least squares).
fn normal_equations(phi: &DMatrix<f64>, t: &DVector<f64>, lambda: f64) -> DVector<f64> {
    let m = phi.ncols();
    let gram = phi.transpose() * phi + DMatrix::<f64>::identity(m, m) * lambda;
    gram.cholesky().expect("ΦᵀΦ + λI is positive definite").solve(&(phi.transpose() * t))
}

/// The minimum-norm least-squares solution by SVD, singular values below
/// max(N, M)·ε·σ_max counted as zero.
fn svd_least_squares(phi: &DMatrix<f64>, t: &DVector<f64>) -> DVector<f64> {
    let svd = phi.clone().svd(true, true);
    let cutoff = phi.nrows().max(phi.ncols()) as f64 * f64::EPSILON * svd.singular_values.max();
    svd.solve(t, cutoff).unwrap()
}

fn rms(phi: &DMatrix<f64>, t: &DVector<f64>, w: &DVector<f64>) -> f64 {
    ((t - phi * w).norm_squared() / t.len() as f64).sqrt()
}

fn soft(z: f64, lambda: f64) -> f64 {
    z.signum() * (z.abs() - lambda).max(0.0)
}

/// argmin ½‖t − Φw‖² + λ‖w‖₁ by cyclic coordinate descent.
fn lasso(phi: &DMatrix<f64>, t: &DVector<f64>, lambda: f64) -> DVector<f64> {
    let m = phi.ncols();
    let mut w = DVector::zeros(m);
    let mut r = t.clone();
    let norms: Vec<f64> = (0..m).map(|j| phi.column(j).norm_squared()).collect();
    for _ in 0..200_000 {
        let mut change = 0.0_f64;
        for j in 0..m {
            let old = w[j];
            let new = soft(phi.column(j).dot(&r) + norms[j] * old, lambda) / norms[j];
            if new != old {
                r.axpy(old - new, &phi.column(j), 1.0);
                w[j] = new;
                change = change.max((new - old).abs());
            }
        }
        if change <= 1e-14 * (1.0 + w.amax()) {
            return w;
        }
    }
    panic!("coordinate descent did not converge");
}

/// Batch gradient descent from w = 0: the weights after each of `iterations` updates
/// w ← w − ηΦᵀ(Φw − t), index 0 being the start.
fn batch_gd(phi: &DMatrix<f64>, t: &DVector<f64>, eta: f64, iterations: usize) -> Vec<DVector<f64>> {
    let mut path = vec![DVector::zeros(phi.ncols())];
    for _ in 0..iterations {
        let w = path.last().unwrap();
        let next = w - phi.transpose() * (phi * w - t) * eta;
        path.push(next);
    }
    path
}

/// Bounds on the convex quadratic `e`, least at `w_min`, over the data rectangle under the
/// pixel corners `a` and `b` (clamped onto the plot): the maximum at a corner, the minimum
/// at `w_min` if inside, else on an edge (a parabola along each edge, exact through three
/// values).
fn error_bounds(
    area: &PlotArea,
    a: (f64, f64),
    b: (f64, f64),
    e: &dyn Fn(&DVector<f64>) -> f64,
    w_min: &DVector<f64>,
) -> (f64, f64) {
    let corner = |px: f64, py: f64| {
        let (w0, w1) = area.to_data_clamped(px, py).unwrap();
        DVector::from_vec(vec![w0, w1])
    };
    let corners = [corner(a.0, a.1), corner(b.0, a.1), corner(b.0, b.1), corner(a.0, b.1)];
    let hi = corners.iter().map(e).fold(f64::NEG_INFINITY, f64::max);
    let edge_min = |p: &DVector<f64>, q: &DVector<f64>| {
        let (f0, f1, f2) = (e(p), e(&((p + q) * 0.5)), e(q));
        let (curve, slope) = (2.0 * f2 + 2.0 * f0 - 4.0 * f1, 4.0 * f1 - 3.0 * f0 - f2);
        let s = if curve > 0.0 { (-slope / (2.0 * curve)).clamp(0.0, 1.0) } else { 0.0 };
        f0.min(f2).min(e(&(p + (q - p) * s)))
    };
    let spans = |k: usize| {
        let (p, q) = (corners[0][k], corners[2][k]);
        p.min(q) <= w_min[k] && w_min[k] <= p.max(q)
    };
    let lo = if spans(0) && spans(1) {
        e(w_min)
    } else {
        (0..4).map(|i| edge_min(&corners[i], &corners[(i + 1) % 4])).fold(f64::INFINITY, f64::min)
    };
    (lo, hi)
}

// ---------------------------------------------------------------------------------------
// Basis functions.
// ---------------------------------------------------------------------------------------

/// The basis curves: solid polylines in the cycle's colours on the plot, in drawing order.
fn basis_curves<'a>(els: &'a [Element<'a>], rect: &Rect) -> Vec<&'a Element<'a>> {
    let in_cycle = |e: &Element| palette::CYCLE.iter().any(|&c| e.has_colour("stroke", c));
    els.iter().filter(|e| e.tag == "polyline" && in_cycle(e) && rect.holds_all(&e.points())).collect()
}

/// Curve j is drawn in colour j of the cycle (wrapping), spans the x range, and lies on φⱼ.
fn assert_basis_curves(area: &PlotArea, curves: &[&Element], phis: &[Box<dyn Fn(f64) -> f64>], what: &str) {
    assert_eq!(curves.len(), phis.len(), "{what}: one curve per basis function");
    for (j, (curve, phi)) in curves.iter().zip(phis).enumerate() {
        let colour = palette::CYCLE[j % palette::CYCLE.len()];
        assert!(
            curve.has_colour("stroke", colour),
            "{what}: curve {j} is {:?}, not {}",
            curve.attr("stroke"),
            hex(colour)
        );
        assert_eq!(curve.num("stroke-width"), 2.0, "{what}: curve {j} is 2 CSS px wide");
        let pts = curve.points();
        assert!(pts.len() > 100, "{what}: curve {j} has {} vertices", pts.len());
        assert_eq!((pts[0].0, pts.last().unwrap().0), (area.left, area.right), "{what}: curve {j} spans x");
        assert_points_near(area, &pts, phi.as_ref(), 1.0, &format!("{what} φ{j}"));
    }
}

/// Handles are filled triangles (apex up, one size above the point) in their curve's
/// colour; their apexes' x, mapped back, are the centres.
fn assert_handles(area: &PlotArea, els: &[Element], centres: &[(usize, f64)], what: &str) {
    let handles: Vec<_> = els.iter().filter(|e| e.tag == "polygon").collect();
    assert_eq!(handles.len(), centres.len(), "{what}: one handle per centre");
    let (dx, _) = pixel_size(area);
    for (handle, &(j, mu)) in handles.iter().zip(centres) {
        let colour = palette::CYCLE[j % palette::CYCLE.len()];
        assert!(handle.has_colour("fill", colour), "{what}: handle of φ{j} is {:?}", handle.attr("fill"));
        let pts = handle.points();
        assert_eq!(pts.len(), 3, "{what}: a triangle");
        let apex = *pts.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        let x = to_data(area, (apex.0, area.bottom)).0;
        assert!((x - mu).abs() <= 1.01 * dx, "{what}: handle of φ{j} at x = {x}, centre {mu}");
        // It sits at the foot of the chart, in its lowest tenth.
        assert!(apex.1 > area.bottom - 0.1 * (area.bottom - area.top) - 14.0, "{what}: handle at {apex:?}");
    }
}

/// Vertical rug lines (half-transparent ink) standing on the x axis.
fn rug<'a>(els: &'a [Element<'a>], rect: &Rect) -> Vec<&'a Element<'a>> {
    within(els, rect, "polyline", "stroke", palette::INK).into_iter().filter(|e| e.num("opacity") == 0.5).collect()
}

#[test]
fn basis_default_draws_each_gaussian_and_a_handle_on_each_centre() {
    let panel = Live::<BasisPanel>::try_default().unwrap();
    let spec = &panel.settings().basis.spec;
    assert_eq!((spec.family, spec.bias), (Family::Gaussian, false), "the default is Gaussians without the bias");
    let (m, s) = (spec.m, spec.width);
    // Without the bias all M functions are Gaussians, centred at j/(M − 1).
    let centres = evenly(m);
    assert_eq!(centres.len(), 6);
    let phis: Vec<Box<dyn Fn(f64) -> f64>> =
        centres.iter().map(|&mu| Box::new(move |x| gaussian(x, mu, s)) as Box<dyn Fn(f64) -> f64>).collect();
    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        assert_eq!(charts(&els), vec![Rect::of(&area)], "{size:?}: one chart, the interactive one");
        assert_eq!(area.x_range, (0.0, 1.0));
        assert!(area.y_range.0 < 0.0 && 1.0 < area.y_range.1, "values 0..1 fit: {area:?}");
        assert_corners(&area, size);
        assert_ticks_agree(&els, &area, "basis");
        assert_basis_curves(&area, &basis_curves(&els, &Rect::of(&area)), &phis, &format!("{size:?}"));
        let handles: Vec<(usize, f64)> = centres.iter().copied().enumerate().collect();
        assert_handles(&area, &els, &handles, &format!("{size:?}"));
        assert!(rug(&els, &Rect::of(&area)).is_empty(), "no rug without the kernel family");
    }
}

#[test]
fn basis_polynomials_are_drawn_without_handles() {
    let mut panel = Live::<BasisPanel>::try_default().unwrap();
    panel.set("basis", "polynomial").unwrap();
    let spec = &panel.settings().basis.spec;
    assert_eq!((spec.family, spec.bias), (Family::Polynomial, false));
    // Without the bias: x, x², …, x^M.
    let phis: Vec<Box<dyn Fn(f64) -> f64>> =
        (1..=spec.m as i32).map(|k| Box::new(move |x: f64| x.powi(k)) as Box<dyn Fn(f64) -> f64>).collect();
    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        assert_eq!(charts(&els), vec![Rect::of(&area)]);
        assert_corners(&area, size);
        assert_basis_curves(&area, &basis_curves(&els, &Rect::of(&area)), &phis, &format!("polynomial {size:?}"));
        assert_handles(&area, &els, &[], "polynomial");
        assert!(rug(&els, &Rect::of(&area)).is_empty());
    }
}

#[test]
fn basis_kernel_family_draws_a_rug_and_a_bump_on_every_input() {
    let mut panel = Live::<BasisPanel>::try_default().unwrap();
    panel.set("basis", "kernel").unwrap();
    let settings = panel.settings();
    let (spec, d) = (&settings.basis.spec, &settings.data);
    assert!(!spec.bias);
    let data = generated(d.n, d.noise, d.seed);
    let s = spec.width;
    // One Gaussian on each of the N inputs: M = N (no bias), colours wrapping after 7.
    assert_eq!(data.len(), 10);
    let phis: Vec<Box<dyn Fn(f64) -> f64>> =
        data.x.iter().map(|&mu| Box::new(move |x| gaussian(x, mu, s)) as Box<dyn Fn(f64) -> f64>).collect();
    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        let rect = Rect::of(&area);
        assert_eq!(charts(&els), vec![rect]);
        assert_corners(&area, size);
        assert_basis_curves(&area, &basis_curves(&els, &rect), &phis, &format!("kernel {size:?}"));
        let handles: Vec<(usize, f64)> = data.x.iter().copied().enumerate().collect();
        assert_handles(&area, &els, &handles, "kernel");

        let ticks = rug(&els, &rect);
        assert_eq!(ticks.len(), data.len(), "one rug line per training input");
        let (dx, _) = pixel_size(&area);
        let mut xs: Vec<f64> = ticks
            .iter()
            .map(|tick| {
                let pts = tick.points();
                assert_eq!(pts.len(), 2);
                assert_eq!(pts[0].0, pts[1].0, "rug lines are vertical");
                assert_eq!(pts[0].1.max(pts[1].1), area.bottom, "rug lines stand on the x axis");
                assert!((pts[0].1 - pts[1].1).abs() < 0.1 * (area.bottom - area.top), "rug lines are short");
                to_data(&area, pts[0]).0
            })
            .collect();
        xs.sort_by(f64::total_cmp);
        let mut want = data.x.clone();
        want.sort_by(f64::total_cmp);
        for (got, want) in xs.iter().zip(&want) {
            assert!((got - want).abs() <= 1.01 * dx, "rug line at {got}, input {want}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Least squares.
// ---------------------------------------------------------------------------------------

#[test]
fn least_squares_draws_data_truth_fit_and_the_error_curves() {
    let panel = Live::<LeastSquaresPanel>::try_default().unwrap();
    let settings = panel.settings();
    let (spec, d) = (&settings.basis.spec, &settings.data);
    assert_eq!((spec.family, spec.m, spec.bias), (Family::Polynomial, 4, true), "a cubic by default");
    let data = generated(d.n, d.noise, d.seed);
    let t = DVector::from_column_slice(&data.t);
    let cubic = polynomial_features(spec.m, true);
    let w_ml = normal_equations(&design(&data.x, &cubic), &t, 0.0);
    let fit = |x: f64| cubic(x).dot(&w_ml);

    // Train and test RMS for M = 1..=12 (the held-out set as the panel documents it).
    let test = generated(100, d.noise, d.seed + 1_000_003);
    let test_t = DVector::from_column_slice(&test.t);
    let errors: Vec<(f64, f64, f64)> = (1..=12)
        .map(|m| {
            let features = polynomial_features(m, true);
            let phi = design(&data.x, &features);
            let w = svd_least_squares(&phi, &t);
            (m as f64, rms(&phi, &t, &w), rms(&design(&test.x, &features), &test_t, &w))
        })
        .collect();
    let visible_test: Vec<_> = errors.iter().filter(|e| e.2 <= 1.5).collect();
    assert!((5..12).contains(&visible_test.len()), "the test error leaves the chart for large M: {errors:?}");

    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        let rects = charts(&els);
        assert_eq!(rects.len(), 2, "{size:?}: the fit and the error curve");
        assert_eq!(rects[0], Rect::of(&area), "the fit is the interactive chart");
        assert_layout(&rects, size);
        assert_corners(&area, size);
        assert_ticks_agree(&els, &area, "fit");
        assert_eq!(area.x_range, (0.0, 1.0));

        // The fit chart: N hollow data circles, the dashed truth, the fit w_MLᵀφ(x).
        let fit_rect = rects[0];
        let circles = within(&els, &fit_rect, "circle", "stroke", palette::DATA);
        assert!(circles.iter().all(|c| c.attr("fill") == Some("none") && c.num("r") == 4.0));
        assert_circles_at(&area, &circles, &data, 1.0, "data");
        let truth = within(&els, &fit_rect, "polyline", "stroke", palette::TRUTH);
        assert_dashed_on(&area, &truth, &Sinusoid::truth, 2.0, "truth");
        let line = only(within(&els, &fit_rect, "polyline", "stroke", palette::MEAN), "the fit");
        let pts = line.points();
        assert!(pts.len() > 100);
        assert_eq!((pts[0].0, pts.last().unwrap().0), (area.left, area.right), "the fit spans x");
        assert_points_near(&area, &pts, &fit, 1.0, "w_MLᵀφ(x)");
        // Vertex i is the fit at x = i/(n − 1) of the evenly spaced grid over [0, 1].
        let last = (pts.len() - 1) as f64;
        for (i, &p) in pts.iter().enumerate() {
            let x = i as f64 / last;
            assert!(lands_on(&area, p, (x, fit(x)), 1.0), "fit at x = {x}: {p:?} vs {}", fit(x));
        }

        // The error chart: M from 0.5 to 12.5, E_RMS from 0 to 1.5, as labelled.
        let errs = rects[1].with_ranges((0.5, 12.5), (0.0, 1.5));
        assert_ticks_agree(&els, &errs, "error chart");
        let marker: Vec<_> = within(&els, &rects[1], "polyline", "stroke", palette::INK)
            .into_iter()
            .filter(|e| e.num("opacity") < 1.0)
            .collect();
        let marker = only(marker, "marker at the current M").points();
        assert_eq!(marker.len(), 2);
        assert_eq!(marker[0].0, marker[1].0, "the marker is vertical");
        assert_eq!((marker[0].1.max(marker[1].1), marker[0].1.min(marker[1].1)), (errs.bottom, errs.top));
        let (mdx, _) = pixel_size(&errs);
        assert!((to_data(&errs, marker[0]).0 - spec.m as f64).abs() <= 1.01 * mdx, "marker at M = {}", spec.m);

        // Train error: one polyline through all twelve M, with a dot on each.
        let train = only(within(&els, &rects[1], "polyline", "stroke", palette::DATA), "train curve").points();
        assert_eq!(train.len(), errors.len(), "train error for every M");
        for (p, &(m, e, _)) in train.iter().zip(&errors) {
            assert!(lands_on(&errs, *p, (m, e), 1.0), "train E_RMS at M = {m}: {p:?} vs {e}");
        }
        let dots = within(&els, &rects[1], "circle", "fill", palette::DATA);
        assert_eq!(dots.len(), errors.len());
        for (dot, &(m, e, _)) in dots.iter().zip(&errors) {
            assert!(lands_on(&errs, (dot.num("cx"), dot.num("cy")), (m, e), 1.0), "train dot at M = {m}");
        }

        // Test error: vertices at whole M lie on it; the others are where it leaves the top.
        let test_lines = within(&els, &rects[1], "polyline", "stroke", palette::MEAN);
        assert!(!test_lines.is_empty());
        let mut seen = vec![];
        for p in test_lines.iter().flat_map(|l| l.points()) {
            let m = to_data(&errs, p).0;
            if (m - m.round()).abs() <= 1.01 * mdx {
                let (_, _, e) = errors[m.round() as usize - 1];
                assert!(lands_on(&errs, p, (m.round(), e), 1.0), "test E_RMS at M = {m}: {p:?} vs {e}");
                seen.push(m.round());
            } else {
                assert_eq!(p.1, errs.top, "a test-curve vertex between whole M is a cut at the top: {p:?}");
            }
        }
        assert!(visible_test.iter().all(|e| seen.contains(&e.0)), "every visible test error is drawn: {seen:?}");
        let dots = within(&els, &rects[1], "circle", "fill", palette::MEAN);
        assert_eq!(dots.len(), visible_test.len(), "a dot on each test error within the chart");
        for (dot, &&(m, _, e)) in dots.iter().zip(&visible_test) {
            assert!(lands_on(&errs, (dot.num("cx"), dot.num("cy")), (m, e), 1.0), "test dot at M = {m}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Gradient descent.
// ---------------------------------------------------------------------------------------

#[test]
fn gradient_descent_draws_three_losses_the_weight_plane_and_the_fits() {
    let panel = Live::<GradientPanel>::try_default().unwrap();
    let s = panel.settings();
    let spec = &s.basis.spec;
    assert_eq!((spec.family, spec.m, spec.bias), (Family::Polynomial, 2, true), "a straight line by default");
    assert!(s.start.is_none(), "the runs start at w = 0");
    let n = s.data.n;
    let data = generated(n, s.data.noise, s.data.seed);
    let t = DVector::from_column_slice(&data.t);
    let line = polynomial_features(2, true);
    let phi = design(&data.x, &line);
    let w_ml = normal_equations(&phi, &t, 0.0);
    let error = |w: &DVector<f64>| 0.5 * (&t - &phi * w).norm_squared();
    let floor = error(&w_ml).log10();
    // Updates: one per epoch, N per epoch, ⌈N/b⌉ per epoch.
    let iterations = [s.epochs, s.epochs * n, s.epochs * n.div_ceil(s.batch)];
    assert_eq!(iterations, [60, 1200, 240]);
    let bgd = batch_gd(&phi, &t, s.rate, s.epochs);
    let bgd_losses: Vec<f64> = bgd.iter().map(|w| error(w).log10()).collect();
    let steps: Vec<f64> = (0..bgd.len()).map(|i| i as f64).collect();

    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        let rects = charts(&els);
        assert_eq!(rects.len(), 5, "{size:?}: three losses, the data, the weight plane");
        assert_layout(&rects, size);
        let (losses, data_rect, plane) = (&rects[..3], rects[3], rects[4]);
        assert_eq!(plane, Rect::of(&area), "the weight plane is the interactive chart");
        assert_corners(&area, size);
        assert_ticks_agree(&els, &area, "weight plane");

        // Loss charts: the method's curve over all its iterations above the dashed floor
        // log₁₀ E(w_ML), which no loss goes below.
        for (k, rect) in losses.iter().enumerate() {
            let what = format!("{} {size:?}", GD_NAMES[k]);
            assert_title(&els, rect, GD_NAMES[k]);
            let chart = labelled(&els, rect);
            let (dx, dy) = pixel_size(&chart);
            assert_range_near(&chart, chart.x_range, (0.0, iterations[k] as f64), dx, 1.0, &what);
            let curve = only(within(&els, rect, "polyline", "stroke", GD_COLOURS[k]), &what).points();
            assert_eq!(curve.len(), iterations[k] + 1, "{what}: the loss after every update");
            assert!(lands_on(&chart, curve[0], (0.0, error(&DVector::zeros(2)).log10()), 2.0), "{what} starts at E(0)");
            let dashes = within(&els, rect, "polyline", "stroke", palette::INK);
            assert_dashed_on(&chart, &dashes, &|_| floor, 2.0, &format!("{what} floor"));
            let floor_y = dashes[0].points()[0].1;
            assert!(dashes.iter().flat_map(|d| d.points()).all(|p| p.1 == floor_y), "{what}: the floor is level");
            assert!(curve.iter().all(|p| p.1 <= floor_y), "{what}: a loss below the least-squares floor");
            assert!((to_data(&chart, curve[curve.len() - 1]).1 - floor).abs() < 0.2 + 2.0 * dy, "{what} ends near it");
            if k == 0 {
                assert_points_near(&chart, &curve, &|i| interpolate(&steps, &bgd_losses, i), 2.0, &what);
            }
        }

        // Weight plane: filled bands tiling it, darkest at w_ML and lighter as E grows.
        let cells: Vec<_> = els.iter().filter(|e| e.tag == "rect" && Rect::of(&area).holds_all(&e.anchors())).collect();
        assert!(cells.len() >= 400, "{size:?}: {} band cells", cells.len());
        let edge = |f: fn(&(f64, f64)) -> f64, pick: fn(f64, f64) -> f64| {
            cells.iter().flat_map(|c| c.anchors()).map(|p| f(&p)).reduce(pick).unwrap()
        };
        assert_eq!(
            (edge(|p| p.0, f64::min), edge(|p| p.1, f64::min), edge(|p| p.0, f64::max), edge(|p| p.1, f64::max)),
            (area.left, area.top, area.right, area.bottom),
            "the bands cover the plane"
        );
        // Each cell's red channel (the bands run from #5A7B9A up to white) against bounds
        // on E over the cell grown by a pixel each way (what rounding to pixels can hide):
        // a cell whose E is surely below another's is never lighter.
        let mut cells: Vec<((f64, f64), u8)> = cells
            .iter()
            .map(|c| {
                let [a, b] = c.anchors()[..] else { unreachable!() };
                let red = u8::from_str_radix(&c.attr("fill").unwrap()[1..3], 16).unwrap();
                (error_bounds(&area, (a.0 - 1.0, a.1 - 1.0), (b.0 + 1.0, b.1 + 1.0), &error, &w_ml), red)
            })
            .collect();
        cells.sort_by(|a, b| a.0.1.total_cmp(&b.0.1));
        let lightest_below: Vec<u8> = cells
            .iter()
            .scan(0, |m, c| {
                *m = c.1.max(*m);
                Some(*m)
            })
            .collect();
        let mut compared = 0;
        for &((lo, _), red) in &cells {
            let below = cells.partition_point(|c| c.0.1 < lo);
            if below > 0 {
                compared += 1;
                assert!(lightest_below[below - 1] <= red, "{size:?}: a cell with E ≥ {lo} is darker than one below it");
            }
        }
        assert!(compared * 10 >= cells.len() * 9, "{size:?}: only {compared} of {} cells compared", cells.len());
        // Same-band neighbours of a row are drawn as one rectangle, so the darkest band is
        // several rectangles: one of them holds w_ML.
        let darkest = cells.iter().map(|c| c.1).min().unwrap();
        let holds = cells.iter().filter(|c| c.1 == darkest).any(|c| c.0.0 <= error(&w_ml) + 1e-9);
        assert!(holds, "the darkest band holds w_ML");
        assert!(cells[0].1 < cells[cells.len() - 1].1, "low error dark, high error light");

        // The least-squares cross at w_ML.
        let cross: Vec<_> = els.iter().filter(|e| e.tag == "line" && !is_mesh(e)).collect();
        assert_eq!(cross.len(), 2, "{size:?}: a cross of two lines");
        let centres: Vec<(f64, f64)> = cross
            .iter()
            .map(|l| {
                assert!(l.has_colour("stroke", palette::INK) && l.num("stroke-width") == 3.0);
                (0.5 * (l.num("x1") + l.num("x2")), 0.5 * (l.num("y1") + l.num("y2")))
            })
            .collect();
        assert_eq!(centres[0], centres[1], "the lines cross at their middles");
        assert!(lands_on(&area, centres[0], (w_ml[0], w_ml[1]), 1.0), "cross at w_ML = {w_ml:?}");

        // The three paths from w = 0, one iterate per update, a dot at the last; BGD's
        // iterates are the ones recomputed here.
        for k in 0..3 {
            let what = format!("{} path {size:?}", GD_NAMES[k]);
            let path = only(within(&els, &Rect::of(&area), "polyline", "stroke", GD_COLOURS[k]), &what).points();
            assert_eq!(path.len(), iterations[k] + 1, "{what}");
            assert!(lands_on(&area, path[0], (0.0, 0.0), 1.0), "{what} starts at 0");
            let end = only(within(&els, &Rect::of(&area), "circle", "fill", GD_COLOURS[k]), &what);
            assert_eq!((end.num("cx"), end.num("cy")), *path.last().unwrap(), "{what}: a dot at the last iterate");
            if k == 0 {
                for (p, w) in path.iter().zip(&bgd) {
                    assert!(lands_on(&area, *p, (w[0], w[1]), 1.0), "{what}: {p:?} vs {w:?}");
                }
            }
        }

        // The data chart: N circles, the dashed truth and least-squares line, the fits.
        let chart = labelled(&els, &data_rect);
        let (dx, _) = pixel_size(&chart);
        assert_range_near(&chart, chart.x_range, (0.0, 1.0), dx, 2.0, "data chart x");
        let circles = within(&els, &data_rect, "circle", "stroke", palette::DATA);
        assert_circles_at(&chart, &circles, &data, 2.0, "data");
        // The truth shares its green with MBGD: its dashes are told apart by their length.
        let (truth, _) = split_dashes(within(&els, &data_rect, "polyline", "stroke", palette::TRUTH));
        assert_dashed_on(&chart, &truth, &Sinusoid::truth, 2.0, "truth");
        let ls = within(&els, &data_rect, "polyline", "stroke", palette::INK);
        assert_dashed_on(&chart, &ls, &|x| line(x).dot(&w_ml), 2.0, "least-squares line");
        for (k, colour) in GD_COLOURS.into_iter().enumerate() {
            let (_, solid) = split_dashes(within(&els, &data_rect, "polyline", "stroke", colour));
            let fitted = only(solid, GD_NAMES[k]).points();
            assert_eq!((fitted[0].0, fitted.last().unwrap().0), (chart.left, chart.right));
            if k == 0 {
                let w = bgd.last().unwrap();
                assert_points_near(&chart, &fitted, &|x| line(x).dot(w), 2.0, "BGD fit");
            }
        }
    }
}

#[test]
fn gradient_descent_with_three_weights_draws_no_weight_plane() {
    let mut panel = Live::<GradientPanel>::try_default().unwrap();
    panel.set("M", "3").unwrap();
    let s = panel.settings();
    let iterations = [s.epochs, s.epochs * s.data.n, s.epochs * s.data.n.div_ceil(s.batch)];
    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        let rects = charts(&els);
        assert_eq!(rects.len(), 4, "{size:?}: three losses and the data, no weight plane");
        assert_eq!(rects[3], Rect::of(&area), "the data chart is then the interactive one");
        assert_eq!(area.x_range, (0.0, 1.0));
        assert_corners(&area, size);
        assert_ticks_agree(&els, &area, "data chart");
        assert_eq!(els.iter().filter(|e| e.tag == "rect").count(), 1, "no bands, only the background");
        assert!(els.iter().all(|e| e.tag != "line" || is_mesh(e)), "no least-squares cross");
        let filled = els.iter().filter(|e| e.tag == "circle" && e.attr("fill") != Some("none"));
        assert_eq!(filled.count(), 0, "no path ends");
        for (k, colour) in GD_COLOURS.into_iter().enumerate() {
            let all = els.iter().filter(|e| e.tag == "polyline" && e.has_colour("stroke", colour)).collect();
            let (truth, lines) = split_dashes(all);
            assert!(truth.iter().all(|e| rects[3].holds_all(&e.points())), "only the truth is dashed in green");
            assert_eq!(lines.len(), 2, "{size:?} {}: its loss curve and its fit only", GD_NAMES[k]);
            assert!(rects[k].holds_all(&lines[0].points()) && lines[0].points().len() == iterations[k] + 1);
            assert!(rects[3].holds_all(&lines[1].points()));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Regularisation.
// ---------------------------------------------------------------------------------------

#[test]
fn regularisation_draws_the_fits_and_both_coefficient_paths() {
    let mut panel = Live::<RegularisationPanel>::try_default().unwrap();
    while panel.work(Budget::unlimited()) {}
    let s = panel.settings();
    let spec = &s.basis.spec;
    assert_eq!((spec.family, spec.bias), (Family::Gaussian, true), "Gaussian bumps and a bias by default");
    let (m, lambda) = (spec.m, s.lambda);
    assert_eq!((m, lambda), (10, 0.05));
    let data = generated(s.data.n, s.data.noise, s.data.seed);
    let t = DVector::from_column_slice(&data.t);
    let features = gaussian_features(evenly(m - 1), spec.width, true);
    let phi = design(&data.x, &features);
    let ridge = normal_equations(&phi, &t, lambda);
    let lasso_w = lasso(&phi, &t, lambda);
    let lambda_max = (phi.transpose() * &t).amax();
    assert!(lambda_max < 5.0_f64.exp(), "the lasso path reaches w = 0 within ln λ ≤ 5");
    let ridge_at = |j: usize, ln_lambda: f64| normal_equations(&phi, &t, ln_lambda.exp())[j];

    for size in SIZES {
        let (svg, area) = render(&panel, size);
        let els = elements(&svg);
        let rects = charts(&els);
        assert_eq!(rects.len(), 3, "{size:?}: the fit and two paths");
        assert_layout(&rects, size);
        assert_eq!(rects[0], Rect::of(&area), "the fit is the interactive chart");
        assert_corners(&area, size);
        assert_ticks_agree(&els, &area, "fit");
        let fit_rect = rects[0];

        // The fit chart: data, dashed truth, ridge solid, ridge by GD dashed, lasso solid.
        let circles = within(&els, &fit_rect, "circle", "stroke", palette::DATA);
        assert_circles_at(&area, &circles, &data, 1.0, "data");
        let truth = within(&els, &fit_rect, "polyline", "stroke", palette::TRUTH);
        assert_dashed_on(&area, &truth, &Sinusoid::truth, 2.0, "truth");
        let ridge_curve = |x: f64| features(x).dot(&ridge);
        let ridge_lines = within(&els, &fit_rect, "polyline", "stroke", palette::DATA);
        assert!(!ridge_lines.is_empty() && ridge_lines.iter().all(|l| l.num("stroke-width") == 3.0));
        for piece in &ridge_lines {
            assert_points_near(&area, &piece.points(), &ridge_curve, 1.0, "ridge");
        }
        let gd = within(&els, &fit_rect, "polyline", "stroke", palette::CYCLE[3]);
        assert_dashed_on(&area, &gd, &ridge_curve, 2.0, "ridge by GD");
        let lasso_lines = within(&els, &fit_rect, "polyline", "stroke", palette::MEAN);
        assert!(!lasso_lines.is_empty());
        for piece in &lasso_lines {
            assert_points_near(&area, &piece.points(), &|x| features(x).dot(&lasso_w), 1.0, "lasso");
        }

        // The paths: ln λ from −12 to 5 as labelled, a marker at ln λ, M curves each.
        for (rect, title) in [(rects[1], "ridge"), (rects[2], "lasso")] {
            let what = format!("{title} path {size:?}");
            assert_title(&els, &rect, title);
            let chart = rect.with_ranges((-12.0, 5.0), labelled(&els, &rect).y_range);
            assert_ticks_agree(&els, &chart, &what);
            let (dx, dy) = pixel_size(&chart);
            let marker: Vec<_> = within(&els, &rect, "polyline", "stroke", palette::INK)
                .into_iter()
                .filter(|e| e.num("opacity") < 1.0)
                .collect();
            let marker = only(marker, &format!("{what} marker")).points();
            assert_eq!(marker.len(), 2);
            assert_eq!(marker[0].0, marker[1].0, "{what}: the marker is vertical");
            assert_eq!((marker[0].1.max(marker[1].1), marker[0].1.min(marker[1].1)), (chart.bottom, chart.top));
            let at = to_data(&chart, marker[0]).0;
            assert!((at - lambda.ln()).abs() <= 1.01 * dx, "{what}: marker at {at}, ln λ = {}", lambda.ln());

            let curves = basis_curves(&els, &rect);
            assert_eq!(curves.len(), m, "{what}: one path per weight");
            let n_path = curves[0].points().len();
            assert!(n_path >= 10, "{what}: {n_path} points per path");
            for (j, curve) in curves.iter().enumerate() {
                assert!(curve.has_colour("stroke", palette::CYCLE[j % palette::CYCLE.len()]), "{what}: colour of w{j}");
                let pts = curve.points();
                assert_eq!(pts.len(), n_path, "{what}: w{j}");
                assert_eq!((pts[0].0, pts[n_path - 1].0), (chart.left, chart.right), "{what}: w{j} spans ln λ");
                if title == "ridge" {
                    assert_points_near(&chart, &pts, &|l| ridge_at(j, l), 2.0, &format!("{what} w{j}"));
                } else {
                    // From λ_max = ‖Φᵀt‖∞ up, every lasso weight is exactly 0.
                    for &p in pts.iter().filter(|p| to_data(&chart, **p).0 >= lambda_max.ln() + dx) {
                        assert!(to_data(&chart, p).1.abs() <= 2.0 * dy, "{what}: w{j} at {p:?} above λ_max");
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Every panel, opened by name.
// ---------------------------------------------------------------------------------------

#[test]
fn every_panel_returns_its_interactive_area_and_draws_no_nan() {
    // Charts per panel, as each panel's module documentation lists them.
    for (name, count) in [("basis", 1), ("least-squares", 2), ("gradient-descent", 5), ("regularisation", 3)] {
        let mut panel = open_panel(name).unwrap();
        while panel.work(Budget::unlimited()) {}
        for size in SIZES {
            let (svg, area) = render(panel.as_ref(), size);
            let els = elements(&svg);
            let rects = charts(&els);
            assert_eq!(rects.len(), count, "{name} {size:?}: {rects:?}");
            assert!(rects.contains(&Rect::of(&area)), "{name} {size:?}: the returned area is one chart's mesh");
            assert_layout(&rects, size);
            assert_corners(&area, size);
            assert_ticks_agree(&els, &area, name);
            assert_eq!(els[0].tag, "svg");
            assert_eq!((els[0].num("width"), els[0].num("height")), (f64::from(size.0), f64::from(size.1)));
        }
    }
}
