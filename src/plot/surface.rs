//! Filled contour maps: a scalar field on a regular grid ([`Surface`]) drawn in colour
//! bands, with paths on top (gradient-descent iterates over the error surface; later the
//! re-estimation paths over the evidence surface).

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;

use super::{Axes, Chart, Labels, PlotArea, area_of, axes, drawing_error, line, palette, px};
use crate::error::Result;
use crate::grid::Surface;

/// Colour of band `k` of `bands`: from deep blue-grey (low) to white (high).
fn band_colour(k: usize, bands: usize) -> RGBColor {
    let f = if bands == 0 { 1.0 } else { k as f64 / bands as f64 };
    let mix = |low: u8, high: u8| (f64::from(low) + (f64::from(high) - f64::from(low)) * f).round() as u8;
    RGBColor(mix(0x5A, 0xFF), mix(0x7B, 0xFF), mix(0x9A, 0xFF))
}

/// Draws `surface` as filled bands onto `chart` (whose ranges should cover it).
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_bands<DB: DrawingBackend>(chart: &mut Chart<'_, DB>, surface: &Surface) -> Result<()> {
    let (x0, x1) = surface.x_range;
    let (y0, y1) = surface.y_range;
    let dx = (x1 - x0) / surface.nx as f64;
    let dy = (y1 - y0) / surface.ny as f64;
    let bands = surface.levels.len();
    // Neighbouring cells of a row in the same band are drawn as one rectangle: a banded
    // map has few band changes per row, so this draws far fewer shapes than cells.
    let mut runs = vec![];
    for (iy, row) in surface.values.chunks(surface.nx.max(1)).enumerate() {
        let mut start = 0;
        for ix in 1..=row.len() {
            let band = surface.band(row[start]);
            if ix < row.len() && surface.band(row[ix]) == band {
                continue;
            }
            let (y, x) = (y0 + iy as f64 * dy, x0 + start as f64 * dx);
            let colour = band_colour(band, bands);
            runs.push(Rectangle::new([(x, y), (x0 + ix as f64 * dx, y + dy)], colour.filled()));
            start = ix;
        }
    }
    chart.draw_series(runs).map_err(drawing_error)?;
    Ok(())
}

/// Draws contour lines (from [`Surface::contours`]) in a thin line.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_contours<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    lines: &[Vec<(f64, f64)>],
    style: ShapeStyle,
) -> Result<()> {
    let paths = lines.iter().map(|line| PathElement::new(line.clone(), style));
    chart.draw_series(paths).map_err(drawing_error)?;
    Ok(())
}

/// A path drawn over a surface: a polyline ending in a dot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SurfacePath {
    /// The points, first to last.
    pub points: Vec<(f64, f64)>,
    /// Its colour.
    #[serde(skip)]
    pub colour: RGBColor,
    /// The legend key naming it in the chart's table ([`crate::app::plotted`]).
    #[serde(skip)]
    pub series: &'static str,
}

/// A surface in bands with paths and cross marks on top (weight space, (ln α, ln β)).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SurfaceChart {
    /// The field.
    pub surface: Surface,
    /// Label keys and English text of the axis names.
    pub x_name: (&'static str, &'static str),
    /// Label key and English text of the y-axis name.
    pub y_name: (&'static str, &'static str),
    /// Label key of what the bands show (`chart.<key>`: "ln p(t|α,β)", "E(w)"), for its
    /// table ([`crate::app::plotted`]).
    pub z_name: &'static str,
    /// z = a + b·value as (a, b): the surface may hold z transformed so that its bands
    /// fall well (a depth below the top, a negated density: the darkest band at the top);
    /// its table shows z itself. (0, 1) when it holds z.
    pub z_of_value: (f64, f64),
    /// Label key and English text of the title, if any.
    pub title: Option<(&'static str, &'static str)>,
    /// Paths drawn over the bands.
    pub paths: Vec<SurfacePath>,
    /// Points marked with a cross (a maximum, the true weights).
    pub crosses: Vec<(f64, f64)>,
    /// Contour lines traced along the band edges ([`Surface::contours`]), if wanted.
    pub contours: Vec<Vec<(f64, f64)>>,
}

impl SurfaceChart {
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
        let names = (self.x_name, self.y_name, self.title);
        let spec = Axes::named(self.surface.x_range, self.surface.y_range, names, labels);
        let mut chart = axes(area, &spec, scale)?;
        draw_bands(&mut chart, &self.surface)?;
        draw_contours(&mut chart, &self.contours, palette::INK.mix(0.35).stroke_width(px(1.0, scale)))?;
        for path in &self.paths {
            line(&mut chart, &path.points, path.colour.stroke_width(px(1.5, scale)))?;
            if let Some(&last) = path.points.last() {
                chart.draw_series([Circle::new(last, px(4.0, scale), path.colour.filled())]).map_err(drawing_error)?;
            }
        }
        let ink = palette::INK.stroke_width(px(2.5, scale));
        chart.draw_series(self.crosses.iter().map(|&c| Cross::new(c, px(7.0, scale), ink))).map_err(drawing_error)?;
        Ok(area_of(&chart))
    }
}
