//! The list of panels: one module per panel, and [`PANELS`], the one table the enum-free
//! registry, the names, the construction, the page's menu and the browser tests all follow.
//!
//! To add a panel: write its module (a type implementing [`Panel`]), add its `mod` line and
//! its line in [`PANELS`] here, and its words in `www/strings/en.js` and `zh.js`.

use super::panel::{Live, Panel, PanelModel};
use super::params::Notice;
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

/// Opens a panel at a URL's pairs, a notice for each pair it cannot use added to the list
/// given ([`Live::at_query`]).
pub type Open = fn(&[(String, String)], &mut Vec<Notice>) -> Result<Box<dyn PanelModel>>;

/// One panel of the list: its name and how to open it at a URL's state.
#[derive(Clone, Copy)]
pub struct Entry {
    /// Its name, as in `?panel=…` ([`Panel::NAME`]).
    pub name: &'static str,
    /// Opens it at the URL's pairs.
    pub open: Open,
}

impl Entry {
    /// The entry of panel type `P`.
    const fn of<P: Panel>() -> Self {
        Self { name: P::NAME, open: open::<P> }
    }
}

/// Opens panel `P` at the URL's `pairs`, for the page.
fn open<P: Panel>(pairs: &[(String, String)], notices: &mut Vec<Notice>) -> Result<Box<dyn PanelModel>> {
    Ok(Box::new(Live::<P>::at_query(pairs, notices)?))
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
    Ok(open_panel_at(name, &[])?.0)
}

/// The panel called `name` at the URL's `pairs`, computed once ([`Live::at_query`]), and a
/// notice for each pair it could not use; if that state does not compute as a whole, the
/// panel at its defaults, with a notice (key `""`) saying why.
///
/// # Errors
/// As [`open_panel`].
pub fn open_panel_at(name: &str, pairs: &[(String, String)]) -> Result<(Box<dyn PanelModel>, Vec<Notice>)> {
    let entry = PANELS.iter().find(|entry| entry.name == name).ok_or_else(|| Error::UnknownChoice {
        name: "panel",
        value: name.to_owned(),
        options: names().collect::<Vec<_>>().join(", "),
    })?;
    let mut notices = vec![];
    let panel = match (entry.open)(pairs, &mut notices) {
        Ok(panel) => panel,
        Err(error) => {
            notices.push(Notice { key: String::new(), error });
            (entry.open)(&[], &mut vec![])?
        }
    };
    Ok((panel, notices))
}
