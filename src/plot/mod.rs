//! Charts. Each chart is a function generic over plotters' [`DrawingBackend`] that draws
//! a plain scene value (numbers already computed by the models), so the same code renders
//! to an SVG string in native tests and to a `<canvas>` in the page.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use crate::error::{Compact, Error, Result};

pub mod basis;
pub mod classes;
pub mod fit;
pub mod lambda;
pub mod predictive;
pub mod surface;
pub mod target_space;

/// Colours, Okabe–Ito (colour-blind safe) on white, and the projector look.
pub use crate::palette;

/// How a series looks in the legend the page draws beside a chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// A filled area.
    Area,
    /// A solid line.
    Line,
    /// A dashed line.
    Dashed,
    /// A hollow circle.
    Dot,
    /// A diagonal cross (×).
    Cross,
    /// A hollow triangle.
    Triangle,
    /// A hollow square.
    Square,
}

/// One series of a chart: its string-table key, colour and mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LegendEntry {
    /// Key of the label in the page's string table (`"mean"` → `legend.mean`).
    pub key: &'static str,
    /// Colour as `#rrggbb`.
    pub colour: &'static str,
    /// How the series is drawn.
    pub mark: Mark,
}

/// Where a chart's plotting area landed, in backend pixels, and the data ranges it shows:
/// enough to turn a click back into data coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlotArea {
    /// Left edge of the plotting area (pixels).
    pub left: f64,
    /// Top edge (pixels).
    pub top: f64,
    /// Right edge (pixels).
    pub right: f64,
    /// Bottom edge (pixels).
    pub bottom: f64,
    /// Data range along x shown from left to right.
    pub x_range: (f64, f64),
    /// Data range along y shown from bottom to top.
    pub y_range: (f64, f64),
}

impl PlotArea {
    /// The data coordinates under pixel (px, py), or `None` outside the plotting area.
    pub fn to_data(&self, px: f64, py: f64) -> Option<(f64, f64)> {
        let inside = (self.left..=self.right).contains(&px) && (self.top..=self.bottom).contains(&py);
        if !inside || self.right <= self.left || self.bottom <= self.top {
            return None;
        }
        let fx = (px - self.left) / (self.right - self.left);
        let fy = (self.bottom - py) / (self.bottom - self.top);
        let (x0, x1) = self.x_range;
        let (y0, y1) = self.y_range;
        Some((x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)))
    }

    /// How far `radius` pixels reach in data units along x and along y.
    pub fn reach(&self, radius: f64) -> (f64, f64) {
        let per_pixel = |(lo, hi): (f64, f64), pixels: f64| if pixels > 0.0 { (hi - lo) / pixels } else { 0.0 };
        (
            radius * per_pixel(self.x_range, self.right - self.left),
            radius * per_pixel(self.y_range, self.bottom - self.top),
        )
    }

    /// The data coordinates under pixel (px, py), moved onto the plotting area if outside
    /// (for drags that leave it); `None` for a degenerate area or a non-finite pixel.
    pub fn to_data_clamped(&self, px: f64, py: f64) -> Option<(f64, f64)> {
        if !(px.is_finite() && py.is_finite()) {
            return None;
        }
        self.to_data(px.clamp(self.left, self.right), py.clamp(self.top, self.bottom))
    }

    fn of<DB: DrawingBackend, CT: CoordTranslate>(
        area: &DrawingArea<DB, CT>,
        x_range: (f64, f64),
        y_range: (f64, f64),
    ) -> Self {
        let (xs, ys) = area.get_pixel_range();
        Self {
            left: f64::from(xs.start),
            right: f64::from(xs.end - 1),
            top: f64::from(ys.start),
            bottom: f64::from(ys.end - 1),
            x_range,
            y_range,
        }
    }
}

/// Words drawn inside charts (titles, axis names), in the reader's language: the page
/// sends its string table's `chart.*` entries; a missing key falls back to English. And
/// whether the charts leave out the curve that generated the data (a lesson's exercise:
/// "find the noise level" without the true curve to read it off).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Labels {
    words: BTreeMap<String, String>,
    /// The generating curve is left out ([`TRUTH_SERIES`]).
    pub hide_truth: bool,
}

/// The legend's keys of the curves that generated the data: sin 2πx (and the sequential
/// panel's straight line: "truth" its curves' key, "truth-line" its legend's), the Poisson
/// panel's true rate.
pub const TRUTH_SERIES: [&str; 3] = ["truth", "truth-line", "true-rate"];

impl Labels {
    /// The text for `key`, or `english` if the page sent none.
    pub fn text<'a>(&'a self, key: &str, english: &'a str) -> &'a str {
        self.words.get(key).map_or(english, String::as_str)
    }

    /// Whether the series of legend key `series` is drawn (all but the generating curve,
    /// when it is hidden).
    pub fn shows(&self, series: Option<&str>) -> bool {
        !(self.hide_truth && series.is_some_and(|key| TRUTH_SERIES.contains(&key)))
    }
}

impl FromIterator<(String, String)> for Labels {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Self {
        Labels { words: pairs.into_iter().collect(), hide_truth: false }
    }
}

impl<const N: usize> From<[(&str, &str); N]> for Labels {
    fn from(pairs: [(&str, &str); N]) -> Self {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }
}

/// A chart with f64 axes, as [`axes`] builds it.
pub type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// What [`axes`] draws around a chart.
#[derive(Debug, Clone, Copy)]
pub struct Axes<'s> {
    /// Data range along x.
    pub x: (f64, f64),
    /// Data range along y.
    pub y: (f64, f64),
    /// Name of the x axis, written below it.
    pub x_name: &'s str,
    /// Name of the y axis, written upright above its top end.
    pub y_name: &'s str,
    /// Title above the chart, if any.
    pub title: Option<&'s str>,
    /// Whether the grid is drawn: not under what covers the whole plotting area (a class
    /// map), where it would only cost the drawing time.
    pub grid: bool,
}

/// Key of a word in the page's `chart.*` strings and its English text.
pub type LabelKey = (&'static str, &'static str);

impl<'s> Axes<'s> {
    /// Axes over the given ranges whose names (and title) come from `labels`.
    pub fn named(
        x: (f64, f64),
        y: (f64, f64),
        (x_name, y_name, title): (LabelKey, LabelKey, Option<LabelKey>),
        labels: &'s Labels,
    ) -> Self {
        Axes {
            x,
            y,
            x_name: labels.text(x_name.0, x_name.1),
            y_name: labels.text(y_name.0, y_name.1),
            title: title.map(|(key, english)| labels.text(key, english)),
            grid: true,
        }
    }
}

/// Whether `area` is narrower than [`NARROW`] CSS pixels and upright, where multi-chart
/// panels stack. (On a page the stylesheet makes a narrow chart's box upright; a stage view's
/// box is the projector's landscape, and its large text makes it narrow in CSS pixels at
/// scale: side by side is what fits it.)
pub fn is_narrow<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, scale: f64) -> bool {
    let (w, h) = area.dim_in_pixel();
    f64::from(w) / scale < NARROW && h >= w
}

/// Space [`axes`] leaves around the plotting area, in CSS pixels: on every side, above it
/// (for the y-axis name and the title), below it (ticks and the x-axis name) and left of it
/// (ticks).
const MARGIN: f64 = 10.0;
const MARGIN_TOP: f64 = 26.0;
const X_LABEL_AREA: f64 = 38.0;
const Y_LABEL_AREA: f64 = 48.0;

/// Ranges centred on the origin that [`axes`] on `area` draws at one scale on both axes
/// (a circle looks round): the shorter side shows [−`half`, `half`], the longer more.
pub fn equal_ranges<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    scale: f64,
    half: f64,
) -> ((f64, f64), (f64, f64)) {
    let (w, h) = area.dim_in_pixel();
    let (m, top, xl, yl) = (px(MARGIN, scale), px(MARGIN_TOP, scale), px(X_LABEL_AREA, scale), px(Y_LABEL_AREA, scale));
    let width = f64::from(w.saturating_sub(2 * m + yl).max(1));
    let height = f64::from(h.saturating_sub(top + m + xl).max(1));
    let unit = half / width.min(height);
    ((-unit * width, unit * width), (-unit * height, unit * height))
}

/// Builds a chart on `area` in the lab's look: mesh, ticks, axis names, optional title.
/// Each chart of a drawing begins here ([`crate::parts::begin_chart`]: a drawing made in
/// parts is cut before it).
///
/// # Errors
/// [`Error::NotFinite`] for a range whose ends or width are not finite (plotters' search
/// for ticks never ends on one, or panics on NaN); [`Error::Drawing`] if the backend fails;
/// [`Error::PartEnded`] for the first chart of the next part of a drawing made in parts.
pub fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    spec: &Axes,
    scale: f64,
) -> Result<Chart<'a, DB>> {
    crate::parts::begin_chart()?;
    for (name, (lo, hi)) in [(spec.x_name, spec.x), (spec.y_name, spec.y)] {
        if !(hi - lo).is_finite() {
            return Err(Error::NotFinite {
                name: name.to_owned(),
                value: format!("{} … {}", Compact(lo), Compact(hi)),
            });
        }
    }
    let font = (FontFamily::SansSerif, px(TICK_TEXT, scale)).into_font().color(&palette::INK);
    let mut chart = ChartBuilder::on(area)
        .margin(px(MARGIN, scale))
        .margin_top(px(MARGIN_TOP, scale))
        .x_label_area_size(px(X_LABEL_AREA, scale))
        .y_label_area_size(px(Y_LABEL_AREA, scale))
        .build_cartesian_2d(spec.x.0..spec.x.1, spec.y.0..spec.y.1)
        .map_err(drawing_error)?;
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let mut mesh = chart.configure_mesh();
    if !spec.grid {
        mesh.disable_mesh();
    }
    mesh.light_line_style(palette::INK.mix(0.06))
        .bold_line_style(palette::INK.mix(0.15))
        .axis_style(palette::INK)
        .label_style(font.clone())
        .axis_desc_style(font.clone())
        .x_labels(tick_count(xs.end - xs.start, scale, TICK_SPACING.0))
        .y_labels(tick_count(ys.end - ys.start, scale, TICK_SPACING.1))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc(spec.x_name)
        .draw()
        .map_err(drawing_error)?;
    // Above the plotting area: the y-axis name upright at the left, the title at the right.
    // Pixel ranges are the backend's; text on `area` is placed relative to its corner.
    let (bx, by) = area.get_base_pixel();
    let baseline = ys.start - by - px(20.0, scale) as i32;
    area.draw(&Text::new(spec.y_name.to_owned(), (xs.start - bx - px(4.0, scale) as i32, baseline), font.clone()))
        .map_err(drawing_error)?;
    // The title only where it does not run into the axis's name (a small chart, a stage
    // view's large text): the name says what the chart shows too.
    let room = f64::from(xs.end - xs.start) / scale - text_width(spec.y_name, TICK_TEXT) - TITLE_TEXT;
    if let Some(title) = spec.title.filter(|title| text_width(title, TITLE_TEXT) <= room) {
        let bold =
            (FontFamily::SansSerif, px(TITLE_TEXT, scale)).into_font().style(FontStyle::Bold).color(&palette::INK);
        let right = bold.pos(Pos::new(HPos::Right, VPos::Top));
        area.draw(&Text::new(title.to_owned(), (xs.end - bx, baseline), right)).map_err(drawing_error)?;
    }
    Ok(chart)
}

/// Size of a chart's title in CSS pixels at scale 1 (bold).
const TITLE_TEXT: f64 = 14.0;

/// About how wide `text` is in a sans-serif font of `size` pixels: 0.62 of the size a
/// character (a bold Latin letter's mean, generous), a whole size for a CJK one.
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| if c >= '\u{2E80}' { 1.0 } else { 0.62 }).sum::<f64>() * size
}

/// Room per tick label along x and along y, in CSS pixels at scale 1 (a label of
/// [`TICK_TEXT`] pixels, "-0.25" about 30 wide, with space between).
const TICK_SPACING: (i32, i32) = (56, 34);

/// How many tick labels an axis `pixels` long at `scale` takes: six where there is room
/// ([`TICK_SPACING`] each), fewer where there is not — a small chart, or a stage view's
/// large text — but at least two.
fn tick_count(pixels: i32, scale: f64, spacing: i32) -> usize {
    (f64::from(pixels) / scale / f64::from(spacing)).floor().clamp(2.0, 6.0) as usize
}

/// A tick label: at most four decimals, without trailing zeros ("20", "0.25", "-1.5").
pub fn tick(value: f64) -> String {
    rounded(value, 4)
}

/// `value` rounded to `decimals` decimals and written in the fewest digits that read back
/// as that ("0.3", not "0.30000000000000004"; "-0" as "0"). Rounding first and writing
/// the shortest form, rather than formatting with a precision, keeps the wasm module free
/// of the exact-precision float formatter (about 7 KB).
pub fn rounded(value: f64, decimals: i32) -> String {
    let scale = 10f64.powi(decimals);
    let r = (value * scale).round() / scale;
    if r == 0.0 { "0".to_owned() } else { format!("{r}") }
}

/// `value` in exponent form with `digits` decimals in the mantissa ("1.23e6", "-4.5e-7").
pub fn scientific(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let mut exponent = value.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits);
    let mut mantissa = (value / 10f64.powi(exponent) * scale).round() / scale;
    if mantissa.abs() >= 10.0 {
        mantissa /= 10.0;
        exponent += 1;
    }
    format!("{}e{exponent}", rounded(mantissa, digits))
}

/// `value` to four significant digits, in exponent form when tiny or huge ("0.3333",
/// "12.5", "1.23e6").
pub fn short(value: f64) -> String {
    let size = value.abs();
    if size != 0.0 && !(1e-3..1e5).contains(&size) {
        return scientific(value, 2);
    }
    let decimals = if size == 0.0 { 0 } else { (3 - size.log10().floor() as i32).clamp(0, 6) };
    rounded(value, decimals)
}

/// A polyline of `width` CSS pixels, cut where it leaves the chart's y range.
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn line<DB: DrawingBackend>(chart: &mut Chart<'_, DB>, points: &[(f64, f64)], style: ShapeStyle) -> Result<()> {
    let y = chart.y_range();
    for run in clip_polyline(points, (y.start, y.end)) {
        chart.draw_series(LineSeries::new(run, style)).map_err(drawing_error)?;
    }
    Ok(())
}

/// A dashed polyline, cut like [`line`].
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn dashed<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    points: &[(f64, f64)],
    style: ShapeStyle,
    scale: f64,
) -> Result<()> {
    let y = chart.y_range();
    for run in clip_polyline(points, (y.start, y.end)) {
        chart.draw_series(DashedLineSeries::new(run, px(6.0, scale), px(4.0, scale), style)).map_err(drawing_error)?;
    }
    Ok(())
}

/// Hollow circles at `points`, or small filled squares for more than [`DENSE_POINTS`] (those
/// outside the chart are skipped).
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn dots<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    points: &[(f64, f64)],
    colour: RGBColor,
    scale: f64,
) -> Result<()> {
    let (x, y) = (chart.x_range(), chart.y_range());
    let within = |r: &std::ops::Range<f64>, v: f64| r.start <= v && v <= r.end;
    let inside = points.iter().filter(|(a, b)| within(&x, *a) && within(&y, *b));
    if points.len() > DENSE_POINTS {
        // Filled squares: a canvas rasterises a rectangle far faster than a stroked arc
        // (2000 rings took about 14 ms a frame in Chromium).
        let half = px(1.5, scale) as i32;
        let squares = inside.map(|&p| {
            EmptyElement::at(p) + plotters::element::Rectangle::new([(-half, -half), (half, half)], colour.filled())
        });
        chart.draw_series(squares).map_err(drawing_error)?;
    } else {
        let style = colour.stroke_width(px(1.5, scale));
        chart.draw_series(inside.map(|&p| Circle::new(p, px(4.0, scale), style))).map_err(drawing_error)?;
    }
    Ok(())
}

/// Above this many points, [`dots`] draws small filled squares instead of rings.
pub const DENSE_POINTS: usize = 400;

/// A straight arrow from `from` to `to` (data coordinates) in `colour`, its shaft `width`
/// CSS pixels wide, with a filled head at `to` whose size is fixed in pixels.
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn arrow<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    (from, to): ((f64, f64), (f64, f64)),
    colour: RGBColor,
    width: f64,
    scale: f64,
) -> Result<()> {
    // Pixels per data unit along each axis, to shape the head in pixels.
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let (x, y) = (chart.x_range(), chart.y_range());
    let kx = f64::from(xs.end - xs.start) / (x.end - x.start);
    let ky = f64::from(ys.end - ys.start) / (y.end - y.start);
    let (dx, dy) = ((to.0 - from.0) * kx, (to.1 - from.1) * ky);
    let length = dx.hypot(dy);
    if !(length > 0.0 && kx.is_finite() && ky.is_finite()) {
        return Ok(());
    }
    let (ux, uy) = (dx / length, dy / length);
    let (long, half) = ((10.0 * scale).min(length), 4.5 * scale);
    let base = (to.0 - ux * long / kx, to.1 - uy * long / ky);
    let wing = |side: f64| (base.0 - side * uy * half / kx, base.1 + side * ux * half / ky);
    let shaft = LineSeries::new([from, base], colour.stroke_width(px(width, scale)));
    chart.draw_series(shaft).map_err(drawing_error)?;
    chart.draw_series([Polygon::new(vec![to, wing(1.0), wing(-1.0)], colour.filled())]).map_err(drawing_error)?;
    Ok(())
}

/// `text` in `colour` beside the data point `at`, moved by `offset` CSS pixels (right,
/// down) and anchored there by `anchor`.
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn note<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    at: (f64, f64),
    text: &str,
    (offset, anchor): ((f64, f64), Pos),
    colour: RGBColor,
    scale: f64,
) -> Result<()> {
    let font = (FontFamily::SansSerif, px(TICK_TEXT, scale)).into_font().color(&colour).pos(anchor);
    let shift = ((offset.0 * scale).round() as i32, (offset.1 * scale).round() as i32);
    let element = EmptyElement::at(at) + Text::new(text.to_owned(), shift, font);
    chart.draw_series([element]).map_err(drawing_error)?;
    Ok(())
}

/// Where `chart`'s plotting area landed, for mapping pointer events back to data.
pub fn area_of<DB: DrawingBackend>(chart: &Chart<'_, DB>) -> PlotArea {
    let (x, y) = (chart.x_range(), chart.y_range());
    PlotArea::of(chart.plotting_area(), (x.start, x.end), (y.start, y.end))
}

/// Turns a plotters drawing error into the core's error.
pub(crate) fn drawing_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::Drawing(e.to_string())
}

/// Fills the whole area white; every chart starts here.
pub(crate) fn clear<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>) -> Result<()> {
    root.fill(&WHITE).map_err(drawing_error)
}

/// Splits a polyline into the runs that lie within `y0 ≤ y ≤ y1`, cutting each segment
/// that crosses a bound at the crossing, so a curve leaving the chart is not drawn over
/// the axes nor flattened along the edge.
pub fn clip_polyline(points: &[(f64, f64)], (y0, y1): (f64, f64)) -> Vec<Vec<(f64, f64)>> {
    let inside = |y: f64| (y0..=y1).contains(&y);
    let cut = |(xa, ya): (f64, f64), (xb, yb): (f64, f64), y: f64| (xa + (xb - xa) * (y - ya) / (yb - ya), y);
    let mut runs = vec![];
    let mut run: Vec<(f64, f64)> = vec![];
    for (i, &p) in points.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| points[j]);
        match (prev, inside(p.1)) {
            (Some(q), true) if !inside(q.1) => run.push(cut(q, p, if q.1 > y1 { y1 } else { y0 })),
            (Some(q), false) if inside(q.1) => {
                run.push(cut(q, p, if p.1 > y1 { y1 } else { y0 }));
                runs.push(std::mem::take(&mut run));
            }
            (Some(q), false) if (q.1 > y1 && p.1 < y0) || (q.1 < y0 && p.1 > y1) => {
                // Crosses the whole band in one segment.
                let (enter, leave) = if q.1 > y1 { (y1, y0) } else { (y0, y1) };
                runs.push(vec![cut(q, p, enter), cut(q, p, leave)]);
            }
            _ => {}
        }
        if inside(p.1) {
            run.push(p);
        }
    }
    if run.len() > 1 {
        runs.push(run);
    }
    runs.retain(|r| r.len() > 1);
    runs
}

/// Splits a polyline into the runs inside the box `x_range` × `y_range`, cut where they
/// cross its edges ([`clip_polyline`] along y, then along x).
pub fn clip_box(points: &[(f64, f64)], x_range: (f64, f64), y_range: (f64, f64)) -> Vec<Vec<(f64, f64)>> {
    let swap = |run: &[(f64, f64)]| run.iter().map(|&(a, b)| (b, a)).collect::<Vec<_>>();
    clip_polyline(points, y_range).iter().flat_map(|run| clip_polyline(&swap(run), x_range)).map(|r| swap(&r)).collect()
}

/// A polyline cut to the chart's box ([`clip_box`]), dashed or solid.
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn boxed_line<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    points: &[(f64, f64)],
    (style, dash): (ShapeStyle, bool),
    scale: f64,
) -> Result<()> {
    let (x, y) = (chart.x_range(), chart.y_range());
    for run in clip_box(points, (x.start, x.end), (y.start, y.end)) {
        if dash {
            chart.draw_series(DashedLineSeries::new(run, px(6.0, scale), px(4.0, scale), style))
        } else {
            chart.draw_series(LineSeries::new(run, style))
        }
        .map_err(drawing_error)?;
    }
    Ok(())
}

/// Below this width in CSS pixels, multi-chart panels stack their charts vertically.
pub const NARROW: f64 = 640.0;

/// Size of tick labels and axis names in CSS pixels at scale 1; a stage view that wants
/// larger chart text draws at a larger scale.
pub const TICK_TEXT: f64 = 13.0;

/// Splits `root` into two charts side by side, or stacked when it is narrower than
/// [`NARROW`] CSS pixels; the first gets `share` of the width (or height).
pub fn split_pair<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scale: f64,
    share: f64,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, h) = root.dim_in_pixel();
    if is_narrow(root, scale) {
        root.split_vertically((f64::from(h) * share).round() as u32)
    } else {
        root.split_horizontally((f64::from(w) * share).round() as u32)
    }
}

/// A main chart with two charts beside it, one above the other: the main one takes
/// `share.0` percent of the width — or, stacked when `root` is narrower than [`NARROW`]
/// CSS pixels, `share.1` percent of the height — and the side is split in two.
pub fn main_and_side<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scale: f64,
    share: (u32, u32),
) -> [DrawingArea<DB, Shift>; 3] {
    let (w, h) = root.dim_in_pixel();
    let (main, side) = if is_narrow(root, scale) {
        root.split_vertically(h * share.1 / 100)
    } else {
        root.split_horizontally(w * share.0 / 100)
    };
    let (upper, lower) = side.split_vertically(side.dim_in_pixel().1 / 2);
    [main, upper, lower]
}

/// Ink rings of `radius` CSS pixels around `points` (the relevance vectors).
///
/// # Errors
/// [`Error::Drawing`] if the backend fails.
pub fn rings<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    points: &[(f64, f64)],
    radius: f64,
    scale: f64,
) -> Result<()> {
    let style = palette::INK.stroke_width(px(1.5, scale));
    chart.draw_series(points.iter().map(|&p| Circle::new(p, px(radius, scale), style))).map_err(drawing_error)?;
    Ok(())
}

/// Pixel size of a length given in CSS pixels on a display with `scale` device pixels
/// per CSS pixel (devicePixelRatio).
pub(crate) fn px(css: f64, scale: f64) -> u32 {
    (css * scale).round().max(1.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_drop_trailing_zeros() {
        assert_eq!(tick(20.0), "20");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(-1.5), "-1.5");
        assert_eq!(tick(0.30000000000000004), "0.3");
        assert_eq!(tick(-0.00001), "0");
        assert_eq!(tick(1.0 / 3.0), "0.3333");
        assert_eq!(scientific(1_234_567.0, 2), "1.23e6");
        assert_eq!(scientific(-0.000_000_45, 1), "-4.5e-7");
        assert_eq!(scientific(9.996e3, 2), "1e4");
        assert_eq!(scientific(0.05, 1), "5e-2");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(short(1.0 / 3.0), "0.3333");
        assert_eq!(short(12.5), "12.5");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(0.0012346), "0.001235");
        assert_eq!(short(1.23e6), "1.23e6");
        assert_eq!(short(4e-5), "4e-5");
    }

    #[test]
    fn clipping_cuts_at_the_bounds() {
        let line = [(0.0, 0.0), (1.0, 2.0), (2.0, 0.0), (3.0, -4.0), (4.0, 4.0)];
        let runs = clip_polyline(&line, (-1.0, 1.0));
        assert_eq!(
            runs,
            vec![
                vec![(0.0, 0.0), (0.5, 1.0)],
                vec![(1.5, 1.0), (2.0, 0.0), (2.25, -1.0)],
                vec![(3.375, -1.0), (3.625, 1.0)],
            ]
        );
        assert_eq!(clip_polyline(&[(0.0, 0.5), (1.0, 0.25)], (0.0, 1.0)), vec![vec![(0.0, 0.5), (1.0, 0.25)]]);
        assert!(clip_polyline(&[(0.0, 5.0), (1.0, 6.0)], (0.0, 1.0)).is_empty());
    }

    #[test]
    fn box_clipping_cuts_at_every_edge() {
        let unit = (-1.0, 1.0);
        assert_eq!(clip_box(&[(-2.0, 0.5), (2.0, 0.5)], unit, unit), vec![vec![(-1.0, 0.5), (1.0, 0.5)]]);
        assert_eq!(clip_box(&[(0.0, 0.0), (4.0, 0.5)], unit, unit), vec![vec![(0.0, 0.0), (1.0, 0.125)]]);
        let out_and_back = clip_box(&[(0.0, 0.0), (0.0, 2.0), (0.5, 0.0)], unit, unit);
        assert_eq!(out_and_back, vec![vec![(0.0, 0.0), (0.0, 1.0)], vec![(0.25, 1.0), (0.5, 0.0)]]);
        assert!(clip_box(&[(2.0, 0.0), (3.0, 0.5)], unit, unit).is_empty());
    }
}
