//! A lesson step's action on its panel, in the one order a lesson file's action is applied
//! (`www/lessons/*.json`, validated by `www/lesson.js`): its data points added, then its
//! basis function highlighted, then its animation run on. The page and the tests of the
//! lessons' claims both apply it here.

use super::panel::PanelModel;
use crate::error::Result;

/// The key of a highlighted basis function (the fast-RVM panel's hidden setting).
pub const HIGHLIGHT_KEY: &str = "highlight";

/// What a lesson step does to its panel after setting its state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LessonAction {
    /// Data points to add, as (x, t) or (x₁, x₂).
    pub points: Vec<(f64, f64)>,
    /// The basis function φₘ to draw highlighted, with its λ(α) beside.
    pub highlight: Option<usize>,
    /// Frames to run the panel's animation on.
    pub steps: usize,
}

impl LessonAction {
    /// Adds the points, then highlights the basis function, then runs the steps. A part the
    /// panel refuses stops the points and the highlight there (the parts before it stay);
    /// the steps are run all the same.
    ///
    /// # Errors
    /// The first refusal of a point or of the highlight.
    pub fn apply(&self, panel: &mut dyn PanelModel) -> Result<()> {
        let refused = self.mark(panel);
        if self.steps > 0 {
            panel.step(self.steps);
        }
        refused
    }

    /// The points, then the highlight.
    fn mark(&self, panel: &mut dyn PanelModel) -> Result<()> {
        for &(x, y) in &self.points {
            panel.add_point(x, y)?;
        }
        if let Some(m) = self.highlight {
            panel.set(HIGHLIGHT_KEY, &m.to_string())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::open_panel;

    #[test]
    fn points_then_highlight_then_steps_and_a_refusal_keeps_what_came_before() {
        let mut panel = open_panel("fast-rvm").unwrap();
        let action = LessonAction { points: vec![(0.5, 2.0)], highlight: Some(3), steps: 4 };
        action.apply(panel.as_mut()).unwrap();
        assert_eq!(panel.value("points").as_deref(), Some("0.5:2"));
        assert_eq!(panel.value(HIGHLIGHT_KEY).as_deref(), Some("3"));
        assert_eq!(panel.report().position.map(|p| p.0), Some(4), "the steps after the point (which restarts)");

        let mut other = open_panel("predictive").unwrap();
        let refused = LessonAction { points: vec![(0.1, 0.2)], highlight: Some(1), steps: 0 };
        assert_eq!(refused.apply(other.as_mut()).unwrap_err().code(), "unknown-parameter");
        assert_eq!(other.value("points").as_deref(), Some("0.1:0.2"), "the point before the refusal stays");
    }
}
