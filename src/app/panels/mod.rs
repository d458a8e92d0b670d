//! The list of panels: one module per panel, and [`PANELS`], the one table the enum-free
//! registry, the names, the construction, the page's menu and the browser tests all follow.
//!
//! To add a panel: write its module (a type implementing [`Panel`]), add its `mod` line and
//! its line in [`PANELS`] here, and its words in `www/strings/en.js` and `zh.js`.

use super::panel::{Live, Panel, PanelModel, assignment_order};
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
/// notice for each pair it could not use. If that state does not compute as a whole, the
/// pairs that do ([`usable_pairs`]): a bad key in a link drops that key alone.
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
    match (entry.open)(pairs, &mut notices) {
        Ok(panel) => Ok((panel, notices)),
        Err(_) => usable_pairs(entry.open, pairs),
    }
}

/// The panel `open` opens at those of `pairs` that compute together, where all of them do
/// not: each pair in the order the panel assigns them ([`assignment_order`]) kept if the
/// panel computes with it and those kept before it, else dropped with a notice naming its
/// key and why (a formula with no value, a state too large …); then the notices of the
/// values refused as such, as at any opening.
///
/// # Errors
/// Whatever the panel's defaults refuse (tested never to happen).
fn usable_pairs(open: Open, pairs: &[(String, String)]) -> Result<(Box<dyn PanelModel>, Vec<Notice>)> {
    let mut kept: Vec<(String, String)> = vec![];
    let mut dropped = vec![];
    for (key, text) in assignment_order(pairs) {
        kept.push((key.clone(), text.clone()));
        if let Err(error) = open(&kept, &mut vec![]) {
            kept.pop();
            dropped.push(Notice { key: key.clone(), error });
        }
    }
    let mut notices = vec![];
    let panel = open(&kept, &mut notices)?;
    notices.extend(dropped);
    Ok((panel, notices))
}
