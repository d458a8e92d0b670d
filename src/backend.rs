//! The plotters backend the page draws through (no mathematics): the chart's canvas (in
//! the browser), or an SVG document for "Save as SVG" (everywhere: the native tests draw
//! through it too). Both are one type, [`PageBackend`], so the panels' drawing code is
//! compiled once for the page, not once per target, and a panel of any type can be drawn
//! through the object-safe [`crate::app::PanelModel`].
//!
//! On the canvas, runs of small filled rectangles are drawn as one image. A colour map is
//! thousands of filled rectangles (a 200 × 200 class map has about four thousand runs of
//! equal colour). plotters' canvas backend makes two calls into the page per rectangle, a
//! fill style built as text and a `fillRect`, which took about 15 ms a frame. The canvas
//! target instead paints consecutive small opaque filled rectangles into a pixel buffer
//! and draws that buffer as one image before anything else is drawn, with `drawImage`
//! through a scratch canvas, so that pixels no rectangle covered stay as they were. (Not
//! `putImageData` on the chart's canvas, even where the rectangles cover their box: it
//! makes the browser paint at once everything drawn before it, in the drawing's task,
//! instead of in the frame; gradient descent's drawing at 4× CPU went 45 → 25 ms.) The
//! pixels are those `fillRect` would set at whole-pixel corners, which plotters always
//! passes. The SVG target keeps every rectangle, so the file stays vector.
//!
//! On the canvas, a polyline's runs of points in one pixel column are cut to their first,
//! lowest, highest and last points ([`column_extremes`]; the SVG keeps every point): the
//! same line, and a noisy curve of thousands of points (a stochastic gradient descent's
//! loss) no longer costs the canvas more than the rest of the panel's chart together
//! (gradient descent at N = 200: 17 → 9 ms a frame).
//!
//! On the canvas, consecutive lines and circles of one opaque colour and width (a chart's
//! grid and ticks, hundreds of data marks) are one path, stroked or filled once when
//! anything else is drawn ([`OpenPath`]). plotters' canvas backend strokes each on its own
//! with five or six calls into the page, one of them a colour given as text for the page to
//! parse; the pixels are the same where the shapes do not overlap (opaque shapes that do
//! may differ in their anti-aliased edges), and translucent ones are still drawn one by one.
//!
//! Both targets draw in a [`Look`]: on a projector every shape and word passes through
//! [`Look::stroke`] or [`Look::fill`] and lines through [`Look::width`] on its way in, so
//! the charts never know where they are seen.
//!
//! Both targets draw only the shapes of the part of a drawing being made
//! ([`crate::parts::drawing`]); outside a drawing made in parts, that is every shape.

use std::fmt;

use plotters::prelude::SVGBackend;
use plotters::style::RGBColor;
use plotters_backend::text_anchor::Pos;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontFamily,
    FontStyle, FontTransform,
};
#[cfg(target_arch = "wasm32")]
use plotters_canvas::CanvasBackend;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::{Clamped, JsCast};
#[cfg(target_arch = "wasm32")]
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::palette::Look;
use crate::parts;

/// Rectangles larger than this many pixels are drawn directly (backgrounds, boxes).
#[cfg(target_arch = "wasm32")]
const LARGEST_BATCHED: i64 = 16_384;
/// Fewer pending rectangles than this are drawn directly: the image costs more.
#[cfg(target_arch = "wasm32")]
const SMALLEST_BATCH: usize = 64;

/// A pending rectangle: corners (x₀, y₀) inclusive, (x₁, y₁) exclusive, and its colour.
#[cfg(target_arch = "wasm32")]
type Pending = (i32, i32, i32, i32, (u8, u8, u8));

/// The style of the path being built on the canvas: its colour, its line width, and
/// whether it is filled (circles) or stroked (lines, rings).
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Clone, Copy, PartialEq)]
struct OpenPath {
    rgb: (u8, u8, u8),
    width: u32,
    fill: bool,
}

/// A shape added to the open path: a line, or a circle (its centre, radius, and whether it
/// is filled).
#[cfg(target_arch = "wasm32")]
enum Shape {
    Line(BackendCoord, BackendCoord),
    Circle(BackendCoord, u32, bool),
}

/// Where a [`PageBackend`] draws.
enum Target<'a> {
    /// A canvas on the page, with its 2-D context for the batched images and paths.
    /// Runs of small opaque rectangles wait in `pending` to be drawn as one image; runs of
    /// opaque lines or circles of one style are added to the context's path, `open`, which is
    /// stroked or filled once.
    #[cfg(target_arch = "wasm32")]
    Canvas { inner: CanvasBackend, context: CanvasRenderingContext2d, pending: Vec<Pending>, open: Option<OpenPath> },
    /// An SVG document written into a string.
    Svg(SVGBackend<'a>),
}

/// A canvas (filled rectangles batched into images) or an SVG document, drawn in a look.
pub struct PageBackend<'a> {
    target: Target<'a>,
    look: Look,
}

/// Why the canvas or the SVG writer failed, as text.
#[derive(Debug)]
pub struct BackendError(String);

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BackendError {}

/// The canvas's error as a [`BackendError`].
#[cfg(target_arch = "wasm32")]
fn convert<E: std::error::Error + Send + Sync>(error: DrawingErrorKind<E>) -> DrawingErrorKind<BackendError> {
    match error {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(BackendError(e.to_string())),
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// The SVG writer's error, which writing into a string never meets, named without
/// formatting it (the text of every I/O error would otherwise be in the module).
fn svg_error(error: DrawingErrorKind<std::io::Error>) -> DrawingErrorKind<BackendError> {
    match error {
        DrawingErrorKind::DrawingError(_) => {
            DrawingErrorKind::DrawingError(BackendError("the SVG writer failed".into()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// Calls the same method on whichever backend is the target, after drawing what is pending.
macro_rules! forward {
    ($self:ident, $backend:ident => $call:expr) => {{
        $self.flush()?;
        match &mut $self.target {
            #[cfg(target_arch = "wasm32")]
            Target::Canvas { inner: $backend, .. } => $call.map_err(convert),
            Target::Svg($backend) => $call.map_err(svg_error),
        }
    }};
}

#[cfg(target_arch = "wasm32")]
impl PageBackend<'static> {
    /// The backend on `canvas`, drawing in `look`; `None` if it has no 2-D context.
    pub fn canvas(canvas: HtmlCanvasElement, look: Look) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Self { target: Target::Canvas { inner, context, pending: vec![], open: None }, look })
    }
}

impl<'a> PageBackend<'a> {
    /// An SVG document of `size` pixels in `look`, written into `text` (complete once the
    /// backend is dropped).
    pub fn svg(text: &'a mut String, size: (u32, u32), look: Look) -> Self {
        Self { target: Target::Svg(SVGBackend::with_string(text, size)), look }
    }

    #[cfg(target_arch = "wasm32")]
    /// Adds `shape` to the open path of `style` (opened with that style after drawing what
    /// waits, if another is open); an invisible shape is done at once. `false` (nothing
    /// done) for a translucent style, which is drawn on its own.
    fn add_to_path(&mut self, style: &Styled, shape: Shape) -> Result<bool, DrawingErrorKind<BackendError>> {
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(true);
        }
        if colour.alpha < 1.0 {
            return Ok(false);
        }
        let fill = matches!(shape, Shape::Circle(_, _, true));
        let wanted = OpenPath { rgb: colour.rgb, width: style.stroke_width(), fill };
        if matches!(self.target, Target::Canvas { open, .. } if open != Some(wanted)) {
            self.flush()?;
        }
        let Target::Canvas { context, open, .. } = &mut self.target else { return Ok(false) };
        if open.is_none() {
            let (r, g, b) = wanted.rgb;
            let text = format!("rgb({r},{g},{b})");
            if fill {
                context.set_fill_style_str(&text);
            } else {
                context.set_stroke_style_str(&text);
                context.set_line_width(f64::from(wanted.width));
            }
            context.begin_path();
            *open = Some(wanted);
        }
        match shape {
            Shape::Line(from, to) => {
                // As plotters' canvas backend: a horizontal or vertical line on the pixel grid.
                let (from, to) = crisp_line(from, to);
                context.move_to(from.0, from.1);
                context.line_to(to.0, to.1);
            }
            Shape::Circle(centre, radius, _) => {
                let (x, y, r) = (f64::from(centre.0), f64::from(centre.1), f64::from(radius));
                // A new subpath at the circle's start: no line from the shape before.
                context.move_to(x + r, y);
                context
                    .arc(x, y, r, 0.0, std::f64::consts::TAU)
                    .map_err(|e| DrawingErrorKind::DrawingError(BackendError(format!("{e:?}"))))?;
            }
        }
        Ok(true)
    }

    /// `style` as a line, an outline or a mark in this look.
    fn stroke<S: BackendStyle>(&self, style: &S) -> Styled {
        let width = self.look.width(style.stroke_width());
        Styled { color: recolour(style.color(), |c| self.look.stroke(c)), width }
    }

    /// `style` as a filled area in this look.
    fn fill<S: BackendStyle>(&self, style: &S) -> Styled {
        Styled { color: recolour(style.color(), |c| self.look.fill(c)), width: style.stroke_width() }
    }

    /// Draws what waits: the open path, stroked or filled; the pending rectangles, as one
    /// image if there are many (falling back to one by one if the page refuses the image),
    /// else one by one.
    fn flush(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        match &mut self.target {
            #[cfg(target_arch = "wasm32")]
            Target::Canvas { inner, context, pending, open } => {
                match open.take() {
                    Some(OpenPath { fill: true, .. }) => context.fill(),
                    Some(OpenPath { fill: false, .. }) => context.stroke(),
                    None => {}
                }
                let pending = std::mem::take(pending);
                if pending.len() >= SMALLEST_BATCH && draw_batch(context, &pending).is_ok() {
                    return Ok(());
                }
                for (x0, y0, x1, y1, rgb) in pending {
                    let colour = BackendColor { alpha: 1.0, rgb };
                    inner.draw_rect((x0, y0), (x1, y1), &colour, true).map_err(convert)?;
                }
                Ok(())
            }
            // An SVG document keeps every rectangle: nothing waits.
            Target::Svg(_) => Ok(()),
        }
    }
}

/// Paints `pending` into a buffer over their bounding box and draws it as one image.
#[cfg(target_arch = "wasm32")]
fn draw_batch(context: &CanvasRenderingContext2d, pending: &[Pending]) -> Result<(), wasm_bindgen::JsValue> {
    let (bx, by) = pending.iter().fold((i32::MAX, i32::MAX), |(x, y), r| (x.min(r.0), y.min(r.1)));
    let (ex, ey) = pending.iter().fold((i32::MIN, i32::MIN), |(x, y), r| (x.max(r.2), y.max(r.3)));
    let (w, h) = ((ex - bx) as usize, (ey - by) as usize);
    // RGBA packed little-endian: a run of a row is one `fill`.
    let mut pixels = vec![0u32; w * h];
    for &(x0, y0, x1, y1, (r, g, b)) in pending {
        let value = u32::from_le_bytes([r, g, b, 255]);
        let (from, to) = ((x0 - bx) as usize, (x1 - bx) as usize);
        for y in (y0 - by) as usize..(y1 - by) as usize {
            pixels[y * w + from..y * w + to].fill(value);
        }
    }
    let bytes: &[u8] = bytemuck::cast_slice(&pixels);
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(bytes), w as u32, h as u32)?;
    draw_image(context, &image, (bx, by), (w as u32, h as u32))
}

/// Draws `image` (w × h) with its corner at (x, y), transparent pixels leaving the canvas
/// as it is.
#[cfg(target_arch = "wasm32")]
fn draw_image(
    context: &CanvasRenderingContext2d,
    image: &ImageData,
    (x, y): (i32, i32),
    (w, h): (u32, u32),
) -> Result<(), wasm_bindgen::JsValue> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let scratch = document.create_element("canvas")?.dyn_into::<HtmlCanvasElement>()?;
    scratch.set_width(w);
    scratch.set_height(h);
    let scratch_context = scratch.get_context("2d")?.ok_or("no 2-D context")?.dyn_into::<CanvasRenderingContext2d>()?;
    scratch_context.put_image_data(image, 0.0, 0.0)?;
    context.draw_image_with_html_canvas_element(&scratch, f64::from(x), f64::from(y))
}

impl DrawingBackend for PageBackend<'_> {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        match &self.target {
            #[cfg(target_arch = "wasm32")]
            Target::Canvas { inner, .. } => inner.get_size(),
            Target::Svg(inner) => inner.get_size(),
        }
    }

    /// Not a drawing: the pending rectangles wait (plotters asks before every element, so a
    /// flush here would draw a colour map one rectangle at a time again).
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        match &mut self.target {
            #[cfg(target_arch = "wasm32")]
            Target::Canvas { inner, .. } => inner.ensure_prepared().map_err(convert),
            Target::Svg(inner) => inner.ensure_prepared().map_err(svg_error),
        }
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        forward!(self, b => b.present())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        let color = recolour(color, |c| self.look.stroke(c));
        forward!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        let style = self.stroke(style);
        #[cfg(target_arch = "wasm32")]
        if self.add_to_path(&style, Shape::Line(from, to))? {
            return Ok(());
        }
        forward!(self, b => b.draw_line(from, to, &style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        let style = &if fill { self.fill(style) } else { self.stroke(style) };
        #[cfg(target_arch = "wasm32")]
        let (cw, ch) = self.get_size();
        #[cfg(target_arch = "wasm32")]
        if let Target::Canvas { open: Some(_), .. } = &self.target {
            // The rectangle goes over what the open path holds.
            self.flush()?;
        }
        #[cfg(target_arch = "wasm32")]
        if let Target::Canvas { pending, .. } = &mut self.target {
            let colour = style.color();
            let (w, h) = (i64::from(bottom_right.0 - upper_left.0), i64::from(bottom_right.1 - upper_left.1));
            let inside =
                upper_left.0 >= 0 && upper_left.1 >= 0 && bottom_right.0 <= cw as i32 && bottom_right.1 <= ch as i32;
            if fill && colour.alpha >= 1.0 && w > 0 && h > 0 && w * h <= LARGEST_BATCHED && inside {
                pending.push((upper_left.0, upper_left.1, bottom_right.0, bottom_right.1, colour.rgb));
                return Ok(());
            }
        }
        forward!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        let style = self.stroke(style);
        let path: Vec<BackendCoord> = path.into_iter().collect();
        // The SVG keeps every point: the file stays the data's.
        #[cfg(target_arch = "wasm32")]
        let path = if matches!(self.target, Target::Canvas { .. }) { column_extremes(&path) } else { path };
        forward!(self, b => b.draw_path(path, &style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        // A circle, filled or not, is a mark (a data point, a ring): coloured as a line.
        let style = self.stroke(style);
        #[cfg(target_arch = "wasm32")]
        if self.add_to_path(&style, Shape::Circle(center, radius, fill))? {
            return Ok(());
        }
        forward!(self, b => b.draw_circle(center, radius, &style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        let style = self.fill(style);
        forward!(self, b => b.fill_polygon(vert, &style))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        if !parts::drawing() {
            return Ok(());
        }
        let style = Worded { inner: style, color: recolour(style.color(), |c| self.look.stroke(c)) };
        forward!(self, b => b.draw_text(text, &style, pos))
    }
}

/// A line from `from` to `to` as plotters' canvas backend strokes it: a vertical or
/// horizontal one moved half a pixel, onto the middle of a row or column of pixels.
#[cfg(target_arch = "wasm32")]
fn crisp_line(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let (mut from, mut to) = ((f64::from(from.0), f64::from(from.1)), (f64::from(to.0), f64::from(to.1)));
    if from.0 == to.0 {
        from.0 -= 0.5;
        to.0 -= 0.5;
    }
    if from.1 == to.1 {
        from.1 -= 0.5;
        to.1 -= 0.5;
    }
    (from, to)
}

/// The polyline `path` with each run of consecutive points in one pixel column (one x)
/// cut down to its first, lowest, highest and last points, in their order. The line drawn
/// is the same: within a column the run only goes up and down between its extremes, and a
/// stroke covers that span once whatever the zigzag. A noisy curve of thousands of points
/// (a stochastic gradient descent's loss, 12 000 at N = 200) then costs the canvas a few
/// points per column instead of a long zigzag.
#[cfg(any(target_arch = "wasm32", test))]
fn column_extremes(points: &[BackendCoord]) -> Vec<BackendCoord> {
    let mut out = Vec::with_capacity(points.len());
    for run in points.chunk_by(|a, b| a.0 == b.0) {
        let last = run.len() - 1;
        if last < 4 {
            out.extend_from_slice(run);
            continue;
        }
        let by_y = |i: &usize| run[*i].1;
        let (lowest, highest) = ((0..=last).min_by_key(by_y), (0..=last).max_by_key(by_y));
        let mut inner = [lowest.unwrap_or(0), highest.unwrap_or(0)];
        inner.sort_unstable();
        out.push(run[0]);
        let mut previous = 0;
        for k in inner {
            if k != previous && k != last {
                out.push(run[k]);
                previous = k;
            }
        }
        out.push(run[last]);
    }
    out
}

/// `color` with its red, green and blue passed through `map`, its opacity kept.
fn recolour(color: BackendColor, map: impl Fn(RGBColor) -> RGBColor) -> BackendColor {
    let (r, g, b) = color.rgb;
    let c = map(RGBColor(r, g, b));
    BackendColor { alpha: color.alpha, rgb: (c.0, c.1, c.2) }
}

/// A shape's colour and line width in the backend's look.
struct Styled {
    color: BackendColor,
    width: u32,
}

impl BackendStyle for Styled {
    fn color(&self) -> BackendColor {
        self.color
    }

    fn stroke_width(&self) -> u32 {
        self.width
    }
}

/// A text style in the backend's look: its colour replaced, the rest as it was.
struct Worded<'s, S> {
    inner: &'s S,
    color: BackendColor,
}

impl<S: BackendTextStyle> BackendTextStyle for Worded<'_, S> {
    type FontError = S::FontError;

    fn color(&self) -> BackendColor {
        self.color
    }

    fn size(&self) -> f64 {
        self.inner.size()
    }

    fn transform(&self) -> FontTransform {
        self.inner.transform()
    }

    fn style(&self) -> FontStyle {
        self.inner.style()
    }

    fn anchor(&self) -> Pos {
        self.inner.anchor()
    }

    fn family(&self) -> FontFamily<'_> {
        self.inner.family()
    }

    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), Self::FontError> {
        self.inner.layout_box(text)
    }

    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        text: &str,
        pos: BackendCoord,
        mut draw: F,
    ) -> Result<Result<(), E>, Self::FontError> {
        let color = self.color;
        self.inner.draw(text, pos, |x, y, c| draw(x, y, BackendColor { alpha: c.alpha, ..color }))
    }
}

// proptest is a native dev-dependency only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// What a polyline covers, brute force: each run of points in one column as its x and
    /// the y span of its vertical segments, and the segments between two columns, in order.
    type Coverage = (Vec<(i32, i32, i32)>, Vec<(BackendCoord, BackendCoord)>);
    fn coverage(path: &[BackendCoord]) -> Coverage {
        let mut spans: Vec<(i32, i32, i32)> = vec![];
        for (i, p) in path.iter().enumerate() {
            match spans.last_mut() {
                Some(span) if i > 0 && path[i - 1].0 == p.0 => *span = (p.0, span.1.min(p.1), span.2.max(p.1)),
                _ => spans.push((p.0, p.1, p.1)),
            }
        }
        let across = path.windows(2).filter(|w| w[0].0 != w[1].0).map(|w| (w[0], w[1])).collect();
        (spans, across)
    }

    proptest! {
        /// The cut path covers each column's span and crosses between columns exactly as the
        /// whole path does, with at most four points per run of a column.
        #[test]
        fn column_extremes_draw_the_same_line(path in prop::collection::vec((0..6i32, -50..50i32), 0..200)) {
            let cut = column_extremes(&path);
            prop_assert_eq!(coverage(&cut), coverage(&path));
            prop_assert_eq!(cut.first(), path.first());
            prop_assert_eq!(cut.last(), path.last());
            for run in cut.chunk_by(|a, b| a.0 == b.0) {
                prop_assert!(run.len() <= 4, "{:?}", run);
            }
        }
    }

    #[test]
    fn a_zigzag_in_one_column_keeps_its_ends_and_extremes_in_order() {
        let path = [(0, 0), (1, 5), (1, -3), (1, 9), (1, 2), (1, 4), (2, 1)];
        assert_eq!(column_extremes(&path), vec![(0, 0), (1, 5), (1, -3), (1, 9), (1, 4), (2, 1)]);
    }
}
