#!/usr/bin/env node
// Copies reveal.js (npm, pinned in package.json) beside the example deck, www/vendor/reveal/, so
// the deck loads nothing from another host; and the lab's reveal.js plugin, www/rvm-lab-reveal.js,
// into its Quarto extension, www/quarto/_extensions/rvm-lab/, which a Quarto project installs as
// a folder of its own (`quarto add`), so the extension carries the file rather than a copy of
// its logic. Its theme's text is set in the lab's own fonts (the
// system's), not in the Source Sans Pro it carries inline as data: URLs: those 430 KB of font
// were the deck's slowest start (a phone on a slow network waited for them before the title
// painted: 3.0 s to its largest paint on Lighthouse's mobile preset), and the lab's
// Content-Security-Policy (font-src falls back to 'self') refuses data: fonts anyway.
//
//   node scripts/reveal.mjs

import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'node_modules', 'reveal.js', 'dist');
const OUT = join(ROOT, 'www', 'vendor', 'reveal');
const QUARTO = join(ROOT, 'www', 'quarto', '_extensions', 'rvm-lab');

/** The lab's font stack (www/style.css). */
const FONTS = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif';

await mkdir(OUT, { recursive: true });
// (Earlier builds wrote the theme's fonts to files here.)
await rm(join(OUT, 'fonts'), { recursive: true, force: true });
for (const file of ['reset.css', 'reveal.css', 'reveal.js']) await copyFile(join(DIST, file), join(OUT, file));
const theme = await readFile(join(DIST, 'theme', 'white-contrast.css'), 'utf8');
const faces = theme.match(/@font-face\{[^}]*\}/g) ?? [];
if (faces.length === 0 || !theme.includes('"Source Sans Pro"')) {
  throw new Error('reveal.js theme white-contrast.css: no Source Sans Pro faces to replace (a new reveal.js?)');
}
const css = faces.reduce((text, face) => text.replace(face, ''), theme).replaceAll('"Source Sans Pro", Helvetica, sans-serif', FONTS);
if (/Source Sans Pro|data:font/.test(css)) throw new Error('reveal.js theme white-contrast.css: a font left in');
await writeFile(join(OUT, 'white-contrast.css'), css);
await copyFile(join(ROOT, 'www', 'rvm-lab-reveal.js'), join(QUARTO, 'rvm-lab-reveal.js'));
