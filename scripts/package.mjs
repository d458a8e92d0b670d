#!/usr/bin/env node
// Writes what a lecturer downloads instead of building (scripts/build.sh runs it last):
//
// - dist/rvm-lab-<version>.zip (the version of Cargo.toml): the static site with index.html
//   at the zip's root — the page, its module, strings and lessons, the single file
//   rvm-lab.html, the example deck with its reveal.js and the lab's reveal.js plugin (also as a
//   Quarto extension, quarto/), embed.js with its example page, and
//   lecturers.html, which says how to host, embed, present and open it offline. No build
//   tools, no precompressed siblings, no benchmark page.
// - dist/scorm/<lesson>.zip for every built-in lesson: a SCORM 1.2 package (imsmanifest.xml and
//   index.html, the single file opening that lesson), which an LMS imports as a course activity
//   (www/scorm.js is the lesson's side of it).
//
//   node scripts/package.mjs [--out dist]
//
// Prints a line per archive with its size.

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WWW = join(ROOT, 'www');
const args = process.argv.slice(2);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(ROOT, 'dist');

/** What the served site needs, as paths under www/ (a folder: all of it, but siblings). */
export const SITE = [
  'index.html',
  'boot.min.js',
  'shell.min.js',
  'app.min.js',
  'worker.min.js',
  'editor.min.js',
  'tex.min.js',
  'scorm-session.min.js',
  'link-pack.min.js',
  'share.min.js',
  'editor.min.css',
  'style.min.css',
  'fonts',
  'pkg',
  'strings',
  'lessons',
  'rvm-lab.html',
  'lecturers.html',
  'doc.css',
  'embed.js',
  'embed.global.js',
  'embed.html',
  'embed-demo.js',
  'deck.html',
  'deck.css',
  'deck.js',
  'rvm-lab-reveal.js',
  'vendor/reveal',
  'quarto',
];

/** Left out: precompressed siblings (scripts/compress.mjs), as a host compresses for itself; and the bench
 *  module (pkg/bench*), which only the developers' benchmark page runs. */
const LEFT_OUT = /\.(br|gz)$|^bench[._]/;

/** The version in Cargo.toml's [package]. */
export async function version() {
  const manifest = await readFile(join(ROOT, 'Cargo.toml'), 'utf8');
  const found = /^\[package\][^[]*?^version\s*=\s*"([^"]+)"/ms.exec(manifest);
  if (!found) throw new Error('Cargo.toml has no [package] version');
  return found[1];
}

/** Every file under `path` (a file or a folder), but siblings, as [path under www/, bytes]. */
async function* files(path) {
  const full = join(WWW, path);
  const entries = await readdir(full, { withFileTypes: true }).catch(() => null);
  if (!entries) {
    yield [path, await readFile(full)];
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (LEFT_OUT.test(entry.name)) continue;
    yield* files(relative(WWW, join(full, entry.name)));
  }
}

/** A zip of `entries` ({path: bytes}), with a fixed time for every entry: the same inputs make
 *  the same archive. Text and the module are deflated; nothing is stored twice. */
function zip(entries) {
  const mtime = new Date('2026-01-01T00:00:00Z');
  const tree = Object.fromEntries(Object.entries(entries).map(([path, bytes]) => [path, [bytes, { level: 9, mtime }]]));
  return zipSync(tree);
}

const escapeXml = (text) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The SCORM 1.2 manifest of a package holding lesson `id` (titled `title`, {en, zh}). */
export function manifest(id, title, lab) {
  const name = escapeXml(`RVM Lab: ${title.en} · ${title.zh}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="rvm-lab-${id}" version="${lab}"
          xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="rvm-lab">
    <organization identifier="rvm-lab">
      <title>${name}</title>
      <item identifier="lesson-${id}" identifierref="lab" isvisible="true">
        <title>${name}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="lab" type="webcontent" adlcp:scormtype="sco" href="index.html">
      <file href="index.html"/>
    </resource>
  </resources>
</manifest>
`;
}

/** The single file opening lesson `id` when its address names none (an LMS's launch), in
 *  student mode (`data-lock`, as `lock=1`: no panel or lesson menu, no editor), so that the
 *  student stays in the lesson the LMS tracks. */
export function lessonFile(single, id) {
  const tag = '<html lang="en" class="no-js" data-build="single">';
  if (!single.includes(tag)) throw new Error('rvm-lab.html has no <html> tag of the single file');
  return single.replace(tag, `<html lang="en" class="no-js" data-build="single" data-lesson="${id}" data-lock="1">`);
}

async function main() {
  const lab = await version();
  await rm(OUT, { recursive: true, force: true });
  await mkdir(join(OUT, 'scorm'), { recursive: true });
  const site = {};
  for (const path of SITE) for await (const [file, bytes] of files(path)) site[file] = bytes;
  const bundle = join(OUT, `rvm-lab-${lab}.zip`);
  const archive = zip(site);
  await writeFile(bundle, archive);
  console.log(`[package] ${relative(ROOT, bundle)}: ${Object.keys(site).length} files, ${archive.length} bytes`);
  // The student's single file (scripts/single.mjs --student): the editor is not offered there.
  const single = await readFile(join(WWW, 'rvm-lab-student.html'), 'utf8');
  const lessons = JSON.parse(await readFile(join(WWW, 'lessons', 'index.json'), 'utf8'));
  let bytes = 0;
  for (const { id, title } of lessons) {
    const scorm = zip({
      'imsmanifest.xml': Buffer.from(manifest(id, title, lab)),
      'index.html': Buffer.from(lessonFile(single, id)),
    });
    await writeFile(join(OUT, 'scorm', `${id}.zip`), scorm);
    bytes += scorm.length;
  }
  console.log(`[package] ${relative(ROOT, join(OUT, 'scorm'))}/: ${lessons.length} SCORM 1.2 packages, ${bytes} bytes in all`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
