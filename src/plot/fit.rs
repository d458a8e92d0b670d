//! Charts of fitted curves: the data with the generating curve and one or more fitted
//! functions (least squares, ridge, lasso, gradient descent), and small line charts of
//! a quantity against a parameter (RMS error against M, coefficients against ln λ).

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;

use super::{Axes, Chart, Labels, PlotArea, area_of, axes, dashed, dots, drawing_error, line, palette, px};
use crate::error::Result;

/// One curve of a chart: a polyline, its colour and whether it is dashed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Curve {
    /// The points.
    pub points: Vec<(f64, f64)>,
    /// Its colour.
    #[serde(skip)]
    pub colour: RGBColor,
    /// Line width in CSS pixels.
    pub width: f64,
    /// Dashed rather than solid.
    pub dashed: bool,
    /// Also mark every point with a dot.
    pub dotted: bool,
    /// The legend key naming it in its chart's table ([`crate::app::plotted`]); unnamed
    /// curves are numbered there.
    pub series: Option<&'static str>,
}

impl Curve {
    /// A solid line.
    pub fn solid(points: Vec<(f64, f64)>, colour: RGBColor, width: f64) -> Self {
        Self { points, colour, width, dashed: false, dotted: false, series: None }
    }

    /// The same curve named by the legend key `series` in its table.
    pub fn named(self, series: &'static str) -> Self {
        Self { series: Some(series), ..self }
    }

    /// The noise-free curve sin 2πx, dashed.
    pub fn truth(points: Vec<(f64, f64)>) -> Self {
        Self { points, colour: palette::TRUTH, width: 2.0, dashed: true, dotted: false, series: Some("truth") }
    }
}

/// A chart of curves and data points with a vertical marker.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LineChart {
    /// Shown range along x.
    pub x_range: (f64, f64),
    /// Shown range along y.
    pub y_range: (f64, f64),
    /// Key of the x-axis name in the labels, and its English text.
    pub x_name: (&'static str, &'static str),
    /// Key of the y-axis name in the labels, and its English text.
    pub y_name: (&'static str, &'static str),
    /// Key of the title in the labels, and its English text, if any.
    pub title: Option<(&'static str, &'static str)>,
    /// The curves, drawn in order.
    pub curves: Vec<Curve>,
    /// Data points, drawn last.
    pub points: Vec<(f64, f64)>,
    /// A vertical line at this x (the current M or ln λ).
    pub marker: Option<f64>,
}

impl LineChart {
    /// Draws the chart onto `area`; returns its plotting area.
    ///
    /// # Errors
    /// [`crate::Error::Drawing`] if the backend fails.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        let spec = Axes::named(self.x_range, self.y_range, (self.x_name, self.y_name, self.title), labels);
        let mut chart = axes(area, &spec, scale)?;
        if let Some(x) = self.marker {
            let (y0, y1) = self.y_range;
            let style = palette::INK.mix(0.45).stroke_width(px(1.5, scale));
            chart.draw_series(LineSeries::new([(x, y0), (x, y1)], style)).map_err(drawing_error)?;
        }
        for curve in self.curves.iter().filter(|curve| labels.shows(curve.series)) {
            draw_curve(&mut chart, curve, scale)?;
        }
        dots(&mut chart, &self.points, palette::DATA, scale)?;
        Ok(area_of(&chart))
    }
}

fn draw_curve<DB: DrawingBackend>(chart: &mut Chart<'_, DB>, curve: &Curve, scale: f64) -> Result<()> {
    let style = curve.colour.stroke_width(px(curve.width, scale));
    if curve.dashed {
        dashed(chart, &curve.points, style, scale)?;
    } else {
        line(chart, &curve.points, style)?;
    }
    if curve.dotted {
        let (x, y) = (chart.x_range(), chart.y_range());
        let inside = curve.points.iter().filter(|(a, b)| x.start <= *a && *a <= x.end && y.start <= *b && *b <= y.end);
        chart
            .draw_series(inside.map(|&p| Circle::new(p, px(3.0, scale), curve.colour.filled())))
            .map_err(drawing_error)?;
    }
    Ok(())
}

/// One curve per weight j through the points (xₖ, wₖⱼ) — coefficient paths, weights
/// against γ — in the colours of [`super::basis::curve_colour`].
pub fn weight_curves(path: &[(f64, &DVector<f64>)]) -> Vec<Curve> {
    let m = path.first().map_or(0, |(_, w)| w.len());
    let along = |j: usize| path.iter().map(|(x, w)| (*x, w[j])).collect();
    (0..m).map(|j| Curve::solid(along(j), super::basis::curve_colour(j), 1.5)).collect()
}

/// `base` widened to hold every value with `margin` to spare.
pub fn widen(values: impl Iterator<Item = f64>, base: (f64, f64), margin: f64) -> (f64, f64) {
    values.filter(|v| v.is_finite()).fold(base, |(lo, hi), v| (lo.min(v - margin), hi.max(v + margin)))
}
