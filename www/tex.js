// Equations as lecturers write them: TeX made into the MathML a lesson stores beside it
// (`"tex"` and `"math"` of a step), by Temml (npm's `temml`, pinned in package.json), the
// one TeX-to-MathML library of the project. The lesson editor (editor.js, its own bundle)
// converts as the lecturer types; scripts/lesson-math.mjs makes the built-in lessons'
// MathML from their TeX at build time, and tests/e2e/lesson_tex.test.mjs checks that no
// lesson's MathML is stale. The page itself never loads this module: readers get the
// MathML the lesson file holds.

import temml from 'temml';

/** A TeX equation that Temml cannot read: where (`position`, 0-based index into the TeX, or
 *  null where Temml gives none), what (`token`, the text it stopped at; empty at the end of
 *  the equation) and why (`reason`, Temml's words, and `code`, one of REASONS' names where
 *  the reason is one of them, for the reader's language). */
export class TexError extends Error {
  constructor(reason, position, token, code, args) {
    super(reason);
    Object.assign(this, { reason, position, token, code, args });
  }
}

/** Temml's commonest reasons, by a name the editor words in English and 中文: each a pattern
 *  of Temml's message (its `ParseError` has only English words) and what of it the words
 *  name (`what`). */
const REASONS = [
  ['unknown', /^(?:Unsupported function name|Undefined control sequence)/],
  ['environment', /^No such environment: (?<what>.*)/],
  ['mismatch', /^Mismatch: /],
  ['double', /^Double (?:super|sub)script/],
  ['argument', /^Expected group (?:as argument to|after) '(?<what>.+)'/],
  ['extra', /^Expected 'EOF', got/],
  ['missing', /expected '(?<what>[^']+)'/i],
];

/** The TexError of what Temml threw on `tex`. Temml's message is "<reason> at position k:
 *  …" or "<reason> at end of input: …", the token it stopped at underlined (each of its
 *  characters followed by U+0332); anything else it throws (a bug of its own, e.g. on `x^`)
 *  is an error without a place. */
function texError(error, tex) {
  const message = String(error?.message ?? error).trim();
  const [reason] = message.split(/ at (?:position \d+|end of input):/);
  const position = Number.isInteger(error?.position) ? Math.min(error.position, tex.length) : null;
  const token = position === null ? '' : (message.match(/(?:[^]\u0332)+/)?.[0] ?? '').replaceAll('\u0332', '').trim();
  for (const [code, pattern] of REASONS) {
    const found = pattern.exec(reason);
    if (found) return new TexError(reason, position, token, code, { what: found.groups?.what ?? '' });
  }
  return new TexError(reason, position, token, null, {});
}

/** Temml's options for a lesson's equation: displayed (a lesson shows one equation per step),
 *  and every error thrown, to say where it is. (`trust` stays off: no \href, \class, \style or
 *  \includegraphics, nothing but an equation.) */
const OPTIONS = { displayMode: true, throwOnError: true, annotate: false, trust: false };

/** The root element Temml writes for a displayed equation: its class and style say what
 *  `display="block"` says to every browser (MathML Core), so a lesson stores it without them. */
const ROOT = '<math display="block" class="tml-display" style="display:block math;">';

/** What a style of Temml's becomes in a lesson's MathML, by property: a MathML attribute
 *  (colours, a script level), or a class of the page's stylesheet (a box). */
const STYLED = {
  color: (value) => ` mathcolor="${value}"`,
  'background-color': (value) => ` mathbackground="${value}"`,
  'math-depth': (value) => ` scriptlevel="${value}"`,
  border: () => ' class="tml-box"',
};

/**
 * Temml's style attribute `style` as a lesson's MathML holds it: no style attribute (a page
 * under a Content-Security-Policy without 'unsafe-inline' refuses them, and a lesson's MathML
 * is only ever an equation), its colours and script level as MathML attributes, a box as a
 * class; the padding of table cells is the stylesheet's (style.css, for cases, aligned and
 * matrices alike), and any other style is left out.
 */
function unstyled(style) {
  return style.split(';').map((declaration) => {
    const [property, ...value] = declaration.split(':');
    return STYLED[property.trim()]?.(value.join(':').trim()) ?? '';
  }).join('');
}

/**
 * The MathML of TeX `tex`, as a lesson stores it (`"math"` beside `"tex"`): Temml's output,
 * its root element written as `<math display="block">` and its styles as `unstyled` makes
 * them. Throws a TexError where Temml cannot read `tex`.
 */
export function texToMathml(tex) {
  let markup;
  try {
    markup = temml.renderToString(tex, OPTIONS);
  } catch (error) {
    throw texError(error, tex);
  }
  const rooted = markup.startsWith(ROOT) ? `<math display="block">${markup.slice(ROOT.length)}` : markup;
  // (An element given a box keeps one class attribute: Temml's classes and the box's.)
  return rooted.replace(/ style="([^"]*)"/g, (whole, style) => unstyled(style))
    .replace(/ class="([^"]*)"([^>]*?) class="tml-box"/g, ' class="$1 tml-box"$2');
}
