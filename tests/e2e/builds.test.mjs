// The two builds of the solver module: a browser that validates wasm's SIMD loads
// rvm_lab_simd_bg.wasm, one that does not loads rvm_lab_bg.wasm (here: Chromium with
// WebAssembly.validate answering false, as in a browser without SIMD), and both give the
// same results to the last digit: the SIMD loops do what the scalar ones do, lane by lane,
// in the same order. The panels are the ones whose heavy runs go through those loops (the
// Gram columns and Φᵀt of the fast RVM, the quality factors of the Poisson and the
// classification runs, the Cholesky factorisations of the multiclass sweeps).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The results CSV without its timings (the `time-ms` column of the methods table), which
 *  differ from run to run. */
function untimed(csv) {
  let timed = -1;
  return csv
    .split('\n')
    .map((line) => {
      const fields = line.split(',');
      if (line === '') timed = -1;
      else if (fields.includes('time-ms')) timed = fields.indexOf('time-ms');
      if (timed >= 0) fields.splice(timed, 1);
      return fields.join(',');
    })
    .join('\n');
}

/** The page at `query` with (`simd`) or without wasm's SIMD: the module files it asked for
 *  and its results as exported (full precision). */
async function results(query, simd) {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  if (!simd) await page.addInitScript(() => (WebAssembly.validate = () => false));
  const modules = [];
  const errors = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) modules.push(request.url().split('/').pop());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(env.url + query);
  await page.waitForSelector('body[data-ready="1"]');
  await settled(page);
  const csv = await page.evaluate(() => window.rvmLab.state.lab.resultsCsv());
  assert.deepEqual(errors, []);
  await context.close();
  return { modules, csv };
}

describe('the scalar and the SIMD build', () => {
  const cases = [
    '?panel=fast-rvm&N=1200&step=40',
    '?panel=poisson&N=300&step=30',
    '?panel=classification&N=300&step=20',
    '?panel=multiclass&N=120&step=25',
  ];
  for (const query of cases) {
    test(`${query}: each browser loads its build, and both give the same results`, async () => {
      const vector = await results(query, true);
      const scalar = await results(query, false);
      assert.deepEqual(vector.modules, ['rvm_lab_simd_bg.wasm']);
      assert.deepEqual(scalar.modules, ['rvm_lab_bg.wasm']);
      // A real run: numbers, not an empty table.
      assert.ok(vector.csv.split('\n').length > 3, vector.csv);
      assert.match(vector.csv, /\d\.\d{6}/);
      assert.equal(untimed(scalar.csv), untimed(vector.csv));
      if (vector.csv.includes('time-ms')) assert.notEqual(untimed(vector.csv), vector.csv, 'timings left out');
    });
  }
});
