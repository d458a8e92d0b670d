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
/// pair to blame is dropped alone ([`usable_pairs`]), or, where none is, the panel is at
/// its defaults, with a notice (key `""`) saying why.
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
        Err(error) => usable_pairs(entry.open, pairs, error),
    }
}

/// The panel `open` opens at `pairs`, which do not compute as a whole (`error` says why),
/// where one of them is to blame: the last (in the order the panel assigns them,
/// [`assignment_order`]: a formula after the family it is typed for) without which the
/// others compute is dropped alone, with a notice
/// naming its key and why (a formula with no value, an α too small for the basis …). Where
/// no one pair is (no data points at all, too many of them), the panel at its defaults,
/// with a notice (key `""`) saying why.
///
/// # Errors
/// Whatever the panel's defaults refuse (tested never to happen).
fn usable_pairs(open: Open, pairs: &[(String, String)], error: Error) -> Result<(Box<dyn PanelModel>, Vec<Notice>)> {
    let order = assignment_order(pairs);
    for (i, (key, _)) in order.iter().enumerate().rev() {
        let others: Vec<(String, String)> =
            order.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &pair)| pair.clone()).collect();
        let mut notices = vec![];
        if let Ok(panel) = open(&others, &mut notices) {
            notices.push(Notice { key: key.clone(), error });
            return Ok((panel, notices));
        }
    }
    Ok((open(&[], &mut vec![])?, vec![Notice { key: String::new(), error }]))
}
