//! The lab's panels as platform-free state machines.
//!
//! A panel is a [`Panel<V>`]: its [`Settings`] (what the user set, as text-addressable
//! parameters) and the [`View`] computed from them (fits, scenes, solver state). Every
//! change goes through [`Panel::update`], which computes the new view first and commits
//! only if that succeeds — so a bad value leaves the last good plot in place. The page
//! reaches a panel through [`AnyPanel`] and the object-facing [`PanelModel`] trait; the
//! wasm layer only forwards calls.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::plot::{Labels, LegendEntry, PlotArea};

pub mod basis;
pub mod classification;
pub mod clock;
pub mod comparison;
pub mod evidence;
pub mod fast_rvm;
pub mod gradient;
pub mod groups;
pub mod labelled;
pub mod lambda;
pub mod least_squares;
pub mod multiclass;
pub mod params;
pub mod predictive;
pub mod regularisation;
pub mod replay;
pub mod report;
pub mod sequential;
pub mod sparsity;

pub use params::{Control, Notice, ParamSpec};
pub use predictive::{PredictivePanel, PredictiveSettings, PredictiveView};
pub use report::{Cell, Message, Readout, Table};

/// What the user set on a panel, addressable by parameter key (as in the URL).
pub trait Settings: Clone + Default {
    /// The visible parameters, in display order.
    fn params(&self) -> Vec<ParamSpec>;
    /// Sets `key` from text, checking the value on its own.
    ///
    /// # Errors
    /// A parse or range error, or [`Error::UnknownParameter`].
    fn assign(&mut self, key: &str, text: &str) -> Result<()>;
    /// The value of `key` as text, in the format [`Settings::assign`] reads.
    fn value(&self, key: &str) -> Option<String>;
    /// Keys that are part of the state without a control (e.g. clicked points), when set.
    fn hidden_keys(&self) -> Vec<&'static str> {
        vec![]
    }
    /// Whether `key` matters in this state (the page greys out the others).
    fn is_active(&self, _key: &str) -> bool {
        true
    }
}

/// Where a press on the plot landed and what it grabbed, for dragging.
pub type Grab = usize;

/// What a panel computes from its settings and shows.
pub trait View: Sized {
    /// The settings it is computed from.
    type Settings: Settings;
    /// Computes the view.
    ///
    /// # Errors
    /// Whatever the models refuse for these settings.
    fn compute(settings: &Self::Settings) -> Result<Self>;
    /// Draws the view onto a cleared `root`, lengths in CSS pixels times `scale`, words
    /// from `labels`; returns the interactive chart's area. [`Panel`] clears and presents.
    ///
    /// # Errors
    /// [`Error::Drawing`] if the backend fails.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea>;
    /// The series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry>;
    /// Numbers to show beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        vec![]
    }
    /// Tables to show beside the chart.
    fn tables(&self) -> Vec<Table> {
        vec![]
    }
    /// Messages about the current state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        vec![]
    }
    /// Height / width of the canvas this view wants: (wide, narrower than
    /// [`crate::plot::NARROW`], where its charts stack).
    const ASPECT: (f64, f64) = (0.6, 0.6);
    /// The data points of `settings` that a press on the plot or the add-point form
    /// extends, if the panel has such data.
    fn data_points(_settings: &mut Self::Settings) -> Option<&mut dyn groups::PointSink> {
        None
    }
    /// The label keys of the two coordinates of a data point (the add-point form's fields).
    const POINT_AXES: [&'static str; 2] = ["x", "t"];
    /// A press at data point (x, y) of the interactive chart: changes `settings` and/or
    /// grabs something to drag. By default it adds the point (x, y) to the data, if any.
    ///
    /// # Errors
    /// If the press would make the settings invalid.
    fn press(&self, settings: &mut Self::Settings, x: f64, y: f64) -> Result<Option<Grab>> {
        if let Some(data) = Self::data_points(settings) {
            data.add_point(x, y)?;
        }
        Ok(None)
    }
    /// The grabbed thing dragged to (x, y).
    ///
    /// # Errors
    /// If the move would make the settings invalid.
    fn drag(&self, _settings: &mut Self::Settings, _grab: Grab, _x: f64, _y: f64) -> Result<()> {
        Ok(())
    }
    /// Whether the view animates (play / pause / step).
    fn is_animated(&self) -> bool {
        false
    }
    /// The position of the page's speed slider when the panel opens: 0 is a step every
    /// half second, 3 a step per frame, 6 sixty-four per frame.
    const PLAY_SPEED: u8 = 4;
    /// Advances the animation by up to `steps`; `false` once it has nothing left to do.
    fn step(&mut self, _steps: usize) -> bool {
        false
    }
    /// One frame back; `false` if already at the first.
    fn step_back(&mut self) -> bool {
        false
    }
    /// Back to the first frame of the animation.
    fn rewind(&mut self) {}
    /// The setting that records the animation's frame, and its value now (so that the URL
    /// follows the animation), if the frame is part of the state.
    fn cursor(&self) -> Option<(&'static str, String)> {
        None
    }
    /// Takes `settings` in place, without recomputing, when they differ from those the
    /// view was computed from only in what it can follow (e.g. the frame shown); `false`
    /// to have [`Panel::update`] recompute.
    fn follow(&mut self, _settings: &Self::Settings) -> bool {
        false
    }
    /// Continues work left over from [`View::compute`] (a long computation done in
    /// slices, one per frame), for at most `budget` units; `true` while more remains.
    fn work(&mut self, _budget: usize) -> bool {
        false
    }
    /// Parts of that work done so far and in all, for the progress bar.
    fn work_progress(&self) -> Option<(usize, usize)> {
        None
    }
    /// Frames shown so far and in all, for the progress bar.
    fn progress(&self) -> Option<(usize, usize)> {
        None
    }
}

/// A change to a panel's settings, given its view: what [`Panel::update`] applies. It
/// returns what it grabbed for dragging, if anything.
pub type Change<'a, V> = &'a mut dyn FnMut(&V, &mut <V as View>::Settings) -> Result<Option<Grab>>;

/// A panel: its settings and the view last computed from them.
#[derive(Debug, Clone)]
pub struct Panel<V: View> {
    settings: V::Settings,
    view: V,
    grab: Option<Grab>,
}

impl<V: View> Panel<V> {
    /// The panel with `settings`.
    ///
    /// # Errors
    /// Whatever [`View::compute`] refuses.
    pub fn with_settings(settings: V::Settings) -> Result<Self> {
        Ok(Self { view: V::compute(&settings)?, settings, grab: None })
    }

    /// The panel with its default settings.
    ///
    /// # Errors
    /// Whatever [`View::compute`] refuses (every panel's defaults are tested to fit).
    pub fn try_default() -> Result<Self> {
        Self::with_settings(V::Settings::default())
    }

    /// The current settings.
    pub fn settings(&self) -> &V::Settings {
        &self.settings
    }

    /// The current view.
    pub fn view(&self) -> &V {
        &self.view
    }

    /// Applies `change` to a copy of the settings and recomputes; commits only if both
    /// succeed, so on error the panel is exactly as it was. Returns what `change` grabbed.
    /// (`change` is a trait object so that this exists once per panel rather than once
    /// per caller: it was 15 KB of the wasm module.)
    ///
    /// # Errors
    /// The error of `change` or of [`View::compute`].
    pub fn update(&mut self, change: Change<'_, V>) -> Result<Option<Grab>> {
        let mut settings = self.settings.clone();
        let outcome = change(&self.view, &mut settings)?;
        if !self.view.follow(&settings) {
            self.view = V::compute(&settings)?;
        }
        self.settings = settings;
        Ok(outcome)
    }
}

impl<V: View> Panel<V> {
    /// Writes the animation's frame into the settings, without recomputing.
    fn follow_cursor(&mut self) {
        if let Some((key, value)) = self.view.cursor() {
            // The view reports a frame it can show, which the setting always admits.
            let _ = self.settings.assign(key, &value);
        }
    }
}

/// What every panel offers the page (the object-facing side of [`Panel`]).
///
/// Every mutating call either succeeds or leaves the panel exactly as it was.
pub trait PanelModel {
    /// Its parameters, in display order.
    fn params(&self) -> Vec<ParamSpec>;
    /// The current value of `key` as text (as in the URL), `None` for an unknown key.
    fn value(&self, key: &str) -> Option<String>;
    /// Whether `key` matters in the current state.
    fn is_active(&self, key: &str) -> bool;
    /// Sets parameter `key` from text and recomputes.
    ///
    /// # Errors
    /// A parse or range error for the value, or whatever the recomputation refuses.
    fn set(&mut self, key: &str, text: &str) -> Result<()>;
    /// Back to the defaults.
    ///
    /// # Errors
    /// Only if the defaults do not compute (tested never to happen).
    fn reset(&mut self) -> Result<()>;
    /// Whether the panel takes data points ([`PanelModel::add_point`]).
    fn accepts_points(&self) -> bool;
    /// The label keys of a data point's two coordinates.
    fn point_axes(&self) -> [&'static str; 2];
    /// Adds the data point (x, t) and recomputes.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN/∞, or whatever the recomputation refuses.
    fn add_point(&mut self, x: f64, t: f64) -> Result<()>;
    /// Replaces the data with the rows of CSV text and recomputes.
    ///
    /// # Errors
    /// [`Error::BadRow`] naming the first bad line, or whatever the recomputation refuses;
    /// the data stay as they were.
    fn import_csv(&mut self, text: &str) -> Result<()>;
    /// The data as CSV text (`None` for a panel without data points).
    ///
    /// # Errors
    /// Whatever generating the data refuses.
    fn export_csv(&self) -> Result<Option<String>>;
    /// A press on the interactive chart at data (x, y); `true` if the panel changed.
    ///
    /// # Errors
    /// If the press would make the state invalid.
    fn press(&mut self, x: f64, y: f64) -> Result<bool>;
    /// The pointer moved to (x, y) while pressed; `true` if the panel changed.
    ///
    /// # Errors
    /// If the move would make the state invalid.
    fn drag(&mut self, x: f64, y: f64) -> Result<bool>;
    /// The pointer was released.
    fn release(&mut self);
    /// The state as URL query pairs; [`PanelModel::apply_query`] of them reproduces it.
    fn query(&self) -> Vec<(String, String)>;
    /// Sets the state from URL query pairs: each unusable pair keeps its default and
    /// yields a notice; if the whole does not compute, the defaults stay, with a notice.
    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice>;
    /// Numbers to show beside the chart.
    fn readouts(&self) -> Vec<Readout>;
    /// Tables to show beside the chart.
    fn tables(&self) -> Vec<Table>;
    /// Messages about the current state.
    fn messages(&self) -> Vec<Message>;
    /// The readouts and tables as CSV text ([`report::results_csv`]).
    fn results_csv(&self) -> String {
        report::results_csv(&self.readouts(), &self.tables())
    }
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry>;
    /// Height / width of the canvas when it is `width` CSS pixels wide.
    fn aspect(&self, width: f64) -> f64;
    /// Whether the panel animates.
    fn is_animated(&self) -> bool;
    /// The speed slider's position when the panel opens ([`View::PLAY_SPEED`]).
    fn play_speed(&self) -> u8;
    /// Advances the animation by up to `steps`; `false` once it has nothing left to do.
    fn step(&mut self, steps: usize) -> bool;
    /// One frame back; `false` if already at the first.
    fn step_back(&mut self) -> bool;
    /// Back to the start of the animation.
    fn rewind(&mut self);
    /// Continues the work left over from the last change, at most `budget` units; `true`
    /// while more remains.
    fn work(&mut self, budget: usize) -> bool;
    /// Parts of that work done and in all.
    fn work_progress(&self) -> Option<(usize, usize)>;
    /// Frames of the animation shown so far and in all.
    fn progress(&self) -> Option<(usize, usize)>;
    /// Draws the panel, lengths in CSS pixels times `scale` (devicePixelRatio).
    ///
    /// # Errors
    /// [`Error::Drawing`] if the backend fails.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea>;
}

impl<V: View> PanelModel for Panel<V> {
    fn params(&self) -> Vec<ParamSpec> {
        self.settings.params()
    }
    fn value(&self, key: &str) -> Option<String> {
        self.settings.value(key)
    }
    fn is_active(&self, key: &str) -> bool {
        self.settings.is_active(key)
    }
    fn set(&mut self, key: &str, text: &str) -> Result<()> {
        self.update(&mut |_, settings| settings.assign(key, text).map(|()| None)).map(drop)
    }
    fn reset(&mut self) -> Result<()> {
        *self = Self::try_default()?;
        Ok(())
    }
    fn accepts_points(&self) -> bool {
        V::data_points(&mut self.settings.clone()).is_some()
    }
    fn point_axes(&self) -> [&'static str; 2] {
        V::POINT_AXES
    }
    fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        self.update(&mut |_, settings| {
            let data = V::data_points(settings).ok_or_else(|| Error::UnknownParameter { key: "points".into() })?;
            data.add_point(x, t).map(|()| None)
        })
        .map(drop)
    }
    fn import_csv(&mut self, text: &str) -> Result<()> {
        self.update(&mut |_, settings| {
            let data = V::data_points(settings).ok_or_else(|| Error::UnknownParameter { key: "points".into() })?;
            data.import_csv(text).map(|()| None)
        })
        .map(drop)
    }
    fn export_csv(&self) -> Result<Option<String>> {
        V::data_points(&mut self.settings.clone()).map(|data| data.to_csv()).transpose()
    }
    fn press(&mut self, x: f64, y: f64) -> Result<bool> {
        let before = self.settings.value_list();
        self.grab = self.update(&mut |view, settings| view.press(settings, x, y))?;
        Ok(self.settings.value_list() != before)
    }
    fn drag(&mut self, x: f64, y: f64) -> Result<bool> {
        let Some(grab) = self.grab else { return Ok(false) };
        self.update(&mut |view, settings| view.drag(settings, grab, x, y).map(|()| None))?;
        Ok(true)
    }
    fn release(&mut self) {
        self.grab = None;
    }
    fn query(&self) -> Vec<(String, String)> {
        self.settings.value_list()
    }
    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice> {
        let mut settings = V::Settings::default();
        let mut notices = vec![];
        // The animation's frame goes last: a change of data restarts the animation, so a
        // permalink's `step` must not come before its data, whatever the order in the URL.
        let cursor = self.view.cursor().map(|(key, _)| key);
        let (frame, rest): (Vec<_>, Vec<_>) = pairs.iter().partition(|(key, _)| Some(key.as_str()) == cursor);
        for (key, text) in rest.into_iter().chain(frame) {
            if let Err(error) = settings.assign(key, text) {
                notices.push(Notice { key: key.clone(), error });
            }
        }
        match Self::with_settings(settings) {
            Ok(panel) => *self = panel,
            Err(error) => notices.push(Notice { key: String::new(), error }),
        }
        notices
    }
    fn readouts(&self) -> Vec<Readout> {
        self.view.readouts()
    }
    fn tables(&self) -> Vec<Table> {
        self.view.tables()
    }
    fn messages(&self) -> Vec<Message> {
        self.view.messages()
    }
    fn legend(&self) -> Vec<LegendEntry> {
        self.view.legend()
    }
    fn aspect(&self, width: f64) -> f64 {
        let (wide, narrow) = V::ASPECT;
        if width < crate::plot::NARROW { narrow } else { wide }
    }
    fn is_animated(&self) -> bool {
        self.view.is_animated()
    }
    fn play_speed(&self) -> u8 {
        V::PLAY_SPEED
    }
    fn step(&mut self, steps: usize) -> bool {
        let more = self.view.step(steps);
        self.follow_cursor();
        more
    }
    fn step_back(&mut self) -> bool {
        let moved = self.view.step_back();
        self.follow_cursor();
        moved
    }
    fn rewind(&mut self) {
        self.view.rewind();
        self.follow_cursor();
    }
    fn work(&mut self, budget: usize) -> bool {
        self.view.work(budget)
    }
    fn work_progress(&self) -> Option<(usize, usize)> {
        self.view.work_progress()
    }
    fn progress(&self) -> Option<(usize, usize)> {
        self.view.progress()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        crate::plot::clear(root)?;
        let area = self.view.draw(root, scale, labels)?;
        root.present().map_err(crate::plot::drawing_error)?;
        Ok(area)
    }
}

/// Every key of `settings` with its value: the visible parameters, then the hidden ones.
trait ValueList {
    fn value_list(&self) -> Vec<(String, String)>;
}

impl<S: Settings> ValueList for S {
    fn value_list(&self) -> Vec<(String, String)> {
        let keys = self.params().into_iter().map(|p| p.key).chain(self.hidden_keys());
        keys.filter_map(|k| Some((k.to_owned(), self.value(k)?))).collect()
    }
}

/// Every panel of the lab; the page picks one by name (`?panel=predictive`). Boxed, so the
/// handle is small whichever panel it holds.
#[derive(Debug, Clone)]
pub enum AnyPanel {
    /// Predictive distribution of Bayesian linear regression (PRML Fig 3.8).
    Predictive(Box<PredictivePanel>),
    /// The basis functions of every family (F1).
    Basis(Box<basis::BasisPanel>),
    /// Maximum likelihood by least squares, with the over-fitting curve (F2).
    LeastSquares(Box<least_squares::LeastSquaresPanel>),
    /// Batch, stochastic and mini-batch gradient descent (F3).
    GradientDescent(Box<gradient::GradientPanel>),
    /// Ridge and lasso with their coefficient paths (F4).
    Regularisation(Box<regularisation::RegularisationPanel>),
    /// Sequential Bayesian learning of a straight line (F5, PRML Fig 3.7).
    Sequential(Box<sequential::SequentialPanel>),
    /// The evidence surface and its re-estimation paths (F6, F7).
    Evidence(Box<evidence::EvidencePanel>),
    /// Model comparison by the evidence (PRML Fig 3.14, 3.16, 3.17).
    ModelComparison(Box<comparison::ComparisonPanel>),
    /// Why the RVM is sparse: two targets, one basis vector (F10, PRML Fig 7.10).
    Sparsity(Box<sparsity::SparsityPanel>),
    /// λ(α) of one basis vector against ln α (F11, PRML Fig 7.11).
    LambdaCurve(Box<lambda::LambdaPanel>),
    /// The fast RVM, step by step, with classic and EM for comparison (F8, F9).
    FastRvm(Box<fast_rvm::FastRvmPanel>),
    /// The RVM classifier on two classes in the plane, step by step (F12, PRML Fig 7.12).
    Classification(Box<classification::ClassificationPanel>),
    /// The RVM with a softmax over three classes in the plane, sweep by sweep (F13).
    Multiclass(Box<multiclass::MulticlassPanel>),
}

/// Calls `$body` with `$panel` bound to whichever panel `$self` holds.
macro_rules! dispatch {
    ($self:expr, $panel:ident => $body:expr) => {
        match $self {
            AnyPanel::Predictive($panel) => $body,
            AnyPanel::Basis($panel) => $body,
            AnyPanel::LeastSquares($panel) => $body,
            AnyPanel::GradientDescent($panel) => $body,
            AnyPanel::Regularisation($panel) => $body,
            AnyPanel::Sequential($panel) => $body,
            AnyPanel::Evidence($panel) => $body,
            AnyPanel::ModelComparison($panel) => $body,
            AnyPanel::Sparsity($panel) => $body,
            AnyPanel::LambdaCurve($panel) => $body,
            AnyPanel::FastRvm($panel) => $body,
            AnyPanel::Classification($panel) => $body,
            AnyPanel::Multiclass($panel) => $body,
        }
    };
}

impl AnyPanel {
    /// Names of the panels, as in `?panel=…`, in menu order.
    pub const NAMES: &'static [&'static str] = &[
        "basis",
        "least-squares",
        "gradient-descent",
        "regularisation",
        "predictive",
        "sequential",
        "evidence",
        "model-comparison",
        "sparsity",
        "lambda-curve",
        "fast-rvm",
        "classification",
        "multiclass",
    ];

    /// The panel called `name`, with its defaults.
    ///
    /// # Errors
    /// [`Error::UnknownChoice`] for a name not in [`AnyPanel::NAMES`].
    pub fn new(name: &str) -> Result<Self> {
        match name {
            "predictive" => Ok(AnyPanel::Predictive(Box::new(Panel::try_default()?))),
            "basis" => Ok(AnyPanel::Basis(Box::new(Panel::try_default()?))),
            "least-squares" => Ok(AnyPanel::LeastSquares(Box::new(Panel::try_default()?))),
            "gradient-descent" => Ok(AnyPanel::GradientDescent(Box::new(Panel::try_default()?))),
            "regularisation" => Ok(AnyPanel::Regularisation(Box::new(Panel::try_default()?))),
            "sequential" => Ok(AnyPanel::Sequential(Box::new(Panel::try_default()?))),
            "evidence" => Ok(AnyPanel::Evidence(Box::new(Panel::try_default()?))),
            "model-comparison" => Ok(AnyPanel::ModelComparison(Box::new(Panel::try_default()?))),
            "sparsity" => Ok(AnyPanel::Sparsity(Box::new(Panel::try_default()?))),
            "lambda-curve" => Ok(AnyPanel::LambdaCurve(Box::new(Panel::try_default()?))),
            "fast-rvm" => Ok(AnyPanel::FastRvm(Box::new(Panel::try_default()?))),
            "classification" => Ok(AnyPanel::Classification(Box::new(Panel::try_default()?))),
            "multiclass" => Ok(AnyPanel::Multiclass(Box::new(Panel::try_default()?))),
            _ => Err(Error::UnknownChoice { name: "panel", value: name.to_owned(), options: Self::NAMES.join(", ") }),
        }
    }
}

impl PanelModel for AnyPanel {
    fn params(&self) -> Vec<ParamSpec> {
        dispatch!(self, p => p.params())
    }
    fn value(&self, key: &str) -> Option<String> {
        dispatch!(self, p => p.value(key))
    }
    fn is_active(&self, key: &str) -> bool {
        dispatch!(self, p => p.is_active(key))
    }
    fn set(&mut self, key: &str, text: &str) -> Result<()> {
        dispatch!(self, p => p.set(key, text))
    }
    fn reset(&mut self) -> Result<()> {
        dispatch!(self, p => p.reset())
    }
    fn accepts_points(&self) -> bool {
        dispatch!(self, p => p.accepts_points())
    }
    fn point_axes(&self) -> [&'static str; 2] {
        dispatch!(self, p => p.point_axes())
    }
    fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        dispatch!(self, p => p.add_point(x, t))
    }
    fn import_csv(&mut self, text: &str) -> Result<()> {
        dispatch!(self, p => p.import_csv(text))
    }
    fn export_csv(&self) -> Result<Option<String>> {
        dispatch!(self, p => p.export_csv())
    }
    fn press(&mut self, x: f64, y: f64) -> Result<bool> {
        dispatch!(self, p => p.press(x, y))
    }
    fn drag(&mut self, x: f64, y: f64) -> Result<bool> {
        dispatch!(self, p => p.drag(x, y))
    }
    fn release(&mut self) {
        dispatch!(self, p => p.release())
    }
    fn query(&self) -> Vec<(String, String)> {
        dispatch!(self, p => p.query())
    }
    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice> {
        dispatch!(self, p => p.apply_query(pairs))
    }
    fn readouts(&self) -> Vec<Readout> {
        dispatch!(self, p => p.readouts())
    }
    fn tables(&self) -> Vec<Table> {
        dispatch!(self, p => p.tables())
    }
    fn messages(&self) -> Vec<Message> {
        dispatch!(self, p => p.messages())
    }
    fn legend(&self) -> Vec<LegendEntry> {
        dispatch!(self, p => p.legend())
    }
    fn aspect(&self, width: f64) -> f64 {
        dispatch!(self, p => p.aspect(width))
    }
    fn is_animated(&self) -> bool {
        dispatch!(self, p => p.is_animated())
    }
    fn play_speed(&self) -> u8 {
        dispatch!(self, p => p.play_speed())
    }
    fn step(&mut self, steps: usize) -> bool {
        dispatch!(self, p => p.step(steps))
    }
    fn step_back(&mut self) -> bool {
        dispatch!(self, p => p.step_back())
    }
    fn rewind(&mut self) {
        dispatch!(self, p => p.rewind())
    }
    fn work(&mut self, budget: usize) -> bool {
        dispatch!(self, p => p.work(budget))
    }
    fn work_progress(&self) -> Option<(usize, usize)> {
        dispatch!(self, p => p.work_progress())
    }
    fn progress(&self) -> Option<(usize, usize)> {
        dispatch!(self, p => p.progress())
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        dispatch!(self, p => p.draw(root, scale, labels))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_opens_with_its_defaults() {
        for name in AnyPanel::NAMES {
            let panel = AnyPanel::new(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!panel.params().is_empty(), "{name}");
            let mut copy = AnyPanel::new(name).unwrap();
            assert!(copy.apply_query(&panel.query()).is_empty(), "{name}: its own query applies cleanly");
            if panel.params().iter().any(|p| p.key == "step") {
                // A permalink opens at its step even when the step comes before the data.
                let pairs = [("step", "3"), ("seed", "2")].map(|(k, v)| (k.to_owned(), v.to_owned()));
                assert!(copy.apply_query(&pairs).is_empty(), "{name}");
                while copy.work(usize::MAX) {}
                assert_eq!(copy.progress().map(|p| p.0), Some(3), "{name}");
            }
        }
        assert_eq!(AnyPanel::new("nope").unwrap_err().code(), "unknown-choice");
    }

    #[test]
    fn csv_replaces_the_data_or_names_the_bad_line_and_keeps_them() {
        let mut panel = AnyPanel::new("predictive").unwrap();
        let before = panel.query();
        let error = panel.import_csv("x,t\n0.1,0.5\n0.2,oops\n").unwrap_err();
        assert_eq!(error.to_string(), "line 3 (0.2,oops) is not a row of x, t");
        assert_eq!(panel.query(), before, "the data stay");
        panel.import_csv("x,t\n0.1,0.5\n0.7,-0.25\n").unwrap();
        assert_eq!(panel.export_csv().unwrap().as_deref(), Some("x,t\n0.1,0.5\n0.7,-0.25\n"));
        let mut classes = AnyPanel::new("classification").unwrap();
        let error = classes.import_csv("0,0,0\n1,1,1\n0.5,0.5,2\n").unwrap_err();
        assert_eq!(error.to_string(), "line 3 (0.5, 0.5, 2) is not a row of x₁, x₂, class 0 to 1");
        classes.import_csv("x1,x2,class\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n").unwrap();
        assert_eq!(classes.export_csv().unwrap().unwrap().lines().count(), 5);
        assert_eq!(AnyPanel::new("evidence").unwrap().export_csv().unwrap(), None);
    }

    #[test]
    fn moving_the_step_keeps_the_work_done() {
        for name in ["fast-rvm", "classification", "multiclass"] {
            let mut panel = AnyPanel::new(name).unwrap();
            while panel.work(usize::MAX) {}
            let done = panel.work_progress();
            panel.set("step", "3").unwrap();
            assert_eq!(panel.progress().map(|p| p.0), Some(3), "{name}");
            assert!(!panel.work(usize::MAX), "{name}: nothing to redo");
            assert_eq!(panel.work_progress(), done, "{name}");
            panel.set("seed", "5").unwrap();
            assert_eq!(panel.progress().map(|p| p.0), Some(0), "{name}: new data start again");
        }
    }
}
