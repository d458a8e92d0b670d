// Time on the page: the player (play / pause / step / back / restart, at the speed of the
// slider) and the background work some panels finish in slices, one per frame, with a
// progress bar. Both move the panel only through its wasm handle.

import { syncControls } from './controls.js';
import { $, state, t } from './state.js';
import { writeUrl } from './url.js';
import { schedule, show } from './view.js';
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
    owed += SPEEDS[Number($('#speed').value)] ?? 1;
    const steps = Math.floor(owed);
    owed -= steps;
    const more = steps === 0 || advance(steps);
    if (more) requestAnimationFrame(tick);
    else pause();
  };
  requestAnimationFrame(tick);
}

export function pause() {
  state.playing = false;
  $('#play').textContent = t('player.play');
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
  syncControls();
  writeUrl();
  show();
  return more;
}

/**
 * Some panels finish a change in slices (long iterative solvers): one slice per frame, its
 * size adapted so that a slice takes about WORK_MS, with a progress bar meanwhile.
 */
const WORK_MS = 8;

export function startWork() {
  if (state.working || state.dead) return;
  state.working = true;
  const tick = () => {
    if (state.dead) return;
    const begin = performance.now();
    let more = false;
    try {
      more = call(() => state.lab.work(state.workBudget));
    } catch {
      more = false;
    }
    const spent = performance.now() - begin;
    if (spent < WORK_MS / 2) state.workBudget = Math.min(state.workBudget * 2, 1 << 24);
    else if (spent > WORK_MS * 2) state.workBudget = Math.max(Math.floor(state.workBudget / 2), 16);
    renderWork(more);
    schedule();
    if (more) requestAnimationFrame(tick);
    else state.working = false;
  };
  renderWork(true);
  requestAnimationFrame(tick);
}

function renderWork(more) {
  const progress = readReport().work;
  const box = $('#working');
  box.hidden = !more || !progress;
  document.body.dataset.working = more ? '1' : '0';
  if (!progress) return;
  const bar = $('#work-progress');
  bar.max = Math.max(progress[1], 1);
  bar.value = progress[0];
}
