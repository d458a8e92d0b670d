#!/usr/bin/env node
// Screenshots of every panel and of the page's main states, for comparing a redesign
// before and after (the charts must stay pixel-identical where the state is the same):
//
//   bash scripts/build.sh && node scripts/screens.mjs shots/before
//   … change the code …
//   bash scripts/build.sh && node scripts/screens.mjs shots/after
//   node scripts/screens.mjs --compare shots/before shots/after
//
// `--root DIR` photographs another copy of the built page (e.g. one saved before a change).
//
// Each state gives `<name>.page.png` (the whole page) and `<name>.chart.png` (the canvas
// pixels alone). The comparison counts differing pixels per file; timings the page shows
// (the methods tables' milliseconds) are blanked before the page is photographed.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { open, settled, start } from '../tests/e2e/browser.mjs';

/** States besides every panel's defaults: [name, query, options]. */
const EXTRA = [
  ['fast-rvm-step9-highlight', '?panel=fast-rvm&step=9&highlight=17'],
  ['fast-rvm-poly', '?panel=fast-rvm&N=120&s=0.05&selection=cyclic&step=30'],
  ['classification-step7', '?panel=classification&step=7&layout=xor'],
  ['multiclass-step5', '?panel=multiclass&step=5'],
  ['evidence-start', '?panel=evidence&start=1:-2'],
  ['gradient-start', '?panel=gradient-descent&start=-1:2&rate=0.2'],
  ['sequential-k4', '?panel=sequential&k=4'],
  ['regularisation-lambda', '?panel=regularisation&lambda=0.001'],
  ['predictive-zh', '?panel=predictive&lang=zh&points=0.62:0.35'],
  ['sparsity-pruned', '?panel=sparsity&pruned=1'],
  ['fast-rvm-narrow', '?panel=fast-rvm&step=4', { viewport: { width: 360, height: 800 } }],
  ['multiclass-embed', '?panel=multiclass&embed=1&step=3', { viewport: { width: 600, height: 800 } }],
  ['lesson-fast-rvm', '?lesson=fast-rvm&step=4'],
  ['lesson-evidence-large', '?lesson=evidence&step=3&large=1'],
];

async function capture(env, dir, name, query, options = {}) {
  const page = await open(env, query, options);
  await settled(page);
  await page.evaluate(() => {
    // The methods tables: method, steps, time (ms), …
    for (const table of document.querySelectorAll('#tables table[data-key$="methods"]')) {
      for (const row of table.querySelectorAll('tbody tr')) row.children[2].textContent = '—';
    }
  });
  const chart = await page.evaluate(() => document.querySelector('#chart').toDataURL('image/png'));
  await writeFile(join(dir, `${name}.chart.png`), Buffer.from(chart.split(',')[1], 'base64'));
  await page.screenshot({ path: join(dir, `${name}.page.png`), fullPage: true });
  const errors = page.consoleErrors;
  await page.context().close();
  return errors;
}

async function shoot(dir, root) {
  await mkdir(dir, { recursive: true });
  const env = await start(root ? { root } : {});
  try {
    const first = await open(env, '');
    const panels = await first.evaluate(() => [...document.querySelectorAll('#panel-select option')].map((o) => o.value));
    await first.context().close();
    const states = [...panels.map((p) => [p, `?panel=${p}`]), ...EXTRA];
    for (const [name, query, options] of states) {
      const errors = await capture(env, dir, name, query, options);
      console.log(`${name}${errors.length ? `  console errors: ${errors.join(' | ')}` : ''}`);
    }
  } finally {
    await env.close();
  }
}

/** Counts differing pixels of each pair of same-named PNGs in `a` and `b`, in a page. */
async function compare(a, b) {
  const env = await start();
  const page = await env.browser.newPage();
  let changed = 0;
  try {
    const names = (await readdir(a)).filter((f) => f.endsWith('.png')).sort();
    for (const name of names) {
      const load = async (dir) => `data:image/png;base64,${(await readFile(join(dir, name))).toString('base64')}`;
      let right;
      try {
        right = await load(b);
      } catch {
        console.log(`${name}: missing in ${b}`);
        changed += 1;
        continue;
      }
      const result = await page.evaluate(
        async ([x, y]) => {
          const pixels = async (src) => {
            const img = new Image();
            img.src = src;
            await img.decode();
            const canvas = new OffscreenCanvas(img.width, img.height);
            const ctx = canvas.getContext('2d');
            ctx.drawImage(img, 0, 0);
            return { w: img.width, h: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
          };
          const [p, q] = [await pixels(x), await pixels(y)];
          if (p.w !== q.w || p.h !== q.h) return `size ${p.w}×${p.h} → ${q.w}×${q.h}`;
          let n = 0;
          for (let i = 0; i < p.data.length; i += 4) {
            if (p.data[i] !== q.data[i] || p.data[i + 1] !== q.data[i + 1] || p.data[i + 2] !== q.data[i + 2]) n += 1;
          }
          return n;
        },
        [await load(a), right],
      );
      if (result !== 0) changed += 1;
      console.log(`${name}: ${result === 0 ? 'identical' : typeof result === 'number' ? `${result} pixels differ` : result}`);
    }
  } finally {
    await env.close();
  }
  console.log(changed === 0 ? 'all identical' : `${changed} file(s) differ`);
  process.exitCode = changed === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
if (args[0] === '--compare' && args.length === 3) await compare(args[1], args[2]);
else if (args.length === 1) await shoot(args[0]);
else if (args.length === 3 && args[1] === '--root') await shoot(args[0], args[2]);
else {
  console.error('usage: node scripts/screens.mjs OUT_DIR [--root DIR] | --compare DIR_A DIR_B');
  process.exitCode = 2;
}
