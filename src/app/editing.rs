//! Data by hand, for any panel with data points: a press on a point holds it and a drag
//! moves it, a point is removed, and the data edits are undone and redone. [`Editor`]
//! works on any [`PanelModel`] through a few of its methods, so this logic is compiled
//! once, not once per panel.

pub use super::panel::PointEdit;
use super::panel::{PanelModel, changed_keys, value_of};
use crate::error::Result;

/// Data edits kept for undo.
pub const UNDO_DEPTH: usize = 100;

/// The values some keys had (as in the URL): setting them again undoes (or redoes) an edit.
type Values = Vec<(String, String)>;

/// A point held by the pointer, with the state before the press until the drag has moved
/// it (the whole drag is one edit).
#[derive(Debug, Clone)]
struct Held {
    index: usize,
    before: Option<Values>,
}

/// The data edits of one panel's state: what the pointer holds, and the edits to undo and
/// to redo.
#[derive(Debug, Clone, Default)]
pub struct Editor {
    held: Option<Held>,
    undo: Vec<Values>,
    redo: Vec<Values>,
}

impl Editor {
    /// A press at (x, y): within `reach` of a data point (the data units it may miss by
    /// along each axis) it holds the nearest, changing nothing; elsewhere it is the panel's
    /// own press (adding a point, grabbing a centre …). `true` if the panel changed.
    ///
    /// # Errors
    /// As [`PanelModel::press`].
    pub fn press(&mut self, panel: &mut dyn PanelModel, x: f64, y: f64, reach: (f64, f64)) -> Result<bool> {
        self.held = None;
        if panel.points_on_chart()
            && let Some(index) = nearest(&panel.points(), (x, y), reach)
        {
            self.held = Some(Held { index, before: Some(panel.query()) });
            return Ok(false);
        }
        self.record(panel, &mut |panel| panel.press(x, y))
    }

    /// The pressed pointer at (x, y): moves the point held, or drags what the panel grabbed.
    ///
    /// # Errors
    /// Whatever the move makes invalid (the panel then stays as it was).
    pub fn drag(&mut self, panel: &mut dyn PanelModel, x: f64, y: f64) -> Result<bool> {
        let Some(held) = &mut self.held else { return panel.drag(x, y) };
        panel.edit_point(PointEdit::Move { index: held.index, x, y })?;
        if let Some(before) = held.before.take() {
            let values = changed_from(&before, &panel.query(), frame_key(panel));
            self.remember(values);
        }
        Ok(true)
    }

    /// The pointer was released.
    pub fn release(&mut self, panel: &mut dyn PanelModel) {
        self.held = None;
        panel.release();
    }

    /// Removes the data point nearest (x, y) within `reach`; `false` if there is none.
    ///
    /// # Errors
    /// Whatever the recomputation refuses.
    pub fn remove_near(&mut self, panel: &mut dyn PanelModel, x: f64, y: f64, reach: (f64, f64)) -> Result<bool> {
        let Some(index) = nearest(&panel.points(), (x, y), reach) else { return Ok(false) };
        self.edit_point(panel, PointEdit::Remove(index))?;
        Ok(true)
    }

    /// Moves or removes a point, as an edit to undo.
    ///
    /// # Errors
    /// As [`PanelModel::edit_point`].
    pub fn edit_point(&mut self, panel: &mut dyn PanelModel, edit: PointEdit) -> Result<()> {
        self.held = None;
        self.record(panel, &mut |panel| panel.edit_point(edit).map(|()| true)).map(drop)
    }

    /// Applies `change` to `panel`; if the data points changed, the values the changed
    /// keys had go on the undo list and the redo list is emptied.
    ///
    /// # Errors
    /// Those of `change`.
    pub fn record(
        &mut self,
        panel: &mut dyn PanelModel,
        change: &mut dyn FnMut(&mut dyn PanelModel) -> Result<bool>,
    ) -> Result<bool> {
        let (before, points) = (panel.query(), panel.points());
        let changed = change(panel)?;
        if panel.points() != points {
            let values = changed_from(&before, &panel.query(), frame_key(panel));
            self.remember(values);
        }
        Ok(changed)
    }

    /// Undoes the last data edit; `false` if there is none.
    ///
    /// # Errors
    /// Whatever the recomputation refuses (nothing changes then).
    pub fn undo(&mut self, panel: &mut dyn PanelModel) -> Result<bool> {
        replay(panel, &mut self.undo, &mut self.redo)
    }

    /// Redoes the last edit undone; `false` if there is none.
    ///
    /// # Errors
    /// As [`Editor::undo`].
    pub fn redo(&mut self, panel: &mut dyn PanelModel) -> Result<bool> {
        replay(panel, &mut self.redo, &mut self.undo)
    }

    /// How many edits can be undone and redone.
    pub fn history(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Forgets every edit: the state was replaced (reset, a permalink, a lesson step).
    pub fn forget(&mut self) {
        *self = Self::default();
    }

    fn remember(&mut self, values: Values) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(values);
        self.redo.clear();
    }
}

/// The setting that records the frame shown, which an undo leaves alone.
fn frame_key(panel: &dyn PanelModel) -> Option<&'static str> {
    panel.describe().frame_key
}

/// The keys whose values differ between `before` and `after` (a key in one list only
/// differs), with their values in `before` (an empty text for a key not set then); the
/// frame shown left out.
fn changed_from(before: &[(String, String)], after: &[(String, String)], frame: Option<&str>) -> Values {
    let keys = changed_keys(before, after).into_iter().filter(|&key| Some(key) != frame);
    keys.map(|key| (key.to_owned(), value_of(before, key).unwrap_or_default().to_owned())).collect()
}

/// Sets the keys of the last edit of `from` back at once and moves it, as the values those
/// keys had, onto `to` (an undo onto the redo list, or the other way); `false` if `from` is
/// empty. On error nothing changes.
fn replay(panel: &mut dyn PanelModel, from: &mut Vec<Values>, to: &mut Vec<Values>) -> Result<bool> {
    let Some(values) = from.last() else { return Ok(false) };
    let back = values.iter().map(|(key, _)| (key.clone(), panel.value(key).unwrap_or_default())).collect();
    panel.set_all(values)?;
    from.pop();
    to.push(back);
    Ok(true)
}

/// The index of the point nearest (x, y) within `reach` (the largest miss along each axis:
/// an ellipse), if any.
fn nearest(points: &[(f64, f64)], (x, y): (f64, f64), (rx, ry): (f64, f64)) -> Option<usize> {
    if !(rx > 0.0 && ry > 0.0) {
        return None;
    }
    let distance = |&(px, py): &(f64, f64)| ((px - x) / rx).powi(2) + ((py - y) / ry).powi(2);
    let best = (0..points.len()).min_by(|&a, &b| distance(&points[a]).total_cmp(&distance(&points[b])))?;
    (distance(&points[best]) <= 1.0).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::open_panel;

    #[test]
    fn the_nearest_point_within_an_ellipse() {
        let points = [(0.0, 0.0), (1.0, 1.0), (0.5, 0.1)];
        assert_eq!(nearest(&points, (0.45, 0.1), (0.1, 0.1)), Some(2));
        assert_eq!(nearest(&points, (0.45, 0.3), (0.1, 0.1)), None, "too far along y");
        assert_eq!(nearest(&points, (0.45, 0.3), (0.1, 1.0)), Some(2));
        assert_eq!(nearest(&points, (0.0, 0.0), (0.0, 1.0)), None, "no reach");
        let pairs =
            |list: &[(&str, &str)]| list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect::<Vec<_>>();
        let (before, after) =
            (pairs(&[("N", "10"), ("step", "3")]), pairs(&[("N", "0"), ("points", "1:2"), ("step", "0")]));
        assert_eq!(changed_from(&before, &after, Some("step")), pairs(&[("N", "10"), ("points", "")]));
    }

    #[test]
    fn a_point_is_held_dragged_removed_and_the_edits_undone_and_redone() {
        let mut panel = open_panel("predictive").unwrap();
        let panel = panel.as_mut();
        let mut editor = Editor::default();
        let start = panel.points();
        assert_eq!(start.len(), 10);
        let (x, t) = start[3];
        let reach = (0.02, 0.1);
        // A press on point 3 holds it and changes nothing; two drag moves are one edit.
        assert!(!editor.press(panel, x + 0.01, t - 0.05, reach).unwrap());
        assert_eq!(panel.points(), start);
        assert!(editor.drag(panel, 0.3, 0.9).unwrap() && editor.drag(panel, 0.5, 1.0).unwrap());
        editor.release(panel);
        let moved = panel.points();
        assert_eq!(moved[3], (0.5, 1.0));
        assert_eq!([&moved[..3], &moved[4..]], [&start[..3], &start[4..]], "the others stay");
        assert_eq!(editor.history(), (1, 0));
        // The permalink holds the edited data.
        let mut copy = open_panel("predictive").unwrap();
        assert!(copy.apply_query(&panel.query()).is_empty());
        assert_eq!(copy.points(), moved);
        // Removing by a press near it, and by index; a bad index changes nothing.
        assert!(editor.remove_near(panel, 0.5, 1.0, reach).unwrap());
        assert!(!editor.remove_near(panel, 0.5, 1.0, reach).unwrap(), "nothing left there");
        assert_eq!(panel.points().len(), 9);
        assert_eq!(editor.edit_point(panel, PointEdit::Remove(9)).unwrap_err().code(), "out-of-range");
        editor.edit_point(panel, PointEdit::Remove(0)).unwrap();
        let expected: Vec<_> = moved[1..3].iter().chain(&moved[4..]).copied().collect();
        assert_eq!(panel.points(), expected);
        // Undo walks back through the edits to the generated data; redo forward again.
        assert_eq!(editor.history(), (3, 0));
        while editor.undo(panel).unwrap() {}
        assert_eq!(panel.points(), start);
        assert_eq!(panel.value("N").as_deref(), Some("10"));
        assert_eq!(editor.history(), (0, 3));
        assert!(editor.redo(panel).unwrap());
        assert_eq!(panel.points(), moved);
        // A new edit drops what could be redone; a press off every point adds one.
        assert!(editor.press(panel, 0.05, -1.9, reach).unwrap());
        editor.release(panel);
        assert_eq!(panel.points().len(), 11);
        assert_eq!(editor.history(), (2, 0));
    }

    #[test]
    fn a_moved_point_keeps_its_class_and_the_weight_plane_holds_no_point() {
        let mut classes = open_panel("classification").unwrap();
        let mut editor = Editor::default();
        let start = classes.export_csv().unwrap().unwrap();
        editor.edit_point(classes.as_mut(), PointEdit::Move { index: 2, x: 0.25, y: -0.5 }).unwrap();
        let after = classes.export_csv().unwrap().unwrap();
        let row = |text: &str, i: usize| text.lines().nth(i + 1).unwrap().to_owned();
        assert_eq!(row(&after, 2).rsplit(',').next(), row(&start, 2).rsplit(',').next(), "its class");
        assert!(row(&after, 2).starts_with("0.25,-0.5,"));
        let bad = PointEdit::Move { index: 1, x: f64::NAN, y: 0.0 };
        assert_eq!(editor.edit_point(classes.as_mut(), bad).unwrap_err().code(), "not-finite");
        // Gradient descent with M = 2 presses on the weight plane: a press sets the start.
        let mut descent = open_panel("gradient-descent").unwrap();
        descent.set("M", "2").unwrap();
        let before = descent.points();
        let (x, t) = before[0];
        editor.forget();
        editor.press(descent.as_mut(), x, t, (0.05, 0.05)).unwrap();
        assert_eq!(descent.points(), before);
        assert_eq!(editor.history(), (0, 0));
    }
}
