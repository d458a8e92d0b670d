//! The "Fast RVM live" panel (F8, F9; seed 000 steps 1–8, seed 002 eq 7.93–7.107): the fast
//! sequential RVM on the kernel basis of the data, one step at a time — the data, the
//! predictive mean and band, the active basis functions with their centres circled, the
//! basis function the step acted on in the colour of its action, L against step, the λ
//! curve of that basis function, and the event log. The classic and EM methods run to
//! convergence in the background for comparison.

use std::sync::Arc;

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::clock::now_ms;
use super::groups::{DataParams, ParamGroup, X_RANGE, assign_in, value_in};
use super::groups::{PointSink, restarting_point_sink};
use super::params::{Control, ParamSpec, parse_choice, parse_integer, parse_real, parse_toggle};
use super::replay::{Replay, action_colour};
use super::{Cell, Message, Panel, Readout, Settings, Table, View};
use crate::basis::{evenly_spaced, kernel_centre, kernel_column, kernel_design};
use crate::data::Dataset;
use crate::error::{Error, Result, ensure_positive};
use crate::plot::fit::widen;
use crate::plot::lambda::LambdaChart;
use crate::plot::predictive::PredictiveScene;
use crate::plot::{Axes, Labels, LegendEntry, Mark, PlotArea, area_of, axes, drawing_error, line, palette, px};
use crate::rvm::classic::ClassicSettings;
use crate::rvm::sparsity::SparsityQuality;
use crate::rvm::{Action, ClassicRvm, Event, FastRvm, FastSettings, Problem, Rule, Selection, predict};

/// Most data points: the fast method is meant to stay live at N = 2000.
const MAX_N: usize = 2000;
/// Classic and EM sweeps cost O(M³): they are compared up to this N.
const COMPARE_MAX_N: usize = 200;
/// Sweeps EM may take (it creeps: a dying weight's α grows by about s per sweep).
const EM_SWEEPS: usize = 5_000;
/// Sweeps the classic method may take.
const CLASSIC_SWEEPS: usize = 5_000;
/// Most steps of a fast run.
const MAX_STEPS: usize = 5_000;
/// Points of the curves along x.
const GRID: usize = 240;
/// Colour of the active basis functions, each scaled by its weight.
const ACTIVE: RGBColor = RGBColor(0x99, 0x99, 0x99);

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "step",
        symbol: "k",
        control: Control::Steps { min: 0, max: MAX_STEPS as u64, presets: &[0, 1, 5, 10, 20] },
    },
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.005, max: 1.0, log: true } },
    ParamSpec { key: "selection", symbol: "selection", control: Control::Choice { options: &Selection::NAMES } },
    ParamSpec { key: "align", symbol: "align", control: Control::Toggle },
    ParamSpec { key: "estimate-beta", symbol: "estimate β", control: Control::Toggle },
];

/// The data, the kernel, the options of the run, and the step shown.
#[derive(Debug, Clone, PartialEq)]
pub struct FastRvmSettings {
    /// The noisy sinusoid (PRML Fig 7.9) and any clicked points.
    pub data: DataParams,
    /// Kernel width s of exp(−(x − xₙ)²/2s²).
    pub width: f64,
    /// How the next basis function is chosen.
    pub selection: Selection,
    /// Refuse candidates nearly parallel to an active basis function.
    pub alignment_test: bool,
    /// Re-estimate β; otherwise β = 1/σ² of the data's noise.
    pub estimate_noise: bool,
    /// The step shown.
    pub k: usize,
    /// The basis function drawn highlighted, with its λ(α) beside (a lesson's "look at
    /// φ₁₇"); `highlight=m` in the URL, column m of Φ (0 the bias).
    pub highlight: Option<usize>,
}

impl Default for FastRvmSettings {
    fn default() -> Self {
        Self {
            data: DataParams::new(50, 0.2, 1).with_max_n(MAX_N),
            width: 0.1,
            selection: Selection::Greedy,
            alignment_test: true,
            estimate_noise: true,
            k: 0,
            highlight: None,
        }
    }
}

impl Settings for FastRvmSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let mut params = PARAMS.to_vec();
        for mut spec in self.data.params() {
            if spec.key == "N" {
                spec.control = Control::Integer { min: 1, max: MAX_N as u64 };
            }
            params.push(spec);
        }
        params
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "step" => self.k = parse_integer("k", text, 0, MAX_STEPS as u64)? as usize,
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            "selection" => self.selection = Selection::from_name(parse_choice("selection", text, &Selection::NAMES)?)?,
            "align" => self.alignment_test = parse_toggle("align", text)?,
            "estimate-beta" => self.estimate_noise = parse_toggle("estimate β", text)?,
            HIGHLIGHT => self.highlight = parse_highlight(text)?,
            _ => {
                assign_in(&mut [&mut self.data], key, text)?;
                // New data: the run starts again.
                self.k = 0;
            }
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "step" => self.k.to_string(),
            "s" => self.width.to_string(),
            "selection" => self.selection.name().to_owned(),
            "align" => u8::from(self.alignment_test).to_string(),
            "estimate-beta" => u8::from(self.estimate_noise).to_string(),
            HIGHLIGHT => self.highlight?.to_string(),
            _ => return value_in(&[&self.data], key),
        })
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        let mut keys = self.data.hidden_keys();
        keys.extend(self.highlight.map(|_| HIGHLIGHT));
        keys
    }
}

restarting_point_sink!(FastRvmSettings);

/// Key of the highlighted basis function in the URL (no control of its own: lessons set it).
const HIGHLIGHT: &str = "highlight";

/// `m` (a column of Φ), or nothing for an empty text or `none`.
///
/// # Errors
/// [`Error::OutOfRange`] for anything else or a column beyond the largest data set.
fn parse_highlight(text: &str) -> Result<Option<usize>> {
    match text.trim() {
        "" | "none" => Ok(None),
        m => Ok(Some(parse_integer("φ", m, 0, MAX_N as u64)? as usize)),
    }
}

/// One of the background comparison runs (classic or EM) and the time it has taken.
#[derive(Debug, Clone)]
struct Comparison {
    run: ClassicRvm,
    elapsed_ms: f64,
    max_sweeps: usize,
}

impl Comparison {
    fn done(&self) -> bool {
        self.run.is_converged() || self.run.sweeps() >= self.max_sweeps
    }
}

/// The whole fast run, the step shown, and the comparison runs.
#[derive(Debug, Clone)]
pub struct FastRvmView {
    data: Dataset,
    width: f64,
    noise: f64,
    /// The fast run to its end, and the step shown.
    replay: Replay<FastRvm>,
    /// The settings computed from, less what the view follows in place ([`source`]).
    source: FastRvmSettings,
    /// Classic and EM, when N ≤ [`COMPARE_MAX_N`]; failed ones are dropped.
    comparisons: Vec<Comparison>,
    /// The reason classic or EM could not run, if one could not.
    comparison_error: Option<Error>,
    /// The basis function drawn highlighted, a column of Φ.
    highlight: Option<usize>,
}

impl FastRvmView {
    /// The run at the step shown.
    pub fn current(&self) -> &FastRvm {
        self.replay.current()
    }

    /// Every event of the run to its end.
    pub fn events(&self) -> &[Event] {
        self.replay.events()
    }

    /// Column m of the design as a function of x.
    fn column(&self, m: usize, x: f64) -> f64 {
        kernel_column(&self.data.x, self.width, true, m, x)
    }

    fn points(&self) -> Vec<(f64, f64)> {
        self.data.x.iter().copied().zip(self.data.t.iter().copied()).collect()
    }

    /// The predictive mean and band of the model at the step shown (PRML 7.90–7.91).
    fn scene(&self) -> PredictiveScene {
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID);
        let run = self.current();
        let (mean, std_dev) = grid
            .iter()
            .map(|&x| {
                let phi = DVector::from_iterator(run.active().len(), run.active().iter().map(|&m| self.column(m, x)));
                let (mean, variance) = predict(run.mean(), run.covariance(), run.beta(), &phi);
                (mean, variance.sqrt())
            })
            .unzip();
        PredictiveScene {
            x_range: X_RANGE,
            y_range: widen(self.data.t.iter().copied(), (-1.5, 1.5), 0.1),
            points: self.points(),
            truth: grid.iter().map(|&x| (x, crate::data::Sinusoid::truth(x))).collect(),
            grid,
            mean,
            std_dev,
            samples: vec![],
        }
    }

    /// The data chart: the predictive scene, each active basis function times its weight,
    /// the relevance vectors circled, and the basis function of this step in its action's
    /// colour and dash, named in a label.
    fn draw_data<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        let scene = self.scene();
        let spec = Axes::named(scene.x_range, scene.y_range, (("x", "x"), ("t", "t"), None), labels);
        let mut chart = axes(area, &spec, scale)?;
        crate::plot::predictive::draw_scene(&mut chart, &scene, scale)?;
        let run = self.current();
        let curve = |m: usize, weight: f64| -> Vec<(f64, f64)> {
            scene.grid.iter().map(|&x| (x, weight * self.column(m, x))).collect()
        };
        for (&m, &w) in run.active().iter().zip(run.mean().iter()) {
            line(&mut chart, &curve(m, w), ACTIVE.stroke_width(px(1.0, scale)))?;
        }
        let centres: Vec<(f64, f64)> = run
            .active()
            .iter()
            .filter_map(|&m| kernel_centre(&self.data.x, true, m).map(|c| (c, self.data.t[m - 1])))
            .collect();
        chart
            .draw_series(
                centres.iter().map(|&p| Circle::new(p, px(7.0, scale), palette::INK.stroke_width(px(1.5, scale)))),
            )
            .map_err(drawing_error)?;
        self.draw_candidate(&mut chart, &curve, scene.y_range, scale, labels)?;
        if let Some(m) = self.highlight {
            self.draw_highlight(&mut chart, m, &curve(m, 0.8 * scene.y_range.1), scale)?;
        }
        Ok(area_of(&chart))
    }

    /// The highlighted basis function φₘ at the candidate's height, thick and dashed in ink,
    /// named at its peak, its data point ringed (none for the bias, m = 0).
    fn draw_highlight<DB: DrawingBackend>(
        &self,
        chart: &mut crate::plot::Chart<'_, DB>,
        m: usize,
        curve: &[(f64, f64)],
        scale: f64,
    ) -> Result<()> {
        crate::plot::dashed(chart, curve, palette::INK.stroke_width(px(2.5, scale)), scale)?;
        let peak = curve.iter().copied().fold((X_RANGE.0, f64::NEG_INFINITY), |a, p| if p.1 > a.1 { p } else { a });
        let font = (FontFamily::SansSerif, px(15.0, scale)).into_font().style(FontStyle::Bold).color(&palette::INK);
        let font = font.pos(Pos::new(HPos::Center, VPos::Bottom));
        chart.draw_series(std::iter::once(Text::new(format!("φ{m}"), peak, font))).map_err(drawing_error)?;
        if let Some(centre) = kernel_centre(&self.data.x, true, m) {
            let ring =
                Circle::new((centre, self.data.t[m - 1]), px(11.0, scale), palette::INK.stroke_width(px(2.5, scale)));
            chart.draw_series(std::iter::once(ring)).map_err(drawing_error)?;
        }
        Ok(())
    }

    /// λ(α) of the highlighted φₘ at the step shown (PRML 7.97), its current α marked (∞
    /// while it is out of the model).
    fn highlight_lambda(&self, m: usize) -> Option<LambdaChart> {
        let run = self.current();
        let (s, q) = run.sparsity_quality(m);
        let alpha = run.active().iter().position(|&a| a == m).map_or(f64::INFINITY, |i| run.alpha()[i]);
        Some(LambdaChart {
            current: Some(alpha),
            title: Some(("lambda-of-highlight", "highlighted basis")),
            ..LambdaChart::new(SparsityQuality::new(s, q).ok()?)
        })
    }

    /// The basis function the step shown acted on, scaled to the plot's height.
    fn draw_candidate<DB: DrawingBackend>(
        &self,
        chart: &mut crate::plot::Chart<'_, DB>,
        curve: &dyn Fn(usize, f64) -> Vec<(f64, f64)>,
        clip: (f64, f64),
        scale: f64,
        labels: &Labels,
    ) -> Result<()> {
        let event = self.replay.event();
        let (Some(m), Some(colour)) = (event.basis, action_colour(event.action)) else { return Ok(()) };
        let height = 0.8 * clip.1;
        let style = colour.stroke_width(px(3.0, scale));
        if event.action == Action::Add {
            line(chart, &curve(m, height), style)?;
        } else {
            crate::plot::dashed(chart, &curve(m, height), style, scale)?;
        }
        let name = labels.text(&format!("action.{}", event.action.name()), event.action.name());
        let text = format!("{name} φ{m}");
        let font = (FontFamily::SansSerif, px(15.0, scale)).into_font().style(FontStyle::Bold).color(&colour);
        let at = (X_RANGE.0 + 0.02 * (X_RANGE.1 - X_RANGE.0), clip.1 - 0.04 * (clip.1 - clip.0));
        chart.draw_series(std::iter::once(Text::new(text, at, font))).map_err(drawing_error)?;
        Ok(())
    }

    /// Runs the comparison methods for at most `budget` sweeps in all.
    fn compare(&mut self, budget: usize) -> bool {
        let mut left = budget.max(1);
        for comparison in &mut self.comparisons {
            let start = now_ms();
            while left > 0 && !comparison.done() {
                left -= 1;
                if let Err(error) = comparison.run.sweep() {
                    self.comparison_error = Some(error);
                    comparison.max_sweeps = comparison.run.sweeps();
                }
            }
            comparison.elapsed_ms += now_ms() - start;
        }
        self.comparisons.iter().any(|c| !c.done())
    }
}

/// `settings` less what the view follows without recomputing: the step shown and the
/// highlighted basis function.
fn source(settings: &FastRvmSettings) -> FastRvmSettings {
    FastRvmSettings { k: 0, highlight: None, ..settings.clone() }
}

/// [`Error::OutOfRange`] unless column `m` of Φ exists for `n` data points (0 ≤ m ≤ n).
fn check_highlight(m: Option<usize>, n: usize) -> Result<Option<usize>> {
    match m {
        Some(m) if m > n => Err(Error::OutOfRange {
            name: "φ",
            value: m.to_string(),
            bound: crate::error::Bound::WholeBetween { min: 0, max: n as u64 },
        }),
        m => Ok(m),
    }
}

impl View for FastRvmView {
    type Settings = FastRvmSettings;

    fn compute(settings: &FastRvmSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let highlight = check_highlight(settings.highlight, data.x.len())?;
        let design = kernel_design(&data.x, settings.width, true)?;
        let problem = Arc::new(Problem::new(design, DVector::from_column_slice(&data.t))?);
        let beta = (!settings.estimate_noise).then(|| 1.0 / settings.data.noise.max(1e-3).powi(2));
        let options = FastSettings {
            selection: settings.selection,
            alignment_test: settings.alignment_test,
            estimate_noise: settings.estimate_noise,
            beta,
            seed: settings.data.seed,
            max_steps: MAX_STEPS,
        };
        let replay = Replay::record(FastRvm::new(problem.clone(), options)?, MAX_STEPS, settings.k)?;
        let (mut comparisons, mut comparison_error) = (vec![], None);
        if data.x.len() <= COMPARE_MAX_N {
            for (rule, max_sweeps) in [(Rule::MacKay, CLASSIC_SWEEPS), (Rule::Em, EM_SWEEPS)] {
                let classic = ClassicSettings {
                    beta,
                    estimate_noise: settings.estimate_noise,
                    max_sweeps,
                    ..ClassicSettings::with_rule(rule)
                };
                match ClassicRvm::new(problem.clone(), classic) {
                    Ok(run) => comparisons.push(Comparison { run, elapsed_ms: 0.0, max_sweeps }),
                    Err(error) => comparison_error = Some(error),
                }
            }
        }
        Ok(Self {
            noise: settings.data.noise,
            data,
            width: settings.width,
            replay,
            comparisons,
            comparison_error,
            source: source(settings),
            highlight,
        })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let narrow = crate::plot::is_narrow(root, scale);
        let (main, side) = if narrow {
            let (_, h) = root.dim_in_pixel();
            root.split_vertically(h * 45 / 100)
        } else {
            let (w, _) = root.dim_in_pixel();
            root.split_horizontally(w * 62 / 100)
        };
        let area = self.draw_data(&main, scale, labels)?;
        let (upper, lower) = side.split_vertically(side.dim_in_pixel().1 / 2);
        self.replay.likelihood_chart(("log-ml", "ln p(t|α,β)")).draw(&upper, scale, labels)?;
        let lambda = self.highlight.map_or_else(|| self.replay.lambda_chart(), |m| self.highlight_lambda(m));
        if let Some(chart) = lambda {
            chart.draw(&lower, scale, labels)?;
        }
        Ok(area)
    }

    const ASPECT: (f64, f64) = (0.55, 2.0);

    fn data_points(settings: &mut FastRvmSettings) -> Option<&mut dyn PointSink> {
        Some(settings)
    }

    fn legend(&self) -> Vec<LegendEntry> {
        let mut legend =
            crate::plot::predictive::LEGEND.iter().filter(|e| e.key != "samples").cloned().collect::<Vec<_>>();
        legend.extend([
            LegendEntry { key: "relevance-vectors", colour: "#222222", mark: Mark::Dot },
            LegendEntry { key: "active-bases", colour: "#999999", mark: Mark::Line },
            LegendEntry { key: "action-add", colour: "#56b4e9", mark: Mark::Line },
            LegendEntry { key: "action-re-estimate", colour: "#e69f00", mark: Mark::Dashed },
            LegendEntry { key: "action-delete", colour: "#cc79a7", mark: Mark::Dashed },
        ]);
        if self.highlight.is_some() {
            legend.push(LegendEntry { key: "highlight", colour: "#222222", mark: Mark::Dashed });
        }
        legend
    }

    fn readouts(&self) -> Vec<Readout> {
        let run = self.current();
        vec![
            Readout { key: "step", value: self.replay.shown() as f64 },
            Readout { key: "relevance-vectors", value: run.active().len() as f64 },
            Readout { key: "log-ml", value: run.log_ml() },
            Readout { key: "noise-precision", value: run.beta() },
            Readout { key: "noise-sd", value: run.beta().powf(-0.5) },
            Readout { key: "true-noise-sd", value: self.noise },
            Readout { key: "steps-to-converge", value: self.replay.total() as f64 },
        ]
    }

    fn tables(&self) -> Vec<Table> {
        let fast = self.replay.method_row("fast");
        let others = self.comparisons.iter().map(|c| {
            let name = if c.run.settings().rule == Rule::MacKay { "classic" } else { "em" };
            let state = if c.run.is_converged() {
                "yes"
            } else if c.done() {
                "no"
            } else {
                "running"
            };
            vec![
                Cell::Label(name),
                Cell::Number(c.run.sweeps() as f64),
                Cell::Number(c.elapsed_ms),
                Cell::Number(c.run.log_ml()),
                Cell::Number(c.run.active().len() as f64),
                Cell::Label(state),
            ]
        });
        let methods = Table {
            key: "methods",
            columns: vec!["method", "steps", "time-ms", "log-ml", "relevance-vectors", "converged"],
            rows: std::iter::once(fast).chain(others).collect(),
        };
        vec![self.replay.events_table(), methods]
    }

    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        if self.data.x.len() > COMPARE_MAX_N {
            messages.push(Message::info("comparison-skipped", [("max", COMPARE_MAX_N.to_string())]));
        }
        if let Some(error) = &self.comparison_error {
            messages.push(Message::warning("comparison-failed", [("reason", error.to_string())]));
        }
        if !self.replay.converged() {
            messages.push(Message::warning("not-converged", [("steps", MAX_STEPS.to_string())]));
        }
        messages
    }

    fn is_animated(&self) -> bool {
        true
    }

    /// Two steps a second: slow enough to read each step's label and log line.
    const PLAY_SPEED: u8 = 1;

    super::replay::replay_player!();

    /// Another step or another highlighted basis function: the run stays.
    fn follow(&mut self, settings: &Self::Settings) -> bool {
        if source(settings) != self.source {
            return false;
        }
        let Ok(highlight) = check_highlight(settings.highlight, self.data.x.len()) else { return false };
        self.replay.show(settings.k);
        self.highlight = highlight;
        true
    }

    fn work(&mut self, budget: usize) -> bool {
        self.compare(budget)
    }

    fn work_progress(&self) -> Option<(usize, usize)> {
        if self.comparisons.is_empty() {
            return None;
        }
        let done = self.comparisons.iter().map(|c| if c.done() { c.max_sweeps } else { c.run.sweeps() }).sum();
        Some((done, self.comparisons.iter().map(|c| c.max_sweeps).sum()))
    }
}

/// The panel.
pub type FastRvmPanel = Panel<FastRvmView>;
