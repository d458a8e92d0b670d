//! The list of panels: one module per panel, and [`PANELS`], the one table the enum-free
//! registry, the names, the construction, the page's menu and the browser tests all follow.
//!
//! To add a panel: write its module (a type implementing [`Panel`]), add its `mod` line and
//! its line in [`PANELS`] here, and its words in `www/strings/en.js` and `zh.js`.

use super::panel::{Live, Panel, PanelModel};
use crate::error::{Error, Result};

pub mod basis;
pub mod classification;
pub mod evidence;
pub mod fast_rvm;
pub mod gradient_descent;
pub mod lambda_curve;
pub mod least_squares;
pub mod model_comparison;
pub mod multiclass;
pub mod poisson;
pub mod predictive;
pub mod regularisation;
pub mod sequential;
pub mod sparsity;

/// One panel of the list: its name and how to open it with its defaults.
#[derive(Clone, Copy)]
pub struct Entry {
    /// Its name, as in `?panel=…` ([`Panel::NAME`]).
    pub name: &'static str,
    /// Opens it with its defaults.
    pub open: fn() -> Result<Box<dyn PanelModel>>,
}

impl Entry {
    /// The entry of panel type `P`.
    const fn of<P: Panel>() -> Self {
        Self { name: P::NAME, open: open::<P> }
    }
}

/// Opens panel `P` with its defaults, for the page.
fn open<P: Panel>() -> Result<Box<dyn PanelModel>> {
    Ok(Box::new(Live::<P>::try_default()?))
}

/// Every panel of the lab, in menu order (the course's order).
pub const PANELS: &[Entry] = &[
    Entry::of::<basis::BasisPanel>(),
    Entry::of::<least_squares::LeastSquaresPanel>(),
    Entry::of::<gradient_descent::GradientPanel>(),
    Entry::of::<regularisation::RegularisationPanel>(),
    Entry::of::<predictive::PredictivePanel>(),
    Entry::of::<sequential::SequentialPanel>(),
    Entry::of::<evidence::EvidencePanel>(),
    Entry::of::<model_comparison::ComparisonPanel>(),
    Entry::of::<sparsity::SparsityPanel>(),
    Entry::of::<lambda_curve::LambdaPanel>(),
    Entry::of::<fast_rvm::FastRvmPanel>(),
    Entry::of::<classification::ClassificationPanel>(),
    Entry::of::<poisson::PoissonPanel>(),
    Entry::of::<multiclass::MulticlassPanel>(),
];

/// The names of the panels, in menu order.
pub fn names() -> impl Iterator<Item = &'static str> {
    PANELS.iter().map(|entry| entry.name)
}

/// The panel called `name`, with its defaults.
///
/// # Errors
/// [`Error::UnknownChoice`] for a name not in [`PANELS`]; whatever its defaults refuse
/// (tested never to happen).
pub fn open_panel(name: &str) -> Result<Box<dyn PanelModel>> {
    let entry = PANELS.iter().find(|entry| entry.name == name).ok_or_else(|| Error::UnknownChoice {
        name: "panel",
        value: name.to_owned(),
        options: names().collect::<Vec<_>>().join(", "),
    })?;
    (entry.open)()
}
