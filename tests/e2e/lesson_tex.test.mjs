// Equations from TeX (issue 52, point 3): every built-in lesson's equation is written in TeX
// (`"tex"`), and its MathML (`"math"`, what the page shows) is Temml's for that TeX, recomputed
// here with the library itself — so a lesson whose MathML is stale fails (scripts/lesson-math.mjs
// makes it again, and the build runs it). The script changes only a stale step's MathML in
// the file's text; the converter says where a TeX error is; and the equations' font
// (www/fonts/lab-math.woff2, read here from its WOFF2 tables) has a glyph for every character
// of every built-in equation, and the MATH table that makes delimiters stretch. No browser
// and no wasm: run it with `node --test tests/e2e/lesson_tex.test.mjs`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import temml from 'temml';
import { TexError, texToMathml } from '../../www/tex.js';
import { withMath } from '../../scripts/lesson-math.mjs';
import { LESSONS } from './sources.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every built-in step with an equation: [lesson id, step (from 1), step]. */
const equations = () => LESSONS.flatMap(([id, lesson]) => lesson.steps.map((step, i) => [id, i + 1, step]).filter(([, , step]) => step.math || step.tex));

test('every built-in equation is written in TeX, and its MathML is Temml\'s for it', () => {
  const found = equations();
  assert.ok(found.length >= 55, `${found.length} equations`);
  for (const [id, k, step] of found) {
    assert.equal(typeof step.tex, 'string', `${id} step ${k}: its TeX`);
    assert.equal(texToMathml(step.tex), step.math, `${id} step ${k}: its MathML is stale (node scripts/lesson-math.mjs)`);
    // It is Temml's own output but for its styles: its root element written as
    // `<math display="block">` (its class and style say what display="block" says), and no style
    // attribute, a style's colour, script level or box an attribute or class instead.
    const made = temml.renderToString(step.tex, { displayMode: true, throwOnError: true });
    assert.match(made, /^<math display="block" class="tml-display" style="display:block math;">/);
    const bare = (markup) => markup.replace(/^<math [^>]*>/, '<math>').replace(/ style="[^"]*"| (?:mathcolor|mathbackground|scriptlevel)="[^"]*"/g, '');
    assert.equal(bare(step.math), bare(made), `${id} step ${k}`);
    assert.ok(!/ style=/.test(step.math), `${id} step ${k}: a style attribute`);
  }
});

test('the built-in lessons\' TeX is what a lecturer writes: bold vectors, cases, matrices of symbols', () => {
  const tex = equations().map(([, , step]) => step.tex).join('\n');
  for (const command of ['\\mathbf{w}', '\\mathbf{\\Phi}', '\\mathcal{N}', '\\begin{dcases}', '\\begin{cases}', '\\frac', '\\sum_{n=1}^{N}', '\\left[', '\\operatorname*{argmin}']) {
    assert.ok(tex.includes(command), command);
  }
  // No MathML hides in the TeX.
  assert.ok(!/<m[a-z]+/.test(tex));
});

test('scripts/lesson-math.mjs makes a stale step\'s MathML again, or puts it after its TeX, and changes nothing else', () => {
  const text = readFileSync(new URL('../../www/lessons/sparsity.json', import.meta.url), 'utf8');
  assert.deepEqual(withMath(text, 'sparsity.json'), { text, stale: [] });
  const lesson = JSON.parse(text);
  const [old, tex] = [lesson.steps[2].tex, 'q^2 \\le s \\quad \\Rightarrow \\quad \\alpha^\\star = \\infty \\ne 0'];
  const edited = text.replace(JSON.stringify(old), JSON.stringify(tex));
  const { text: made, stale } = withMath(edited, 'sparsity.json');
  assert.deepEqual(stale, [3]);
  const lines = (body) => body.split('\n');
  const changed = lines(made).filter((line, i) => line !== lines(edited)[i]);
  assert.deepEqual(changed, [`      "math": ${JSON.stringify(texToMathml(tex))},`]);
  // A step with TeX and no MathML gets its MathML on the next line, indented as its TeX.
  const bare = edited.replace(/,\n\s*"math": "(?:[^"\\]|\\.)*"/, '');
  const { text: filled, stale: first } = withMath(bare, 'sparsity.json');
  assert.deepEqual(first, [1, 3]);
  assert.deepEqual(JSON.parse(filled).steps.map((step) => step.math), JSON.parse(made).steps.map((step) => step.math));
  // The built-in lessons as they are: none stale (the build's check).
  const out = execFileSync(process.execPath, ['scripts/lesson-math.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
  assert.match(out, /none stale/);
});

test('a TeX error says where it is: its position, the text there, and why', () => {
  // [TeX, why, the text there, where it starts (0-based)]: the second subscript's _ is the
  // error, not the first.
  const cases = [
    ['x^2 + \\foo', 'unknown', '\\foo', 6],
    ['a}', 'extra', '}', 1],
    ['x_1_2', 'double', '_', 3],
    ['\\begin{bogus} x \\end{bogus}', 'environment', '{bogus}', 6],
  ];
  for (const [tex, code, token, position] of cases) {
    assert.equal(tex.slice(position, position + token.length), token);
    assert.throws(() => texToMathml(tex), (error) => {
      assert.ok(error instanceof TexError);
      assert.deepEqual([error.code, error.token, error.position], [code, token, position], tex);
      return true;
    });
  }
  // At the end of the equation: no text there, and what is missing.
  assert.throws(() => texToMathml('\\frac{1}{'), (error) => error.token === '' && error.position === 9 && error.code === 'missing' && error.args.what === '}');
  // What Temml throws other than its own errors is an error without a place.
  assert.throws(() => texToMathml('x^'), (error) => error instanceof TexError && error.position === null);
});

/** The tables of a WOFF2 font (`bytes`), by tag, as their bytes (the glyph tables, which WOFF2
 *  may transform, are left out). */
function woff2Tables(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(view.getUint32(0), 0x774f4632, 'wOF2');
  const count = view.getUint16(12);
  const TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH'];
  let at = 48;
  const base128 = () => {
    let value = 0;
    for (;;) {
      const byte = bytes[at++];
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
  };
  const entries = [];
  for (let i = 0; i < count; i += 1) {
    const flags = bytes[at++];
    let tag = TAGS[flags & 0x3f];
    if ((flags & 0x3f) === 63) {
      tag = String.fromCharCode(...bytes.subarray(at, at + 4));
      at += 4;
    }
    const length = base128();
    const version = flags >> 6;
    // glyf and loca are transformed unless version 3; hmtx when version 1.
    const transformed = ['glyf', 'loca'].includes(tag) ? version !== 3 : version !== 0;
    entries.push({ tag, length: transformed ? base128() : length });
  }
  const data = brotliDecompressSync(bytes.subarray(at, at + view.getUint32(20)));
  const tables = {};
  let offset = 0;
  for (const { tag, length } of entries) {
    tables[tag] = data.subarray(offset, offset + length);
    offset += length;
  }
  return tables;
}

/** The code points a font's cmap table maps (its format 4 and 12 subtables). */
function mapped(cmap) {
  const view = new DataView(cmap.buffer, cmap.byteOffset, cmap.byteLength);
  const points = new Set();
  for (let i = 0; i < view.getUint16(2); i += 1) {
    const offset = view.getUint32(4 + i * 8 + 4);
    const format = view.getUint16(offset);
    if (format === 12) {
      for (let g = 0; g < view.getUint32(offset + 12); g += 1) {
        const start = view.getUint32(offset + 16 + g * 12);
        const end = view.getUint32(offset + 20 + g * 12);
        for (let c = start; c <= end; c += 1) points.add(c);
      }
    } else if (format === 4) {
      const segments = view.getUint16(offset + 6) / 2;
      for (let s = 0; s < segments; s += 1) {
        const end = view.getUint16(offset + 14 + s * 2);
        const start = view.getUint16(offset + 16 + segments * 2 + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c += 1) points.add(c);
      }
    }
  }
  return points;
}

test('the equations\' font has a glyph for every character of every built-in equation, and a MATH table', () => {
  const tables = woff2Tables(readFileSync(new URL('../../www/fonts/lab-math.woff2', import.meta.url)));
  assert.ok(tables.MATH?.length > 1000, 'a MATH table (stretchy delimiters, fractions and radicals)');
  // (Read where it should be: a MATH table starts with its version, 1.0.)
  assert.equal(new DataView(tables.MATH.buffer, tables.MATH.byteOffset).getUint32(0), 0x00010000);
  const points = mapped(tables.cmap);
  assert.ok(points.size > 500 && points.has(0x3b1) && points.has(0x1d430), `${points.size} characters`);
  const missing = new Set();
  for (const [id, k, step] of equations()) {
    for (const char of step.math.replace(/<[^>]*>/g, '').replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&')) {
      if (!points.has(char.codePointAt(0))) missing.add(`${id} ${k}: ${char} U+${char.codePointAt(0).toString(16)}`);
    }
  }
  assert.deepEqual([...missing], []);
  // Renamed, as the GUST Font License asks of a derived font.
  assert.ok(Buffer.from(tables.name).toString('latin1').replace(/\0/g, '').includes('RVM Lab Math'));
});
