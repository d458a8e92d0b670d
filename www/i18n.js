// The page's words in English and 中文: each language is its own module under strings/, and
// a page loads only the language it shows (the other one when the reader switches), so the
// words weigh once, not twice. A panel's own long texts — its introduction, its chart in
// words, the sentences of its summary — are a module of their own, strings/<lang>/<panel>.js,
// loaded with the panel: a page carries one panel's, not every panel's. Keys are stable
// identifiers; `{name}` placeholders are filled by `format`.

import { languageStrings, panelStrings } from './assets.js';

export const LANGUAGES = ['en', 'zh'];

/** The strings of each language loaded so far, by language ([`loadLanguage`]). */
export const STRINGS = {};

/** Loads the strings of `lang` once; resolves to them. */
export async function loadLanguage(lang) {
  if (!STRINGS[lang]) STRINGS[lang] = await languageStrings(lang);
  return STRINGS[lang];
}

/**
 * The panels with words of their own, as the build found them (scripts/build.sh defines
 * PANELS_WITH_WORDS from strings/en/); null in the unbundled sources. A name on this list can be
 * fetched before the language's strings say it is a panel's.
 */
export const KNOWN_PANELS = typeof PANELS_WITH_WORDS === 'undefined' ? null : PANELS_WITH_WORDS; // eslint-disable-line no-undef

/** The loads of panels' own words so far, by `lang/panel` ([`loadPanelWords`]). */
const PANEL_WORDS = new Map();

/** A panel name as the lab spells them (`fast-rvm`): anything else is never fetched. */
const PANEL_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Loads the words of panel `name` in `lang` once, into that language's strings; resolves to
 * them. Rejects for a name that is no panel's (its module is not there).
 */
export function loadPanelWords(lang, name) {
  const key = `${lang}/${name}`;
  if (!PANEL_WORDS.has(key)) {
    const words = PANEL_NAME.test(name) ? panelStrings(lang, name) : Promise.reject(new Error(`no panel ${name}`));
    PANEL_WORDS.set(key, Promise.all([loadLanguage(lang), words]).then(([strings, own]) => Object.assign(strings, own)));
  }
  return PANEL_WORDS.get(key);
}

/** Fills `{name}` placeholders of `template` from `args`, and `{name|one|many}` with the word
 *  for that many: `one` where `args[name]` is 1, else `many` ("{rv} {rv|vector|vectors}"). */
export function format(template, args = {}) {
  return template.replace(/\{([\w-]+)(?:\|([^|}]*)\|([^}]*))?\}/g, (whole, name, one, many) => {
    if (!(name in args)) return whole;
    if (one === undefined) return String(args[name]);
    return Number(args[name]) === 1 ? one : many;
  });
}

/** The string `key` in `lang` (loaded), or the key itself. */
export function translate(lang, key, args) {
  const template = STRINGS[lang]?.[key] ?? key;
  return format(template, args);
}

/**
 * `args` with the quantity of a refused result (`readout.beta`, `column.log-ml`: a key of the
 * strings) in `lang`'s words, as an error or a message names it.
 */
export function namingQuantity(lang, args) {
  return args.quantity === undefined ? { ...args } : { ...args, quantity: translate(lang, args.quantity) };
}

/**
 * The message of an error thrown by the wasm module, in `lang`: its `code` and `args`
 * pick and fill a template; anything else shows its own message.
 */
export function errorMessage(lang, error) {
  const code = error?.code;
  if (!code || !(`error.${code}` in (STRINGS[lang] ?? {}))) return String(error?.message ?? error);
  const args = namingQuantity(lang, error.args ?? {});
  if (args.bound) args.bound = translate(lang, `bound.${args.bound}`, args);
  // Why a typed formula has no value there, in the reader's words.
  if (args.cause) args.cause = translate(lang, `cause.${args.cause}`, args);
  // A bad row of classes: what its last column must be, in the reader's words.
  if (args.classes !== undefined) args.columns = translate(lang, 'csv.class-columns', args);
  return translate(lang, `error.${code}`, args);
}
