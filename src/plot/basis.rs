//! The basis-functions chart: every φⱼ(x) of a basis over the input range, with a handle
//! under each centre μⱼ that can be dragged.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;

use super::{Axes, Labels, LegendEntry, Mark, PlotArea, area_of, axes, drawing_error, line, palette, px};
use crate::error::Result;

/// Everything the basis chart shows.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct BasisScene {
    /// Shown range of inputs.
    pub x_range: (f64, f64),
    /// Shown range of function values.
    pub y_range: (f64, f64),
    /// Inputs at which the functions are evaluated.
    pub grid: Vec<f64>,
    /// φⱼ on the grid, one curve per function (the bias first, if any).
    pub curves: Vec<Vec<f64>>,
    /// Centres μⱼ that can be dragged, with the index of their curve.
    pub handles: Vec<(usize, f64)>,
    /// Training inputs (the kernel basis is centred on them), drawn as a rug.
    pub rug: Vec<f64>,
}

/// Colour of curve `j`: the Okabe–Ito colours in turn.
pub fn curve_colour(j: usize) -> RGBColor {
    palette::CYCLE[j % palette::CYCLE.len()]
}

/// The legend of the chart.
pub const LEGEND: &[LegendEntry] = &[
    LegendEntry { key: "functions", colour: "#0072b2", mark: Mark::Line },
    LegendEntry { key: "centres", colour: "#222222", mark: Mark::Triangle },
];

/// Draws `scene` onto `root` (not cleared or presented here); returns the plotting area
/// (handles are grabbed there).
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &BasisScene,
    scale: f64,
    labels: &Labels,
) -> Result<PlotArea> {
    let spec = Axes {
        x: scene.x_range,
        y: scene.y_range,
        x_name: "x",
        y_name: labels.text("phi", "φⱼ(x)"),
        title: None,
        grid: true,
    };
    let mut chart = axes(root, &spec, scale)?;
    for (j, values) in scene.curves.iter().enumerate() {
        let points: Vec<(f64, f64)> = scene.grid.iter().copied().zip(values.iter().copied()).collect();
        line(&mut chart, &points, curve_colour(j).stroke_width(px(2.0, scale)))?;
    }
    let (y0, y1) = scene.y_range;
    let foot = y0 + 0.03 * (y1 - y0);
    let rug = palette::INK.mix(0.5).stroke_width(px(1.0, scale));
    for &x in &scene.rug {
        chart.draw_series(LineSeries::new([(x, y0), (x, foot)], rug)).map_err(drawing_error)?;
    }
    let size = px(7.0, scale);
    chart
        .draw_series(
            scene.handles.iter().map(|&(j, mu)| TriangleMarker::new((mu, foot), size, curve_colour(j).filled())),
        )
        .map_err(drawing_error)?;
    Ok(area_of(&chart))
}
