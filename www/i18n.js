// The page's words in English and 中文: each language is its own module under strings/, and
// a page loads only the language it shows (the other one when the reader switches), so the
// words weigh once, not twice. Keys are stable identifiers; `{name}` placeholders are
// filled by `format`.

export const LANGUAGES = ['en', 'zh'];

/** The strings of each language loaded so far, by language ([`loadLanguage`]). */
export const STRINGS = {};

/** Loads the strings of `lang` once; resolves to them. */
export async function loadLanguage(lang) {
  if (!STRINGS[lang]) STRINGS[lang] = (await import(`./strings/${lang}.js`)).default;
  return STRINGS[lang];
}

/** Fills `{name}` placeholders of `template` from `args`. */
export function format(template, args = {}) {
  return template.replace(/\{([\w-]+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** The string `key` in `lang` (loaded), or the key itself. */
export function translate(lang, key, args) {
  const template = STRINGS[lang]?.[key] ?? key;
  return format(template, args);
}

/**
 * The message of an error thrown by the wasm module, in `lang`: its `code` and `args`
 * pick and fill a template; anything else shows its own message.
 */
export function errorMessage(lang, error) {
  const code = error?.code;
  if (!code || !(`error.${code}` in (STRINGS[lang] ?? {}))) return String(error?.message ?? error);
  const args = { ...(error.args ?? {}) };
  if (args.bound) args.bound = translate(lang, `bound.${args.bound}`, args);
  // A bad row of classes: what its last column must be, in the reader's words.
  if (args.classes !== undefined) args.columns = translate(lang, 'csv.class-columns', args);
  return translate(lang, `error.${code}`, args);
}
