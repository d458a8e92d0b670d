//! The basis-functions panel: every φⱼ(x) of the chosen family over [0, 1]; the
//! centres of Gaussian and sigmoidal functions can be dragged along x.

use crate::app::centres::{self, CENTRES_KEY, MovedCentres};
use crate::app::plotted::{Plotted, tabulate_all};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::panel::{Grab, Handle, Panel};
use crate::app::params::ParamSpec;
use crate::app::report::{Message, Readout, Report, Sentence, Word};
use crate::app::settings::Settings;
use crate::app::settings::{BasisParams, DataParams, ParamGroup, X_RANGE, assign_in, value_in};
use crate::basis::{Basis, BasisSpec, Family};
use crate::error::{Error, Result};
use crate::grid::evenly_spaced;
use crate::plot::basis::{BasisScene, LEGEND, draw};
use crate::plot::{Labels, LegendEntry, PlotArea};

/// Points at which the functions are drawn.
const GRID_POINTS: usize = 301;

/// The basis, the data its kernel family centres on, and the centres moved by hand.
#[derive(Debug, Clone, PartialEq)]
pub struct BasisSettings {
    /// Family, M, width, degree, bias.
    pub basis: BasisParams,
    /// The training inputs (only the kernel family uses them).
    pub data: DataParams,
    /// Centres moved by dragging.
    pub moved: MovedCentres,
}

impl Default for BasisSettings {
    fn default() -> Self {
        let spec =
            BasisSpec { family: Family::Gaussian, m: 6, width: 0.1, degree: 3, bias: false, ..BasisSpec::default() };
        Self { basis: BasisParams::new(spec), data: DataParams::new(10, 0.2, 1), moved: MovedCentres::default() }
    }
}

impl BasisSettings {
    /// The basis with the moved centres in place.
    fn basis(&self) -> Result<Basis> {
        let data = self.data.dataset()?;
        self.moved.apply(self.basis.basis(&data.x)?)
    }
}

impl Settings for BasisSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let mut params = self.basis.params();
        params.extend(self.data.params().into_iter().filter(|p| p.key != "noise"));
        params
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        if key == CENTRES_KEY {
            self.moved = MovedCentres::parse(text)?;
            return Ok(());
        }
        if key == "noise" || key == crate::app::settings::POINTS_KEY {
            return Err(Error::UnknownParameter { key: key.into() });
        }
        assign_in(&mut [&mut self.basis, &mut self.data], key, text)?;
        // A new shape or count renumbers the functions: hand-moved centres no longer apply.
        if self.basis.value(key).is_some() {
            self.moved.clear();
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        match key {
            CENTRES_KEY => Some(self.moved.text()),
            "noise" | crate::app::settings::POINTS_KEY => None,
            _ => value_in(&[&self.basis, &self.data], key),
        }
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        if self.moved.is_empty() { vec![] } else { vec![CENTRES_KEY] }
    }

    fn is_active(&self, key: &str) -> bool {
        match key {
            // Only a basis centred on the training inputs depends on the data.
            "N" | "seed" => !self.basis.spec.family.count_is_free(),
            _ => self.basis.is_active(key),
        }
    }
}

/// The functions on a grid, ready to draw.
#[derive(Debug, Clone)]
pub struct BasisPanel {
    scene: BasisScene,
    m: usize,
    family: Family,
}

impl BasisPanel {
    /// The scene the chart draws.
    pub fn scene(&self) -> &BasisScene {
        &self.scene
    }
}

impl Panel for BasisPanel {
    const NAME: &'static str = "basis";
    type Settings = BasisSettings;

    fn compute(settings: &BasisSettings) -> Result<Self> {
        let basis = settings.basis()?;
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
        // Φ of the grid: each function's curve is a column (a formula's evaluated a column at
        // a time, and every value checked finite).
        let phi = basis.design_matrix(&grid)?;
        let curves: Vec<Vec<f64>> = phi.column_iter().map(|column| column.iter().copied().collect()).collect();
        let handles = centres::draggable(&basis);
        let family = settings.basis.spec.family;
        let rug = if family.count_is_free() { vec![] } else { settings.data.dataset()?.x };
        let values = curves.iter().flatten().copied();
        // The built-in families live on [0, 1] (B-splines, sigmoids, bumps) or beyond it, and
        // are drawn on at least that; a typed formula's functions may be a thousandth of it,
        // or a thousand times, so they are drawn on their own range (0 included).
        let base = if family == Family::Formula { (0.0, 0.0) } else { (0.0, 1.0) };
        let (lo, hi) = match crate::plot::fit::widen(values, base, 0.0) {
            (lo, hi) if hi > lo => (lo, hi),
            _ => (0.0, 1.0),
        };
        let pad = 0.08 * (hi - lo);
        let scene = BasisScene { x_range: X_RANGE, y_range: (lo - pad, hi + pad), grid, curves, handles, rug };
        Ok(Self { scene, m: basis.len(), family })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        draw(root, &self.scene, scale, labels)
    }

    fn plotted(&self) -> Vec<Plotted> {
        tabulate_all(&[&self.scene])
    }

    fn report(&self) -> Report {
        let summary = vec![Sentence::new(
            "basis",
            [("M", self.m.into()), ("family", Word::Key(format!("choice.{}", self.family.name())))],
        )];
        Report {
            readouts: self.readouts(),
            messages: self.messages(),
            legend: self.legend(),
            summary,
            ..Report::default()
        }
    }

    /// Grabs the centre nearest to x, if one is within reach.
    fn press(&self, _settings: &mut BasisSettings, x: f64, _y: f64) -> Result<Option<Grab>> {
        Ok(centres::grab_nearest(&self.scene.handles, x))
    }

    /// Moves grabbed centre `grab` to x.
    fn drag(&self, settings: &mut BasisSettings, grab: Grab, x: f64, _y: f64) -> Result<()> {
        settings.moved.drag(grab, x);
        Ok(())
    }

    /// The centres μⱼ, each moved along x by a hundredth of the range.
    fn handles(&self, _settings: &BasisSettings) -> Vec<Handle> {
        centres::handles(&self.scene.handles, 0.0)
    }
}

impl BasisPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        let handles = if self.scene.handles.is_empty() { 1 } else { 2 };
        LEGEND[..handles].to_vec()
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        vec![Readout { key: "M", value: self.m as f64 }]
    }

    /// Notes on the state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        vec![Message { code: format!("basis-{}", self.family.name()), args: Vec::new(), warning: false }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn one_curve_per_function_with_handles_at_the_centres() {
        let panel = Live::<BasisPanel>::try_default().unwrap();
        let scene = panel.panel().scene();
        assert_eq!(scene.curves.len(), 6);
        assert_eq!(scene.handles.iter().map(|h| h.1).collect::<Vec<_>>(), evenly_spaced(0.0, 1.0, 6));
        // φ₂ peaks at its centre μ = 0.4 with value 1 (grid step 1/300 hits 0.4 exactly).
        let at = scene.grid.iter().position(|&x| (x - 0.4).abs() < 1e-12).unwrap();
        assert!((scene.curves[2][at] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn dragging_moves_one_centre_and_survives_the_url() {
        let mut panel = Live::<BasisPanel>::try_default().unwrap();
        // Centres 0, 0.2, 0.4, 0.6, 0.8, 1: a press at 0.41 grabs the one at 0.4.
        assert!(!panel.press(0.41, 0.5).unwrap(), "a press alone changes nothing");
        assert!(panel.drag(0.55, 0.3).unwrap());
        panel.release();
        assert!(!panel.drag(0.9, 0.3).unwrap(), "after release nothing is grabbed");
        let centres: Vec<f64> = panel.panel().scene().handles.iter().map(|h| h.1).collect();
        assert_eq!(centres, vec![0.0, 0.2, 0.55, 0.6, 0.8, 1.0]);
        assert_eq!(panel.value("centres").as_deref(), Some("2:0.55"));
        let mut copy = Live::<BasisPanel>::try_default().unwrap();
        assert!(copy.apply_query(&panel.query()).is_empty());
        assert_eq!(copy.panel().scene(), panel.panel().scene());
        // Changing M renumbers the functions, so the moved centre is dropped.
        panel.set("M", "5").unwrap();
        assert_eq!(panel.value("centres").as_deref(), Some(""));
    }

    #[test]
    fn a_centre_stays_on_the_input_range() {
        let mut panel = Live::<BasisPanel>::try_default().unwrap();
        panel.set("centres", "2:5,3:-1").unwrap();
        let centres: Vec<f64> = panel.panel().scene().handles.iter().map(|h| h.1).collect();
        assert_eq!(centres, vec![0.0, 0.2, 1.0, 0.0, 0.8, 1.0]);
    }

    #[test]
    fn a_formula_is_drawn_on_its_own_range_in_any_units() {
        // The Gaussians' slopes (x − μ)e^(−(x−μ)²/s²) reach ±s/√(2e) ≈ ±0.043 at s = 0.1, and
        // the same times 10⁶: each chart spans its curves' extremes (0 included), padded 8 %.
        for scale in ["1", "1e6"] {
            let mut panel = Live::<BasisPanel>::try_default().unwrap();
            let formula = format!("{scale}*(x - mu)*exp(-(x - mu)^2/s^2)");
            panel.set_all(&[("basis".into(), "formula".into()), ("formula".into(), formula)]).unwrap();
            let scene = panel.panel().scene();
            let values = scene.curves.iter().flatten();
            let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
            let pad = 0.08 * (hi - lo);
            assert_eq!(scene.y_range, (lo - pad, hi + pad), "{scale}");
            let peak = 0.1 / (2.0 * std::f64::consts::E).sqrt() * scale.parse::<f64>().unwrap();
            assert!((hi - peak).abs() < 1e-3 * peak && (lo + peak).abs() < 1e-3 * peak, "{scale}: {lo} {hi}");
        }
    }

    #[test]
    fn a_press_far_from_every_centre_grabs_nothing() {
        let mut panel = Live::<BasisPanel>::try_default().unwrap();
        panel.set("basis", "polynomial").unwrap();
        assert!(!panel.press(0.5, 0.5).unwrap());
        assert!(!panel.drag(0.6, 0.5).unwrap());
    }
}
