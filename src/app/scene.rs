//! Scenes several panels share: the numbers a chart of [`crate::plot`] draws, evaluated
//! here from the mathematics (the charts themselves never call into it).

use crate::error::{Result, ensure_finite};
use crate::plot::LabelKey;
use crate::plot::lambda::{LambdaChart, Optimum, ln_alpha_grid, x_range};
use crate::rvm::sparsity::{LAMBDA_AT_INFINITY, SparsityQuality};

/// λ(α) = ½[ln α − ln(α + s) + q²/(α + s)] of one basis vector against ln α (PRML 7.97,
/// Fig 7.11), its maximiser α* = s²/(q² − s) or ∞ (7.101), and the current α: what a
/// [`LambdaChart`] draws, before it is evaluated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LambdaCurve {
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

impl LambdaCurve {
    /// λ(α) of `sq`, without title or current α.
    pub fn new(sq: SparsityQuality) -> Self {
        Self { sq, current: None, title: None, offset: 0.0, y_name: ("lambda", "λ(α)") }
    }

    /// The chart: the curve evaluated over [`x_range`] (ln s ± 5, widened to hold α* and the
    /// current α), the level λ(∞), the maximiser and the current α.
    ///
    /// # Errors
    /// [`crate::Error::OutOfRange`] or [`crate::Error::NotFinite`] if `sq` (whose fields
    /// are public) is not a valid sparsity and quality, or the offset is not finite.
    pub fn chart(&self) -> Result<LambdaChart> {
        let offset = ensure_finite("offset", self.offset)?;
        let sq = self.sq.checked()?;
        let best = sq.optimal_alpha();
        let range = x_range(sq.s, best.into_iter().chain(self.current));
        let curve = ln_alpha_grid(range).into_iter().map(|x| (x, offset + sq.lambda(x.exp()))).collect();
        let optimum = match best {
            None => Optimum::Infinite,
            Some(alpha) if (range.0..=range.1).contains(&alpha.ln()) => {
                Optimum::At { alpha, point: (alpha.ln(), offset + sq.lambda(alpha)) }
            }
            Some(_) => Optimum::Beyond,
        };
        let current = self.current.map(|alpha| {
            let x = if alpha.is_finite() { alpha.ln() } else { range.1 };
            (alpha, (x, offset + sq.lambda(alpha)))
        });
        Ok(LambdaChart {
            x_range: range,
            curve,
            level: offset + LAMBDA_AT_INFINITY,
            optimum,
            current,
            title: self.title,
            y_name: self.y_name,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_follows_s_and_holds_the_marks() {
        let left = LambdaCurve::new(SparsityQuality::from_q_squared(1.0, 4.0).unwrap());
        assert_eq!(left.chart().unwrap().x_range, (-5.0, 5.0));
        let right = LambdaCurve::new(SparsityQuality::from_q_squared(2.0, 1.0).unwrap());
        // ln 2 ± 5, to whole numbers.
        assert_eq!(right.chart().unwrap().x_range, (-5.0, 6.0));
        let wide = LambdaCurve { current: Some(1e6), ..left };
        assert_eq!(wide.chart().unwrap().x_range, (-5.0, (1e6f64.ln() + 1.0).ceil()));
        let chart = left.chart().unwrap();
        let (y0, y1) = chart.y_range();
        let top = chart.maximum().unwrap();
        assert!((top.0 - (1.0f64 / 3.0).ln()).abs() < 1e-15 && y0 < 0.0 && top.1 < y1);
        assert_eq!(right.chart().unwrap().maximum(), None);
        assert_eq!(right.chart().unwrap().optimum, Optimum::Infinite);
    }
}
