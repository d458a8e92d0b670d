//! The curve of PRML Fig 7.11: λ(α) = ½[ln α − ln(α + s) + q²/(α + s)] (PRML 7.97), the
//! part of the log marginal likelihood that depends on one basis vector's precision α,
//! against ln α — with its maximiser, α* = s²/(q² − s) (PRML 7.101) or ∞, marked. And the
//! (s, q²) plane that tells the two cases apart: above q² = s a basis vector is kept,
//! below it is pruned.
//!
//! [`LambdaChart`] is the reusable piece: the lambda-curve panel draws it for q² and s the
//! reader sets, the sparsity panel shifted by ln p(t|∞) as the whole ln p(t|α), and the fast
//! RVM for the basis vector its current step looks at.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Axes, LabelKey, Labels, PlotArea, area_of, arrow, axes, dashed, drawing_error, line, note, palette, px};
use crate::error::Result;
use crate::rvm::sparsity::{LAMBDA_AT_INFINITY, SparsityQuality};

/// Points of the curve.
const GRID: usize = 241;
/// The range shows ln α from ln s − 5 to ln s + 5 at least.
const HALF_SPAN: f64 = 5.0;
/// … and widens to show α* and the current α, but never beyond ln s ± 40.
const MAX_SPAN: f64 = 40.0;

/// Name of the x axis.
const LN_ALPHA: LabelKey = ("ln-alpha", "ln α");

/// λ(α) against ln α for one basis vector (PRML Fig 7.11), its maximiser marked: a dot
/// labelled "α* = …" where q² > s, an arrow to the right edge labelled "α* = ∞" where
/// q² ≤ s. A grey dashed line shows the level λ(∞) = 0 of the pruned basis vector, and a
/// grey line the current α, if given.
///
/// λ's shape depends only on q²/s and ln(α/s), so the range of ln α is chosen from s
/// (ln s ± 5), widened to hold α* and the current α; the y range fits the curve.
///
/// ```
/// use rvm_lab::plot::{Labels, lambda::LambdaChart};
/// use rvm_lab::rvm::sparsity::SparsityQuality;
/// use plotters::prelude::*;
///
/// let sq = SparsityQuality::from_q_squared(1.0, 4.0)?; // PRML Fig 7.11, left
/// let chart = LambdaChart { current: Some(2.0), ..LambdaChart::new(sq) };
/// let mut svg = String::new();
/// let area = chart.draw(&SVGBackend::with_string(&mut svg, (500, 400)).into_drawing_area(), 1.0, &Labels::default())?;
/// assert_eq!(area.x_range, (-5.0, 5.0));
/// # Ok::<(), rvm_lab::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LambdaChart {
    /// Sparsity s and quality q of the basis vector.
    pub sq: SparsityQuality,
    /// The current α, marked (∞: at the right edge), if any.
    pub current: Option<f64>,
    /// Label key and English text of the title, if any.
    pub title: Option<LabelKey>,
    /// Added to λ: ln p(t|α₋ᵢ) turns the curve into the whole ln p(t|α) (PRML 7.96); 0
    /// draws λ itself.
    pub offset: f64,
    /// Label key and English text of the y-axis name.
    pub y_name: LabelKey,
}

impl LambdaChart {
    /// λ(α) of `sq`, without title or current α.
    pub fn new(sq: SparsityQuality) -> Self {
        Self { sq, current: None, title: None, offset: 0.0, y_name: ("lambda", "λ(α)") }
    }

    /// The range of ln α shown: ln s ± 5, widened by 1 beyond ln α* and ln of the current α
    /// (up to ln s ± 40), its ends whole numbers.
    pub fn x_range(&self) -> (f64, f64) {
        let centre = self.sq.s.ln();
        let marks = [self.sq.optimal_alpha(), self.current].into_iter().flatten().map(f64::ln);
        let (lo, hi) = marks
            .filter(|x| x.is_finite())
            .fold((centre - HALF_SPAN, centre + HALF_SPAN), |(lo, hi), x| (lo.min(x - 1.0), hi.max(x + 1.0)));
        (lo.max(centre - MAX_SPAN).floor(), hi.min(centre + MAX_SPAN).ceil())
    }

    /// (ln α, offset + λ(α)) at [`GRID`] evenly spaced points of [`LambdaChart::x_range`].
    pub fn curve(&self) -> Vec<(f64, f64)> {
        let (lo, hi) = self.x_range();
        let at = |k: usize| lo + (hi - lo) * k as f64 / (GRID - 1) as f64;
        (0..GRID).map(|k| (at(k), self.offset + self.sq.lambda(at(k).exp()))).collect()
    }

    /// The maximiser in chart coordinates, (ln α*, offset + λ(α*)), if finite and shown.
    pub fn maximum(&self) -> Option<(f64, f64)> {
        let (lo, hi) = self.x_range();
        let alpha = self.sq.optimal_alpha()?;
        Some((alpha.ln(), self.offset + self.sq.lambda(alpha))).filter(|p| (lo..=hi).contains(&p.0))
    }

    /// The y range: the curve, the level of λ(∞) and the maximum, with room above for the
    /// label.
    pub fn y_range(&self) -> (f64, f64) {
        let level = self.offset + LAMBDA_AT_INFINITY;
        let values = self.curve().into_iter().map(|p| p.1).chain(self.maximum().map(|p| p.1));
        let (lo, hi) = super::fit::widen(values, (level, level), 0.0);
        let span = (hi - lo).max(0.5);
        (lo - 0.06 * span, hi + 0.18 * span)
    }

    /// Draws the chart onto `area`; returns its plotting area.
    ///
    /// # Errors
    /// [`crate::Error::OutOfRange`] or [`crate::Error::NotFinite`] if `sq` (whose fields
    /// are public) is not a valid sparsity and quality; [`crate::Error::Drawing`] if the
    /// backend fails.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        crate::error::ensure_finite("offset", self.offset)?;
        let sq = self.sq.checked()?;
        let (x0, x1) = self.x_range();
        let spec = Axes::named((x0, x1), self.y_range(), (LN_ALPHA, self.y_name, self.title), labels);
        let mut chart = axes(area, &spec, scale)?;
        let level = self.offset + LAMBDA_AT_INFINITY;
        dashed(&mut chart, &[(x0, level), (x1, level)], palette::SAMPLE.stroke_width(px(1.5, scale)), scale)?;
        if let Some(alpha) = self.current {
            let x = if alpha.is_finite() { alpha.ln() } else { x1 };
            let at = (x, self.offset + sq.lambda(alpha));
            if alpha.is_finite() && (x0..=x1).contains(&x) {
                let (y0, y1) = spec.y;
                let grey = palette::INK.mix(0.45).stroke_width(px(1.5, scale));
                chart.draw_series(LineSeries::new([(x, y0), (x, y1)], grey)).map_err(drawing_error)?;
            }
            let ring = Circle::new(at, px(6.0, scale), palette::INK.stroke_width(px(1.5, scale)));
            chart.draw_series([ring]).map_err(drawing_error)?;
        }
        line(&mut chart, &self.curve(), palette::INK.stroke_width(px(2.0, scale)))?;
        let above = ((0.0, -10.0), Pos::new(HPos::Center, VPos::Bottom));
        match (self.maximum(), sq.optimal_alpha()) {
            (Some(top), Some(alpha)) => {
                chart.draw_series([Circle::new(top, px(5.0, scale), palette::MEAN.filled())]).map_err(drawing_error)?;
                note(&mut chart, top, &format!("α* = {}", short(alpha)), above, palette::MEAN, scale)?;
            }
            (None, None) => {
                let tail = x1 - 0.12 * (x1 - x0);
                arrow(&mut chart, ((tail, level), (x1, level)), palette::MEAN, 2.5, scale)?;
                let left = ((-4.0, -8.0), Pos::new(HPos::Right, VPos::Bottom));
                note(&mut chart, (x1, level), "α* = ∞", left, palette::MEAN, scale)?;
            }
            // A finite α* beyond ln s ± 40 (q²/s above e⁴⁰) is left unmarked.
            _ => {}
        }
        Ok(area_of(&chart))
    }
}

/// `value` to four significant digits, in exponent form when tiny or huge ("0.3333",
/// "12.5", "1.23e6").
fn short(value: f64) -> String {
    let size = value.abs();
    if size != 0.0 && !(1e-3..1e5).contains(&size) {
        return super::scientific(value, 2);
    }
    let decimals = if size == 0.0 { 0 } else { (3 - size.log10().floor() as i32).clamp(0, 6) };
    super::rounded(value, decimals)
}

/// The (s, q²) plane of one basis vector (PRML 7.101 read as a map): above the line q² = s
/// (shaded) it is kept with a finite α*, on and below it it is pruned (α* = ∞). The basis
/// vector is a dot; reference cases (the two of Fig 7.11) are rings with a label.
#[derive(Debug, Clone, PartialEq)]
pub struct QualityPlaneChart {
    /// The basis vector shown.
    pub sq: SparsityQuality,
    /// Reference points (s, q²) with the label key and English text of each.
    pub references: Vec<((f64, f64), LabelKey)>,
    /// Label key and English text of the title, if any.
    pub title: Option<LabelKey>,
}

impl QualityPlaneChart {
    /// The side of the square [0, r]² shown: 5, or more to hold the basis vector and the
    /// references with room.
    pub fn reach(&self) -> f64 {
        let points = self.references.iter().map(|r| r.0).chain([(self.sq.s, self.sq.q_squared())]);
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
        let at = (self.sq.s, self.sq.q_squared());
        chart.draw_series([Circle::new(at, px(5.0, scale), palette::DATA.filled())]).map_err(drawing_error)?;
        Ok(area_of(&chart))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_range_follows_s_and_holds_the_marks() {
        let left = LambdaChart::new(SparsityQuality::from_q_squared(1.0, 4.0).unwrap());
        assert_eq!(left.x_range(), (-5.0, 5.0));
        let right = LambdaChart::new(SparsityQuality::from_q_squared(2.0, 1.0).unwrap());
        // ln 2 ± 5, to whole numbers.
        assert_eq!(right.x_range(), (-5.0, 6.0));
        let wide = LambdaChart { current: Some(1e6), ..left };
        assert_eq!(wide.x_range(), (-5.0, (1e6f64.ln() + 1.0).ceil()));
        let (y0, y1) = left.y_range();
        let top = left.maximum().unwrap();
        assert!((top.0 - (1.0f64 / 3.0).ln()).abs() < 1e-15 && y0 < 0.0 && top.1 < y1);
        assert_eq!(right.maximum(), None);
    }
}
