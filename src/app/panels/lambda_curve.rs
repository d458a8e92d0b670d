//! The λ-curve panel (PRML Fig 7.11): λ(α) = ½[ln α − ln(α + s) + q²/(α + s)]
//! (PRML 7.97) against ln α for the q² and s the reader sets, its maximum marked — at
//! α* = s²/(q² − s) when q² > s, at α = ∞ otherwise (PRML 7.101). The two cases of the
//! figure are one choice away. Beside it, the (s, q²) plane: above the line q² = s a basis
//! vector is kept, below it pruned; a press or drag there sets (s, q²).

use crate::app::plotted::{Plotted, Tabulate, tabulate_all};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::panel::{Grab, Handle, Panel};
use crate::app::params::{Control, ParamSpec, parse_choice, parse_real, rounded};
use crate::app::report::{Message, Readout, Report, Sentence};
use crate::app::scene::LambdaCurve;
use crate::app::settings::Settings;
use crate::error::{Compact, Error, Result, ensure_non_negative, ensure_positive};
use crate::plot::lambda::QualityPlaneChart;
use crate::plot::{Labels, LegendEntry, Mark, PlotArea};
use crate::rvm::sparsity::SparsityQuality;

/// The named cases of the `case` choice: name (also the key of their label on the plane),
/// (q², s) and the label's English text — PRML Fig 7.11 left and right.
const CASES: [(&str, (f64, f64), &str); 2] =
    [("fig-7-11-left", (4.0, 1.0), "Fig 7.11 left"), ("fig-7-11-right", (1.0, 2.0), "Fig 7.11 right")];
/// The choice for values set by hand.
const CUSTOM: &str = "custom";
/// Every option of the `case` choice.
const OPTIONS: [&str; 3] = [CASES[0].0, CASES[1].0, CUSTOM];
/// Smallest s a press on the plane sets (s must be > 0).
const MIN_S: f64 = 0.01;
/// Values set by pointer are rounded to thousandths.
const PER_UNIT: f64 = 1e3;

const PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "case", symbol: "case", control: Control::Choice { options: &OPTIONS } },
    ParamSpec { key: "q2", symbol: "q²", control: Control::Real { min: 1e-2, max: 1e2, log: true } },
    ParamSpec { key: "sparsity", symbol: "s", control: Control::Real { min: 1e-2, max: 1e2, log: true } },
];

/// The q² and s of the curve, and which case they are.
#[derive(Debug, Clone, PartialEq)]
pub struct LambdaSettings {
    /// One of the [`CASES`] or `custom`.
    pub case: &'static str,
    /// Quality squared, q² ≥ 0.
    pub q2: f64,
    /// Sparsity s > 0.
    pub s: f64,
}

impl Default for LambdaSettings {
    /// PRML Fig 7.11, left: q² = 4, s = 1.
    fn default() -> Self {
        let (name, (q2, s), _) = CASES[0];
        Self { case: name, q2, s }
    }
}

impl LambdaSettings {
    /// After q² or s changed: the named case with these values, else `custom`.
    fn follow_values(&mut self) {
        self.case = CASES.iter().find(|c| c.1 == (self.q2, self.s)).map_or(CUSTOM, |c| c.0);
    }
}

impl Settings for LambdaSettings {
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.to_vec()
    }

    /// A named case sets q² and s to its values; q² or s set by hand make the case the one
    /// with those values, or `custom` (so `case=…&q2=…&sparsity=…` in the URL reads back as
    /// it was written). `custom` keeps q² and s, and is the named case when they are its
    /// values (else `case=custom&q2=4&sparsity=1` would read back as the left case).
    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "case" => {
                self.case = parse_choice("case", text, &OPTIONS)?;
                match CASES.iter().find(|c| c.0 == self.case) {
                    Some((_, (q2, s), _)) => (self.q2, self.s) = (*q2, *s),
                    None => self.follow_values(),
                }
                return Ok(());
            }
            "q2" => self.q2 = ensure_non_negative("q²", parse_real("q²", text)?)?,
            "sparsity" => self.s = ensure_positive("s", parse_real("s", text)?)?,
            _ => return Err(Error::UnknownParameter { key: key.into() }),
        }
        self.follow_values();
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "case" => self.case.to_owned(),
            "q2" => Compact(self.q2).to_string(),
            "sparsity" => Compact(self.s).to_string(),
            _ => return None,
        })
    }
}

/// The basis vector's s and q².
#[derive(Debug, Clone)]
pub struct LambdaPanel {
    sq: SparsityQuality,
}

impl LambdaPanel {
    /// Its sparsity and quality.
    pub fn sparsity_quality(&self) -> SparsityQuality {
        self.sq
    }

    fn plane(&self) -> QualityPlaneChart {
        QualityPlaneChart {
            point: (self.sq.s, self.sq.q_squared()),
            references: CASES.iter().map(|&(name, (q2, s), english)| ((s, q2), (name, english))).collect(),
            title: Some(("kept-or-pruned", "kept or pruned?")),
        }
    }
}

impl Panel for LambdaPanel {
    const NAME: &'static str = "lambda-curve";
    type Settings = LambdaSettings;

    fn compute(settings: &LambdaSettings) -> Result<Self> {
        Ok(Self { sq: SparsityQuality::from_q_squared(settings.s, settings.q2)? })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let (left, right) = crate::plot::split_pair(root, scale, 0.58);
        let curve = LambdaCurve { title: Some(("lambda-curve", "λ(α), PRML 7.97")), ..LambdaCurve::new(self.sq) };
        curve.chart()?.draw(&left, scale, labels)?;
        self.plane().draw(&right, scale, labels)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let curve = LambdaCurve { title: Some(("lambda-curve", "λ(α), PRML 7.97")), ..LambdaCurve::new(self.sq) };
        let mut tables = curve.chart().map_or(vec![], |chart| tabulate_all(&[&chart]));
        self.plane().tabulate(&mut tables);
        tables
    }

    fn report(&self) -> Report {
        let readouts = self.readouts();
        let more = [("s", self.sq.s.into()), ("q2", self.sq.q_squared().into())];
        let summary = vec![Sentence::of_readouts("lambda-curve", &readouts, more)];
        Report { readouts, messages: self.messages(), legend: self.legend(), summary, ..Report::default() }
    }

    /// Sets (s, q²) to the pressed point of the plane and grabs it.
    fn press(&self, settings: &mut LambdaSettings, x: f64, y: f64) -> Result<Option<Grab>> {
        self.drag(settings, 0, x, y)?;
        Ok(Some(0))
    }

    fn drag(&self, settings: &mut LambdaSettings, _grab: Grab, x: f64, y: f64) -> Result<()> {
        let round = |v: f64| rounded(v, PER_UNIT);
        settings.assign("sparsity", &round(x).max(MIN_S).to_string())?;
        settings.assign("q2", &round(y).max(0.0).to_string())
    }

    /// The basis function's point (s, q²), moved by 0.05 at a time.
    fn handles(&self, settings: &LambdaSettings) -> Vec<Handle> {
        let (at, axes) = ((settings.s, settings.q2), ("sparsity", Some("q2")));
        vec![Handle { key: "point", args: vec![], at, axes, step: (0.05, 0.05), grab: Some(0) }]
    }
}

impl LambdaPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "lambda-curve", colour: "#222222", mark: Mark::Line },
            LegendEntry { key: "alpha-star", colour: "#d55e00", mark: Mark::Dot },
            LegendEntry { key: "pruned-level", colour: "#888888", mark: Mark::Dashed },
            LegendEntry { key: "this-basis", colour: "#0072b2", mark: Mark::Dot },
            LegendEntry { key: "threshold", colour: "#222222", mark: Mark::Dashed },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        vec![
            Readout { key: "theta", value: self.sq.theta() },
            Readout { key: "alpha-star", value: self.sq.optimal_alpha().unwrap_or(f64::INFINITY) },
            Readout { key: "lambda-star", value: self.sq.max_lambda() },
        ]
    }

    /// Notes on the state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        vec![crate::app::panels::sparsity::verdict(&self.sq)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    fn readout(panel: &Live<LambdaPanel>, key: &str) -> f64 {
        panel.report().readouts.iter().find(|r| r.key == key).unwrap().value
    }

    #[test]
    fn the_textbook_cases_are_one_choice_away() {
        let mut panel = Live::<LambdaPanel>::try_default().unwrap();
        assert!((readout(&panel, "alpha-star") - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(readout(&panel, "theta"), 3.0);
        panel.set("case", "fig-7-11-right").unwrap();
        assert_eq!((panel.value("q2").as_deref(), panel.value("sparsity").as_deref()), (Some("1"), Some("2")));
        assert_eq!(readout(&panel, "alpha-star"), f64::INFINITY);
        assert_eq!(readout(&panel, "lambda-star"), 0.0);
        assert_eq!(panel.report().messages[0].code, "sparsity-pruned");
    }

    #[test]
    fn changing_a_value_makes_the_case_custom_and_the_url_reads_back() {
        let mut panel = Live::<LambdaPanel>::try_default().unwrap();
        panel.set("q2", "4").unwrap();
        assert_eq!(panel.value("case").as_deref(), Some("fig-7-11-left"), "the same value keeps the case");
        panel.set("q2", "9").unwrap();
        assert_eq!(panel.value("case").as_deref(), Some("custom"));
        assert!((readout(&panel, "alpha-star") - 1.0 / 8.0).abs() < 1e-15);
        for query in [panel.query(), Live::<LambdaPanel>::try_default().unwrap().query()] {
            let mut copy = Live::<LambdaPanel>::try_default().unwrap();
            assert!(copy.apply_query(&query).is_empty());
            assert_eq!(copy.query(), query);
        }
        // Back to the left case's values by hand: the case follows.
        panel.set("q2", "4").unwrap();
        assert_eq!(panel.value("case").as_deref(), Some("fig-7-11-left"));
    }

    #[test]
    fn custom_with_a_named_cases_values_is_that_case() {
        // Found by tests/fuzz_parsers.rs: `case=custom` kept the left case's q² = 4, s = 1
        // under the name `custom`, whose query then read back as the left case.
        let mut panel = Live::<LambdaPanel>::try_default().unwrap();
        assert!(panel.apply_query(&[("case".into(), "custom".into())]).is_empty());
        assert_eq!(panel.value("case").as_deref(), Some("fig-7-11-left"));
        let query = panel.query();
        let mut copy = Live::<LambdaPanel>::try_default().unwrap();
        assert!(copy.apply_query(&query).is_empty());
        assert_eq!(copy.query(), query);
        panel.set("q2", "9").unwrap();
        panel.set("case", "custom").unwrap();
        assert_eq!((panel.value("case").as_deref(), panel.value("q2").as_deref()), (Some("custom"), Some("9")));
    }

    #[test]
    fn a_press_on_the_plane_sets_s_and_q_squared() {
        let mut panel = Live::<LambdaPanel>::try_default().unwrap();
        assert!(panel.press(3.0, 2.0).unwrap());
        assert_eq!(panel.value("case").as_deref(), Some("custom"));
        assert!((readout(&panel, "theta") + 1.0).abs() < 1e-15);
        assert!(panel.drag(-1.0, -1.0).unwrap(), "held to s > 0, q² ≥ 0");
        assert_eq!((panel.settings().s, panel.settings().q2), (MIN_S, 0.0));
        assert!(panel.drag(1.0, 4.0).unwrap());
        assert_eq!(panel.value("case").as_deref(), Some("fig-7-11-left"));
    }

    #[test]
    fn bad_values_are_refused() {
        let mut panel = Live::<LambdaPanel>::try_default().unwrap();
        assert_eq!(panel.set("sparsity", "0").unwrap_err().to_string(), "s must be > 0, but is 0");
        assert_eq!(panel.set("q2", "-1").unwrap_err().to_string(), "q² must be ≥ 0, but is -1");
        assert_eq!(panel.set("case", "middle").unwrap_err().code(), "unknown-choice");
        assert_eq!(panel.value("case").as_deref(), Some("fig-7-11-left"));
    }
}
