//! Basis centres moved by hand: the centres μⱼ of Gaussian, sigmoidal (and other centred)
//! basis functions that a student drags along x — on the basis panel, and under the fast RVM
//! so that moving one restarts the run on the new basis. In the URL they are
//! `centres=j:μ,…`, j counting the functions after the bias.

use std::collections::BTreeMap;

use super::panel::{Grab, Handle};
use super::params::{parse_integer, parse_real};
pub use super::settings::CENTRES_KEY;
use super::settings::X_RANGE;
use crate::basis::{Basis, Family, MAX_BASIS_FUNCTIONS};
use crate::error::{Compact, Error, Result};

/// A press grabs the nearest centre within this fraction of the x range.
const GRAB_REACH: f64 = 0.04;

/// The centres moved by dragging: index of the non-bias function → its new μ.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MovedCentres(BTreeMap<usize, f64>);

impl MovedCentres {
    /// Parses `j:μ,j:μ,…` (empty: none moved); each μ is kept on the input range, where its
    /// handle can be seen and grabbed.
    ///
    /// # Errors
    /// [`Error::NotFinite`] (naming `centre`) for a pair without `:`, or what
    /// [`parse_real`] and [`parse_integer`] refuse.
    pub fn parse(text: &str) -> Result<Self> {
        let pairs = text.split(',').filter(|p| !p.trim().is_empty()).map(|pair| {
            let (j, mu) =
                pair.split_once(':').ok_or_else(|| Error::NotFinite { name: "centre".into(), value: pair.into() })?;
            let mu = parse_real("μ", mu)?.clamp(X_RANGE.0, X_RANGE.1);
            Ok((parse_integer("j", j, 0, MAX_BASIS_FUNCTIONS as u64)? as usize, mu))
        });
        Ok(Self(pairs.collect::<Result<_>>()?))
    }

    /// The URL's text, `j:μ,…`.
    pub fn text(&self) -> String {
        self.0.iter().map(|(j, mu)| format!("{j}:{}", Compact(*mu))).collect::<Vec<_>>().join(",")
    }

    /// Whether no centre was moved.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Forgets every move (a new family or count renumbers the functions).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// `basis` with the moved centres in place; as it is for a formula without `mu` (whose
    /// functions have no centres: the moves come back with `mu`).
    ///
    /// # Errors
    /// As [`Basis::with_centre`]: a basis without centres, or a j past its last.
    pub fn apply(&self, mut basis: Basis) -> Result<Basis> {
        if basis.family() == Family::Formula && basis.centres().is_none() {
            return Ok(basis);
        }
        for (&j, &mu) in &self.0 {
            basis = basis.with_centre(j, mu)?;
        }
        Ok(basis)
    }

    /// Centre `grab` (a non-bias function) dragged to x, to four decimals, on the input range.
    pub fn drag(&mut self, grab: Grab, x: f64) {
        self.0.insert(grab, ((x * 1e4).round() / 1e4).clamp(X_RANGE.0, X_RANGE.1));
    }
}

/// The centres of `basis` a press can grab: (its function's index, bias first; μ), in the
/// order of [`MovedCentres`]'s j.
pub fn draggable(basis: &Basis) -> Vec<(usize, f64)> {
    let offset = usize::from(basis.bias());
    basis.centres().map_or_else(Vec::new, |c| c.iter().enumerate().map(|(j, &mu)| (j + offset, mu)).collect())
}

/// The centre nearest to x within `GRAB_REACH` of the input range, as a grab (its place
/// in `centres`).
pub fn grab_nearest(centres: &[(usize, f64)], x: f64) -> Option<Grab> {
    let reach = GRAB_REACH * (X_RANGE.1 - X_RANGE.0);
    let nearest = centres.iter().enumerate().min_by(|a, b| (a.1.1 - x).abs().total_cmp(&(b.1.1 - x).abs()));
    nearest.filter(|(_, c)| (c.1 - x).abs() <= reach).map(|(k, _)| k)
}

/// The centres as handles for the keyboard (WCAG 2.5.7), drawn at height `y`: each moved
/// along x by a hundredth of the range.
pub fn handles(centres: &[(usize, f64)], y: f64) -> Vec<Handle> {
    let step = (X_RANGE.1 - X_RANGE.0) / 100.0;
    (centres.iter().enumerate())
        .map(|(k, &(j, mu))| Handle {
            key: "centre",
            args: vec![("j", j.to_string())],
            at: (mu, y),
            axes: ("x", None),
            step: (step, 0.0),
            grab: Some(k),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moved_centres_read_back_and_stay_on_the_range() {
        let moved = MovedCentres::parse("3:-1, 2:0.55,").unwrap();
        assert_eq!(moved.text(), "2:0.55,3:0");
        assert_eq!(MovedCentres::parse(&moved.text()).unwrap(), moved);
        assert!(MovedCentres::parse("").unwrap().is_empty());
        assert_eq!(MovedCentres::parse("2").unwrap_err().code(), "not-finite");
        assert!(MovedCentres::parse("x:0.5").is_err());
    }

    #[test]
    fn a_press_grabs_the_nearest_centre_within_reach() {
        let centres = [(1, 0.0), (2, 0.5), (3, 0.53)];
        assert_eq!(grab_nearest(&centres, 0.52), Some(2));
        assert_eq!(grab_nearest(&centres, 0.49), Some(1));
        assert_eq!(grab_nearest(&centres, 0.3), None);
        assert_eq!(grab_nearest(&[], 0.3), None);
        let mut moved = MovedCentres::default();
        moved.drag(1, 0.123_456);
        moved.drag(2, 7.0);
        assert_eq!(moved.text(), "1:0.1235,2:1");
    }
}
