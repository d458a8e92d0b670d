// Time on the page: the player (play / pause / step / back / restart, at the speed of the
// slider) and the background work some panels finish in slices, one per frame, with a
// progress bar. Both move the panel only through its wasm handle.

import { sendComparisons } from './comparisons.js';
import { clearErrors } from './errors.js';
import { $, state, t } from './state.js';
import { syncControls } from './sync.js';
import { nextTask } from './tasks.js';
import { writeUrl } from './url.js';
import { drawNow, renderReports, renderWork, schedule, show } from './view.js';
import { call, readReport } from './wasm.js';

/**
 * Steps per frame for each position of the speed slider: from one step every half second
 * (to follow an algorithm on a projector) to 64 per frame.
 */
const SPEEDS = [1 / 30, 1 / 8, 1 / 2, 1, 4, 16, 64];

/**
 * Plays the animation at the speed of the slider. With the system's reduced-motion setting
 * it shows the last frame at once instead (Step and Back still walk frame by frame).
 */
export function play() {
  if (state.dead || state.playing) return;
  const [shown, total] = readReport().position ?? [0, 0];
  if (shown >= total) call(() => state.lab.rewind());
  if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
    advance(total - (shown >= total ? 0 : shown));
    return;
  }
  state.playing = true;
  $('#play').textContent = t('player.pause');
  // Fractions of a step per frame add up until a whole step is due.
  let owed = 1;
  const tick = () => {
    if (!state.playing || state.dead) return;
    // The step before is still being prepared for drawing: each step is drawn (a slow
    // phone plays slower rather than skipping frames).
    if (state.preparing) {
      requestAnimationFrame(tick);
      return;
    }
    owed += SPEEDS[Number($('#speed').value)] ?? 1;
    const steps = Math.floor(owed);
    owed -= steps;
    const more = steps === 0 || advance(steps);
    drawNow();
    if (more) requestAnimationFrame(tick);
    else pause();
  };
  requestAnimationFrame(tick);
}

export function pause() {
  const was = state.playing;
  state.playing = false;
  $('#play').textContent = t('player.play');
  // The chart's description was held back while playing: say where it stopped.
  if (was && !state.dead) renderReports();
}

/** Advances the animation and redraws; `false` once it is over. */
export function advance(steps) {
  return step(() => state.lab.step(steps));
}

/** One frame back, or back to the start: the player's other buttons. */
export function stepBack() {
  pause();
  step(() => state.lab.stepBack());
}

export function restart() {
  pause();
  call(() => state.lab.rewind());
  show();
}

/** Moves the animation by `move` (forward or back) and redraws; returns what `move` does. */
function step(move) {
  let more = false;
  try {
    more = call(move);
  } catch {
    return false;
  }
  // As after any change that succeeded: the controls show the state, so a message about a
  // value typed before (no longer in its box) goes.
  clearErrors();
  syncControls();
  writeUrl();
  show();
  return more;
}

/**
 * Some panels finish a change in slices (long iterative solvers, a run recorded step by
 * step, a large design): slices of about SLICE_MS each, as separate tasks between frames (so
 * an input never waits longer than a slice), with a progress bar meanwhile. The change itself
 * is drawn before the first slice. The chart follows the growing work at most every
 * REDRAW_MS, and once more when it is done; the work goes on meanwhile, and the browser draws
 * the frame between two slices (waiting for it would leave the thread idle for up to a frame
 * at each redraw).
 */
/** A slice's budget: 6 ms here stays under 50 ms on a phone 4× slower with what else its task
 *  holds (a piece begun in time is finished, and the progress read); 10 ms left tasks of 12–17
 *  ms here, over 50 at 4×. (Lighthouse's mobile blocking time on the classification lesson,
 *  single runs on a noisy machine: 187 and 379 ms before, 71–234 ms after.) */
const SLICE_MS = 6;
/** While the frame asked for waits to be drawn, slices are this short: the browser draws it
 *  between two slices, so it would otherwise wait for the end of the slice under way. */
const SLICE_BEFORE_DRAW_MS = 3;
const REDRAW_MS = 100;
/** The progress bar follows the work at most this often: each change to it has the browser
 *  render a frame between two slices (about 1.5 ms each). */
const PROGRESS_MS = 100;

/** Runs `task` as a task after the next frame (the chart drawn by then). */
const afterFrame = (task) => requestAnimationFrame(() => nextTask(task));

export function startWork() {
  if (state.working || state.dead) return;
  // Comparisons go to the worker before a step of theirs is taken here.
  sendComparisons(startWork);
  // The report just shown says whether work is left (done < total).
  const left = state.report?.work;
  if (!left || left[0] >= left[1]) return;
  state.working = true;
  let drawn = performance.now();
  let shown = drawn;
  // Whether the frame asked for is still to come: its arrival is drawn at once.
  let { progress, waiting } = call(() => state.lab.workProgress());
  // Whether the frame asked for has arrived and its drawing is still to come.
  let arrivedUndrawn = false;
  const slice = () => {
    if (state.dead) return;
    // A drawing being prepared goes first: a slice could move the frame it prepares.
    if (state.preparing) {
      nextTask(slice);
      return;
    }
    arrivedUndrawn &&= Boolean(state.frame);
    let more = false;
    try {
      more = call(() => state.lab.work(arrivedUndrawn ? SLICE_BEFORE_DRAW_MS : SLICE_MS));
    } catch {
      more = false;
    }
    // Comparisons a slice set up go to the worker before the next.
    sendComparisons(startWork);
    const wasWaiting = waiting;
    ({ progress, waiting } = call(() => state.lab.workProgress()));
    const arrived = wasWaiting && !waiting;
    const now = performance.now();
    if (!more || now - shown >= PROGRESS_MS) {
      shown = now;
      renderWork(more, progress);
    }
    // The frame asked for (a run being prepared, a sweep of a permalink) is drawn as soon as
    // it is there; after that, drawing takes at most a tenth of the time: on a slow phone the
    // chart follows less often.
    const redraw = !more || arrived || now - drawn >= Math.max(REDRAW_MS, 10 * state.drawMs);
    if (redraw) {
      drawn = now;
      schedule();
      arrivedUndrawn = arrived;
    }
    if (!more) state.working = false;
    else nextTask(slice);
  };
  renderWork(true, progress);
  // The change itself is drawn first.
  afterFrame(slice);
}

