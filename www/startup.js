// Why the lab could not start, as a value: the solver module, the page's strings or the
// browser itself. The page's start-up guard (boot.js, which runs before any module) says it in
// the chart's box, in the reader's language.

/** A start-up failure: `reason` is one of boot.js's messages ('download', 'nowasm', 'csp',
 *  'old'); `detail` the browser's own words, if any. */
export class StartupError extends Error {
  constructor(reason, detail = '') {
    super(detail ? `${reason}: ${detail}` : reason);
    this.reason = reason;
    this.detail = detail;
  }
}

/** Turns an error met while starting the solver into a StartupError: a policy that refuses
 *  WebAssembly, or a failed download. (A browser without WebAssembly is told so before the
 *  solver is asked for: module.js.) */
export function startupError(error) {
  if (error instanceof StartupError) return error;
  const detail = String(error?.message ?? error);
  if (window.rvmLabStartup?.refusedWasm(error)) return new StartupError('csp', detail);
  return new StartupError('download', detail);
}

/** Says in the chart's box that the lab could not start, and why (boot.js). */
export function showStartupFailure(error) {
  const { reason, detail } = startupError(error);
  if (window.rvmLabStartup) {
    window.rvmLabStartup.fail(reason, detail);
    return;
  }
  // No start-up guard (a page that left boot.js out): the reason in plain words.
  document.documentElement.classList.remove('no-js', 'no-words', 'no-module');
  document.documentElement.classList.add('failed');
  const box = document.getElementById('loading');
  if (box) box.textContent = `RVM Lab could not start (${reason}${detail ? `: ${detail}` : ''}).`;
}
