#!/usr/bin/env node
// Copies reveal.js (npm, pinned in package.json) beside the example deck, www/vendor/reveal/, so
// the deck loads nothing from another host. Its theme carries its fonts inline as data: URLs,
// which the lab's Content-Security-Policy (font-src falls back to 'self') refuses: each goes
// into a file of its own beside the stylesheet, which then names it.
//
//   node scripts/reveal.mjs

import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'node_modules', 'reveal.js', 'dist');
const OUT = join(ROOT, 'www', 'vendor', 'reveal');

await mkdir(join(OUT, 'fonts'), { recursive: true });
for (const file of ['reset.css', 'reveal.css', 'reveal.js']) await copyFile(join(DIST, file), join(OUT, file));
const theme = await readFile(join(DIST, 'theme', 'white-contrast.css'), 'utf8');
const fonts = [];
const css = theme.replace(/url\(data:font\/(\w+);base64,([A-Za-z0-9+/=]+)\)/g, (_, format, base64) => {
  const bytes = Buffer.from(base64, 'base64');
  const name = `fonts/${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.${format}`;
  fonts.push(writeFile(join(OUT, name), bytes));
  return `url(${name})`;
});
await Promise.all(fonts);
await writeFile(join(OUT, 'white-contrast.css'), css);
