//! The evidence panel (lecture notes on linear models, eq 27–45, 004): ln p(t|α,β) as a
//! landscape over (ln α, ln β), with the re-estimation schemes walking uphill on it — α
//! with β fixed, β with α fixed, both (lecture notes on linear models, eq 40, 43, 45) and
//! EM (PRML 9.63) — from a start the student clicks, and the surface's own maximum marked.

use crate::app::plotted::{Plotted, tabulate_all};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::panel::{Grab, Handle, Panel};
use crate::app::params::{ParamSpec, parse_real};
use crate::app::replay::{Player, Replay};
use crate::app::report::{Cell, Message, Readout, Report, Sentence, Table};
use crate::app::settings::{BasisParams, DataParams, ModelSettings, PointSink};
use crate::basis::{BasisSpec, Family};
use crate::bayes::Hyperparameters;
use crate::error::{Compact, Result};
use crate::evidence::{Evaluation, EvidenceGrid, Reestimation, Scheme, Spectrum};
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::surface::{SurfaceChart, SurfacePath};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, split_pair};
use crate::solver::{Solver, Termination};

/// Colours of the four schemes: α only, β only, both, EM.
const COLOURS: [RGBColor; 4] =
    [RGBColor(0xE6, 0x9F, 0x00), RGBColor(0x56, 0xB4, 0xE9), RGBColor(0xD5, 0x5E, 0x00), RGBColor(0xCC, 0x79, 0xA7)];
/// The schemes' names in the legend, in the order of [`COLOURS`].
const SCHEMES: [&str; 4] = ["alpha-only", "beta-only", "both", "em"];
/// Cells of the surface along each axis.
const CELLS: usize = 160;
/// ln α and ln β shown at least.
const LN_ALPHA: (f64, f64) = (-10.0, 8.0);
const LN_BETA: (f64, f64) = (-4.0, 8.0);
/// The surface window never reaches beyond ±this in ln α or ln β.
const WINDOW_LIMIT: f64 = 30.0;
/// Contour depths below the maximum: ¼, ½, 1, … nats.
const DEPTH_LEVELS: i32 = 14;
/// Re-estimation steps computed per scheme (the animation shows them one by one).
const STEPS: usize = 400;
/// A scheme has converged once a step moves ln α and ln β by less than this.
const TOLERANCE: f64 = 1e-9;
/// Key of the start, `lnα:lnβ` in the URL.
const START_KEY: &str = "start";

/// Basis, data and the start of the re-estimation.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidenceSettings {
    /// Family, M, width, degree, bias.
    pub basis: BasisParams,
    /// The training data.
    pub data: DataParams,
    /// (ln α, ln β) where every scheme starts.
    pub start: (f64, f64),
}

impl Default for EvidenceSettings {
    /// PRML §3.5: nine Gaussian basis functions (with the bias) on 25 noisy sinusoid points.
    fn default() -> Self {
        let spec =
            BasisSpec { family: Family::Gaussian, m: 9, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        Self { basis: BasisParams::new(spec).with_max_m(50), data: DataParams::new(25, 0.3, 1), start: (-6.0, 0.0) }
    }
}

impl ModelSettings for EvidenceSettings {
    fn groups(&self) -> (&BasisParams, &DataParams) {
        (&self.basis, &self.data)
    }

    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams) {
        (&mut self.basis, &mut self.data)
    }

    fn own_params(&self) -> Vec<ParamSpec> {
        vec![]
    }

    fn assign_own(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        (key == START_KEY).then(|| {
            let (a, b) = text
                .split_once(':')
                .ok_or_else(|| crate::Error::NotFinite { name: "start".into(), value: text.into() })?;
            self.start = (parse_real("ln α", a)?, parse_real("ln β", b)?);
            Ok(())
        })
    }

    fn value_own(&self, key: &str) -> Option<String> {
        (key == START_KEY).then(|| format!("{}:{}", Compact(self.start.0), Compact(self.start.1)))
    }

    fn hidden_own(&self) -> Vec<&'static str> {
        vec![START_KEY]
    }
}

/// The surface, the four runs and how far the animation has got.
#[derive(Debug, Clone)]
pub struct EvidencePanel {
    grid: EvidenceGrid,
    /// The band edges traced as lines, once per change (not per frame).
    contours: Vec<Vec<(f64, f64)>>,
    /// The four runs (α only, β only, both, EM) to their ends, and the iteration shown.
    replay: Replay<Vec<Reestimation>>,
    n: usize,
    m: usize,
}

impl EvidencePanel {
    /// The four runs: α only, β only, both, EM.
    pub fn runs(&self) -> &[Reestimation] {
        self.replay.frames()
    }

    /// The surface and its largest cell.
    pub fn grid(&self) -> &EvidenceGrid {
        &self.grid
    }

    /// Run `k` at the frame shown: its step (it may have stopped earlier) and that iterate.
    fn shown_at(&self, k: usize) -> (usize, Evaluation) {
        let path = self.runs()[k].path();
        // A path always holds its start, so it is never empty.
        let step = self.replay.shown().min(path.len() - 1);
        (step, path[step])
    }

    /// Run `k`'s (ln α, ln β, ln p) up to the frame shown.
    fn visible(&self, k: usize) -> impl Iterator<Item = (f64, f64, f64)> + '_ {
        let path = self.runs()[k].path();
        path[..(self.replay.shown() + 1).min(path.len())].iter().map(|e| (e.alpha.ln(), e.beta.ln(), e.log_evidence))
    }

    fn surface_chart(&self) -> SurfaceChart {
        let paths = COLOURS
            .iter()
            .enumerate()
            .zip(SCHEMES)
            .map(|((k, &colour), series)| SurfacePath {
                points: self.visible(k).map(|(a, b, _)| (a, b)).collect(),
                colour,
                series,
            })
            .collect();
        let max = self.grid.argmax;
        SurfaceChart {
            surface: self.grid.surface.clone(),
            x_name: ("ln-alpha", "ln α"),
            y_name: ("ln-beta", "ln β"),
            z_name: "log-evidence",
            z_of_value: (self.grid.argmax.log_evidence, -1.0),
            title: None,
            paths,
            crosses: vec![(max.ln_alpha, max.ln_beta)],
            contours: self.contours.clone(),
        }
    }

    fn climb_chart(&self) -> LineChart {
        let curves: Vec<Curve> = COLOURS
            .iter()
            .enumerate()
            .zip(SCHEMES)
            .map(|((k, &colour), series)| Curve {
                points: self.visible(k).enumerate().map(|(i, (_, _, l))| (i as f64, l)).collect(),
                colour,
                width: 2.0,
                dashed: false,
                dotted: true,
                series: Some(series),
            })
            .collect();
        let top = self.grid.argmax.log_evidence;
        let values = self.runs().iter().flat_map(|r| r.path().iter().map(|e| e.log_evidence));
        let (lo, hi) = widen(values, (top, top), 0.0);
        let shown = self.replay.position().1.clamp(1, 40) as f64;
        LineChart {
            x_range: (0.0, shown),
            y_range: (lo.max(top - 60.0) - 1.0, hi.max(top) + 1.0),
            x_name: ("iteration", "iteration"),
            y_name: ("log-evidence", "ln p(t|α,β)"),
            title: None,
            curves,
            points: vec![],
            marker: None,
        }
    }
}

impl Panel for EvidencePanel {
    const NAME: &'static str = "evidence";
    type Settings = EvidenceSettings;

    fn compute(settings: &EvidenceSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let basis = settings.basis.basis(&data.x)?;
        let phi = basis.design_matrix(&data.x)?;
        let spectrum = Spectrum::new(&phi, &data.t)?;
        let (ln_a, ln_b) = settings.start;
        let start = Hyperparameters::new(ln_a.exp(), ln_b.exp())?;
        let runs = Scheme::ALL
            .into_iter()
            .map(|scheme| {
                let mut run = Reestimation::new(spectrum.clone(), scheme, start)?;
                run.stop_at(TOLERANCE, STEPS)?.run()?;
                Ok(run)
            })
            .collect::<Result<Vec<_>>>()?;
        // The window holds the default box, the start and every iterate.
        let iterates = runs.iter().flat_map(|r| r.path().iter().map(|e| (e.alpha.ln(), e.beta.ln())));
        let (mut x, mut y) = (LN_ALPHA, LN_BETA);
        for (a, b) in iterates.chain(std::iter::once(settings.start)) {
            x = (x.0.min(a - 1.0), x.1.max(a + 1.0));
            y = (y.0.min(b - 1.0), y.1.max(b + 1.0));
        }
        // A scheme can run far off (α → ∞ when β is held too small); the window stops at
        // WINDOW_LIMIT and such a path leaves the chart. Equal widths in ln α and ln β give
        // equal steps, where the surface costs O(1) a cell.
        let clip = |(lo, hi): (f64, f64)| (lo.max(-WINDOW_LIMIT), hi.min(WINDOW_LIMIT));
        let (x, y) = square(clip(x), clip(y));
        let mut grid = spectrum.surface(x, y, CELLS, CELLS)?;
        // Bands by depth below the top, doubling from ¼ nat: the summit gets the darkest
        // band, and far corners (thousands of nats down) do not flatten the view near it.
        let top = grid.argmax.log_evidence;
        grid.surface.values.iter_mut().for_each(|v| *v = top - *v);
        grid.surface.levels = (0..DEPTH_LEVELS).map(|k| 0.25 * 2f64.powi(k)).collect();
        let contours = grid.surface.contours();
        // The animation opens at its end: every path whole.
        let replay = Replay::new(runs, None, usize::MAX);
        Ok(Self { grid, contours, replay, n: data.len(), m: basis.len() })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let (left, right) = split_pair(root, scale, 0.6);
        let area = self.surface_chart().draw(&left, scale, labels)?;
        self.climb_chart().draw(&right, scale, labels)?;
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        tabulate_all(&[&self.surface_chart(), &self.climb_chart()])
    }

    fn report(&self) -> Report {
        let readouts = self.readouts();
        let (step, steps) = self.replay.position();
        let summary =
            vec![Sentence::of_readouts("evidence", &readouts, [("step", step.into()), ("steps", steps.into())])];
        Report {
            readouts,
            tables: self.tables(),
            messages: self.messages(),
            legend: self.legend(),
            summary,
            ..Report::default()
        }
    }

    /// The data take points typed in "Add a point" and "Edit a point", and CSV, as every
    /// panel's data do; the chart is the (ln α, ln β) plane, where a press moves the start.
    fn data_points(settings: &mut EvidenceSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.data)
    }

    fn points_on_chart(&self) -> bool {
        false
    }

    /// A press on the surface starts every scheme there.
    fn press(&self, settings: &mut EvidenceSettings, x: f64, y: f64) -> Result<Option<Grab>> {
        settings.start = ((x * 100.0).round() / 100.0, (y * 100.0).round() / 100.0);
        Ok(None)
    }

    /// The schemes' start (ln α, ln β), moved a tenth at a time: a press there is the change.
    fn handles(&self, settings: &EvidenceSettings) -> Vec<Handle> {
        let axes = ("ln-alpha", Some("ln-beta"));
        vec![Handle { key: "start", args: vec![], at: settings.start, axes, step: (0.1, 0.1), grab: None }]
    }

    fn player(&self) -> Option<&dyn Player> {
        Some(&self.replay)
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        Some(&mut self.replay)
    }
}

impl EvidencePanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "alpha-only", colour: "#e69f00", mark: Mark::Line },
            LegendEntry { key: "beta-only", colour: "#56b4e9", mark: Mark::Line },
            LegendEntry { key: "both", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "em", colour: "#cc79a7", mark: Mark::Line },
            LegendEntry { key: "surface-max", colour: "#222222", mark: Mark::Cross },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        // The joint fixed point (scheme "both") as far as the animation has got.
        let (_, at) = self.shown_at(2);
        vec![
            Readout { key: "N", value: self.n as f64 },
            Readout { key: "M", value: self.m as f64 },
            Readout { key: "alpha", value: at.alpha },
            Readout { key: "beta", value: at.beta },
            Readout { key: "gamma", value: at.gamma },
            Readout { key: "log-evidence", value: at.log_evidence },
            Readout { key: "surface-max", value: self.grid.argmax.log_evidence },
        ]
    }

    /// The tables beside the chart.
    fn tables(&self) -> Vec<Table> {
        let rows = self
            .runs()
            .iter()
            .enumerate()
            .map(|(k, run)| {
                let (step, at) = self.shown_at(k);
                vec![
                    Cell::Label(run.scheme().name()),
                    Cell::Number(step as f64),
                    Cell::Number(at.alpha),
                    Cell::Number(at.beta),
                    Cell::Number(at.gamma),
                    Cell::Number(at.log_evidence),
                ]
            })
            .collect();
        vec![Table {
            key: "schemes",
            columns: vec!["scheme", "iteration", "alpha", "beta", "gamma", "log-evidence"],
            rows,
        }]
    }

    /// Notes on the state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        self.runs()
            .iter()
            .filter_map(|run| match run.degenerate() {
                Some(Termination::Degenerate { iteration, reason }) => {
                    let args = Vec::from([
                        ("scheme", run.scheme().name().to_owned()),
                        ("iteration", iteration.to_string()),
                        ("reason", reason.code().to_owned()),
                    ]);
                    Some(Message { code: format!("degenerate-{}", reason.code()), args, warning: true })
                }
                _ => None,
            })
            .collect()
    }
}

/// The two ranges widened about their centres to the larger of their widths.
fn square(x: (f64, f64), y: (f64, f64)) -> ((f64, f64), (f64, f64)) {
    let width = (x.1 - x.0).max(y.1 - y.0);
    let widen = |(lo, hi): (f64, f64)| {
        let mid = 0.5 * (lo + hi);
        (mid - 0.5 * width, mid + 0.5 * width)
    };
    (widen(x), widen(y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn both_fixed_point_and_em_climb_to_the_surface_maximum() {
        let panel = Live::<EvidencePanel>::try_default().unwrap();
        let view = panel.panel();
        let both = *view.runs()[2].current();
        let em = *view.runs()[3].current();
        assert!((both.alpha.ln() - em.alpha.ln()).abs() < 1e-3, "{both:?} vs {em:?}");
        assert!((both.beta.ln() - em.beta.ln()).abs() < 1e-3, "{both:?} vs {em:?}");
        // The grid's best cell is within a cell of the maximum the schemes found.
        let max = view.grid().argmax;
        let cell_a = (view.grid().surface.x_range.1 - view.grid().surface.x_range.0) / CELLS as f64;
        let cell_b = (view.grid().surface.y_range.1 - view.grid().surface.y_range.0) / CELLS as f64;
        assert!((max.ln_alpha - both.alpha.ln()).abs() <= cell_a, "{max:?}");
        assert!((max.ln_beta - both.beta.ln()).abs() <= cell_b, "{max:?}");
        assert!(both.log_evidence >= max.log_evidence - 1e-9);
    }

    #[test]
    fn a_start_that_sends_a_scheme_far_away_still_draws() {
        // From ln α = −5.5, ln β = −2.5 (β far too small), α-only re-estimation runs off
        // to enormous α; the window stays bounded and the panel computes.
        let mut panel = Live::<EvidencePanel>::try_default().unwrap();
        panel.set("start", "-5.5:-2.5").unwrap();
        let grid = panel.panel().grid();
        assert!(grid.surface.x_range.1 <= WINDOW_LIMIT && grid.surface.y_range.0 >= -WINDOW_LIMIT);
    }

    #[test]
    fn a_press_moves_the_start_and_the_url_keeps_it() {
        let mut panel = Live::<EvidencePanel>::try_default().unwrap();
        assert!(panel.press(2.0, -1.0).unwrap());
        assert_eq!(panel.value("start").as_deref(), Some("2:-1"));
        let first = panel.panel().runs()[0].path()[0];
        assert!((first.alpha - 2f64.exp()).abs() < 1e-12);
        let mut copy = Live::<EvidencePanel>::try_default().unwrap();
        assert!(copy.apply_query(&panel.query()).is_empty());
        assert_eq!(copy.value("start"), panel.value("start"));
    }
}
