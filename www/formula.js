// The formula module (pkg/formula_bg.wasm, src/formula_module.rs): the parser of the basis
// family "formula", loaded the first time a formula is asked for (the basis menu's choice, a
// URL, a lesson step), so the readers who never type one do not download it. Once it is in,
// its calls go on `globalThis.rvmLabFormula`, where the solver module's imports find them; until
// then the solver module refuses a formula with the error `formula-module-missing`.

import { formulaModule } from './assets.js';
import { loadPanelWords } from './i18n.js';

/** The formula module's loading, once begun. */
let loading = null;

/** Whether the formula module is in (its words are wanted in every language then). */
export const formulaLoaded = () => Boolean(globalThis.rvmLabFormula);

/** The formula family's words in `lang` (strings/<lang>/formula.js: its control, its presets
 *  and its errors), loaded once into that language's strings. */
export const loadFormulaWords = (lang) => loadPanelWords(lang, 'formula');

/** Loads and starts the formula module, once; resolves when the solver module can use it
 *  (rejects, and the next call tries again, if it could not be loaded). The comparisons'
 *  worker, which shows no words, calls this alone: its bundle then carries no strings code. */
export function loadFormulaModule() {
  loading ??= formulaModule().then(
    ({ compile, fill, free, explain }) => {
      globalThis.rvmLabFormula = { compile, fill, free, explain };
    },
    (error) => {
      loading = null;
      // As the solver module says it (the page words it by its code).
      throw Object.assign(new Error(`the formula module could not be loaded: ${error?.message ?? error}`), {
        code: 'formula-module-missing',
        args: {},
      });
    },
  );
  return loading;
}

/** As [loadFormulaModule], with the formula's words in `lang` (the page). */
export function loadFormula(lang) {
  return Promise.all([loadFormulaModule(), loadFormulaWords(lang).catch(() => null)]).then(() => undefined);
}

/** Whether the URL pairs `pairs` ([key, value]) ask for a formula basis. */
export const asksForFormula = (pairs) => pairs.some(([key, value]) => key === 'basis' && value === 'formula');
