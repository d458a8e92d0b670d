//! The lab's panels as platform-free state machines: each owns its settings and its last
//! good fit, takes parameter text from a control or a URL, and draws itself onto any
//! plotters backend. The wasm layer only forwards calls to a [`Panel`].

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::plot::{LegendEntry, PlotArea};

pub mod params;
pub mod predictive;

pub use params::{Control, Notice, ParamSpec, Readout};
pub use predictive::PredictivePanel;

/// What every panel offers the page.
///
/// Every mutating call either succeeds or leaves the panel exactly as it was, so the
/// page can show an error and keep the last good plot.
pub trait PanelModel {
    /// Its parameters, in display order.
    fn params(&self) -> &'static [ParamSpec];
    /// The current value of `key` as text (as in the URL), `None` for an unknown key.
    fn value(&self, key: &str) -> Option<String>;
    /// Whether `key` matters in the current state (the Gaussian width does not for
    /// polynomials); the page greys out the others.
    fn is_active(&self, _key: &str) -> bool {
        true
    }
    /// Sets parameter `key` from text and refits.
    ///
    /// # Errors
    /// A parse or range error for the value, or whatever the refit refuses.
    fn set(&mut self, key: &str, text: &str) -> Result<()>;
    /// Back to the defaults.
    fn reset(&mut self);
    /// Adds the data point (x, t) and refits.
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN/∞, or whatever the refit refuses.
    fn add_point(&mut self, x: f64, t: f64) -> Result<()>;
    /// The state as URL query pairs; [`PanelModel::apply_query`] of them reproduces it.
    fn query(&self) -> Vec<(String, String)>;
    /// Sets the state from URL query pairs: each unusable pair keeps its default and
    /// yields a notice; if the whole does not fit, the defaults stay, with a notice.
    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice>;
    /// Numbers to show beside the chart.
    fn readouts(&self) -> Vec<Readout>;
    /// The chart's series, for the page's legend.
    fn legend(&self) -> &'static [LegendEntry];
    /// Draws the panel, lengths in CSS pixels times `scale` (devicePixelRatio).
    ///
    /// # Errors
    /// [`Error::Drawing`] if the backend fails.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64) -> Result<PlotArea>;
}

/// Every panel of the lab; the page picks one by name (`?panel=predictive`).
#[derive(Debug, Clone)]
pub enum Panel {
    /// Predictive distribution of Bayesian linear regression (PRML Fig 3.8).
    Predictive(PredictivePanel),
}

impl Panel {
    /// Names of the panels, as in `?panel=…`.
    pub const NAMES: &'static [&'static str] = &["predictive"];

    /// The panel called `name`, with its defaults.
    ///
    /// # Errors
    /// [`Error::UnknownChoice`] for a name not in [`Panel::NAMES`].
    pub fn new(name: &str) -> Result<Self> {
        match name {
            "predictive" => Ok(Panel::Predictive(PredictivePanel::default())),
            _ => Err(Error::UnknownChoice { name: "panel", value: name.to_owned(), options: Self::NAMES.join(", ") }),
        }
    }

    /// The panel as its model.
    fn model(&self) -> &impl PanelModel {
        match self {
            Panel::Predictive(p) => p,
        }
    }

    /// The panel as its model, mutably.
    fn model_mut(&mut self) -> &mut impl PanelModel {
        match self {
            Panel::Predictive(p) => p,
        }
    }
}

impl PanelModel for Panel {
    fn params(&self) -> &'static [ParamSpec] {
        self.model().params()
    }
    fn value(&self, key: &str) -> Option<String> {
        self.model().value(key)
    }
    fn is_active(&self, key: &str) -> bool {
        self.model().is_active(key)
    }
    fn set(&mut self, key: &str, text: &str) -> Result<()> {
        self.model_mut().set(key, text)
    }
    fn reset(&mut self) {
        self.model_mut().reset()
    }
    fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        self.model_mut().add_point(x, t)
    }
    fn query(&self) -> Vec<(String, String)> {
        self.model().query()
    }
    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice> {
        self.model_mut().apply_query(pairs)
    }
    fn readouts(&self) -> Vec<Readout> {
        self.model().readouts()
    }
    fn legend(&self) -> &'static [LegendEntry] {
        self.model().legend()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64) -> Result<PlotArea> {
        self.model().draw(root, scale)
    }
}
