#!/usr/bin/env node
// Writes precompressed siblings of every text and wasm file under a folder: `f.br` (brotli,
// quality 11) and `f.gz` (gzip made by zopfli: the same format every browser reads, about 5 %
// smaller than gzip -9 — 14 KB on the wasm module), so a server sends each file compressed without
// compressing it per request (`scripts/serve.mjs` does; so do nginx's gzip_static and
// brotli_static, and Caddy's `precompressed`). A sibling is written only when its file is
// newer, and a server must ignore a sibling older than its file (an edited lesson, say).
//
//   node scripts/compress.mjs [folder]     (default: www)
//
// Prints one line: how many files, and their bytes raw, gzipped and in brotli.

import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

/** The kinds of file worth compressing (images are compressed already). */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt']);

/** The encodings, in the order a server prefers them, with their siblings' suffixes. */
export const ENCODINGS = [
  { name: 'br', suffix: '.br', encode: (bytes, textual) => brotli(bytes, textual) },
  { name: 'gzip', suffix: '.gz', encode: (bytes) => gzipAsync(bytes, { numiterations: 15 }) },
];

function brotli(bytes, textual) {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: textual ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** Whether a sibling (its `stat`) still holds its file's bytes: it is at least as new as the
 *  file. The sibling carries its file's time, which `utimes` keeps to within a microsecond
 *  or so (a float of seconds), hence the millisecond of slack; no edit follows a build as fast. */
export function isFresh(file, sibling) {
  return sibling.mtimeMs > file.mtimeMs - 1;
}

/** Every compressible file under `folder`, recursively. */
async function* files(folder) {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile() && COMPRESSIBLE.has(extname(entry.name))) yield path;
  }
}

/** Compresses every file under `folder` whose siblings are missing or older; returns the
 *  totals {files, raw, gzip, br} over all of them. */
export async function compressFolder(folder) {
  const totals = { files: 0, raw: 0, gzip: 0, br: 0 };
  for await (const path of files(resolve(folder))) {
    const source = await stat(path);
    totals.files += 1;
    totals.raw += source.size;
    let bytes;
    for (const { name, suffix, encode } of ENCODINGS) {
      const sibling = path + suffix;
      const old = await stat(sibling).catch(() => null);
      if (old && isFresh(source, old)) {
        totals[name] += old.size;
        continue;
      }
      bytes ??= await readFile(path);
      const packed = await encode(bytes, extname(path) !== '.wasm');
      await writeFile(sibling, packed);
      // The sibling carries its file's time: a server compares the two.
      await utimes(sibling, source.atime, source.mtime);
      totals[name] += packed.length;
    }
  }
  return totals;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] ?? fileURLToPath(new URL('../www', import.meta.url));
  const { files: count, raw, gzip, br } = await compressFolder(folder);
  console.log(`[compress] ${count} files: ${raw} bytes, ${gzip} gzipped, ${br} in brotli`);
}
