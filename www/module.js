// Which build of the solver module a browser loads. Both builds come from the same Rust
// source: one for browsers with wasm's fixed-width SIMD (simd128: Chrome and Edge 91,
// Firefox 89, Safari 16.4 and later), which is about a fifth faster on the panels' heavy
// runs, and one without for the rest. They compute the same numbers to the bit: the vector
// loops do what the scalar ones do, lane by lane, in the same order (src/linalg.rs).

import init from './pkg/rvm_lab.js';
import { solverModule } from './assets.js';
import { StartupError, startupError } from './startup.js';

/** A module of one function with one SIMD instruction (i8x16.popcnt of i8x16.splat 0): it
 *  validates exactly where wasm's SIMD is supported. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** The build this browser can run: 'simd' or 'scalar'. */
export function fittingBuild() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar';
}

/** The compiled module the page runs, once it is loaded: what the comparisons' worker
 *  starts from (the same build, compiled once). */
let compiled = null;

/** The compiled module the page runs (null before it is loaded). */
export const solverCompiled = () => compiled;

/** Fetches, compiles and starts the module (`build` 'simd' or 'scalar'; the fitting one by
 *  default). Rejects with a StartupError that says why it could not. */
export async function loadModule(build = fittingBuild()) {
  if (typeof WebAssembly !== 'object') throw new StartupError('nowasm');
  try {
    compiled = await compile(await solverModule(build));
    return await init({ module_or_path: compiled });
  } catch (error) {
    throw startupError(error);
  }
}

/** Compiles the module as it streams in; from the whole download where the host does not
 *  send it as application/wasm (which streaming compilation requires). */
async function compile(response) {
  const copy = response.clone();
  try {
    return await WebAssembly.compileStreaming(response);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    console.warn(`RVM Lab: the host sends the solver module as ${copy.headers.get('content-type')}, not application/wasm, so it is compiled once it is all in (${error.message})`);
    return WebAssembly.compile(await copy.arrayBuffer());
  }
}
