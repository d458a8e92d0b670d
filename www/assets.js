// Where the page's parts come from, served as here: each language's strings and each panel's
// own words are modules of their own (imported when first needed), the lessons are JSON files
// under lessons/, and the solver is a .wasm file under pkg/, all beside the page.
//
// The single file (rvm-lab.html, built by scripts/single.mjs) puts offline.js in this module's
// place: the same four functions over parts held inside the file itself.

import { StartupError } from './startup.js';

/** The strings of `lang` (strings/<lang>.js). */
export async function languageStrings(lang) {
  // Plain variables as paths (here and below), so that the bundler leaves the imports as they
  // are rather than put every strings file in the bundle.
  const path = `./strings/${lang}.js`;
  return (await import(path)).default;
}

/** The own words of panel `name` in `lang` (strings/<lang>/<name>.js). */
export async function panelStrings(lang, name) {
  const path = `./strings/${lang}/${name}.js`;
  return (await import(path)).default;
}

/** The text of lesson file `file` (lessons/<id>.json), or null when there is none. */
export async function lessonText(file) {
  const response = await fetch(file);
  return response.ok ? response.text() : null;
}

/** The lesson editor (editor.min.js, beside the page), loaded when first used: the page's
 *  first load does not carry it. */
export function editorModule() {
  const path = './editor.min.js';
  return import(path);
}

/** A lesson's session with an LMS (scorm-session.min.js, beside the page), loaded where there
 *  is an LMS: a page outside one does not carry it. */
export function scormSessionModule() {
  const path = './scorm-session.min.js';
  return import(path);
}

/** A link's packing and compression (link-pack.min.js, beside the page), loaded when a link
 *  first needs them (link.js). */
export function linkPackModule() {
  const path = './link-pack.min.js';
  return import(path);
}

/** The share box and the PNG for slides (share.min.js, beside the page), loaded when first
 *  used (url.js). */
export function shareModule() {
  const path = './share.min.js';
  return import(path);
}

/** The solver module of build `build` ('simd' or 'scalar'), as the wasm glue's `init` takes
 *  it: the response of pkg/rvm_lab[_simd]_bg.wasm (compiled as it streams in). */
export async function solverModule(build) {
  const file = build === 'simd' ? 'rvm_lab_simd_bg.wasm' : 'rvm_lab_bg.wasm';
  const url = new URL(`./pkg/${file}`, import.meta.url);
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new StartupError('download', `${url.pathname}: ${error.message}`);
  }
  if (!response.ok) throw new StartupError('download', `${url.pathname}: ${response.status} ${response.statusText}`);
  return response;
}

/** The formula module (pkg/formula.js, the glue, and pkg/formula_bg.wasm), started: its
 *  exports. Loaded when a formula is first asked for (formula.js). */
export async function formulaModule() {
  const path = './pkg/formula.js';
  const glue = await import(path);
  await glue.default({ module_or_path: new URL('./pkg/formula_bg.wasm', import.meta.url) });
  return glue;
}

/** The comparisons' worker script (worker.min.js, beside the page), which comparisons.js
 *  starts when the page first opens a panel. */
export const workerUrl = () => new URL('./worker.min.js', import.meta.url);
