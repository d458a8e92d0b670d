//! Charts. Each chart is a function generic over plotters' [`DrawingBackend`] that draws
//! a plain scene value (numbers already computed by the models), so the same code renders
//! to an SVG string in native tests and to a `<canvas>` in the page.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub mod predictive;

/// Colours, Okabe–Ito (colour-blind safe) on white.
pub mod palette {
    use plotters::style::RGBColor;
    /// Observed data points.
    pub const DATA: RGBColor = RGBColor(0x00, 0x72, 0xB2);
    /// The noise-free generating curve.
    pub const TRUTH: RGBColor = RGBColor(0x00, 0x9E, 0x73);
    /// Predictive mean.
    pub const MEAN: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
    /// ±1σ predictive band (opaque, so its pixels have exactly this colour).
    pub const BAND_1: RGBColor = RGBColor(0xF5, 0xB9, 0x8F);
    /// ±2σ predictive band.
    pub const BAND_2: RGBColor = RGBColor(0xFB, 0xE3, 0xD1);
    /// Functions sampled from the posterior.
    pub const SAMPLE: RGBColor = RGBColor(0x88, 0x88, 0x88);
    /// Axes, ticks and labels.
    pub const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);

    /// `#rrggbb` of a colour, as CSS and SVG write it.
    pub fn hex(c: RGBColor) -> String {
        format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
    }
}

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

/// Turns a plotters drawing error into the core's error.
fn drawing_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::Drawing(e.to_string())
}

/// Fills the whole area white; every chart starts here.
fn clear<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>) -> Result<()> {
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

/// Pixel size of a length given in CSS pixels on a display with `scale` device pixels
/// per CSS pixel (devicePixelRatio).
fn px(css: f64, scale: f64) -> u32 {
    (css * scale).round().max(1.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
