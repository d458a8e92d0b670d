#!/usr/bin/env node
// Writes the single file, www/rvm-lab.html: the whole lab in one HTML file that runs where a
// served copy cannot — opened from disk (file://), in a frame sandboxed without
// allow-same-origin, as a frame's srcdoc, in an LMS — and from any static host.
//
//   node scripts/single.mjs [--out www/rvm-lab.html] [--student]
//
// `--student` leaves the lesson editor out (and with it the TeX converter, 207 KB of the
// file): the file a SCORM package holds opens in student mode, where the editor is not
// offered (scripts/package.mjs).
//
// (scripts/build.sh runs it once the module, boot.min.js and style.min.css are built.)
//
// It is index.html with everything it loads inside it:
// - the stylesheet, the lesson editor's with it, in a <style>, the equations' font inside it;
// - the start-up guard (boot.js) and the page's modules as two classic scripts: the page
//   bundled by esbuild as one IIFE with offline.js in assets.js's place, so it has no module
//   script, no dynamic import and fetches nothing;
// - both languages' strings, every panel's own words and every lesson (their texts, read by
//   offline.js from `rvm-lab:parts`, a module this script writes), and the lesson editor with
//   its TeX converter;
// - the solver's SIMD build, gzipped by zopfli and held by esbuild's binary loader (base64),
//   which the browser inflates with DecompressionStream as it compiles it; the formula
//   module (the parser of typed basis functions) likewise, with its glue in the script.
// The file carries its own Content-Security-Policy: nothing but its two scripts (by their
// hashes), its style and WebAssembly may run, and it may load nothing (`default-src 'none'`)
// but the equations' font from its own style (`font-src data:`).
//
// Prints one line: the file's size raw and gzipped.

import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bootScript } from './boot.mjs';
import { ENCODINGS } from './compress.mjs';


const WWW = fileURLToPath(new URL('../www/', import.meta.url));
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(WWW, 'rvm-lab.html');
const student = args.includes('--student');

/** The lesson editor of a student's file (`--student`): none. */
const NO_EDITOR = `const missing = () => Promise.reject(new Error('this file holds no lesson editor'));
export const openEditor = missing, playLink = missing;`;

/** The module `rvm-lab:parts`: every part assets.js would fetch, as imports of their files and
 *  the lessons' texts. */
async function partsModule() {
  const imports = [];
  const entries = { languages: [], words: [], lessons: [] };
  const strings = join(WWW, 'strings');
  for (const file of (await readdir(strings)).filter((name) => name.endsWith('.js')).sort()) {
    const lang = basename(file, '.js');
    imports.push(`import lang_${lang} from ${JSON.stringify(join(strings, file))};`);
    entries.languages.push(`${lang}: lang_${lang}`);
    for (const own of (await readdir(join(strings, lang))).filter((name) => name.endsWith('.js')).sort()) {
      const id = `words_${entries.words.length}`;
      imports.push(`import ${id} from ${JSON.stringify(join(strings, lang, own))};`);
      entries.words.push(`${JSON.stringify(`${lang}/${basename(own, '.js')}`)}: ${id}`);
    }
  }
  // The lessons, not their schema (lessons/lesson.schema.json, for editors: the page never
  // reads it).
  const lessons = (await readdir(join(WWW, 'lessons'))).filter((name) => name.endsWith('.json') && !name.endsWith('.schema.json'));
  for (const file of lessons.sort()) {
    const text = await readFile(join(WWW, 'lessons', file), 'utf8');
    // Minified as it is parsed, so the file carries no indentation.
    entries.lessons.push(`${JSON.stringify(`lessons/${file}`)}: ${JSON.stringify(JSON.stringify(JSON.parse(text)))}`);
  }
  imports.push(`import solver from ${JSON.stringify(join(WWW, 'pkg', 'rvm_lab_simd_bg.wasm'))};`);
  imports.push(`import formula from ${JSON.stringify(join(WWW, 'pkg', 'formula_bg.wasm'))};`);
  return `${imports.join('\n')}
export const LANGUAGES = { ${entries.languages.join(', ')} };
export const PANEL_WORDS = { ${entries.words.join(', ')} };
export const LESSONS = { ${entries.lessons.join(', ')} };
export const SOLVER_GZIP = solver;
export const FORMULA_GZIP = formula;
`;
}

/** esbuild's plugin for the single file: offline.js in assets.js's place, `rvm-lab:parts`
 *  written above, the editor's TeX converter imported from the file's own script (where
 *  tex-module.js loads its bundle), and the solver module gzipped (zopfli) before it is
 *  inlined. */
const single = {
  name: 'rvm-lab-single',
  setup(on) {
    on.onResolve({ filter: /^\.\/assets\.js$/ }, () => ({ path: join(WWW, 'offline.js') }));
    if (student) on.onResolve({ filter: /^\.\/editor\.js$/ }, () => ({ path: 'no-editor', namespace: 'rvm-lab' }));
    on.onLoad({ filter: /^no-editor$/, namespace: 'rvm-lab' }, () => ({ contents: NO_EDITOR, loader: 'js' }));
    // The editor's TeX converter inside the file too (tex-module.js loads tex.min.js).
    on.onResolve({ filter: /^\.\/tex-module\.js$/ }, () => ({ path: 'tex-module', namespace: 'rvm-lab' }));
    on.onResolve({ filter: /^rvm-lab:parts$/ }, () => ({ path: 'parts', namespace: 'rvm-lab' }));
    on.onLoad({ filter: /^parts$/, namespace: 'rvm-lab' }, async () => ({ contents: await partsModule(), resolveDir: WWW, loader: 'js' }));
    on.onLoad({ filter: /^tex-module$/, namespace: 'rvm-lab' }, () => ({
      contents: "export const texModule = () => import('./tex.js');",
      resolveDir: WWW,
      loader: 'js',
    }));
    on.onLoad({ filter: /\.wasm$/ }, async ({ path }) => {
      const gzip = ENCODINGS.find(({ name }) => name === 'gzip');
      return { contents: await gzip.encode(await readFile(path)), loader: 'binary' };
    });
  },
};

/** The page's modules as one classic script. */
async function pageScript() {
  const result = await build({
    entryPoints: [join(WWW, 'app.js')],
    bundle: true,
    minify: true,
    format: 'iife',
    charset: 'utf8',
    write: false,
    logLevel: 'error',
    // The glue's default path (import.meta.url) is never taken: the module is always given.
    logOverride: { 'empty-import-meta': 'silent' },
    plugins: [single],
  });
  return result.outputFiles[0].text;
}

/** `code` made safe inside an inline <script> or <style>: no closing tag, no comment opener. */
function inline(code, tag) {
  const safe = code.replaceAll(`</${tag}`, `<\\/${tag}`).replaceAll('<!--', '<\\!--');
  if (safe !== code && tag === 'style') throw new Error('the stylesheet holds a closing </style>');
  return safe;
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** `text` with its one `from` replaced by `to` (index.html's, or the stylesheet's). */
function replaceOnce(text, from, to) {
  if (text.split(from).length !== 2) throw new Error(`index.html and the stylesheet should hold exactly one ${from}`);
  return text.replace(from, () => to);
}

/** The page's style and the lesson editor's (which the file holds inside, offline.js), with
 *  the equations' font (fonts/lab-math.woff2, 81 KB) inside it as a data: URL: the browser
 *  decodes it only when it first shows an equation, as it downloads it on a served page. */
async function styleSheet() {
  const sheets = student ? ['style.min.css'] : ['style.min.css', 'editor.min.css'];
  const parts = await Promise.all(sheets.map((name) => readFile(join(WWW, name), 'utf8')));
  const font = (await readFile(join(WWW, 'fonts', 'lab-math.woff2'))).toString('base64');
  return replaceOnce(parts.join(''), 'url(fonts/lab-math.woff2)', `url(data:font/woff2;base64,${font})`);
}

const [page, boot, css, html] = await Promise.all([
  pageScript(),
  // The start-up guard without the English words of the shell, which the file holds anyway.
  bootScript(),
  styleSheet(),
  readFile(join(WWW, 'index.html'), 'utf8'),
]);
const scripts = [inline(boot, 'script'), inline(page, 'script')];
const style = inline(css, 'style');
const policy = [
  "default-src 'none'",
  `script-src ${scripts.map(sha256).join(' ')} 'wasm-unsafe-eval'`,
  `style-src ${sha256(style)}`,
  'img-src data: blob:',
  'font-src data:',
  "base-uri 'none'",
].join('; ');
let file = replaceOnce(html, '<html lang="en" class="no-js">', '<html lang="en" class="no-js" data-build="single">');
file = replaceOnce(file, '<meta charset="utf-8">', `<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="${policy}">`);
file = replaceOnce(file, '<link rel="stylesheet" href="./style.min.css">', `<style>${style}</style>`);
file = replaceOnce(file, '<script src="./boot.min.js"></script>', `<script>${scripts[0]}</script>`);
// The page's script runs once the document is parsed: it is the body's last element.
file = replaceOnce(file, '</body>', `<script>${scripts[1]}</script>\n</body>`);
await writeFile(out, file);
const bytes = Buffer.byteLength(file);
console.log(`[single] ${out}: ${bytes} bytes, ${gzipSync(file, { level: 9 }).length} gzipped`);
