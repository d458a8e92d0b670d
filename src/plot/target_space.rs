//! The data space of PRML Fig 7.10: with N = 2 observations, the target t = (t₁, t₂) is a
//! point of the plane, a basis vector φ = (φ(x₁), φ(x₂)) an arrow from the origin, and the
//! marginal likelihood N(t | 0, C) an ellipse — its contour at unit Mahalanobis distance —
//! stretched along φ beyond the noise circle of radius β^{-1/2}.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Axes, LabelKey, Labels, PlotArea, area_of, arrow, axes, boxed_line, drawing_error, note, palette, px};
use crate::error::Result;

/// Points of the noise circle.
const CIRCLE_POINTS: usize = 73;

/// The (t₁, t₂) plane at one scale on both axes: the ellipse of C (solid), the noise circle
/// (dashed), φ as an arrow from the origin and t as a cross, both labelled.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetSpaceChart {
    /// The shorter side of the plot shows [−reach, reach].
    pub reach: f64,
    /// The ellipse xᵀC⁻¹x = 1, a closed polyline.
    pub ellipse: Vec<(f64, f64)>,
    /// Radius β^{-1/2} of the noise circle.
    pub noise_radius: f64,
    /// The target t.
    pub target: (f64, f64),
    /// The tip of the basis vector φ.
    pub basis: (f64, f64),
    /// Label key and English text of the title, if any.
    pub title: Option<LabelKey>,
}

impl TargetSpaceChart {
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
        let (x, y) = super::equal_ranges(area, scale, self.reach);
        let mut chart = axes(area, &Axes::named(x, y, (("t1", "t₁"), ("t2", "t₂"), self.title), labels), scale)?;
        let r = self.noise_radius;
        let circle: Vec<(f64, f64)> = (0..CIRCLE_POINTS)
            .map(|k| {
                let (sin, cos) = (std::f64::consts::TAU * k as f64 / (CIRCLE_POINTS - 1) as f64).sin_cos();
                (r * cos, r * sin)
            })
            .collect();
        boxed_line(&mut chart, &circle, (palette::TRUTH.stroke_width(px(2.0, scale)), true), scale)?;
        boxed_line(&mut chart, &self.ellipse, (palette::MEAN.stroke_width(px(2.5, scale)), false), scale)?;
        arrow(&mut chart, ((0.0, 0.0), self.basis), palette::DATA, 2.5, scale)?;
        let ink = palette::INK.stroke_width(px(2.5, scale));
        chart.draw_series([Cross::new(self.target, px(7.0, scale), ink)]).map_err(drawing_error)?;
        let beside = |p: (f64, f64)| {
            // Outward from the origin, so the label clears the arrow or cross.
            let (h, v) =
                (if p.0 < 0.0 { HPos::Right } else { HPos::Left }, if p.1 < 0.0 { VPos::Top } else { VPos::Bottom });
            ((if p.0 < 0.0 { -8.0 } else { 8.0 }, if p.1 < 0.0 { 6.0 } else { -6.0 }), Pos::new(h, v))
        };
        note(&mut chart, self.basis, "φ", beside(self.basis), palette::DATA, scale)?;
        note(&mut chart, self.target, "t", beside(self.target), palette::INK, scale)?;
        Ok(area_of(&chart))
    }
}
