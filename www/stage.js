// Stage view (`?stage=1`), for a projector or a slide deck: the chart fills the viewport, a
// compact strip under it holds the player, a lesson's text sits in a band above it, and the
// other controls wait in a drawer. Chart text grows with the presentation, and the canvas's
// backing store follows the chart's size on screen, CSS transforms of a deck included.

import { $, framed, state, t } from './state.js';
import { call } from './wasm.js';

/** Every text on stage (tick labels, legend, lesson, player), as a fraction of the
 *  presentation's height: 3.1 %, 22 px on a 720-pixel projector and 33 px on a 1080-pixel
 *  one, what a lecture hall's back row reads (a slide's body text is 3–5 % of its height). */
const STAGE_TEXT = 0.031;

/** How much larger "Large type" makes it on stage (the chart's text and lines too). */
const LARGE_STAGE = 1.3;

/** Screen pixels per CSS pixel of the chart, beyond devicePixelRatio: the scale of CSS
 *  transforms above it, in this page and above its frame (a reveal.js slide is scaled that
 *  way). A cross-origin host cannot be measured; it may post `{type: "rvm-lab:scale", scale}`. */
export function renderedScale() {
  let scale = state.hostScale;
  try {
    const frame = window.frameElement;
    if (frame) scale = transformOf(frame);
  } catch {
    // A cross-origin parent: keep what the host said.
  }
  scale *= transformOf($('#chart'));
  return scale > 0 && Number.isFinite(scale) ? scale : 1;
}

/** The scale of the CSS transforms above `element`: its width on screen over its layout
 *  width (which is rounded to whole pixels, so within half a pixel is no transform). */
function transformOf(element) {
  const layout = element.offsetWidth;
  if (!layout) return 1;
  const onScreen = element.getBoundingClientRect().width;
  return Math.abs(onScreen - layout) <= 0.5 ? 1 : onScreen / layout;
}

/** Height of what the audience sees, in the top window's CSS pixels: the deck's window when
 *  the host can be read, else this page's viewport as rendered; a window narrower than 4 : 3
 *  counts as high as a 4 : 3 one of its width. A projector is landscape, so its height
 *  is what the text follows; a phone held upright shows a landscape slide that high (a deck
 *  scales it to the width), and text sized by the whole height left its chart a strip. */
function presentationHeight(onScreen) {
  const [width, height] = topWindowSize(onScreen);
  return Math.min(height, (width * 3) / 4);
}

/** The top window's size in CSS pixels; where a cross-origin host cannot be read, the size
 *  of its window it posted (`rvm-lab:scale`, as the reveal.js plugin does), else this page's
 *  viewport as rendered. */
function topWindowSize(onScreen) {
  try {
    if (window.top.innerHeight) return [window.top.innerWidth, window.top.innerHeight];
  } catch {
    // A cross-origin host.
  }
  return state.hostView ?? [window.innerWidth * onScreen, window.innerHeight * onScreen];
}

/**
 * How much larger than on the page the chart draws its text and lines: on stage, tick labels
 * reach STAGE_TEXT of the presentation's height; elsewhere 1.
 */
export function textZoom(onScreen) {
  if (!state.stage) return 1;
  const wanted = (STAGE_TEXT * (state.large ? LARGE_STAGE : 1) * presentationHeight(onScreen)) / onScreen;
  return Math.max(1, wanted / state.description.chartText);
}

/** Legend and strip text follow the chart's text size (in this page's CSS pixels). */
export function sizeStageText(zoom) {
  if (!state.stage) return;
  document.documentElement.style.setProperty('--stage-text', `${(state.description.chartText * zoom).toFixed(1)}px`);
}

/** Wires the stage's buttons; `changed` is called after entering or leaving it. */
export function wireStage(changed) {
  const toggle = (on) => {
    setStage(on);
    changed();
  };
  $('#stage-enter').addEventListener('click', () => toggle(true));
  // In a deck's frame the stage is the point; on the lab's own page it can be left.
  $('#stage-leave').hidden = framed;
  $('#stage-leave').addEventListener('click', () => toggle(false));
  $('#drawer-toggle').addEventListener('click', () => openDrawer($('#drawer').dataset.open !== '1'));
  $('#drawer-close').addEventListener('click', () => openDrawer(false));
  $('#edit-toggle').addEventListener('click', () => {
    setEditing(!state.editing);
  });
  wireFullscreen();
}

/** The stage's "Full screen" button, where the page may go full screen (a deck's frame needs
 *  `allow="fullscreen"`): the whole page, or back. */
function wireFullscreen() {
  const button = $('#fullscreen-toggle');
  button.hidden = !document.fullscreenEnabled;
  button.addEventListener('click', () => {
    const asked = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    asked.catch(() => {});
  });
  document.addEventListener('fullscreenchange', () => button.setAttribute('aria-pressed', String(Boolean(document.fullscreenElement))));
}

/**
 * Enters or leaves stage view. On stage a lesson's text and the chart's summary move beside
 * the chart (above it in an upright window), the player and the work bar to the strip under
 * it, the tables into the side column, and the side column becomes a drawer, closed; off
 * stage they go back. The charts are drawn in the projector look on stage (wider lines,
 * deeper colours), the screen look off it.
 */
export function setStage(on) {
  state.stage = on;
  if (state.lab && !state.dead) call(() => state.lab.setProjector(on));
  setEditing(false);
  document.body.classList.toggle('stage', on);
  $('#stage-strip').hidden = !on;
  $('#stage-side').hidden = !on;
  const drawer = $('#drawer');
  if (on) {
    $('#stage-side').prepend($('#lesson'), $('#chart-summary'));
    // The lesson's buttons beside its step counter, at the top: the text below may scroll.
    $('#lesson-counter').after($('#lesson-nav'));
    $('#stage-strip').prepend($('#player'), $('#working'));
    // "Large type" is the stage's for every panel; off stage it is the lesson's.
    $('#stage-tools').prepend($('#large-toggle'));
    $('#readouts').after($('#tables'));
    drawer.setAttribute('role', 'region');
    drawer.dataset.i18nLabel = 'stage.controls';
    drawer.setAttribute('aria-label', t('stage.controls'));
  } else {
    $('main').prepend($('#lesson'));
    $('#lesson-error').after($('#lesson-nav'));
    $('#legend').after($('#chart-summary'));
    $('#drawer-close').after($('#player'), $('#working'));
    $('#lesson-next').after($('#large-toggle'));
    $('#drawer').before($('#tables'));
    drawer.removeAttribute('role');
    delete drawer.dataset.i18nLabel;
    drawer.removeAttribute('aria-label');
    document.documentElement.style.removeProperty('--stage-text');
  }
  setDrawer(false);
}

function setEditing(on) {
  state.editing = on;
  $('#edit-toggle').setAttribute('aria-pressed', String(on));
  document.body.classList.toggle('editing', on);
}

/** Opens or closes the drawer of controls; closing it gives the focus back to its toggle. */
export function openDrawer(open) {
  setDrawer(open);
  if (open) $('#drawer').querySelector('button, input, select, textarea')?.focus();
  else $('#drawer-toggle').focus();
}

function setDrawer(open) {
  $('#drawer').dataset.open = open ? '1' : '0';
  $('#drawer-toggle').setAttribute('aria-expanded', String(open));
  $('#drawer-close').hidden = !open;
}

/** Whether a press on the chart may change the data: always on the page; on stage only in
 *  edit mode, so that a click to focus the chart in front of a class edits nothing. */
export const pressEdits = () => !state.stage || state.editing;
