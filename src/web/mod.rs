//! The wasm-bindgen face of the lab: one opaque handle, [`Lab`], around any panel
//! ([`crate::app::PanelModel`]), and (in the bench module, the feature `bench`) the
//! benchmarks of www/bench.html around the core's [`crate::problems`]. With
//! `formula_module` (the formula module's face) this is the only module that names
//! `wasm_bindgen`, `web_sys` or `js_sys`; it converts and forwards, and holds no mathematics.
//!
//! Errors become JS `Error`s whose `message` is the English text and whose `code` and
//! `args` let the page show the message in the reader's language.

use std::sync::atomic::{AtomicBool, Ordering};

use plotters::prelude::IntoDrawingArea;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::app::background::{Outcome, decode_outcomes, encode_outcomes};
use crate::app::editing::{Editor, PointEdit};
use crate::app::lesson::LessonAction;
use crate::app::{Notice, PanelModel, open_panel_at};
use crate::backend::PageBackend;
use crate::basis::FormulaModule;
use crate::error::{Error, FormulaProblem};
use crate::palette::Look;
use crate::parts::{self, Part};
use crate::plot::{Labels, Mark, PlotArea};
use crate::solver::Budget;

// The benchmarks of www/bench.html are in the bench module only (the same crate built with the
// feature `bench`, www/pkg/bench_bg.wasm): 7 KB gzipped the page's readers do not download.
#[cfg(feature = "bench")]
mod bench;
mod to_js;
use to_js::{ToJs, set_property};

static PANICKED: AtomicBool = AtomicBool::new(false);

/// Installs the panic hook (the panic goes to the console, and [`panicked`] turns true)
/// and `performance.now()` as the panels' clock.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        PANICKED.store(true, Ordering::SeqCst);
        console_error_panic_hook::hook(info);
    }));
    crate::clock::install(performance_now);
    crate::basis::install_formula_module(FormulaModule {
        compile: formula_compile,
        fill: formula_fill,
        free: |handle| drop(formula_free_js(handle)),
        explain: formula_explain,
    });
}

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`, imported as such: budgets read the clock between pieces of work,
    /// tens of thousands of times in a multiclass run, so a reading must cost no lookups.
    #[wasm_bindgen(catch, js_namespace = performance, js_name = now)]
    fn performance_now_js() -> std::result::Result<f64, JsValue>;
}

/// `performance.now()` in milliseconds (NaN where the global has no `performance`).
fn performance_now() -> f64 {
    performance_now_js().unwrap_or(f64::NAN)
}

#[wasm_bindgen]
extern "C" {
    // The formula module's calls (src/formula_module.rs), which www/formula.js puts on
    // `globalThis.rvmLabFormula` once it has loaded that module; until then a call throws.
    #[wasm_bindgen(catch, js_namespace = rvmLabFormula, js_name = compile)]
    fn formula_compile_js(text: &str, centres: &[f64], width: f64, lo: f64, hi: f64) -> Result<u32, JsValue>;
    #[wasm_bindgen(catch, js_namespace = rvmLabFormula, js_name = fill)]
    fn formula_fill_js(handle: u32, x: &[f64], out: &mut [f64]) -> Result<(), JsValue>;
    #[wasm_bindgen(catch, js_namespace = rvmLabFormula, js_name = free)]
    fn formula_free_js(handle: u32) -> Result<(), JsValue>;
    #[wasm_bindgen(catch, js_namespace = rvmLabFormula, js_name = explain)]
    fn formula_explain_js(handle: u32, j: usize, x: f64) -> Result<String, JsValue>;
}

/// The formula module's `explain`, its lines read back; `None` if it cannot tell.
fn formula_explain(handle: u32, j: usize, x: f64) -> Option<crate::error::Fault> {
    let text = formula_explain_js(handle, j, x).ok()?;
    let mut lines = text.split('\n');
    let cause = crate::error::Cause::from_code(lines.next()?)?;
    Some(crate::error::Fault { cause, operation: lines.next()?.to_owned(), value: lines.next()?.to_owned() })
}

/// The formula module's `compile`, its error read back.
fn formula_compile(text: &str, centres: &[f64], width: f64, lo: f64, hi: f64) -> crate::Result<u32> {
    formula_compile_js(text, centres, width, lo, hi).map_err(|thrown| formula_error(&thrown))
}

/// The formula module's `fill`; NaN everywhere (which the design refuses) if it threw.
fn formula_fill(handle: u32, x: &[f64], out: &mut [f64]) {
    if formula_fill_js(handle, x, out).is_err() {
        out.fill(f64::NAN);
    }
}

/// What the formula module threw, its lines `code`, `name`, `value` … (src/formula_module.rs),
/// as the error it was; anything else (no formula module yet) is `formula-module-missing`.
fn formula_error(thrown: &JsValue) -> Error {
    let text = thrown.as_string().unwrap_or_default();
    let mut lines = text.split('\n');
    let code = lines.next().unwrap_or_default();
    let mut pairs = vec![];
    while let (Some(name), Some(value)) = (lines.next(), lines.next()) {
        pairs.push((name.to_owned(), value.to_owned()));
    }
    Error::from_formula_module(code, pairs.into_iter())
        .unwrap_or(Error::Formula { problem: FormulaProblem::module_missing(), at: None })
}

/// Whether the module has panicked; after that its state is lost and the page must say so.
#[wasm_bindgen]
pub fn panicked() -> bool {
    PANICKED.load(Ordering::SeqCst)
}

/// Panics on purpose, so that the browser tests can check the page's crash notice.
#[wasm_bindgen(js_name = crashForTests)]
pub fn crash_for_tests() {
    panic!("deliberate panic requested by crashForTests()");
}

/// Names of the panels, in menu order, for `new Lab(name)`: the list of
/// [`crate::app::PANELS`], which the page's menu and the browser tests read.
#[wasm_bindgen(js_name = panelNames)]
pub fn panel_names() -> Vec<String> {
    crate::app::names().map(str::to_owned).collect()
}

/// A JS `Error` with `message`, `code` and `args` (an object of the message's values).
fn js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    let args = js_sys::Object::new();
    for (name, value) in error.args() {
        set_property(&args, name, &JsValue::from_str(&value));
    }
    set_property(&js, "code", &JsValue::from_str(error.code()));
    set_property(&js, "args", &args);
    js.into()
}

/// A `TypeError` saying what was expected: the page's mistake, not the reader's.
fn type_error(expected: &str) -> JsValue {
    js_sys::TypeError::new(&format!("expected {expected}")).into()
}

/// `[[key, value], …]` (strings) from JS; anything else is a `TypeError`.
fn string_pairs(value: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    let not_pairs = || type_error("[[key, value], …] of strings");
    let array = value.dyn_ref::<js_sys::Array>().ok_or_else(not_pairs)?;
    array
        .iter()
        .map(|pair| {
            let pair = pair.dyn_into::<js_sys::Array>().map_err(|_| not_pairs())?;
            match (pair.get(0).as_string(), pair.get(1).as_string()) {
                (Some(key), Some(value)) => Ok((key, value)),
                _ => Err(not_pairs()),
            }
        })
        .collect()
}

/// `[[x, y], …]` (numbers) from JS; anything else is a `TypeError`.
fn number_pairs(value: &JsValue) -> Result<Vec<(f64, f64)>, JsValue> {
    let not_pairs = || type_error("[[x, y], …] of numbers");
    let array = value.dyn_ref::<js_sys::Array>().ok_or_else(not_pairs)?;
    array
        .iter()
        .map(|pair| {
            let pair = pair.dyn_into::<js_sys::Array>().map_err(|_| not_pairs())?;
            match (pair.get(0).as_f64(), pair.get(1).as_f64()) {
                (Some(x), Some(y)) => Ok((x, y)),
                _ => Err(not_pairs()),
            }
        })
        .collect()
}

fn js_result<T>(result: crate::Result<T>) -> Result<T, JsValue> {
    result.map_err(|e| js_error(&e))
}

/// A panel and where it was last drawn.
#[wasm_bindgen]
pub struct Lab {
    panel: Box<dyn PanelModel>,
    editor: Editor,
    area: Option<PlotArea>,
    labels: Labels,
    look: Look,
    /// What of the state it was opened at it could not use, until the page takes them.
    opening_notices: Vec<Notice>,
}

#[wasm_bindgen]
impl Lab {
    /// The panel called `name` (see [`panel_names`]) at the state `[[key, value], …]` (its
    /// defaults when `pairs` is absent), computed once; [`Lab::opening_notices`] says what
    /// of that state it could not use.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, pairs: JsValue) -> Result<Lab, JsValue> {
        let pairs = if pairs.is_undefined() { vec![] } else { string_pairs(&pairs)? };
        let (panel, opening_notices) = js_result(open_panel_at(name, &pairs))?;
        let (editor, area, labels, look) = (Editor::default(), None, Labels::default(), Look::Screen);
        Ok(Lab { panel, editor, area, labels, look, opening_notices })
    }

    /// The notices for the pairs it was opened at that it could not use, as `Error`s with an
    /// extra `key` (`""` when the whole state did not compute and its defaults stand); once.
    #[wasm_bindgen(js_name = openingNotices)]
    pub fn opening_notices(&mut self) -> Vec<JsValue> {
        std::mem::take(&mut self.opening_notices).iter().map(notice_to_js).collect()
    }

    /// `{name, params: [{key, symbol, control: {type, …}}], animated, playSpeed, pointAxes,
    /// chartText}`: what the page builds the panel's controls from.
    pub fn describe(&self) -> JsValue {
        self.panel.describe().to_js()
    }

    /// The current value of `key` as text, or `undefined`.
    pub fn value(&self, key: &str) -> Option<String> {
        self.panel.value(key)
    }

    /// Whether `key` matters in the current state (controls of the others are greyed out).
    #[wasm_bindgen(js_name = isActive)]
    pub fn is_active(&self, key: &str) -> bool {
        self.panel.is_active(key)
    }

    /// Sets `key` from text; on error the panel is unchanged.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), JsValue> {
        js_result(self.panel.set(key, text))
    }

    /// Back to the defaults.
    pub fn reset(&mut self) -> Result<(), JsValue> {
        self.editor.forget();
        js_result(self.panel.reset())
    }

    /// Adds the data point (x, t); on error the panel is unchanged.
    #[wasm_bindgen(js_name = addPoint)]
    pub fn add_point(&mut self, x: f64, t: f64) -> Result<(), JsValue> {
        let change = &mut |panel: &mut dyn PanelModel| panel.add_point(x, t).map(|()| true);
        js_result(self.editor.record(self.panel.as_mut(), change)).map(drop)
    }

    /// Replaces the data with the rows of CSV text; on error (naming the first bad line)
    /// the data stay.
    #[wasm_bindgen(js_name = importCsv)]
    pub fn import_csv(&mut self, text: &str) -> Result<(), JsValue> {
        let change = &mut |panel: &mut dyn PanelModel| panel.import_csv(text).map(|()| true);
        js_result(self.editor.record(self.panel.as_mut(), change)).map(drop)
    }

    /// The data as CSV text, or `undefined` for a panel without data points.
    #[wasm_bindgen(js_name = exportCsv)]
    pub fn export_csv(&self) -> Result<Option<String>, JsValue> {
        js_result(self.panel.export_csv())
    }

    /// The readouts and tables as CSV text (sections of `quantity,value` and each table),
    /// then the state ([`crate::app::panel::results_csv`]).
    #[wasm_bindgen(js_name = resultsCsv)]
    pub fn results_csv(&self) -> String {
        crate::app::panel::results_csv(self.panel.as_ref(), self.labels.hide_truth)
    }

    /// A lesson step's action ([`LessonAction`]): the points `[[x, y], …]` added, then basis
    /// function `highlight` (a number, or `null`) highlighted, then the animation run
    /// `steps` frames on. A part the panel refuses is thrown after the steps have run; the
    /// parts before it stay.
    #[wasm_bindgen(js_name = applyAction)]
    pub fn apply_action(&mut self, points: JsValue, highlight: Option<u32>, steps: u32) -> Result<(), JsValue> {
        let action = LessonAction {
            points: number_pairs(&points)?,
            highlight: highlight.map(|m| m as usize),
            steps: steps as usize,
        };
        self.editor.forget();
        js_result(action.apply(self.panel.as_mut()))
    }

    /// A press at canvas pixel (px, py) of the last drawing; `true` if the panel changed.
    /// Within `radius` canvas pixels of a data point it holds that point (a drag moves it)
    /// instead ([`Editor::press`]). Outside the plotting area nothing happens.
    #[wasm_bindgen(js_name = pressAtPixel)]
    pub fn press_at_pixel(&mut self, px: f64, py: f64, radius: Option<f64>) -> Result<bool, JsValue> {
        let Some(area) = self.area else { return Ok(false) };
        match area.to_data(px, py) {
            Some((x, y)) => js_result(self.editor.press(self.panel.as_mut(), x, y, area.reach(radius.unwrap_or(0.0)))),
            None => Ok(false),
        }
    }

    /// Removes the data point within `radius` canvas pixels of (px, py), the nearest; `true`
    /// if there was one.
    #[wasm_bindgen(js_name = removeAtPixel)]
    pub fn remove_at_pixel(&mut self, px: f64, py: f64, radius: f64) -> Result<bool, JsValue> {
        let Some(area) = self.area else { return Ok(false) };
        match area.to_data(px, py) {
            Some((x, y)) => js_result(self.editor.remove_near(self.panel.as_mut(), x, y, area.reach(radius))),
            None => Ok(false),
        }
    }

    /// Every data point as the chart plots it: `[[x, y]]` (empty without data).
    pub fn points(&self) -> JsValue {
        self.panel.points().to_js()
    }

    /// `[count, point]`: how many points [`Lab::points`] holds and its entry `index`,
    /// `[x, y]` (`undefined` past the end): what the point editor shows after every change,
    /// without sending every point (2 ms at N = 2000).
    #[wasm_bindgen(js_name = pointAt)]
    pub fn point_at(&self, index: usize) -> JsValue {
        let points = self.panel.points();
        (points.len(), points.get(index)).to_js()
    }

    /// Moves data point `index` of [`Lab::points`] to (x, y). On error nothing changes.
    #[wasm_bindgen(js_name = movePoint)]
    pub fn move_point(&mut self, index: usize, x: f64, y: f64) -> Result<(), JsValue> {
        js_result(self.editor.edit_point(self.panel.as_mut(), PointEdit::Move { index, x, y }))
    }

    /// Removes data point `index` of [`Lab::points`]. On error nothing changes.
    #[wasm_bindgen(js_name = removePoint)]
    pub fn remove_point(&mut self, index: usize) -> Result<(), JsValue> {
        js_result(self.editor.edit_point(self.panel.as_mut(), PointEdit::Remove(index)))
    }

    /// Undoes the last data edit; `false` if there was none.
    pub fn undo(&mut self) -> Result<bool, JsValue> {
        js_result(self.editor.undo(self.panel.as_mut()))
    }

    /// Redoes the last edit undone; `false` if there was none.
    pub fn redo(&mut self) -> Result<bool, JsValue> {
        js_result(self.editor.redo(self.panel.as_mut()))
    }

    /// How many data edits can be undone and redone: `[undo, redo]`.
    pub fn history(&self) -> JsValue {
        self.editor.history().to_js()
    }

    /// The pressed pointer moved to canvas pixel (px, py) (held onto the plotting area);
    /// `true` if the panel changed.
    #[wasm_bindgen(js_name = dragToPixel)]
    pub fn drag_to_pixel(&mut self, px: f64, py: f64) -> Result<bool, JsValue> {
        match self.area.and_then(|a| a.to_data_clamped(px, py)) {
            Some((x, y)) => js_result(self.editor.drag(self.panel.as_mut(), x, y)),
            None => Ok(false),
        }
    }

    /// The pointer was released.
    pub fn release(&mut self) {
        self.editor.release(self.panel.as_mut());
    }

    /// What presses and drags on the chart move, for the keyboard's way to them:
    /// `[{key, args, at: [x, y], axes: [name, name | undefined], step: [dx, dy]}]`.
    pub fn handles(&self) -> JsValue {
        self.panel.handles().to_js()
    }

    /// Moves handle `index` of [`Lab::handles`] to (x, y), as a drag there would; `true` if
    /// the panel changed. On error the panel is unchanged.
    #[wasm_bindgen(js_name = moveHandle)]
    pub fn move_handle(&mut self, index: usize, x: f64, y: f64) -> Result<bool, JsValue> {
        js_result(self.panel.move_handle(index, x, y))
    }

    /// Advances the animation by up to `steps`; `false` once it has nothing left to do.
    pub fn step(&mut self, steps: usize) -> bool {
        self.panel.step(steps)
    }

    /// One frame of the animation back; `false` if already at the first.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&mut self) -> bool {
        self.panel.step_back()
    }

    /// Back to the start of the animation.
    pub fn rewind(&mut self) {
        self.panel.rewind();
    }

    /// Continues the work left over from the last change for about `ms` milliseconds (a
    /// piece begun in time is finished); `true` while more remains. The page calls it in
    /// slices between frames.
    pub fn work(&mut self, ms: f64) -> bool {
        self.panel.work(Budget::millis(ms))
    }

    /// From now on the panel's comparisons (classic and EM beside the fast RVM, the classic
    /// sweeps beside the classifiers) are left to the page's worker (`true`), or run in
    /// [`Lab::work`]'s slices again (`false`, the default: no worker, or it failed).
    #[wasm_bindgen(js_name = runComparisonsElsewhere)]
    pub fn run_comparisons_elsewhere(&mut self, on: bool) {
        self.panel.run_comparisons_elsewhere(on);
    }

    /// The comparisons the panel has now, or undefined: `{fingerprint, numbers, failures,
    /// done, elsewhere}` — the fingerprint of their inputs (a number), their outcomes as a
    /// `Float64Array` and their failures (a line each, "" for none) as the worker sends them to
    /// [`Lab::adopt_comparisons`], whether they are all done, and whether they run elsewhere.
    pub fn comparisons(&mut self) -> JsValue {
        let Some((fingerprint, outcomes, elsewhere)) = self.panel.comparisons() else {
            return JsValue::UNDEFINED;
        };
        let done = outcomes.iter().all(Outcome::is_done);
        let (numbers, failures) = encode_outcomes(&outcomes);
        let object = js_sys::Object::new();
        set_property(&object, "fingerprint", &(fingerprint as f64).to_js());
        set_property(&object, "numbers", &js_sys::Float64Array::from(numbers.as_slice()));
        set_property(&object, "failures", &failures.to_js());
        set_property(&object, "done", &done.to_js());
        set_property(&object, "elsewhere", &elsewhere.to_js());
        object.into()
    }

    /// Takes the comparisons' outcomes computed in the worker on inputs with `fingerprint`
    /// (from its [`Lab::comparisons`]); `false` if they are not for the comparisons this
    /// panel has now (a change came meanwhile).
    ///
    /// # Errors
    /// A JS `Error` if they are not outcomes, or would show NaN or ±∞; nothing is taken.
    #[wasm_bindgen(js_name = adoptComparisons)]
    pub fn adopt_comparisons(&mut self, fingerprint: f64, numbers: &[f64], failures: &str) -> Result<bool, JsValue> {
        let outcomes = js_result(decode_outcomes(numbers, failures))?;
        // A fingerprint has 53 bits: a whole number the page holds exactly.
        js_result(self.panel.adopt_comparisons(fingerprint as u64, outcomes))
    }

    /// Where the work left over stands, `{progress: [done, total] | undefined, waiting}`:
    /// what the progress bar shows after each slice (a whole [`Lab::report`] is read only
    /// when the chart is drawn), and whether the frame asked for is still to come (once it
    /// is there the page draws it).
    #[wasm_bindgen(js_name = workProgress)]
    pub fn work_progress(&self) -> JsValue {
        let (progress, waiting) = self.panel.work_progress();
        let object = js_sys::Object::new();
        set_property(&object, "progress", &progress.to_js());
        set_property(&object, "waiting", &waiting.to_js());
        object.into()
    }

    /// Everything shown beside the chart, at once: `{readouts: [{key, value}], tables:
    /// [{key, columns: [key], rows: [[{label} | {number}]]}], messages: [{code, args,
    /// warning}], legend: [{key, colour, mark}], position: [shown, last] | undefined, work:
    /// [done, total] | undefined, summary: [{key, args: {name: number | {key}}}]}`.
    /// The legend's swatches are in the chart's look ([`Lab::set_projector`]).
    pub fn report(&self) -> JsValue {
        let report = crate::app::panel::shown_report(self.panel.report(), self.labels.hide_truth);
        let shown = report.to_js();
        let legend: js_sys::Array = report
            .legend
            .iter()
            .map(|entry| {
                let swatch = entry.to_js();
                let area = entry.mark == Mark::Area;
                set_property(&swatch, "colour", &self.look.swatch(entry.colour, area).to_js());
                swatch
            })
            .collect();
        set_property(&shown, "legend", &legend);
        shown
    }

    /// What the chart plots, as tables for the page's data-table view: `[{caption: {key,
    /// number}, headings: [{key, number}], values: Float64Array}]` (keys are string-table
    /// keys; `number` numbers a member of a family, or is undefined; the values row after
    /// row, one per heading).
    pub fn plotted(&self) -> JsValue {
        self.panel.plotted().to_js()
    }

    /// The same as CSV text, then the state ([`crate::app::panel::plotted_data_csv`]).
    #[wasm_bindgen(js_name = plottedCsv)]
    pub fn plotted_csv(&self) -> String {
        crate::app::panel::plotted_data_csv(self.panel.as_ref())
    }

    /// Draws for a projector (high-contrast colours, wider lines: [`Look::Projector`]) or,
    /// with `false`, for a screen.
    #[wasm_bindgen(js_name = setProjector)]
    pub fn set_projector(&mut self, on: bool) {
        self.look = if on { Look::Projector } else { Look::Screen };
    }

    /// The state as `[[key, value], …]` for the URL query.
    pub fn query(&self) -> JsValue {
        crate::app::panel::view_query(self.panel.as_ref()).to_js()
    }

    /// Sets the words drawn inside charts: `[[key, text], …]` (the page's `chart.*`
    /// strings in the current language).
    #[wasm_bindgen(js_name = setLabels)]
    pub fn set_labels(&mut self, labels: JsValue) -> Result<(), JsValue> {
        let hide_truth = self.labels.hide_truth;
        self.labels = string_pairs(&labels)?.into_iter().collect();
        self.labels.hide_truth = hide_truth;
        Ok(())
    }

    /// Shows the curve that generated the data (`true`, the default) or leaves it out of
    /// the charts and the legend, with the true noise from the readouts and the results
    /// (`false`: a lesson's exercise, "find the noise level"; the page then offers no data
    /// table of the chart).
    #[wasm_bindgen(js_name = showTruth)]
    pub fn show_truth(&mut self, shown: bool) {
        self.labels.hide_truth = !shown;
    }

    /// Draws onto `canvas` (its pixel size as set by the page), lengths scaled by
    /// `scale` = devicePixelRatio: the part of the drawing from chart `from` (0: all of it
    /// from the background) that fits in about `ms` milliseconds ([`crate::parts`]).
    /// Returns the chart the next part begins with, or `undefined` once the drawing is
    /// complete; `ms` = ∞ draws the rest at once.
    pub fn draw(&mut self, canvas: HtmlCanvasElement, scale: f64, from: u32, ms: f64) -> Result<Option<u32>, JsValue> {
        let backend = PageBackend::canvas(canvas, self.look)
            .ok_or_else(|| js_error(&Error::Drawing("the canvas has no 2-D context".into())))?;
        let part =
            parts::draw_part(from as usize, ms, || self.panel.draw(&backend.into_drawing_area(), scale, &self.labels));
        match js_result(part)? {
            Part::Complete(area) => {
                self.area = Some(area);
                Ok(None)
            }
            Part::Next(chart) => Ok(Some(chart as u32)),
        }
    }

    /// Computes ahead what the next drawing plots, where that is heavy, for about `ms`
    /// milliseconds (a piece begun in time is finished): the page calls it in tasks of its
    /// own before the frame that draws, until there was nothing to compute. Whether there was
    /// anything to compute.
    #[wasm_bindgen(js_name = prepareDrawing)]
    pub fn prepare_drawing(&self, ms: f64) -> bool {
        self.panel.prepare_drawing(Budget::millis(ms))
    }

    /// The chart as an SVG document of `width` × `height` pixels, lengths and text scaled
    /// by `scale` as on a canvas drawn at that scale (vector: lines, shapes and text).
    pub fn svg(&self, width: u32, height: u32, scale: f64) -> Result<String, JsValue> {
        let mut text = String::new();
        let backend = PageBackend::svg(&mut text, (width, height), self.look);
        js_result(self.panel.draw(&backend.into_drawing_area(), scale, &self.labels))?;
        Ok(text)
    }

    /// The plotting area of the last drawing in canvas pixels, or `undefined`.
    #[wasm_bindgen(js_name = plotArea)]
    pub fn plot_area(&self) -> JsValue {
        self.area.to_js()
    }
}

fn notice_to_js(notice: &Notice) -> JsValue {
    let js = js_error(&notice.error);
    set_property(&js, "key", &JsValue::from_str(&notice.key));
    js
}
