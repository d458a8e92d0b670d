// The one door to the wasm module: every call goes through `call`, which tells the core's
// typed errors (passed on to the caller) from a trap (a Rust panic: the module is gone, the
// page says so, keeps the last plot and disables the controls).

import { loadModule } from './module.js';
import { Lab, crashForTests, panelNames, panicked } from './pkg/rvm_lab.js';
import { $, state, t } from './state.js';

export { Lab, crashForTests, loadModule, panelNames };

/** The module is gone: say so, keep the last plot, disable the controls. */
export function die(cause) {
  if (state.dead) return;
  state.dead = true;
  console.error('RVM Lab: the wasm module stopped', cause);
  document.documentElement.classList.remove('no-words', 'no-module');
  const banner = $('#crash');
  banner.textContent = t('app.crashed');
  banner.hidden = false;
  for (const el of document.querySelectorAll('main input, main select, main button')) el.disabled = true;
}

/**
 * Runs a call into the wasm module. A trap (a Rust panic) kills the module; an ordinary
 * thrown `Error` is the core's typed error and is passed on.
 */
export function call(fn) {
  if (state.dead) throw new Error('the solver module has stopped');
  try {
    return fn();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError || safePanicked()) {
      die(error);
    }
    throw error;
  }
}

function safePanicked() {
  try {
    return panicked();
  } catch {
    return true;
  }
}

/** The open panel's report, read fresh and kept in `state.report`. */
export function readReport() {
  state.report = call(() => state.lab.report());
  return state.report;
}
