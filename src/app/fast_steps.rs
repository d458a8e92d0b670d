//! What the step-by-step panels of the fast RVM show of its run (regression and
//! classification): L against step, λ(α) of the basis function the step acted on, the event
//! log, the table comparing it with the methods run in the background, and the colours of
//! the three actions. Each reads the run's events up to the step shown.

use plotters::prelude::*;

use super::background::Outcome;
use super::replay::Checkpointed;
use super::report::{Cell, Message, Sentence, Table, Word};
use super::scene::LambdaCurve;
use crate::error::Result;
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::lambda::LambdaChart;
use crate::plot::{Chart, Labels, LegendEntry, Mark, dashed, drawing_error, line, palette, px};
use crate::rvm::sparsity::SparsityQuality;
use crate::rvm::{Action, Event};
use crate::solver::Solver;

/// What the page says of the fast run's recording: that a step failed after the first slice
/// (the steps before it stay), or that the run ended unconverged after `max_steps`.
pub fn run_messages<S: Solver + Clone>(run: &Checkpointed<S>, max_steps: usize) -> Vec<Message> {
    let mut messages = vec![];
    if let Some(error) = run.failure() {
        let step = run.end().iterations().to_string();
        messages.push(Message::warning("fast-run-failed", [("step", step), ("reason", error.to_string())]));
    }
    if run.end().status().termination().is_some_and(|t| !t.converged()) {
        messages.push(Message::warning("not-converged", [("steps", max_steps.to_string())]));
    }
    messages
}

/// The step shown in words (`summary.<key>`, or `summary.<key>-other` for a step on no
/// basis function: the noise, convergence): the step and the run's length, the action, the
/// basis function and its α after the step, the relevance vectors, L and its change; then
/// `more`.
pub fn step_summary<const N: usize>(
    key: (&'static str, &'static str),
    events: &[Event],
    shown: usize,
    more: [(&'static str, Word); N],
) -> Sentence {
    let event = &events[shown];
    let mut args = vec![
        ("step", Word::from(shown)),
        ("steps", Word::from(events.len() - 1)),
        ("action", Word::Key(format!("cell.{}", event.action.name()))),
        ("rv", Word::from(event.active)),
        ("L", Word::from(event.log_ml)),
        ("dL", Word::from(event.delta_l)),
    ];
    if let Some(m) = event.basis {
        args.extend([("m", Word::from(m)), ("alpha", Word::from(event.alpha_new.unwrap_or(f64::INFINITY)))]);
    }
    args.extend(more);
    Sentence { key: if event.basis.is_some() { key.0 } else { key.1 }, args }
}

/// Rows of the event log beside the chart (the results' CSV holds it whole:
/// [`super::Panel::event_log`]).
pub const LOG_ROWS: usize = 10;

/// Colours of the three actions on a basis function (Okabe–Ito, apart from the data's
/// blue, the mean's vermilion and the truth's green): add, re-estimate, delete.
pub const ADD: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
/// Re-estimation.
pub const REESTIMATE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
/// Deletion.
pub const DELETE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);

/// The colour of an action on a basis function.
pub fn action_colour(action: Action) -> Option<RGBColor> {
    match action {
        Action::Add => Some(ADD),
        Action::Reestimate => Some(REESTIMATE),
        Action::Delete => Some(DELETE),
        Action::Noise | Action::Converged => None,
    }
}

/// The fitted curve's share of a step-by-step panel beside L and λ(α), in percent of the
/// width (or, stacked on a narrow page, of the height): [`crate::plot::main_and_side`].
pub const FIT_SHARE: (u32, u32) = (62, 45);

/// The legend of [`draw_candidate`]: the three actions, an addition solid and the others
/// dashed.
pub const ACTION_LEGEND: [LegendEntry; 3] = [
    LegendEntry { key: "action-add", colour: "#56b4e9", mark: Mark::Line },
    LegendEntry { key: "action-re-estimate", colour: "#e69f00", mark: Mark::Dashed },
    LegendEntry { key: "action-delete", colour: "#cc79a7", mark: Mark::Dashed },
];

/// The basis function the step `event` acted on, `curve(m, height)` at 0.8 of the chart's
/// top `y_range.1`, in its action's colour — solid when added, dashed when re-estimated or
/// deleted — and named ("add φ12") at the chart's top left; a step on no basis function is
/// named there too, in ink: the noise's with the new β ("re-estimate β = 192.3"), the last
/// one "converged". So every kind of step says on the chart what it did.
///
/// # Errors
/// [`crate::Error::Drawing`] if the backend fails.
pub fn draw_candidate<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    event: &Event,
    curve: &dyn Fn(usize, f64) -> Vec<(f64, f64)>,
    (x_range, y_range): ((f64, f64), (f64, f64)),
    scale: f64,
    labels: &Labels,
) -> Result<()> {
    let name = labels.text(&format!("action.{}", event.action.name()), event.action.name());
    let (text, colour) = match (event.basis, action_colour(event.action)) {
        (Some(m), Some(colour)) => {
            let style = colour.stroke_width(px(3.0, scale));
            let points = curve(m, 0.8 * y_range.1);
            if event.action == Action::Add {
                line(chart, &points, style)?;
            } else {
                dashed(chart, &points, style, scale)?;
            }
            (format!("{name} φ{m}"), colour)
        }
        _ => match event.beta.filter(|_| event.action == Action::Noise) {
            Some(beta) => (format!("{name} = {}", crate::plot::short(beta)), palette::INK),
            None => (name.to_owned(), palette::INK),
        },
    };
    let font = (FontFamily::SansSerif, px(15.0, scale)).into_font().style(FontStyle::Bold).color(&colour);
    let at = (x_range.0 + 0.02 * (x_range.1 - x_range.0), y_range.1 - 0.04 * (y_range.1 - y_range.0));
    chart.draw_series(std::iter::once(Text::new(text, at, font))).map_err(drawing_error)?;
    Ok(())
}

/// L against step: the whole run faint, the part up to step `shown` in colour; `y_name` is
/// the label key and English name of L.
pub fn likelihood_chart(events: &[Event], shown: usize, y_name: (&'static str, &'static str)) -> LineChart {
    let all: Vec<(f64, f64)> = events.iter().map(|e| (e.step as f64, e.log_ml)).collect();
    let up_to = all[..=shown].to_vec();
    let x_range = (0.0, ((all.len() - 1) as f64).max(1.0));
    // From step 2 (or a tenth of the run) on: the first steps climb hundreds of nats,
    // the rest a few; the early part leaves through the bottom.
    let from = (all.len() / 10).max(2).min(all.len() - 1);
    let last = all[all.len() - 1].1;
    LineChart {
        x_range,
        y_range: widen(all[from..].iter().map(|p| p.1), (last - 1.0, last + 1.0), 0.05),
        x_name: ("step", "step"),
        y_name,
        title: Some(("marginal-likelihood", "marginal likelihood")),
        curves: vec![
            Curve::solid(all, palette::SAMPLE, 1.0).named("whole-run"),
            Curve::solid(up_to, palette::MEAN, 2.0).named("to-step"),
        ],
        points: vec![],
        marker: Some(shown as f64),
    }
}

/// λ(α) of the basis function of the latest step up to `shown` that acted on one (PRML
/// 7.97), with its α before the step marked (∞ for an addition); the maximum is its α
/// after.
pub fn lambda_chart(events: &[Event], shown: usize) -> Option<LambdaChart> {
    let event = events[..=shown].iter().rev().find(|e| e.basis.is_some())?;
    let sq = SparsityQuality::new(event.s?, event.q?).ok()?;
    let curve = LambdaCurve {
        current: Some(event.alpha_old.unwrap_or(f64::INFINITY)),
        title: Some(("lambda-of-step", "this step's basis")),
        ..LambdaCurve::new(sq)
    };
    curve.chart().ok()
}

/// The last `rows` events up to step `shown` (the report's [`LOG_ROWS`], or all), newest first.
pub fn events_table(events: &[Event], shown: usize, rows: usize) -> Table {
    let first = (shown + 1).saturating_sub(rows);
    let rows = events[first..=shown]
        .iter()
        .rev()
        .map(|e| {
            let alpha = |a: Option<f64>| if e.basis.is_some() { alpha_cell(a) } else { Cell::Label("none") };
            vec![
                Cell::Number(e.step as f64),
                Cell::Label(e.action.name()),
                e.basis.map_or(Cell::Label("none"), |m| Cell::Number(m as f64)),
                e.theta.map_or(Cell::Label("none"), Cell::Number),
                alpha(e.alpha_old),
                alpha(e.alpha_new),
                Cell::Number(e.delta_l),
                Cell::Number(e.log_ml),
            ]
        })
        .collect();
    Table {
        key: "events",
        columns: vec!["step", "action", "basis", "theta", "alpha-old", "alpha-new", "delta-l", "log-ml"],
        rows,
    }
}

/// The table `key` comparing methods: the fast run (its events, run to the end in
/// `elapsed_ms`) and the comparisons, each named, that have a row (here or from a worker:
/// the same numbers either way).
pub fn methods_table(
    key: &'static str,
    events: &[Event],
    elapsed_ms: f64,
    comparisons: &[(&'static str, Outcome)],
) -> Table {
    let last = &events[events.len() - 1];
    let converged = if last.action == Action::Converged { "yes" } else { "no" };
    let fast = row("fast", events.len() - 1, elapsed_ms, last.log_ml, last.active, converged);
    let others = comparisons.iter().filter_map(|(name, outcome)| {
        let r = outcome.row?;
        Some(row(name, r.steps, r.elapsed_ms, r.log_ml, r.relevant, r.verdict.label()))
    });
    Table {
        key,
        columns: vec!["method", "steps", "time-ms", "log-ml", "relevance-vectors", "converged"],
        rows: std::iter::once(fast).chain(others).collect(),
    }
}

/// One method's row: name, steps, time, L, relevance vectors, converged (yes, stalled, no,
/// running). A time the module could not measure (no clock installed: NaN) is "not timed",
/// never a NaN shown as a number.
fn row(name: &'static str, steps: usize, ms: f64, log_ml: f64, relevant: usize, state: &'static str) -> Vec<Cell> {
    vec![
        Cell::Label(name),
        Cell::Number(steps as f64),
        if ms.is_finite() { Cell::Number(ms) } else { Cell::Label("not-timed") },
        Cell::Number(log_ml),
        Cell::Number(relevant as f64),
        Cell::Label(state),
    ]
}

/// A number cell, or ∞ for `None` (an inactive α).
fn alpha_cell(alpha: Option<f64>) -> Cell {
    alpha.map_or(Cell::Label("infinity"), Cell::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_the_module_could_not_measure_is_not_timed_never_nan() {
        let timed = row("fast", 3, 1.5, -2.0, 4, "yes");
        assert_eq!(timed[2], Cell::Number(1.5));
        let untimed = row("fast", 3, f64::NAN, -2.0, 4, "yes");
        assert_eq!(untimed[2], Cell::Label("not-timed"));
        let table = Table { key: "methods", columns: vec!["method", "steps", "time-ms"], rows: vec![untimed] };
        let report = crate::app::Report { tables: vec![table], ..Default::default() };
        assert!(crate::app::report::ensure_shown_finite(&report, &[]).is_ok());
    }
}
