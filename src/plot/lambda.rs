//! The curve of PRML Fig 7.11: λ(α) = ½[ln α − ln(α + s) + q²/(α + s)] (PRML 7.97), the
//! part of the log marginal likelihood that depends on one basis vector's precision α,
//! against ln α — with its maximiser, α* = s²/(q² − s) (PRML 7.101) or ∞, marked. And the
//! (s, q²) plane that tells the two cases apart: above q² = s a basis vector is kept,
//! below it is pruned.
//!
//! Both charts draw numbers they are given ([`LambdaChart`] its curve, its level and its
//! marks, evaluated by the app from `rvm::sparsity`); this module only frames them
//! ([`x_range`], [`ln_alpha_grid`]) and draws them. The lambda-curve panel draws λ for q²
//! and s the reader sets, the sparsity panel the whole ln p(t|α) (λ shifted by ln p(t|∞)),
//! and the fast RVM λ of the basis vector its current step looks at.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Axes, LabelKey, Labels, PlotArea, area_of, arrow, axes, dashed, drawing_error, line, note, palette, px};
use crate::error::{Result, ensure_all_finite, ensure_finite};

/// Points of the curve.
pub const GRID: usize = 241;
/// The range shows ln α from ln s − 5 to ln s + 5 at least.
const HALF_SPAN: f64 = 5.0;
/// … and widens to show α* and the current α, but never beyond ln s ± 40.
const MAX_SPAN: f64 = 40.0;

/// Name of the x axis.
const LN_ALPHA: LabelKey = ("ln-alpha", "ln α");

/// The range of ln α a λ(α) chart of a basis vector with sparsity `s` shows: ln s ± 5,
/// widened by 1 beyond ln of each of `marks` (α* and the current α, where finite), up to
/// ln s ± 40, its ends whole numbers. λ's shape depends only on q²/s and ln(α/s).
pub fn x_range(s: f64, marks: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let centre = s.ln();
    let (lo, hi) = marks
        .into_iter()
        .map(f64::ln)
        .filter(|x| x.is_finite())
        .fold((centre - HALF_SPAN, centre + HALF_SPAN), |(lo, hi), x| (lo.min(x - 1.0), hi.max(x + 1.0)));
    (lo.max(centre - MAX_SPAN).floor(), hi.min(centre + MAX_SPAN).ceil())
}

/// [`GRID`] evenly spaced values of ln α over `(lo, hi)`, where the curve is evaluated.
pub fn ln_alpha_grid((lo, hi): (f64, f64)) -> Vec<f64> {
    (0..GRID).map(|k| lo + (hi - lo) * k as f64 / (GRID - 1) as f64).collect()
}

/// Where λ(α) is largest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Optimum {
    /// At a finite α*, whose point (ln α*, y) is shown: a dot labelled "α* = …".
    At {
        /// α*.
        alpha: f64,
        /// (ln α*, y) in chart coordinates.
        point: (f64, f64),
    },
    /// At a finite α* beyond the range shown (q²/s above e⁴⁰): left unmarked.
    Beyond,
    /// At α* = ∞ (q² ≤ s): an arrow to the right edge along the level, labelled "α* = ∞".
    Infinite,
}

/// λ(α) against ln α for one basis vector (PRML Fig 7.11), as numbers: the curve, the
/// level λ(∞) of the pruned basis vector (a grey dashed line), the maximiser, and the
/// current α (a ring on the curve, with a grey vertical line when α is finite).
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaChart {
    /// The range of ln α shown ([`x_range`]).
    pub x_range: (f64, f64),
    /// (ln α, y) along [`ln_alpha_grid`]: y = λ(α), or λ shifted (ln p(t|α₋ᵢ) + λ(α) is
    /// the whole ln p(t|α), PRML 7.96).
    pub curve: Vec<(f64, f64)>,
    /// y of the pruned basis vector, α = ∞.
    pub level: f64,
    /// The maximiser.
    pub optimum: Optimum,
    /// The current α and its point on the curve (α = ∞: x at the right edge), if marked.
    pub current: Option<(f64, (f64, f64))>,
    /// Label key and English text of the title, if any.
    pub title: Option<LabelKey>,
    /// Label key and English text of the y-axis name.
    pub y_name: LabelKey,
}

impl LambdaChart {
    /// The maximum's point, if marked.
    pub fn maximum(&self) -> Option<(f64, f64)> {
        match self.optimum {
            Optimum::At { point, .. } => Some(point),
            _ => None,
        }
    }

    /// The y range: the curve, the level and the maximum, with room above for the label.
    pub fn y_range(&self) -> (f64, f64) {
        let values = self.curve.iter().map(|p| p.1).chain(self.maximum().map(|p| p.1));
        let (lo, hi) = super::fit::widen(values, (self.level, self.level), 0.0);
        let span = (hi - lo).max(0.5);
        (lo - 0.06 * span, hi + 0.18 * span)
    }

    /// Draws the chart onto `area`; returns its plotting area.
    ///
    /// # Errors
    /// [`crate::Error::NotFinite`] for a non-finite number among the chart's (a level, a
    /// curve point); [`crate::Error::Drawing`] if the backend fails.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        ensure_finite("λ(∞)", self.level)?;
        ensure_all_finite("λ", &self.curve.iter().map(|p| p.1).collect::<Vec<_>>())?;
        let (x0, x1) = self.x_range;
        let spec = Axes::named((x0, x1), self.y_range(), (LN_ALPHA, self.y_name, self.title), labels);
        let mut chart = axes(area, &spec, scale)?;
        let level = self.level;
        dashed(&mut chart, &[(x0, level), (x1, level)], palette::SAMPLE.stroke_width(px(1.5, scale)), scale)?;
        if let Some((alpha, at)) = self.current {
            let x = at.0;
            if alpha.is_finite() && (x0..=x1).contains(&x) {
                let (y0, y1) = spec.y;
                let grey = palette::INK.mix(0.45).stroke_width(px(1.5, scale));
                chart.draw_series(LineSeries::new([(x, y0), (x, y1)], grey)).map_err(drawing_error)?;
            }
            let ring = Circle::new(at, px(6.0, scale), palette::INK.stroke_width(px(1.5, scale)));
            chart.draw_series([ring]).map_err(drawing_error)?;
        }
        line(&mut chart, &self.curve, palette::INK.stroke_width(px(2.0, scale)))?;
        match self.optimum {
            Optimum::At { alpha, point } => {
                chart
                    .draw_series([Circle::new(point, px(5.0, scale), palette::MEAN.filled())])
                    .map_err(drawing_error)?;
                let above = label_above(point.0, (x0, x1));
                note(&mut chart, point, &format!("α* = {}", super::short(alpha)), above, palette::MEAN, scale)?;
            }
            Optimum::Infinite => {
                let tail = x1 - 0.12 * (x1 - x0);
                arrow(&mut chart, ((tail, level), (x1, level)), palette::MEAN, 2.5, scale)?;
                let left = ((-4.0, -8.0), Pos::new(HPos::Right, VPos::Bottom));
                note(&mut chart, (x1, level), "α* = ∞", left, palette::MEAN, scale)?;
            }
            Optimum::Beyond => {}
        }
        Ok(area_of(&chart))
    }
}

/// Where the label above a point at `x` goes: centred over it, but starting at the point
/// in the left fifth of `x_range` and ending there in the right fifth, so that it never runs
/// over the y axis or out of the chart.
fn label_above(x: f64, (x0, x1): (f64, f64)) -> ((f64, f64), Pos) {
    let at = (x - x0) / (x1 - x0);
    if at < 0.2 {
        ((-4.0, -10.0), Pos::new(HPos::Left, VPos::Bottom))
    } else if at > 0.8 {
        ((4.0, -10.0), Pos::new(HPos::Right, VPos::Bottom))
    } else {
        ((0.0, -10.0), Pos::new(HPos::Center, VPos::Bottom))
    }
}

/// The (s, q²) plane of one basis vector (PRML 7.101 read as a map): above the line q² = s
/// (shaded) it is kept with a finite α*, on and below it it is pruned (α* = ∞). The basis
/// vector is a dot; reference cases (the two of Fig 7.11) are rings with a label.
#[derive(Debug, Clone, PartialEq)]
pub struct QualityPlaneChart {
    /// The basis vector shown, as (s, q²).
    pub point: (f64, f64),
    /// Reference points (s, q²) with the label key and English text of each.
    pub references: Vec<((f64, f64), LabelKey)>,
    /// Label key and English text of the title, if any.
    pub title: Option<LabelKey>,
}

impl QualityPlaneChart {
    /// The side of the square [0, r]² shown: 5, or more to hold the basis vector and the
    /// references with room.
    pub fn reach(&self) -> f64 {
        let points = self.references.iter().map(|r| r.0).chain([self.point]);
        points.fold(5.0_f64, |r, (s, q2)| r.max(1.15 * s.max(q2)))
    }

    /// Draws the chart onto `area`; returns its plotting area, where (x, y) is (s, q²).
    ///
    /// # Errors
    /// [`crate::Error::Drawing`] if the backend fails.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        let r = self.reach();
        let names = (("sparsity", "s"), ("quality-squared", "q²"), self.title);
        let mut chart = axes(area, &Axes::named((0.0, r), (0.0, r), names, labels), scale)?;
        let kept = Polygon::new(vec![(0.0, 0.0), (r, r), (0.0, r)], palette::MEAN.mix(0.12).filled());
        chart.draw_series([kept]).map_err(drawing_error)?;
        dashed(&mut chart, &[(0.0, 0.0), (r, r)], palette::INK.stroke_width(px(1.5, scale)), scale)?;
        let kept_text = labels.text("kept", "q² > s: kept, α* = s²/(q² − s)");
        let top_left = ((6.0, 6.0), Pos::new(HPos::Left, VPos::Top));
        note(&mut chart, (0.0, r), kept_text, top_left, palette::MEAN, scale)?;
        let pruned_text = labels.text("pruned", "q² ≤ s: pruned, α* = ∞");
        let bottom_right = ((-6.0, -6.0), Pos::new(HPos::Right, VPos::Bottom));
        note(&mut chart, (r, 0.0), pruned_text, bottom_right, palette::INK, scale)?;
        for &(at, (key, english)) in &self.references {
            let ring = Circle::new(at, px(5.0, scale), palette::SAMPLE.stroke_width(px(1.5, scale)));
            chart.draw_series([ring]).map_err(drawing_error)?;
            let beside = ((8.0, 0.0), Pos::new(HPos::Left, VPos::Center));
            note(&mut chart, at, labels.text(key, english), beside, palette::SAMPLE, scale)?;
        }
        chart.draw_series([Circle::new(self.point, px(5.0, scale), palette::DATA.filled())]).map_err(drawing_error)?;
        Ok(area_of(&chart))
    }
}
