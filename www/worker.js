// The comparisons' worker (www/comparisons.js starts it): the classic and EM runs beside the
// fast RVM, and the classic sweeps beside the classifiers, off the page's main thread. It runs
// the page's own compiled module, sent to it once, so its numbers are the page's to the bit.
//
// A job is a panel and its state as URL query pairs, the permalink's: the worker opens that
// panel, works it to its end in slices, and sends back the comparisons' outcomes
// (`Lab.comparisons()`) as they stand every REPORT_MS and when they are done. A newer job
// takes the place of the one under way at the end of its slice.
//
// It also opens a panel ahead of the page ({warm}): Chromium compiles a module's functions as
// they first run, and the code is the module's, shared with the page, so the page's own
// opening of the panel then runs code compiled already (see comparisons.js's `warmUp`); then it
// sets the panel's N to its largest, so that a reader's first change there runs optimised
// code too.
//
// Messages in:  {module: WebAssembly.Module}, then {id, panel, pairs, fingerprint} or
//               {warm: true, panel, pairs}.
// Messages out: {ready: true} | {failed: reason} | {id, fingerprint, numbers, failures, done}
//               | {warmed: panel}.

import init, { Lab } from './pkg/rvm_lab.js';
import { asksForFormula, loadFormulaModule } from './formula.js';
import { nextTask } from './tasks.js';

/** A slice of work, in ms: how long a newer job waits at most. */
const SLICE_MS = 50;
/** The outcomes so far go to the page at most this often (the table's rows follow). */
const REPORT_MS = 100;

/** The size of the drawing made ahead, in pixels: a chart's on a phone. */
const WARM_SIZE = [400, 300];
/** Panels not warmed at the top of their range: fast-rvm's N = 2000 holds a 2000 × 2000
 *  kernel design (32 MB the worker's memory would keep), and its first change there is
 *  under 50 ms at 4× CPU without. */
const WARM_TOP_SKIP = new Set(['fast-rvm']);
/** How long after its opening a panel is warmed at the top of its range, in ms. */
const WARM_TOP_DELAY_MS = 1500;

/** The module started, or the reason it could not be. */
let ready = null;
/** The newest job's id: an older one stops at the end of its slice. */
let newest = 0;

self.onmessage = async ({ data }) => {
  if (data.module) {
    ready = init({ module_or_path: data.module });
    try {
      await ready;
      postMessage({ ready: true });
    } catch (error) {
      postMessage({ failed: `the module did not start: ${error?.message ?? error}` });
    }
    return;
  }
  if (!data.warm) newest = data.id;
  try {
    await ready;
  } catch {
    return;
  }
  // A formula basis needs the formula module here too (if it cannot load, the panel does
  // not open, and the page runs the comparisons in slices).
  if (asksForFormula(data.pairs)) await loadFormulaModule().catch(() => null);
  if (data.warm) warm(data);
  else if (data.id === newest) run(data);
};

/** Opens `panel` in the state `pairs` as the page is about to, reads its report, prepares its
 *  drawing and draws it (as an SVG document: the charts' code but the canvas's), as the page
 *  does next; then says so. Whatever fails here fails in the page too, which says why: here
 *  it only ends the warming. Then it does the same at the top of the panel's data range. */
function warm({ panel, pairs }) {
  let lab = null;
  let top = null;
  try {
    lab = new Lab(panel, pairs);
    show(lab);
    if (!WARM_TOP_SKIP.has(panel)) top = largestN(lab);
  } catch {
    // The page meets the same error and shows it.
    lab?.free();
    lab = null;
  } finally {
    postMessage({ warmed: panel });
  }
  if (top === null) {
    lab?.free();
    return;
  }
  // Later, once the page has opened and drawn the panel: at once, this work raced the page's
  // first drawing for the CPU.
  setTimeout(() => {
    try {
      lab.set('N', top);
      show(lab);
    } catch {
      // Only the warming ends.
    } finally {
      lab.free();
    }
  }, WARM_TOP_DELAY_MS);
}

/** What the page does with a panel it has opened or changed: its report, its drawing. */
function show(lab) {
  lab.report();
  lab.prepareDrawing(Infinity);
  lab.svg(WARM_SIZE[0], WARM_SIZE[1], 1);
}

/**
 * The largest N the panel's control allows, as text (null for a panel without data), the
 * size its warm-up shows later. The panel's code is then compiled, and the code that runs
 * longest at that size optimised (Chromium first runs a function in its baseline compiler,
 * and optimises it once it has run enough), before a reader first asks for that size: least
 * squares' first change to N = 1000 took 11–18 ms without, about 3 ms with it, on this
 * machine.
 */
function largestN(lab) {
  const n = lab.describe().params.find((param) => param.key === 'N');
  return n ? String(n.control.max) : null;
}

/** Works job `id` (panel `panel` in the state `pairs`) to its end, a slice at a time, and
 *  sends its comparisons' outcomes, which must be those of `fingerprint`. */
function run({ id, panel, pairs, fingerprint }) {
  let lab;
  try {
    lab = new Lab(panel, pairs);
  } catch (error) {
    lab?.free();
    postMessage({ failed: `the panel did not open: ${error?.message ?? error}` });
    return;
  }
  let sent = performance.now();
  const slice = () => {
    if (id !== newest) {
      lab.free();
      return;
    }
    let more;
    let comparisons;
    try {
      more = lab.work(SLICE_MS);
      comparisons = lab.comparisons();
    } catch (error) {
      lab.free();
      postMessage({ failed: `the work stopped: ${error?.message ?? error}` });
      return;
    }
    const done = !more;
    if (comparisons && comparisons.fingerprint !== fingerprint) {
      // The permalink's state is not the page's: its outcomes would be another run's.
      lab.free();
      postMessage({ failed: `the comparisons' inputs differ (${comparisons.fingerprint}, not ${fingerprint})` });
      return;
    }
    const now = performance.now();
    if (comparisons && (done || now - sent >= REPORT_MS)) {
      sent = now;
      const { numbers, failures } = comparisons;
      postMessage({ id, fingerprint, numbers, failures, done: comparisons.done }, [numbers.buffer]);
    }
    if (done) {
      if (!comparisons) postMessage({ failed: `${panel} has no comparisons in this state` });
      lab.free();
    } else {
      nextTask(slice);
    }
  };
  slice();
}
