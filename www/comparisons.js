// The comparisons beside a panel's own run — classic and EM beside the fast RVM, the classic
// sweeps beside the classifiers — run in a worker (www/worker.js) where the browser can start
// one, so that the main thread keeps only the panel's own run and the drawing. The worker
// opens the same panel in the same state (the permalink's query) on the page's own compiled
// module, and sends back the comparisons' outcomes; the panel takes them only for comparisons
// on the same inputs (their fingerprint), so its table rows are the numbers the slices would
// have given, to the bit.
//
// Where no worker can run, the comparisons run in the page's slices as before: no `Worker`
// (an old browser), no worker script (the single file, which loads nothing), a worker the
// host's policy refuses or that fails to start or to compute (its `error` event, or a message
// saying why). The page then says nothing to the reader — the table fills as it always did —
// and `<html data-comparisons>` reads `here` instead of `worker`.
//
// The same worker opens each panel once ahead of the page (`warmUp`), so that the page's
// first opening of it runs compiled code: Chromium compiles a module's functions as they
// first run, and the worker's module is the page's. On a phone a panel's first opening was
// its page's longest task (gradient descent's: 30 ms on this machine, 13 ms warmed).

import { workerUrl } from './assets.js';
import { solverCompiled } from './module.js';
import { showError } from './errors.js';
import { state } from './state.js';
import { renderReports, renderWork } from './view.js';
import { call, readReport } from './wasm.js';

/** How many finished jobs' outcomes are kept, by fingerprint: a change and its undo, a
 *  setting the comparisons do not read, get their rows at once. */
const KEEP_FINISHED = 8;

/** The worker, once started; whether one may still be (false once none can). */
let worker = null;
let usable = typeof Worker === 'function';
if (!usable) document.documentElement.dataset.comparisons = 'here';
/** The fingerprint the worker is working on now, and the number of the last job sent. */
let inFlight = null;
let jobs = 0;
/** Finished outcomes by fingerprint: {numbers, failures}. */
const finished = new Map();

/** What starts the page's slices again (player.js's startWork), for a worker that fails. */
let resumeSlices = () => {};

/** How long, in ms, a panel's opening waits at most for the worker to open it first. */
const WARM_WAIT_MS = 600;
/** The panels opened ahead already (or being); what ends the page's wait for each being. */
const warmed = new Set();
const warming = new Map();

/**
 * Has the worker open panel `name` in the state `pairs` ahead of the page, the first time
 * the page opens it; resolves once the worker has (its code is then compiled), fails, or
 * after WARM_WAIT_MS: the page's opening never waits for more. Nothing where no worker can
 * run.
 */
export function warmUp(name, pairs) {
  if (!usable || warmed.has(name)) return Promise.resolve();
  warmed.add(name);
  if (!worker && !startWorker()) return Promise.resolve();
  worker.postMessage({ warm: true, panel: name, pairs });
  return new Promise((done) => {
    const end = () => {
      clearTimeout(timer);
      warming.delete(name);
      done();
    };
    const timer = setTimeout(end, WARM_WAIT_MS);
    warming.set(name, end);
  });
}

/**
 * Sends the open panel's comparisons to the worker, if it has comparisons still to run and a
 * worker can take them: the panel stops stepping them itself, and the worker gets the job
 * unless it is working on the same inputs already. Called before and after each slice of the
 * page's work, with what starts those slices (should the worker fail, they take over).
 */
export function sendComparisons(startSlices) {
  resumeSlices = startSlices;
  if (!usable || state.dead || !state.lab) return;
  const comparisons = call(() => state.lab.comparisons());
  if (!comparisons || comparisons.done) return;
  if (!worker && !startWorker()) return;
  if (!comparisons.elsewhere) call(() => state.lab.runComparisonsElsewhere(true));
  const { fingerprint } = comparisons;
  const known = finished.get(fingerprint);
  if (known) {
    adopt(fingerprint, known);
    return;
  }
  if (fingerprint === inFlight) return;
  inFlight = fingerprint;
  jobs += 1;
  worker.postMessage({ id: jobs, panel: state.panel, pairs: call(() => state.lab.query()), fingerprint });
}

/** Starts the worker on the page's compiled module; `false` (and none from now on) if it
 *  cannot be. */
function startWorker() {
  const url = workerUrl();
  const module = solverCompiled();
  if (!url || !module) return refuse('no worker script or module');
  try {
    worker = new Worker(url, { type: 'module' });
    worker.onmessage = received;
    worker.onerror = (event) => {
      event.preventDefault();
      fail(event.message || 'the worker did not start');
    };
    worker.onmessageerror = () => fail('a message from the worker could not be read');
    worker.postMessage({ module });
  } catch (error) {
    worker?.terminate();
    worker = null;
    return refuse(error?.message ?? String(error));
  }
  document.documentElement.dataset.comparisons = 'worker';
  return true;
}

/** A message from the worker: outcomes to take, or the reason it cannot go on. */
function received({ data }) {
  if (data.ready) return;
  if (data.warmed) {
    warming.get(data.warmed)?.();
    return;
  }
  if (data.failed) {
    fail(data.failed);
    return;
  }
  const { fingerprint, numbers, failures, done } = data;
  if (done) {
    finished.set(fingerprint, { numbers, failures });
    if (finished.size > KEEP_FINISHED) finished.delete(finished.keys().next().value);
    if (inFlight === fingerprint) inFlight = null;
  }
  adopt(fingerprint, { numbers, failures });
}

/** The open panel takes outcomes on inputs with `fingerprint`, if they are its comparisons';
 *  its tables and progress bar follow. */
function adopt(fingerprint, { numbers, failures }) {
  if (state.dead || !state.lab) return;
  let taken = false;
  try {
    taken = call(() => state.lab.adoptComparisons(fingerprint, numbers, failures));
  } catch (error) {
    if (!state.dead) showError('draw', error);
    return;
  }
  if (!taken) return;
  renderReports();
  renderWork(false, call(() => state.lab.workProgress()).progress);
}

/** No worker can run here: the comparisons stay in the page's slices. */
function refuse(reason) {
  usable = false;
  document.documentElement.dataset.comparisons = 'here';
  console.warn(`RVM Lab: the comparisons run on the page's main thread (${reason})`);
  return false;
}

/** The worker failed: the open panel's comparisons run in its slices again, from where they
 *  were there. */
function fail(reason) {
  worker?.terminate();
  worker = null;
  inFlight = null;
  refuse(reason);
  for (const end of [...warming.values()]) end();
  if (state.dead || !state.lab) return;
  call(() => state.lab.runComparisonsElsewhere(false));
  // The work left, as the panel now counts it (the report shown may be older).
  readReport();
  resumeSlices();
}
