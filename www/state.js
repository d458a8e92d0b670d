// The page's state, shared by its modules: which panel is open and in which language, the
// wasm handle, the player and the lesson; and the two helpers every module uses.

import { translate } from './i18n.js';

export const state = {
  lang: 'en',
  embed: false,
  panel: 'predictive',
  /** The wasm `Lab` of the open panel, and what it said of itself (`describe()`). */
  lab: null,
  description: null,
  /** The panel's last report (`report()`): readouts, tables, messages, legend, progress. */
  report: null,
  dead: false,
  /** Notices about the URL: {key, error} or {text: [key, args]}. */
  notices: [],
  /** The last error shown next to each control: key → error. */
  errors: new Map(),
  frame: 0,
  playing: false,
  /** Slider values waiting for the next frame: key → text. */
  pending: new Map(),
  working: false,
  /** The lesson being presented, `{id, data, index}`, or null. */
  lesson: null,
  /** The LMS session of a lesson in an LMS (scorm.js), or null. */
  scorm: null,
  /** Large type for a projector. */
  large: false,
  /** Student mode (`lock=1`, an LMS package): no panel or lesson menu, no editor, so the
   *  student stays in the lesson. */
  locked: false,
  /** Stage view (`?stage=1`): the chart fills the viewport; a press edits only in edit mode. */
  stage: false,
  editing: false,
  /** The scale a cross-origin host says its frame is drawn at (`rvm-lab:scale`), and the
   *  size of its window, [width, height] in CSS pixels, if it says (or null). */
  hostScale: 1,
  hostView: null,
  /** The last drawing's text zoom (1 off stage), and its scale: canvas pixels per CSS
   *  pixel, zoom included. */
  zoom: 1,
  drawScale: 1,
  /** How long the last drawing of the chart took (ms): background work redraws less often
   *  where drawing is slow (a phone). */
  drawMs: 0,
  /** Whether a drawing is being prepared, a piece per task (view.js): the background work
   *  and the player wait for it, so that the frame it prepares stays the one shown. */
  preparing: false,
  /** Whether the report text already shows the state the next frame draws (`show()`). */
  reportsShown: false,
};

/** Whether the lab is inside another page's frame (a slide deck, a course page). */
export const framed = window.parent !== window;

/** The control keys the lesson's step shown fixes (`field` `lock`: shown, not changeable) or
 *  hides (`hide`; `truth` among them: the curve that generated the data); none outside a
 *  lesson. */
export const stepKeys = (field) => new Set(state.lesson?.data.steps[state.lesson.index][field]);

/** The first element matching `selector`. */
export const $ = (selector) => document.querySelector(selector);

/** The string `key` in the page's language, `{name}` placeholders filled from `args`. */
export const t = (key, args) => translate(state.lang, key, args);
