//! The sparsity panel (PRML Fig 7.10): two observations, one basis vector. Left, the
//! (t₁, t₂) plane: the target t, the basis vector φ, the noise circle of radius β^{-1/2} and
//! the ellipse of C = β⁻¹I + α⁻¹φφᵀ at unit Mahalanobis distance; a press moves t or the tip
//! of φ, whichever is nearer, and a drag carries it. Right, ln p(t|α) against ln α
//! (ln p(t|∞) + λ(α), PRML 7.96) with the current and the most probable α. A φ poorly
//! aligned with t (q² ≤ s) is best pruned: every finite α lowers p(t|α).

use crate::app::plotted::{Plotted, Tabulate, tabulate_all};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::panel::{Grab, Handle, Panel};
use crate::app::params::{Control, ParamSpec, parse_real, parse_toggle, rounded, toggle_text};
use crate::app::report::{Message, Readout, Report, Sentence};
use crate::app::scene::LambdaCurve;
use crate::app::settings::Settings;
use crate::error::{Compact, Error, Result, ensure_positive};
use crate::plot::target_space::TargetSpaceChart;
use crate::plot::{Labels, LegendEntry, Mark, PlotArea};
use crate::rvm::sparsity::{SparsityQuality, TwoPointModel};

/// The plane shows at least [−2, 2]² (and the sliders for t and φ cover it).
const REACH: f64 = 2.0;
/// Points of the ellipse.
const ELLIPSE_POINTS: usize = 73;
/// Positions set by pointer are rounded to thousandths.
const PER_UNIT: f64 = 1e3;

const PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "alpha", symbol: "α", control: Control::Real { min: 1e-2, max: 1e3, log: true } },
    ParamSpec { key: "pruned", symbol: "α = ∞", control: Control::Toggle },
    ParamSpec { key: "beta", symbol: "β", control: Control::Real { min: 0.5, max: 100.0, log: true } },
    ParamSpec { key: "t1", symbol: "t₁", control: Control::Real { min: -REACH, max: REACH, log: false } },
    ParamSpec { key: "t2", symbol: "t₂", control: Control::Real { min: -REACH, max: REACH, log: false } },
    ParamSpec { key: "phi1", symbol: "φ₁", control: Control::Real { min: -REACH, max: REACH, log: false } },
    ParamSpec { key: "phi2", symbol: "φ₂", control: Control::Real { min: -REACH, max: REACH, log: false } },
];

/// The model of Fig 7.10 as the reader set it.
#[derive(Debug, Clone, PartialEq)]
pub struct SparsitySettings {
    /// Weight precision α of the basis vector, when not pruned.
    pub alpha: f64,
    /// Whether α = ∞ (the basis vector is out of the model).
    pub pruned: bool,
    /// Noise precision β.
    pub beta: f64,
    /// The target t = (t₁, t₂).
    pub target: [f64; 2],
    /// The basis vector φ = (φ(x₁), φ(x₂)).
    pub basis: [f64; 2],
}

impl Default for SparsitySettings {
    /// φ and t some 25° apart: q² > s, so the most probable α (≈ 0.70) is finite; the
    /// current α = 5 is off it.
    fn default() -> Self {
        Self { alpha: 5.0, pruned: false, beta: 4.0, target: [1.0, 1.2], basis: [1.0, 0.5] }
    }
}

/// The largest magnitude of t₁, t₂, φ₁, φ₂ (the sliders span ±REACH).
const MAX_COORDINATE: u64 = 1_000_000;

impl SparsitySettings {
    /// α, ∞ when pruned.
    pub fn alpha(&self) -> f64 {
        if self.pruned { f64::INFINITY } else { self.alpha }
    }

    fn coordinate(&mut self, key: &str) -> Option<&mut f64> {
        match key {
            "t1" => Some(&mut self.target[0]),
            "t2" => Some(&mut self.target[1]),
            "phi1" => Some(&mut self.basis[0]),
            "phi2" => Some(&mut self.basis[1]),
            _ => None,
        }
    }
}

impl Settings for SparsitySettings {
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "alpha" => self.alpha = ensure_positive("α", parse_real("α", text)?)?,
            "pruned" => self.pruned = parse_toggle("α = ∞", text)?,
            "beta" => self.beta = ensure_positive("β", parse_real("β", text)?)?,
            _ => {
                let unknown = || Error::UnknownParameter { key: key.into() };
                let symbol = PARAMS.iter().find(|p| p.key == key).ok_or_else(unknown)?.symbol;
                // Far beyond the chart a coordinate only breaks it (its axes would span more
                // than f64 holds): ±10⁶ is ample.
                let value = crate::error::ensure_within(symbol, parse_real(symbol, text)?, MAX_COORDINATE)?;
                *self.coordinate(key).ok_or_else(unknown)? = value;
            }
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "alpha" => Compact(self.alpha).to_string(),
            "pruned" => toggle_text(self.pruned).to_owned(),
            "beta" => Compact(self.beta).to_string(),
            _ => Compact(*self.clone().coordinate(key)?).to_string(),
        })
    }

    fn is_active(&self, key: &str) -> bool {
        key != "alpha" || !self.pruned
    }
}

/// The model, its evidence at the current α and the ellipse.
#[derive(Debug, Clone)]
pub struct SparsityPanel {
    model: TwoPointModel,
    alpha: f64,
    log_evidence: f64,
    ellipse: Vec<(f64, f64)>,
}

impl SparsityPanel {
    /// The model of the plane.
    pub fn model(&self) -> &TwoPointModel {
        &self.model
    }

    /// ln p(t|α) at the current α.
    pub fn log_evidence(&self) -> f64 {
        self.log_evidence
    }

    fn sparsity_quality(&self) -> SparsityQuality {
        self.model.sparsity_quality()
    }

    /// The plane: the shown square holds t and φ.
    fn plane(&self) -> TargetSpaceChart {
        let [t1, t2] = self.model.target();
        let [p1, p2] = self.model.basis();
        let reach = [t1, t2, p1, p2].iter().fold(REACH, |r, v| r.max(v.abs()));
        TargetSpaceChart {
            reach,
            ellipse: self.ellipse.clone(),
            noise_radius: self.model.noise_radius(),
            target: (t1, t2),
            basis: (p1, p2),
            title: Some(("data-space", "data space")),
        }
    }

    /// ln p(t|α) = ln p(t|∞) + λ(α) against ln α (PRML 7.96).
    fn evidence_chart(&self) -> LambdaCurve {
        LambdaCurve {
            current: Some(self.alpha),
            title: Some(("evidence-curve", "ln p(t|∞) + λ(α)")),
            offset: self.model.log_evidence_without_basis(),
            y_name: ("log-p-alpha", "ln p(t|α)"),
            ..LambdaCurve::new(self.sparsity_quality())
        }
    }
}

/// Whether `sq` keeps its basis vector, as a message: the two cases of PRML 7.101.
pub(super) fn verdict(sq: &SparsityQuality) -> Message {
    let code = if sq.optimal_alpha().is_some() { "sparsity-kept" } else { "sparsity-pruned" };
    Message { code: code.into(), args: Vec::new(), warning: false }
}

impl Panel for SparsityPanel {
    const NAME: &'static str = "sparsity";
    type Settings = SparsitySettings;

    fn compute(settings: &SparsitySettings) -> Result<Self> {
        let model = TwoPointModel::new(settings.target, settings.basis, settings.beta)?;
        let alpha = settings.alpha();
        let log_evidence = model.log_evidence(alpha)?;
        let ellipse = model.ellipse(alpha, ELLIPSE_POINTS)?;
        Ok(Self { model, alpha, log_evidence, ellipse })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let (left, right) = crate::plot::split_pair(root, scale, 0.5);
        let area = self.plane().draw(&left, scale, labels)?;
        self.evidence_chart().chart()?.draw(&right, scale, labels)?;
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let mut tables = tabulate_all(&[&self.plane()]);
        if let Ok(chart) = self.evidence_chart().chart() {
            chart.tabulate(&mut tables);
        }
        tables
    }

    fn report(&self) -> Report {
        let readouts = self.readouts();
        let summary = vec![Sentence::of_readouts("sparsity", &readouts, [("alpha", self.alpha.into())])];
        Report { readouts, messages: self.messages(), legend: self.legend(), summary, ..Report::default() }
    }

    /// Moves t or the tip of φ, whichever is nearer, to (x, y) and grabs it (0: t, 1: φ).
    fn press(&self, settings: &mut SparsitySettings, x: f64, y: f64) -> Result<Option<Grab>> {
        let distance = |p: [f64; 2]| (p[0] - x).hypot(p[1] - y);
        let grab = usize::from(distance(settings.basis) < distance(settings.target));
        self.drag(settings, grab, x, y)?;
        Ok(Some(grab))
    }

    fn drag(&self, settings: &mut SparsitySettings, grab: Grab, x: f64, y: f64) -> Result<()> {
        let round = |v: f64| rounded(v, PER_UNIT);
        let point = [round(x), round(y)];
        if grab == 0 {
            settings.target = point
        } else {
            settings.basis = point
        }
        Ok(())
    }

    /// The target t and the tip of φ, each moved by 0.05 in the (t₁, t₂) plane.
    fn handles(&self, settings: &SparsitySettings) -> Vec<Handle> {
        let handle = |key, [x, y]: [f64; 2], grab| Handle {
            key,
            args: vec![],
            at: (x, y),
            axes: ("t1", Some("t2")),
            step: (0.05, 0.05),
            grab: Some(grab),
        };
        vec![handle("target", settings.target, 0), handle("basis-tip", settings.basis, 1)]
    }
}

impl SparsityPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "ellipse", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "noise-circle", colour: "#009e73", mark: Mark::Dashed },
            LegendEntry { key: "target", colour: "#222222", mark: Mark::Cross },
            LegendEntry { key: "basis-vector", colour: "#0072b2", mark: Mark::Line },
            LegendEntry { key: "log-p-curve", colour: "#222222", mark: Mark::Line },
            LegendEntry { key: "alpha-star", colour: "#d55e00", mark: Mark::Dot },
            LegendEntry { key: "current-alpha", colour: "#8f8f8f", mark: Mark::Line },
            LegendEntry { key: "pruned-level", colour: "#888888", mark: Mark::Dashed },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        let sq = self.sparsity_quality();
        let best = self.model.log_evidence_without_basis() + sq.max_lambda();
        vec![
            Readout { key: "log-p-alpha", value: self.log_evidence },
            Readout { key: "p-alpha", value: self.log_evidence.exp() },
            Readout { key: "sparsity", value: sq.s },
            Readout { key: "quality-squared", value: sq.q_squared() },
            Readout { key: "alpha-star", value: sq.optimal_alpha().unwrap_or(f64::INFINITY) },
            Readout { key: "log-p-best", value: best },
        ]
    }

    /// Notes on the state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        vec![verdict(&self.sparsity_quality())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn the_defaults_keep_phi_with_a_finite_alpha() {
        let panel = Live::<SparsityPanel>::try_default().unwrap();
        let r = panel.report().readouts;
        let value = |key: &str| r.iter().find(|x| x.key == key).unwrap().value;
        // s = β‖φ‖² = 4·1.25, q = βφᵀt = 4·1.6, α* = s²/(q² − s) (PRML 7.101).
        assert!((value("sparsity") - 5.0).abs() < 1e-12);
        assert!((value("quality-squared") - 40.96).abs() < 1e-12);
        assert!((value("alpha-star") - 25.0 / 35.96).abs() < 1e-12);
        assert!(value("log-p-best") > value("log-p-alpha"), "α = 5 is not the best α");
        assert!((value("p-alpha") - value("log-p-alpha").exp()).abs() < 1e-15);
        assert_eq!(panel.report().messages[0].code, "sparsity-kept");
    }

    #[test]
    fn pruning_gives_the_noise_only_model() {
        let mut panel = Live::<SparsityPanel>::try_default().unwrap();
        panel.set("pruned", "1").unwrap();
        assert!(!panel.is_active("alpha"));
        let model = panel.panel().model();
        assert_eq!(panel.panel().log_evidence(), model.log_evidence(f64::INFINITY).unwrap());
        // A target orthogonal to φ: the most probable α is ∞.
        panel.set("t1", "-0.5").unwrap();
        panel.set("t2", "1").unwrap();
        let alpha_star = panel.report().readouts.iter().find(|r| r.key == "alpha-star").unwrap().value;
        assert_eq!(alpha_star, f64::INFINITY);
        assert_eq!(panel.report().messages[0].code, "sparsity-pruned");
    }

    #[test]
    fn a_press_moves_the_nearer_of_t_and_phi_and_a_drag_carries_it() {
        let mut panel = Live::<SparsityPanel>::try_default().unwrap();
        // t = (1, 1.2), φ = (1, 0.5): (1.1, 0.4) is nearer φ.
        assert!(panel.press(1.1, 0.4).unwrap());
        assert_eq!(panel.settings().basis, [1.1, 0.4]);
        assert!(panel.drag(0.8, -0.3).unwrap());
        panel.release();
        assert_eq!(panel.settings().basis, [0.8, -0.3]);
        assert_eq!(panel.settings().target, [1.0, 1.2]);
        assert!(panel.press(1.2, 1.4).unwrap());
        assert_eq!(panel.settings().target, [1.2, 1.4]);
        let query = panel.query();
        assert!(query.contains(&("phi2".into(), "-0.3".into())) && query.contains(&("t1".into(), "1.2".into())));
        let mut copy = Live::<SparsityPanel>::try_default().unwrap();
        assert!(copy.apply_query(&query).is_empty());
        assert_eq!(copy.settings(), panel.settings());
    }

    #[test]
    fn bad_values_are_refused_and_the_state_kept() {
        let mut panel = Live::<SparsityPanel>::try_default().unwrap();
        let before = panel.query();
        assert_eq!(panel.set("beta", "-1").unwrap_err().to_string(), "β must be > 0, but is -1");
        assert_eq!(panel.set("alpha", "0").unwrap_err().code(), "out-of-range");
        assert_eq!(panel.set("t1", "NaN").unwrap_err().to_string(), "t₁ must be a finite number, but is NaN");
        // A target far off the chart would make axes wider than f64 holds (the page froze,
        // then could not draw): refused, naming the range — beyond what the lab reads at all,
        // and beyond the panel's own ±10⁶.
        assert_eq!(panel.set("t1", "1e308").unwrap_err().code(), "beyond-range");
        assert_eq!(panel.set("t1", "1e7").unwrap_err().code(), "out-of-range");
        assert_eq!(
            panel.set("phi2", "-2e6").unwrap_err().to_string(),
            "φ₂ must be between -1000000 and 1000000, but is -2000000"
        );
        assert_eq!(panel.set("pruned", "2").unwrap_err().code(), "unknown-choice");
        panel.set("phi1", "0").unwrap();
        assert_eq!(panel.set("phi2", "0").unwrap_err().to_string(), "‖φ‖ must be > 0, but is 0");
        // Dragging φ onto the origin is refused the same way.
        assert!(panel.press(0.0, 0.4).is_ok());
        assert_eq!(panel.drag(0.0, 0.0).unwrap_err().code(), "out-of-range");
        assert_eq!(panel.set("nope", "1").unwrap_err().code(), "unknown-parameter");
        panel.reset().unwrap();
        assert_eq!(panel.query(), before);
    }
}
