// The single file's parts (rvm-lab.html): what assets.js fetches when the lab is served, held
// inside the file — both languages' strings, every panel's own words, every lesson, the solver
// module, the formula module, the lesson editor, the LMS session, a link's packing and the
// share box — so that it needs no fetch, no module script and no dynamic import, and runs from
// disk and in sandboxed frames. scripts/single.mjs bundles the page with this module in
// assets.js's place; `rvm-lab:parts` is the table of contents it writes.

import { LANGUAGES, PANEL_WORDS, LESSONS, SOLVER_GZIP, FORMULA_GZIP } from 'rvm-lab:parts';
import * as editor from './editor.js';
import * as linkPack from './link-pack.js';
import * as formulaGlue from './pkg/formula.js';
import * as scormSession from './scorm-session.js';
import * as share from './share.js';
import { StartupError } from './startup.js';

export async function languageStrings(lang) {
  if (!(lang in LANGUAGES)) throw new Error(`no language ${lang}`);
  return LANGUAGES[lang];
}

export async function panelStrings(lang, name) {
  const words = PANEL_WORDS[`${lang}/${name}`];
  if (!words) throw new Error(`no panel ${name}`);
  return words;
}

export async function lessonText(file) {
  return LESSONS[file] ?? null;
}

/**
 * The solver module, which the file holds gzipped: inflated by the browser's own
 * DecompressionStream and compiled as it inflates. Only the SIMD build is inside (every
 * browser with DecompressionStream has wasm SIMD, but Chromium 80–90), so a browser without
 * either is told it is too old.
 */
export async function solverModule(build) {
  if (build !== 'simd' || typeof DecompressionStream !== 'function') {
    throw new StartupError('old', build !== 'simd' ? 'no WebAssembly SIMD' : 'no DecompressionStream');
  }
  return inflated(SOLVER_GZIP);
}

/** A wasm response of the gzipped bytes `gzip`, inflated as it is read. */
function inflated(gzip) {
  const wasm = new Blob([gzip]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(wasm, { headers: { 'content-type': 'application/wasm' } });
}

/** The formula module, inside the file: its glue in the script, its wasm gzipped. */
export async function formulaModule() {
  await formulaGlue.default({ module_or_path: inflated(FORMULA_GZIP) });
  return formulaGlue;
}

/** The lesson editor, inside the file (its stylesheet is in the file's style). */
export async function editorModule() {
  return editor;
}

/** A lesson's session with an LMS, inside the file (an LMS package is this file). */
export async function scormSessionModule() {
  return scormSession;
}

/** A link's packing and compression, inside the file. */
export async function linkPackModule() {
  return linkPack;
}

/** The share box and the PNG for slides, inside the file. */
export async function shareModule() {
  return share;
}

/** No worker script: the single file loads nothing (its policy allows no worker either), so
 *  the comparisons run in the page's slices. */
export const workerUrl = () => null;
