//! The panel contract: what one panel of the lab is ([`Panel`]), how it lives on the page
//! ([`Live`]), and what the page may ask of any panel ([`PanelModel`]).
//!
//! A panel is a type computed from its [`Settings`]. It draws itself, reports everything
//! shown beside the chart as one [`Report`], answers presses and drags, and — when it
//! animates — hands out its [`Player`]. [`Live`] holds a panel with the settings it was
//! computed from and does the rest once for every panel: each change is applied to a copy of
//! the settings and committed only if the panel computes, so a bad value leaves the last good
//! state; a change of a setting the panel [`Panel::FOLLOWS`] moves it in place; the URL is
//! the settings. The list of panels is [`super::registry`].

use plotters::coord::Shift;
use plotters::prelude::*;

use super::background::{Detachable, Outcome};
use super::params::{Notice, ParamSpec};
use super::plotted::{Plotted, plotted_csv};
use super::replay::Player;
use super::report::{Message, Report, Table, ensure_shown_finite, with_state};
use super::settings::{BasisParams, CENTRES_KEY, FRAME_KEY, ParamGroup, PointSink, Settings, formula_sentence};
use crate::backend::PageBackend;
use crate::basis::BasisSpec;
use crate::error::{Error, Result};
use crate::plot::{Labels, PlotArea, TRUTH_SERIES};
use crate::solver::Budget;

/// What a press on the plot grabbed, for dragging (e.g. which centre).
pub type Grab = usize;

/// Something a press or a drag on the chart moves, listed so that the keyboard and a single
/// pointer reach it too (WCAG 2.5.7): the page offers each in a menu, with its coordinates
/// in fields that arrow keys step and typing sets.
#[derive(Debug, Clone, PartialEq)]
pub struct Handle {
    /// Its name in the page's string table (`handle.<key>`) and the values it names.
    pub key: &'static str,
    /// The values of its name's placeholders (e.g. `("j", "3")` for "centre 3").
    pub args: Vec<(&'static str, String)>,
    /// Where it is, in the chart's data coordinates.
    pub at: (f64, f64),
    /// The names of its coordinates (`control.<name>`); `None` for the second when it only
    /// moves along x.
    pub axes: (&'static str, Option<&'static str>),
    /// How far an arrow key moves it along each coordinate.
    pub step: (f64, f64),
    /// The grab a press on it would make (a drag then moves it); `None` when a press at the
    /// new place is the change itself (a starting point).
    pub grab: Option<Grab>,
}

/// What the page lays a panel out by. (The chart's height / width is the stylesheet's,
/// `www/style.css`: laid out before the module arrives, it has its final size at once.)
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// The label keys of a data point's two coordinates (the add-point form's fields).
    pub point_axes: [&'static str; 2],
    /// The position of the page's speed slider when the panel opens: 0 is a step every
    /// half second, 3 a step per frame, 6 sixty-four per frame.
    pub play_speed: u8,
    /// Whether a data point's second coordinate is a count (a whole number ≥ 0, to which a
    /// placed point's is rounded): the page's point editor then steps it by 1.
    pub counts: bool,
}

impl Layout {
    /// Points (x, t) of real numbers, speed 4.
    pub const DEFAULT: Layout = Layout { point_axes: ["x", "t"], play_speed: 4, counts: false };
}

/// One panel of the lab.
pub trait Panel: Sized + 'static {
    /// Its name in `?panel=…` and in the string table (`panel.<name>`).
    const NAME: &'static str;
    /// What the user sets on it.
    type Settings: Settings;
    /// How the page lays it out.
    const LAYOUT: Layout = Layout::DEFAULT;
    /// Settings the panel takes in place ([`Panel::follow`]) rather than being computed
    /// again: the frame shown, a highlight, the class of the next point.
    const FOLLOWS: &'static [&'static str] = &[];

    /// Computes the panel from `settings`.
    ///
    /// # Errors
    /// Whatever the models refuse for these settings.
    fn compute(settings: &Self::Settings) -> Result<Self>;

    /// Takes `settings`, which differ from those the panel was computed from only in keys of
    /// [`Panel::FOLLOWS`]; `false` (with nothing changed) to be computed again instead. The
    /// frame shown is moved by [`Live`] through the player afterwards.
    fn follow(&mut self, _settings: &Self::Settings) -> bool {
        true
    }

    /// Draws onto a cleared `root`, lengths in CSS pixels times `scale`, words from
    /// `labels`; returns the interactive chart's area.
    ///
    /// # Errors
    /// [`Error::Drawing`] if the backend fails.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea>;

    /// Computes ahead what the next drawing plots, where that is heavy (a class map over a
    /// grid of 40 000 cells, a band of rows at a time), within `budget`, so that the page can
    /// do it in tasks of its own before the frame, and the frame only draws; a drawing that
    /// finds it unprepared computes what is left itself. Whether there was anything to
    /// compute (the page asks again until there is not); nothing by default.
    fn prepare_drawing(&self, _budget: &mut Budget) -> bool {
        false
    }

    /// The readouts, tables, messages and legend beside the chart. (Its `position` and
    /// `work` are filled in by [`Live`] from the player and [`Panel::work_progress`].)
    fn report(&self) -> Report;

    /// The whole log of the run's events up to the step shown, for "Save results as CSV"
    /// (the report's holds the newest [`super::fast_steps::LOG_ROWS`]); none by default.
    fn event_log(&self) -> Option<Table> {
        None
    }

    /// What the chart plots, as tables: the scenes [`Panel::draw`] draws, each tabulated
    /// by its chart type ([`super::plotted::Tabulate`]).
    fn plotted(&self) -> Vec<Plotted>;

    /// What [`Live::check`] reads of what the chart plots: all of [`Panel::plotted`] by
    /// default. A panel may leave out a table that is finite by construction given numbers
    /// it checks here instead (a class map: probabilities of activations bounded by the
    /// weights, [`crate::plot::classes::ensure_map_finite`]), so that a change does not
    /// compute that table before the drawing's own task ([`Panel::prepare_drawing`]).
    ///
    /// # Errors
    /// [`Error::Overflow`] naming what would make a table left out not finite.
    fn plotted_to_check(&self) -> Result<Vec<Plotted>> {
        Ok(self.plotted())
    }

    /// The data points of `settings` that a press on the plot or the add-point form extends,
    /// if the panel has such data.
    fn data_points(_settings: &mut Self::Settings) -> Option<&mut dyn PointSink> {
        None
    }

    /// A press at data point (x, y) of the interactive chart: changes `settings` and/or
    /// grabs something to drag. By default it adds the point (x, y) to the data, if any.
    ///
    /// # Errors
    /// If the press would make the settings invalid.
    fn press(&self, settings: &mut Self::Settings, x: f64, y: f64) -> Result<Option<Grab>> {
        if let Some(data) = Self::data_points(settings) {
            data.add_point(x, y)?;
        }
        Ok(None)
    }

    /// The grabbed thing dragged to (x, y).
    ///
    /// # Errors
    /// If the move would make the settings invalid.
    fn drag(&self, _settings: &mut Self::Settings, _grab: Grab, _x: f64, _y: f64) -> Result<()> {
        Ok(())
    }

    /// What presses and drags on the chart move, and where each is now ([`Handle`]).
    fn handles(&self, _settings: &Self::Settings) -> Vec<Handle> {
        vec![]
    }

    /// Whether the interactive chart plots the data points in their own coordinates, so
    /// that a press on one holds it (a drag moves it); `false` when it is another plane.
    fn points_on_chart(&self) -> bool {
        true
    }

    /// The animation, if the panel has one.
    fn player(&self) -> Option<&dyn Player> {
        None
    }

    /// The same, to move.
    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        None
    }

    /// Continues work left over from [`Panel::compute`] (iterative solvers run in slices
    /// between frames) within `budget`; `true` while more remains.
    fn work(&mut self, _budget: &mut Budget) -> bool {
        false
    }

    /// Parts of that work done so far and in all, for the progress bar.
    fn work_progress(&self) -> Option<(usize, usize)> {
        None
    }

    /// The comparisons run beside the panel's own (part of [`Panel::work`]), which may run
    /// elsewhere instead — the page's worker — if the panel has any now.
    fn comparisons(&mut self) -> Option<&mut dyn Detachable> {
        None
    }
}

/// What a change may do to a panel's settings, seen through an object-safe face (the
/// settings and the panel they were computed from, `Edit`), so that each kind of change —
/// a value, a data point, a press, a drag — is compiled once rather than once per panel.
pub trait Editing {
    /// Sets `key` from text ([`Settings::assign`]).
    ///
    /// # Errors
    /// A parse or range error, or [`Error::UnknownParameter`].
    fn assign(&mut self, key: &str, text: &str) -> Result<()>;
    /// The data points ([`Panel::data_points`]).
    ///
    /// # Errors
    /// [`Error::UnknownParameter`] naming `points` for a panel without data points.
    fn data(&mut self) -> Result<&mut dyn PointSink>;
    /// A press at (x, y) ([`Panel::press`]): what it grabbed, if anything.
    ///
    /// # Errors
    /// If the press would make the settings invalid.
    fn press(&mut self, x: f64, y: f64) -> Result<Option<Grab>>;
    /// `grab` dragged to (x, y) ([`Panel::drag`]).
    ///
    /// # Errors
    /// If the move would make the settings invalid.
    fn drag(&mut self, grab: Grab, x: f64, y: f64) -> Result<()>;
    /// Every setting back to its default.
    fn restore_defaults(&mut self);
}

/// A copy of a panel's settings being changed, beside the panel computed from the original.
struct Edit<'a, P: Panel> {
    panel: &'a P,
    settings: &'a mut P::Settings,
}

impl<P: Panel> Editing for Edit<'_, P> {
    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        self.settings.assign(key, text)
    }

    fn data(&mut self) -> Result<&mut dyn PointSink> {
        P::data_points(self.settings).ok_or_else(no_points)
    }

    fn press(&mut self, x: f64, y: f64) -> Result<Option<Grab>> {
        self.panel.press(self.settings, x, y)
    }

    fn drag(&mut self, grab: Grab, x: f64, y: f64) -> Result<()> {
        self.panel.drag(self.settings, grab, x, y)
    }

    fn restore_defaults(&mut self) {
        *self.settings = P::Settings::default();
    }
}

/// [`Error::UnknownParameter`] naming `points`: the panel has no data points.
fn no_points() -> Error {
    Error::UnknownParameter { key: "points".into() }
}

/// A change to a panel's settings: what [`Live::update`] applies. It returns what it
/// grabbed for dragging, if anything. (A trait object over [`Editing`], so that `update`
/// exists once per panel and each change once in all: together they were 15 KB of the wasm
/// module.)
pub type Change<'a> = &'a mut dyn FnMut(&mut dyn Editing) -> Result<Option<Grab>>;

/// A panel on the page: its settings, the panel computed from them, and what the pointer
/// holds.
#[derive(Debug, Clone)]
pub struct Live<P: Panel> {
    settings: P::Settings,
    panel: P,
    grab: Option<Grab>,
    /// Whether the last [`Live::update`] changed the state (its URL).
    changed: bool,
    /// The refused result that stopped the background work, if one did: the panel is then
    /// as the last change left it, and says why its work stopped.
    halted: Option<Error>,
    /// Whether the panel's comparisons run elsewhere (the page's worker), not in its work.
    elsewhere: bool,
}

impl<P: Panel> Live<P> {
    /// The panel with `settings`.
    ///
    /// # Errors
    /// Whatever [`Panel::compute`] refuses.
    pub fn with_settings(settings: P::Settings) -> Result<Self> {
        let panel = Self::compute(&settings)?;
        Ok(Self { panel, settings, grab: None, changed: false, halted: None, elsewhere: false })
    }

    /// The panel with its default settings.
    ///
    /// # Errors
    /// Whatever [`Panel::compute`] refuses (every panel's defaults are tested to compute).
    pub fn try_default() -> Result<Self> {
        Self::with_settings(P::Settings::default())
    }

    /// The panel at the URL's `pairs`, computed once: its defaults with the pairs assigned,
    /// each unusable one keeping its default with a notice in `notices` — what
    /// [`PanelModel::apply_query`] makes of a panel at its defaults, without computing those
    /// first. (Opening the defaults instead when the whole does not compute is left to the
    /// caller, [`super::open_panel_at`], written once for every panel.)
    ///
    /// # Errors
    /// Whatever [`Panel::compute`] refuses of that state.
    pub fn at_query(pairs: &[(String, String)], notices: &mut Vec<Notice>) -> Result<Self> {
        let mut settings = P::Settings::default();
        // A panel that animates records its frame under FRAME_KEY (its player's key).
        let frame = settings.value(FRAME_KEY).map(|_| FRAME_KEY);
        notices.extend(assign_pairs(pairs, frame, &mut |key, text| settings.assign(key, text)));
        Self::with_settings(settings)
    }

    /// The current settings.
    pub fn settings(&self) -> &P::Settings {
        &self.settings
    }

    /// The panel as computed from them.
    pub fn panel(&self) -> &P {
        &self.panel
    }

    /// Applies `change` to a copy of the settings; the panel follows it in place or is
    /// computed again. Commits only if both succeed and everything the result shows is
    /// finite ([`ensure_shown_finite`]), so on error everything is exactly as it was.
    /// Returns what `change` grabbed (and notes whether the state changed).
    ///
    /// # Errors
    /// The error of `change` or of [`Panel::compute`], or [`Error::Overflow`].
    pub fn update(&mut self, change: Change<'_>) -> Result<Option<Grab>> {
        let mut settings = self.settings.clone();
        let outcome = change(&mut Edit { panel: &self.panel, settings: &mut settings })?;
        let (before, after) = (self.settings.value_list(), settings.value_list());
        if only_followed_changed(&before, &after, P::FOLLOWS) && self.follow(&settings) {
            if let Err(error) = Self::check(&self.panel) {
                // Back to what it showed: it followed those settings before.
                self.follow(&self.settings.clone());
                return Err(error);
            }
        } else {
            self.panel = Self::compute(&settings)?;
            self.halted = None;
        }
        self.settings = settings;
        self.changed = before != after;
        Ok(outcome)
    }

    /// The panel computed from `settings`, everything it shows checked ([`Live::check`]).
    /// (Each panel's computation is compiled in here once, however many places ask for it.)
    ///
    /// # Errors
    /// Whatever [`Panel::compute`] refuses, or [`Error::Overflow`].
    #[inline(never)]
    fn compute(settings: &P::Settings) -> Result<P> {
        let panel = P::compute(settings)?;
        Self::check(&panel)?;
        Ok(panel)
    }

    /// [`ensure_shown_finite`] of what `panel` reports and plots
    /// ([`Panel::plotted_to_check`]): the one check of a result before it is committed.
    ///
    /// # Errors
    /// [`Error::Overflow`] naming the first number that is NaN or ±∞ where it may not be.
    #[inline(never)]
    fn check(panel: &P) -> Result<()> {
        shown_finite(panel.report(), panel.plotted_to_check())
    }

    /// Takes `settings`, whose changed keys the panel all follows, in place: the panel
    /// first, then the frame shown through the player.
    fn follow(&mut self, settings: &P::Settings) -> bool {
        if !self.panel.follow(settings) {
            return false;
        }
        if let Some(player) = self.panel.player_mut()
            && let Some(key) = player.key()
            && let Some(frame) = settings.value(key).and_then(|v| v.parse().ok())
        {
            player.show(frame);
        }
        true
    }

    /// Writes the frame shown into the settings, without computing anything.
    fn follow_player(&mut self) {
        let Some(player) = self.panel.player() else { return };
        if let Some(key) = player.key() {
            let frame = player.position().0.to_string();
            // The player reports a frame it can show, which the setting always admits.
            let _ = self.settings.assign(key, &frame);
        }
    }

    /// Draws the panel onto `root` (cleared first, presented after); returns the
    /// interactive chart's area.
    ///
    /// # Errors
    /// [`Error::Drawing`] if the backend fails; [`Error::PartEnded`] where a part of a
    /// drawing made in parts ends ([`crate::parts`]), its shapes presented as well: the
    /// canvas holds some back to draw them together.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        crate::plot::clear(root)?;
        let area = self.panel.draw(root, scale, labels);
        if matches!(area, Ok(_) | Err(Error::PartEnded)) {
            root.present().map_err(crate::plot::drawing_error)?;
        }
        area
    }

    /// Moves the player with `move_player`, then the frame setting after it.
    fn play(&mut self, move_player: impl FnOnce(&mut dyn Player) -> bool) -> bool {
        let moved = self.panel.player_mut().is_some_and(move_player);
        self.follow_player();
        moved
    }

    /// The data points of `settings` as the chart plots them (none without data).
    fn points_of(settings: &P::Settings) -> Vec<(f64, f64)> {
        P::data_points(&mut settings.clone()).and_then(|data| data.points().ok()).unwrap_or_default()
    }
}

/// [`ensure_shown_finite`] of a panel's report and the tables it has checked, or the
/// error of those tables (not generic: each panel's [`Live::check`] compiles to two calls
/// and this).
fn shown_finite(report: Report, plotted: Result<Vec<Plotted>>) -> Result<()> {
    ensure_shown_finite(&report, &plotted?)
}

/// Whether every key whose value differs between the two `(key, value)` lists is one of
/// `followed`.
fn only_followed_changed(before: &[(String, String)], after: &[(String, String)], followed: &[&str]) -> bool {
    changed_keys(before, after).iter().all(|key| followed.contains(key))
}

/// The value of `key` in a `(key, value)` list (the URL's pairs), if there.
pub fn value_of<'a>(list: &'a [(String, String)], key: &str) -> Option<&'a str> {
    list.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// The keys whose values differ between two `(key, value)` lists (a key in one only
/// differs), each once: those of `after` first, in order, then those only in `before`.
pub fn changed_keys<'a>(before: &'a [(String, String)], after: &'a [(String, String)]) -> Vec<&'a str> {
    let mut changed: Vec<&str> = vec![];
    for (key, _) in after.iter().chain(before) {
        if value_of(before, key) != value_of(after, key) && !changed.contains(&key.as_str()) {
            changed.push(key);
        }
    }
    changed
}

/// Assigns the URL's `pairs` through `assign`, the frame key `frame` last (a change of data
/// starts the run again, so a permalink's frame must not come before its data, whatever
/// the order in the URL); a notice for each one refused. Not generic, so that it is
/// compiled once rather than once per panel.
fn assign_pairs(
    pairs: &[(String, String)],
    frame: Option<&str>,
    assign: &mut dyn FnMut(&str, &str) -> Result<()>,
) -> Vec<Notice> {
    let mut notices = vec![];
    for (key, text) in frame_last(pairs, frame) {
        if let Err(error) = assign(key, text) {
            notices.push(Notice { key: key.clone(), error });
        }
    }
    notices
}

/// The pairs of a URL in the order a panel assigns them ([`frame_last`], its frame last).
pub fn assignment_order(pairs: &[(String, String)]) -> Vec<&(String, String)> {
    frame_last(pairs, Some(FRAME_KEY))
}

/// The keys of `pairs` in order, each once (its last value: the one that would stand, so a
/// key repeated five thousand times is one assignment and at most one notice), but the
/// formula after the family it is typed for (a bad one is then refused as itself), the moved
/// centres after the basis they move (a new basis forgets them), and those of `last` at the end
/// (a URL's frame goes after its data, which would start the run again).
fn frame_last<'a>(pairs: &'a [(String, String)], last: Option<&str>) -> Vec<&'a (String, String)> {
    // Each key's last pair, in the pairs' order: a scan for a later pair of the same key
    // (a set of keys, or a sort, costs the module 2 to 5 KB gzipped).
    let once = pairs.iter().enumerate().filter(|&(i, (key, _))| pairs[i + 1..].iter().all(|(later, _)| later != key));
    let (frames, rest): (Vec<_>, Vec<_>) = once.map(|(_, pair)| pair).partition(|(key, _)| Some(key.as_str()) == last);
    let (formula, rest): (Vec<_>, Vec<_>) = rest.into_iter().partition(|(key, _)| key == "formula");
    let (centres, rest): (Vec<_>, Vec<_>) = rest.into_iter().partition(|(key, _)| key == CENTRES_KEY);
    rest.into_iter().chain(formula).chain(centres).chain(frames).collect()
}

/// What the page knows of a panel before any state: its controls and its layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    /// Its name (`?panel=…`).
    pub name: &'static str,
    /// Its parameters, in display order.
    pub params: Vec<ParamSpec>,
    /// Whether it animates (play / pause / step).
    pub animated: bool,
    /// Whether a press on the plot or the add-point form adds data points.
    pub takes_points: bool,
    /// The setting that records the frame shown, if it animates: the page's slider of it
    /// spans the run as far as it goes (the report's position), not the setting's limit.
    pub frame_key: Option<&'static str>,
    /// How it is laid out.
    pub layout: Layout,
}

/// A change of one data point ([`PanelModel::edit_point`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PointEdit {
    /// Point `index` moves to (x, y).
    Move {
        /// Which point ([`PanelModel::points`]).
        index: usize,
        /// Its new first coordinate.
        x: f64,
        /// Its new second coordinate.
        y: f64,
    },
    /// Point `index` goes.
    Remove(usize),
}

/// What every panel offers the page, whichever it is: the object-facing side of [`Live`],
/// implemented once for all panels. Every mutating call either succeeds or leaves the panel
/// exactly as it was.
pub trait PanelModel {
    /// Its name, parameters and layout.
    fn describe(&self) -> Description;
    /// The current value of `key` as text (as in the URL), `None` for an unknown key.
    fn value(&self, key: &str) -> Option<String>;
    /// Whether `key` matters in the current state (the page greys out the others).
    fn is_active(&self, key: &str) -> bool;
    /// Sets parameter `key` from text.
    ///
    /// # Errors
    /// A parse or range error for the value, or whatever the recomputation refuses.
    fn set(&mut self, key: &str, text: &str) -> Result<()>;
    /// Back to the defaults.
    ///
    /// # Errors
    /// Only if the defaults do not compute (tested never to happen).
    fn reset(&mut self) -> Result<()>;
    /// Adds the data point (x, t).
    ///
    /// # Errors
    /// [`Error::NotFinite`] for NaN/∞, [`Error::UnknownParameter`] for a panel without
    /// data points, or whatever the recomputation refuses.
    fn add_point(&mut self, x: f64, t: f64) -> Result<()>;
    /// Replaces the data with the rows of CSV text.
    ///
    /// # Errors
    /// [`Error::BadRow`] naming the first bad line, or whatever the recomputation refuses;
    /// the data stay as they were.
    fn import_csv(&mut self, text: &str) -> Result<()>;
    /// The data as CSV text (`None` for a panel without data points).
    ///
    /// # Errors
    /// Whatever generating the data refuses.
    fn export_csv(&self) -> Result<Option<String>>;
    /// A press on the interactive chart at data (x, y); `true` if the panel changed.
    ///
    /// # Errors
    /// If the press would make the state invalid.
    fn press(&mut self, x: f64, y: f64) -> Result<bool>;
    /// The pointer moved to (x, y) while pressed; `true` if the panel changed.
    ///
    /// # Errors
    /// If the move would make the state invalid.
    fn drag(&mut self, x: f64, y: f64) -> Result<bool>;
    /// The pointer was released.
    fn release(&mut self);
    /// Every data point as the chart plots it ((x, t) or (x₁, x₂); none without data).
    fn points(&self) -> Vec<(f64, f64)>;
    /// Whether the interactive chart plots the data points ([`Panel::points_on_chart`]).
    fn points_on_chart(&self) -> bool;
    /// Moves or removes a data point ([`PointEdit`]).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for no such point, [`Error::NotFinite`], [`Error::UnknownParameter`]
    /// for a panel without data points, or whatever the recomputation refuses; the panel then
    /// stays as it was.
    fn edit_point(&mut self, edit: PointEdit) -> Result<()>;
    /// Sets every `(key, text)` of `pairs` and computes the panel once (the values of an
    /// undo: the points and N together).
    ///
    /// # Errors
    /// The first value refused, or whatever the recomputation refuses; nothing changes then.
    fn set_all(&mut self, pairs: &[(String, String)]) -> Result<()>;
    /// What presses and drags on the chart move ([`Panel::handles`]).
    fn handles(&self) -> Vec<Handle>;
    /// Moves handle `index` of [`PanelModel::handles`] to (x, y), as a drag (or a press)
    /// there would; `true` if the panel changed.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for no such handle; whatever the move makes invalid (the panel
    /// then stays as it was).
    fn move_handle(&mut self, index: usize, x: f64, y: f64) -> Result<bool>;
    /// Advances the animation by up to `steps` frames; `false` once it has nothing left.
    fn step(&mut self, steps: usize) -> bool;
    /// One frame back; `false` if already at the first.
    fn step_back(&mut self) -> bool;
    /// Back to the first frame.
    fn rewind(&mut self);
    /// Continues the work left over from the last change within `budget`; `true` while
    /// more remains.
    fn work(&mut self, budget: Budget) -> bool;
    /// From now on the panel's comparisons run elsewhere (`true`: the page's worker), or
    /// here again in its work (`false`: the worker failed).
    fn run_comparisons_elsewhere(&mut self, on: bool);
    /// The comparisons run beside the panel's own, if it has any now: the fingerprint of
    /// their inputs, each one's outcome, and whether they run elsewhere.
    fn comparisons(&mut self) -> Option<(u64, Vec<Outcome>, bool)>;
    /// Takes `outcomes` computed elsewhere on inputs with `fingerprint`; `false` if they are
    /// not for the comparisons the panel has now (they are then ignored).
    ///
    /// # Errors
    /// [`Error::Overflow`] if they would show a number that is NaN or ±∞ (nothing taken).
    fn adopt_comparisons(&mut self, fingerprint: u64, outcomes: Vec<Outcome>) -> Result<bool>;
    /// Where that work stands, [`Report::work`] alone (the progress bar after each slice
    /// reads only this), and whether the frame asked for is still to come.
    fn work_progress(&self) -> (Option<(usize, usize)>, bool);
    /// Everything shown beside the chart, and where the animation and the work stand.
    fn report(&self) -> Report;
    /// The whole event log ([`Panel::event_log`]).
    fn event_log(&self) -> Option<Table>;
    /// What the chart plots, as tables ([`Panel::plotted`]).
    fn plotted(&self) -> Vec<Plotted>;
    /// The state as URL query pairs; [`PanelModel::apply_query`] of them reproduces it.
    fn query(&self) -> Vec<(String, String)>;
    /// Sets the state from URL query pairs: each unusable pair keeps its default and
    /// yields a notice; if the whole does not compute, the defaults stay, with a notice.
    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice>;
    /// Draws onto the page's canvas or into an SVG document; returns the interactive
    /// chart's area.
    ///
    /// # Errors
    /// [`Error::Drawing`] if the backend fails.
    fn draw(&self, root: &DrawingArea<PageBackend<'_>, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea>;
    /// Computes ahead what the next drawing plots ([`Panel::prepare_drawing`]); whether
    /// there was anything to compute.
    fn prepare_drawing(&self, budget: Budget) -> bool;
}

impl<P: Panel> PanelModel for Live<P> {
    fn describe(&self) -> Description {
        Description {
            name: P::NAME,
            params: self.settings.params(),
            animated: self.panel.player().is_some(),
            takes_points: P::data_points(&mut self.settings.clone()).is_some(),
            frame_key: self.panel.player().and_then(|player| player.key()),
            layout: P::LAYOUT,
        }
    }

    fn value(&self, key: &str) -> Option<String> {
        self.settings.value(key)
    }

    fn is_active(&self, key: &str) -> bool {
        self.settings.is_active(key)
    }

    fn set(&mut self, key: &str, text: &str) -> Result<()> {
        set_one(self, key, text)
    }

    fn reset(&mut self) -> Result<()> {
        reset(self)
    }

    fn add_point(&mut self, x: f64, t: f64) -> Result<()> {
        add_point(self, x, t)
    }

    fn import_csv(&mut self, text: &str) -> Result<()> {
        import_csv(self, text)
    }

    fn export_csv(&self) -> Result<Option<String>> {
        P::data_points(&mut self.settings.clone()).map(|data| data.to_csv()).transpose()
    }

    fn press(&mut self, x: f64, y: f64) -> Result<bool> {
        press(self, x, y)
    }

    fn drag(&mut self, x: f64, y: f64) -> Result<bool> {
        drag(self, x, y)
    }

    fn release(&mut self) {
        self.grab = None;
    }

    fn points(&self) -> Vec<(f64, f64)> {
        Self::points_of(&self.settings)
    }

    fn points_on_chart(&self) -> bool {
        self.panel.points_on_chart()
    }

    fn edit_point(&mut self, point: PointEdit) -> Result<()> {
        edit_point(self, point)
    }

    fn set_all(&mut self, pairs: &[(String, String)]) -> Result<()> {
        set_all(self, pairs)
    }

    fn handles(&self) -> Vec<Handle> {
        self.panel.handles(&self.settings)
    }

    fn move_handle(&mut self, index: usize, x: f64, y: f64) -> Result<bool> {
        move_handle(self, index, x, y)
    }

    fn step(&mut self, steps: usize) -> bool {
        self.play(|player| player.step(steps))
    }

    fn step_back(&mut self) -> bool {
        self.play(|player| player.step_back())
    }

    fn rewind(&mut self) {
        self.play(|player| {
            player.rewind();
            true
        });
    }

    fn work(&mut self, mut budget: Budget) -> bool {
        if self.halted.is_some() {
            return false;
        }
        // Comparisons that are to run elsewhere are sent off before a step of theirs is
        // taken here (those a slice sets up, after it).
        self.detach_comparisons();
        // The frame setting stays the one asked for while the work catches up with it.
        let more = self.panel.work(&mut budget);
        self.detach_comparisons();
        // Each slice's report is checked (its readouts and tables, which the work fills: a
        // few microseconds); what the charts plot, a pass over every curve and map (up to
        // 0.7 ms a slice on the classification panel, a third of its script on a phone), once
        // the work is done.
        let checked = if more { ensure_shown_finite(&self.panel.report(), &[]) } else { Self::check(&self.panel) };
        match checked {
            Ok(()) => more,
            Err(error) => {
                // The slice's result is refused: back to the state the last change committed
                // (it computed, and was checked, from these very settings).
                if let Ok(panel) = Self::compute(&self.settings) {
                    self.panel = panel;
                }
                self.halted = Some(error);
                false
            }
        }
    }

    fn run_comparisons_elsewhere(&mut self, on: bool) {
        self.elsewhere = on;
        send_elsewhere(self.panel.comparisons(), on);
    }

    fn comparisons(&mut self) -> Option<(u64, Vec<Outcome>, bool)> {
        let comparisons = self.panel.comparisons()?;
        Some((comparisons.fingerprint(), comparisons.outcomes(), comparisons.is_elsewhere()))
    }

    fn adopt_comparisons(&mut self, fingerprint: u64, outcomes: Vec<Outcome>) -> Result<bool> {
        let Some(before) = self.panel.comparisons().and_then(|c| c.adopt(fingerprint, outcomes)) else {
            return Ok(false);
        };
        // The one check of a result before it is shown: outcomes from elsewhere too.
        let checked = ensure_shown_finite(&self.panel.report(), &[]);
        restore_if_refused(self.panel.comparisons(), checked, fingerprint, before)?;
        Ok(true)
    }

    fn work_progress(&self) -> (Option<(usize, usize)>, bool) {
        if self.halted.is_some() {
            return (None, false);
        }
        (self.panel.work_progress(), self.panel.player().is_some_and(|player| player.waiting()))
    }

    fn event_log(&self) -> Option<Table> {
        self.panel.event_log()
    }

    fn report(&self) -> Report {
        let report = Report {
            position: self.panel.player().map(|player| player.position()),
            work: self.work_progress().0,
            ..self.panel.report()
        };
        with_halt(with_formula(report, self), self.halted.as_ref())
    }

    fn plotted(&self) -> Vec<Plotted> {
        self.panel.plotted()
    }

    fn query(&self) -> Vec<(String, String)> {
        self.settings.value_list()
    }

    fn apply_query(&mut self, pairs: &[(String, String)]) -> Vec<Notice> {
        apply_query(self, pairs)
    }

    fn draw(&self, root: &DrawingArea<PageBackend<'_>, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        Live::draw(self, root, scale, labels)
    }

    fn prepare_drawing(&self, mut budget: Budget) -> bool {
        self.panel.prepare_drawing(&mut budget)
    }
}

impl<P: Panel> Live<P> {
    /// Sends the panel's comparisons elsewhere, if they are to run there.
    fn detach_comparisons(&mut self) {
        if self.elsewhere {
            send_elsewhere(self.panel.comparisons(), true);
        }
    }
}

/// Lets `comparisons` run elsewhere (`on`) or here again (not generic, like the two below:
/// compiled once rather than once per panel).
fn send_elsewhere(comparisons: Option<&mut dyn Detachable>, on: bool) {
    match comparisons {
        Some(comparisons) if on => comparisons.detach(),
        Some(comparisons) => comparisons.attach(),
        None => {}
    }
}

/// Puts back the outcomes `before` an adoption whose result the check refused.
///
/// # Errors
/// The refusal.
fn restore_if_refused(
    comparisons: Option<&mut dyn Detachable>,
    checked: Result<()>,
    fingerprint: u64,
    before: Vec<Outcome>,
) -> Result<()> {
    if checked.is_err()
        && let Some(comparisons) = comparisons
    {
        comparisons.adopt(fingerprint, before);
    }
    checked
}

/// "Save results as CSV" of `panel`: its readouts and tables ([`Report::csv`]), then the
/// state they come from ([`with_state`]); without the true noise where the generating curve
/// is hidden (`hide_truth`, [`Labels::hide_truth`]).
pub fn results_csv(panel: &dyn PanelModel, hide_truth: bool) -> String {
    let mut report = shown_report(panel.report(), hide_truth);
    // The run's whole event log in place of its newest rows.
    if let Some(log) = panel.event_log() {
        report.tables.retain(|table| table.key != log.key);
        report.tables.insert(0, log);
    }
    with_state(report.csv(), panel.describe().name, &view_query(panel))
}

/// "Save plotted data as CSV" of `panel`: what its chart plots ([`plotted_csv`]), then the
/// state. (Where the generating curve is hidden, the page offers neither this nor the chart's
/// data table.)
pub fn plotted_data_csv(panel: &dyn PanelModel) -> String {
    with_state(plotted_csv(&panel.plotted()), panel.describe().name, &view_query(panel))
}

/// `report` as the page shows it: where the generating curve is hidden (a lesson's
/// exercise), without its legend entry and the true noise, which would give it away.
pub fn shown_report(mut report: Report, hide_truth: bool) -> Report {
    if hide_truth {
        report.legend.retain(|entry| !TRUTH_SERIES.contains(&entry.key));
        report.readouts.retain(|readout| readout.key != TRUE_NOISE);
    }
    report
}

/// The readout of the noise that generated the data (the fast-RVM panel's).
pub const TRUE_NOISE: &str = "true-noise-sd";

/// The state as a link holds it ([`PanelModel::query`]) but for what says nothing of the
/// view: a basis key its family does not use that holds the standard basis's value (the
/// formula beside a kernel basis), so that a recorded view names only what it shows. (A
/// formula typed by hand stays, so that choosing the formula family again brings it back.)
/// Not generic, so that it is compiled once rather than once per panel.
pub fn view_query(panel: &dyn PanelModel) -> Vec<(String, String)> {
    let standard = BasisParams::new(BasisSpec::default());
    let mut query = panel.query();
    query.retain(|(key, value)| panel.is_active(key) || standard.value(key).as_ref() != Some(value));
    query
}

/// `report` with the sentence that names `panel`'s typed formula, if its basis is one
/// ([`formula_sentence`]; not generic, so that it is compiled once rather than once per
/// panel).
fn with_formula(mut report: Report, panel: &dyn PanelModel) -> Report {
    report.summary.extend(formula_sentence(panel.value("basis"), panel.value("formula")));
    report
}

/// `report` with a warning of the refused result that `halted` its background work, if any
/// (not generic, so that it is compiled once rather than once per panel).
fn with_halt(mut report: Report, halted: Option<&Error>) -> Report {
    if let Some(Error::Overflow { quantity, value }) = halted {
        let args = [("quantity", quantity.clone()), ("value", value.clone())];
        report.messages.push(Message::warning("work-overflow", args));
    }
    report
}

/// The few things the page's requests need of [`Live`] that depend on the panel's type;
/// the requests themselves ([`edit`], [`press`], [`apply_query`] …) are written once over
/// it, not once per panel.
trait Core {
    /// [`Live::update`].
    fn update(&mut self, change: Change<'_>) -> Result<Option<Grab>>;
    /// Whether the last update changed the state.
    fn changed(&self) -> bool;
    /// What the pointer holds.
    fn grab(&mut self) -> &mut Option<Grab>;
    /// [`Panel::handles`].
    fn handles(&self) -> Vec<Handle>;
    /// The setting that records the frame shown, if the panel animates.
    fn frame_key(&self) -> Option<&'static str>;
}

impl<P: Panel> Core for Live<P> {
    fn update(&mut self, change: Change<'_>) -> Result<Option<Grab>> {
        Live::update(self, change)
    }

    fn changed(&self) -> bool {
        self.changed
    }

    fn grab(&mut self) -> &mut Option<Grab> {
        &mut self.grab
    }

    fn handles(&self) -> Vec<Handle> {
        self.panel.handles(&self.settings)
    }

    fn frame_key(&self) -> Option<&'static str> {
        self.panel.player().and_then(|player| player.key())
    }
}

/// Applies `change` to the settings ([`Live::update`]), grabbing nothing.
fn edit(live: &mut dyn Core, change: &mut dyn FnMut(&mut dyn Editing) -> Result<()>) -> Result<()> {
    live.update(&mut |e| change(e).map(|()| None)).map(drop)
}

/// [`PanelModel::set`].
fn set_one(live: &mut dyn Core, key: &str, text: &str) -> Result<()> {
    edit(live, &mut |e| e.assign(key, text))
}

/// [`PanelModel::set_all`]: every pair, then one computation.
fn set_all(live: &mut dyn Core, pairs: &[(String, String)]) -> Result<()> {
    edit(live, &mut |e| pairs.iter().try_for_each(|(key, text)| e.assign(key, text)))
}

/// [`PanelModel::reset`]: the default settings, nothing held.
fn reset(live: &mut dyn Core) -> Result<()> {
    *live.grab() = None;
    edit(live, &mut |e| {
        e.restore_defaults();
        Ok(())
    })
}

/// [`PanelModel::add_point`].
fn add_point(live: &mut dyn Core, x: f64, t: f64) -> Result<()> {
    edit(live, &mut |e| e.data()?.add_point(x, t))
}

/// [`PanelModel::import_csv`].
fn import_csv(live: &mut dyn Core, text: &str) -> Result<()> {
    edit(live, &mut |e| e.data()?.import_csv(text))
}

/// [`PanelModel::edit_point`].
fn edit_point(live: &mut dyn Core, point: PointEdit) -> Result<()> {
    edit(live, &mut |e| match point {
        PointEdit::Move { index, x, y } => e.data()?.move_point(index, x, y),
        PointEdit::Remove(index) => e.data()?.remove_point(index),
    })
}

/// [`PanelModel::press`]: the panel's press, and what it grabbed held for a drag.
fn press(live: &mut dyn Core, x: f64, y: f64) -> Result<bool> {
    *live.grab() = live.update(&mut |e| e.press(x, y))?;
    Ok(live.changed())
}

/// [`PanelModel::drag`]: what the press grabbed, dragged.
fn drag(live: &mut dyn Core, x: f64, y: f64) -> Result<bool> {
    let Some(grab) = *live.grab() else { return Ok(false) };
    live.update(&mut |e| e.drag(grab, x, y).map(|()| None))?;
    Ok(true)
}

/// [`PanelModel::move_handle`]: a drag of the handle's grab, or a press at the new place.
fn move_handle(live: &mut dyn Core, index: usize, x: f64, y: f64) -> Result<bool> {
    let handles = live.handles();
    crate::error::ensure_index("handle", index, handles.len())?;
    let grab = handles[index].grab;
    live.update(&mut |e| match grab {
        Some(grab) => e.drag(grab, x, y).map(|()| None),
        None => e.press(x, y),
    })?;
    Ok(live.changed())
}

/// [`PanelModel::apply_query`]: the defaults, then each pair (the frame last). The same
/// state (a page opened with its defaults, a lesson step that keeps the state) is not
/// computed again, nor one that differs only in what the panel follows (the frame shown).
fn apply_query(live: &mut dyn Core, pairs: &[(String, String)]) -> Vec<Notice> {
    let frame = live.frame_key();
    let mut notices = vec![];
    let result = live.update(&mut |e| {
        e.restore_defaults();
        notices = assign_pairs(pairs, frame, &mut |key, text| e.assign(key, text));
        Ok(None)
    });
    if let Err(error) = result {
        notices.push(Notice { key: String::new(), error });
    }
    notices
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::params::{Control, ParamSpec, parse_real};
    use crate::app::report::{Cell, Readout, Sentence, Word};

    /// Settings of [`Grows`]: the decimal exponent `e` of its first value.
    #[derive(Debug, Clone, Default)]
    struct Exponent(f64);

    impl Settings for Exponent {
        fn params(&self) -> Vec<ParamSpec> {
            vec![ParamSpec { key: "e", symbol: "e", control: Control::Real { min: 0.0, max: 400.0, log: false } }]
        }

        fn assign(&mut self, key: &str, text: &str) -> Result<()> {
            match key {
                "e" => parse_real("e", text).map(|e| self.0 = e),
                _ => Err(Error::UnknownParameter { key: key.to_owned() }),
            }
        }

        fn value(&self, key: &str) -> Option<String> {
            (key == "e").then(|| self.0.to_string())
        }
    }

    /// A panel whose one number is 10^e, multiplied by 10¹⁰⁰ in each of three slices of
    /// background work: from e > 8 one of them overflows f64.
    #[derive(Debug, Clone)]
    struct Grows {
        value: f64,
        slices: usize,
    }

    impl Panel for Grows {
        const NAME: &'static str = "grows";
        type Settings = Exponent;

        fn compute(settings: &Exponent) -> Result<Self> {
            Ok(Self { value: 10f64.powf(settings.0), slices: 0 })
        }

        fn draw<DB: DrawingBackend>(&self, _: &DrawingArea<DB, Shift>, _: f64, _: &Labels) -> Result<PlotArea> {
            Err(Error::Drawing("the test panel has no chart".into()))
        }

        fn report(&self) -> Report {
            Report { readouts: vec![Readout { key: "value", value: self.value }], ..Report::default() }
        }

        fn plotted(&self) -> Vec<Plotted> {
            vec![Plotted::points(crate::app::Name::Chart("grows"), ("x", "y"), &[(0.0, self.value)])]
        }

        fn work(&mut self, _budget: &mut Budget) -> bool {
            self.value *= 1e100;
            self.slices += 1;
            self.slices < 3
        }

        fn work_progress(&self) -> Option<(usize, usize)> {
            (self.slices < 3).then_some((self.slices, 3))
        }
    }

    fn overflow(value: &str) -> Error {
        Error::Overflow { quantity: "readout.value".into(), value: value.into() }
    }

    #[test]
    fn a_change_whose_result_overflows_is_refused_and_the_last_good_state_stays() {
        assert_eq!(Live::<Grows>::with_settings(Exponent(400.0)).unwrap_err(), overflow("inf"));
        let mut live = Live::<Grows>::with_settings(Exponent(1.0)).unwrap();
        assert_eq!(live.set("e", "309"), Err(overflow("inf")));
        assert_eq!(live.value("e").as_deref(), Some("1"));
        assert_eq!(live.report().readout("value"), Some(10.0));
        assert!(live.set("e", "308").is_ok());
        assert_eq!(live.report().readout("value"), Some(1e308));
    }

    #[test]
    fn background_work_that_overflows_stops_at_the_committed_state_and_says_why() {
        let mut live = Live::<Grows>::with_settings(Exponent(100.0)).unwrap();
        assert!(live.work(Budget::unlimited()));
        assert_eq!(live.report().readout("value"), Some(1e200));
        assert!(live.work(Budget::unlimited()));
        assert_eq!(live.report().readout("value"), Some(1e300));
        // The third slice gives 1e400 = ∞: refused.
        assert!(!live.work(Budget::unlimited()));
        let report = live.report();
        assert_eq!(report.readout("value"), Some(1e100), "the value e = 100 gives");
        assert_eq!(report.work, None);
        let message = &report.messages[0];
        assert_eq!((message.code.as_str(), message.warning), ("work-overflow", true));
        assert_eq!(message.args, [("quantity", "readout.value".to_owned()), ("value", "inf".to_owned())]);
        assert!(!live.work(Budget::unlimited()), "the work stays stopped");
        // A new change starts it afresh.
        live.set("e", "1").unwrap();
        assert!(live.report().messages.is_empty());
        assert!(live.work(Budget::unlimited()));
    }

    #[test]
    fn only_a_pruned_alpha_may_be_infinite_and_nothing_may_be_nan() {
        let report = |key, value| Report { readouts: vec![Readout { key, value }], ..Report::default() };
        assert!(ensure_shown_finite(&report("alpha", f64::INFINITY), &[]).is_ok());
        assert!(ensure_shown_finite(&report("alpha-star", f64::INFINITY), &[]).is_ok());
        let refused = |key, value| ensure_shown_finite(&report(key, value), &[]).unwrap_err().to_string();
        assert_eq!(
            refused("alpha", f64::NEG_INFINITY),
            "the result readout.alpha came out as -inf, beyond the range of numbers: it was not kept"
        );
        assert_eq!(
            refused("alpha", f64::NAN),
            "the result readout.alpha came out as NaN, beyond the range of numbers: it was not kept"
        );
        assert!(refused("beta", f64::INFINITY).contains("readout.beta came out as inf"));
        let table = Table {
            key: "t",
            columns: vec!["method", "log-ml"],
            rows: vec![vec![Cell::Label("fast"), Cell::Number(f64::NAN)]],
        };
        let with_table = Report { tables: vec![table], ..Report::default() };
        assert_eq!(
            ensure_shown_finite(&with_table, &[]).unwrap_err(),
            Error::Overflow { quantity: "column.log-ml".into(), value: "NaN".into() }
        );
        let sentence = Sentence::new("fit", [("L", Word::Number(f64::NAN))]);
        let with_summary = Report { summary: vec![sentence], ..Report::default() };
        assert!(ensure_shown_finite(&with_summary, &[]).is_err());
        let plotted = Plotted::points(crate::app::Name::Series("fit"), ("x", "t"), &[(0.0, 1.0), (1.0, f64::INFINITY)]);
        assert_eq!(
            ensure_shown_finite(&Report::default(), &[plotted]).unwrap_err(),
            Error::Overflow { quantity: "chart.t".into(), value: "inf".into() }
        );
    }
}
