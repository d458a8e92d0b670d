//! The predictive-distribution panel (PRML Fig 3.8): data, the generating curve, the
//! predictive mean with ±1σ and ±2σ bands, and functions drawn from the posterior.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::{
    Axes, Chart, LegendEntry, Mark, PlotArea, area_of, axes, clear, dashed, dots, drawing_error, line, palette, px,
};
use crate::error::Result;

/// Everything the predictive chart shows, already computed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PredictiveScene {
    /// Shown range of inputs.
    pub x_range: (f64, f64),
    /// Shown range of targets.
    pub y_range: (f64, f64),
    /// Training points (xₙ, tₙ).
    pub points: Vec<(f64, f64)>,
    /// The noise-free curve on the grid, if the data come from a known function.
    pub truth: Vec<(f64, f64)>,
    /// Grid of inputs at which the predictive distribution is evaluated.
    pub grid: Vec<f64>,
    /// Predictive mean at each grid input.
    pub mean: Vec<f64>,
    /// Predictive standard deviation σ_N(x) at each grid input.
    pub std_dev: Vec<f64>,
    /// Functions y(x, w) for weights w drawn from the posterior, on the grid.
    pub samples: Vec<Vec<f64>>,
}

/// The series of the chart, in drawing order; colours are those of [`palette`]
/// (checked by a test).
pub const LEGEND: &[LegendEntry] = &[
    LegendEntry { key: "band2", colour: "#fbe3d1", mark: Mark::Area },
    LegendEntry { key: "band1", colour: "#f5b98f", mark: Mark::Area },
    LegendEntry { key: "samples", colour: "#888888", mark: Mark::Line },
    LegendEntry { key: "truth", colour: "#009e73", mark: Mark::Dashed },
    LegendEntry { key: "mean", colour: "#d55e00", mark: Mark::Line },
    LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
];

/// Draws `scene` onto `root`, with lengths in CSS pixels times `scale`.
///
/// Returns where the plotting area landed, for mapping clicks back to data.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    scene: &PredictiveScene,
    scale: f64,
) -> Result<PlotArea> {
    clear(root)?;
    let area = draw_chart(root, scene, scale)?;
    root.present().map_err(drawing_error)?;
    Ok(area)
}

/// Draws the chart of `scene` onto `area` (a whole canvas or part of one), without
/// clearing or presenting it.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    scene: &PredictiveScene,
    scale: f64,
) -> Result<PlotArea> {
    let spec = Axes { x: scene.x_range, y: scene.y_range, x_name: "x", y_name: "t", title: None };
    let mut chart = axes(area, &spec, scale)?;
    draw_scene(&mut chart, scene, scale)?;
    Ok(area_of(&chart))
}

/// Draws the bands, samples, truth, mean and data of `scene` onto an existing chart.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_scene<DB: DrawingBackend>(chart: &mut Chart<'_, DB>, scene: &PredictiveScene, scale: f64) -> Result<()> {
    let (y0, y1) = scene.y_range;
    let clamp = |y: f64| y.clamp(y0, y1);
    for (k, colour) in [(2.0, palette::BAND_2), (1.0, palette::BAND_1)] {
        let upper = scene.grid.iter().zip(&scene.mean).zip(&scene.std_dev).map(|((&x, &m), &s)| (x, clamp(m + k * s)));
        let lower = scene.grid.iter().zip(&scene.mean).zip(&scene.std_dev).map(|((&x, &m), &s)| (x, clamp(m - k * s)));
        let outline: Vec<(f64, f64)> = upper.chain(lower.rev()).collect();
        chart.draw_series(std::iter::once(Polygon::new(outline, colour.filled()))).map_err(drawing_error)?;
    }
    let curve = |ys: &[f64]| -> Vec<(f64, f64)> { scene.grid.iter().copied().zip(ys.iter().copied()).collect() };
    for sample in &scene.samples {
        line(chart, &curve(sample), palette::SAMPLE.stroke_width(px(1.0, scale)))?;
    }
    dashed(chart, &scene.truth, palette::TRUTH.stroke_width(px(2.0, scale)), scale)?;
    line(chart, &curve(&scene.mean), palette::MEAN.stroke_width(px(2.5, scale)))?;
    dots(chart, &scene.points, palette::DATA, scale)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_colours_are_the_palette() {
        let drawn = [palette::BAND_2, palette::BAND_1, palette::SAMPLE, palette::TRUTH, palette::MEAN, palette::DATA];
        let listed: Vec<_> = LEGEND.iter().map(|e| e.colour.to_owned()).collect();
        assert_eq!(listed, drawn.map(palette::hex));
    }
}
