//! The predictive-distribution panel (PRML Fig 3.8): data, the generating curve, the
//! predictive mean with ±1σ and ±2σ bands, and functions drawn from the posterior.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::{
    Axes, Chart, Labels, LegendEntry, Mark, PlotArea, area_of, axes, clear, dashed, dots, drawing_error, line, palette,
    px,
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
    /// How the mean and the bands are shown: as they are, or through the exponential.
    #[serde(default)]
    pub link: Link,
}

/// How a [`PredictiveScene`] shows its mean m and standard deviation σ: the band m ± kσ as
/// it is, or — for a linear predictor a whose exponential is a rate (the Poisson RVM) — the
/// rate e^m and its band e^(m ± kσ).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Link {
    /// m and m ± kσ.
    #[default]
    Identity,
    /// e^m and e^(m ± kσ).
    Exp,
}

impl Link {
    /// The legend keys of the true curve and the mean, and the chart keys of the ±2σ band's
    /// edges, as the chart's data table names them ([`crate::app::plotted`]).
    pub fn names(self) -> [&'static str; 4] {
        match self {
            Link::Identity => ["truth", "mean", "lower-2sd", "upper-2sd"],
            Link::Exp => ["true-rate", "rate", "rate-lower-2sd", "rate-upper-2sd"],
        }
    }

    /// `v` as shown.
    pub fn apply(self, v: f64) -> f64 {
        match self {
            Link::Identity => v,
            Link::Exp => v.exp(),
        }
    }
}

impl PredictiveScene {
    /// The mean shown at grid point `i`.
    pub fn mean_at(&self, i: usize) -> f64 {
        self.link.apply(self.mean[i])
    }

    /// The ±kσ band shown at grid point `i`: its lower and upper edge.
    pub fn band_at(&self, i: usize, k: f64) -> (f64, f64) {
        let (m, s) = (self.mean[i], self.std_dev[i]);
        (self.link.apply(m - k * s), self.link.apply(m + k * s))
    }

    /// The points (x, mean shown) on the grid.
    fn mean_curve(&self) -> Vec<(f64, f64)> {
        self.shown().map(|i| (self.grid[i], self.mean_at(i))).collect()
    }

    /// The grid points with a mean and a standard deviation.
    fn shown(&self) -> std::ops::Range<usize> {
        0..self.grid.len().min(self.mean.len()).min(self.std_dev.len())
    }
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
    let area = draw_chart(root, scene, scale, &Labels::default())?;
    root.present().map_err(drawing_error)?;
    Ok(area)
}

/// Draws the chart of `scene` onto `area` (a whole canvas or part of one), without
/// clearing or presenting it; the generating curve as `labels` say ([`Labels::shows`]).
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    scene: &PredictiveScene,
    scale: f64,
    labels: &Labels,
) -> Result<PlotArea> {
    let spec = Axes { x: scene.x_range, y: scene.y_range, x_name: "x", y_name: "t", title: None, grid: true };
    let mut chart = axes(area, &spec, scale)?;
    draw_scene(&mut chart, scene, scale, labels)?;
    Ok(area_of(&chart))
}

/// A chart on `area`, its axes named x and t in the words of `labels`, with `scene` drawn
/// on it ([`draw_scene`]): the main chart of the step-by-step panels, which draw more on it.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails; as [`axes`] for a range it cannot draw.
pub fn scene_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    scene: &PredictiveScene,
    scale: f64,
    labels: &Labels,
) -> Result<Chart<'a, DB>> {
    let spec = Axes::named(scene.x_range, scene.y_range, (("x", "x"), ("t", "t"), None), labels);
    let mut chart = axes(area, &spec, scale)?;
    draw_scene(&mut chart, scene, scale, labels)?;
    Ok(chart)
}

/// Draws the bands, samples, truth (unless `labels` hide it), mean and data of `scene`
/// onto an existing chart.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_scene<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    scene: &PredictiveScene,
    scale: f64,
    labels: &Labels,
) -> Result<()> {
    let (y0, y1) = scene.y_range;
    let clamp = |y: f64| y.clamp(y0, y1);
    for (k, colour) in [(2.0, palette::BAND_2), (1.0, palette::BAND_1)] {
        let edges: Vec<(f64, (f64, f64))> = scene.shown().map(|i| (scene.grid[i], scene.band_at(i, k))).collect();
        let upper = edges.iter().map(|&(x, (_, hi))| (x, clamp(hi)));
        let lower = edges.iter().rev().map(|&(x, (lo, _))| (x, clamp(lo)));
        let outline: Vec<(f64, f64)> = upper.chain(lower).collect();
        chart.draw_series(std::iter::once(Polygon::new(outline, colour.filled()))).map_err(drawing_error)?;
    }
    let curve = |ys: &[f64]| -> Vec<(f64, f64)> { scene.grid.iter().copied().zip(ys.iter().copied()).collect() };
    for sample in &scene.samples {
        line(chart, &curve(sample), palette::SAMPLE.stroke_width(px(1.0, scale)))?;
    }
    if labels.shows(Some(scene.link.names()[0])) {
        dashed(chart, &scene.truth, palette::TRUTH.stroke_width(px(2.0, scale)), scale)?;
    }
    line(chart, &scene.mean_curve(), palette::MEAN.stroke_width(px(2.5, scale)))?;
    dots(chart, &scene.points, palette::DATA, scale)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn through_the_exponential_the_band_is_that_of_the_predictor() {
        // m = ln 2, σ = ½: the rate 2 and its ±2σ band 2e^∓1.
        let scene = PredictiveScene {
            grid: vec![0.5],
            mean: vec![2f64.ln()],
            std_dev: vec![0.5],
            link: Link::Exp,
            ..PredictiveScene::default()
        };
        assert!((scene.mean_at(0) - 2.0).abs() < 1e-15);
        let (lower, upper) = scene.band_at(0, 2.0);
        assert!((lower - 2.0 / std::f64::consts::E).abs() < 1e-15 && (upper - 2.0 * std::f64::consts::E).abs() < 1e-14);
        let plain = PredictiveScene { link: Link::Identity, ..scene };
        assert_eq!(plain.band_at(0, 1.0), (2f64.ln() - 0.5, 2f64.ln() + 0.5));
    }

    #[test]
    fn legend_colours_are_the_palette() {
        let drawn = [palette::BAND_2, palette::BAND_1, palette::SAMPLE, palette::TRUTH, palette::MEAN, palette::DATA];
        let listed: Vec<_> = LEGEND.iter().map(|e| e.colour.to_owned()).collect();
        assert_eq!(listed, drawn.map(palette::hex));
    }
}
