#!/usr/bin/env node
// Lighthouse's performance audit of the built page, served by scripts/serve.mjs on
// 127.0.0.1 (compressed, as a class would get it), in Debian's Chromium (never a downloaded
// browser): predictive, fast-rvm, classification and an embed=1 page, with the desktop and
// the mobile presets (simulated throttling). Prints the score, FCP, LCP, TBT and CLS of each.
// A benchmark, run by hand after `bash scripts/build.sh`; no test asserts on its numbers.
//
//   node scripts/lighthouse.mjs [--runs 3]      (the median run of each page is printed)

import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { serve } from './serve.mjs';

const PAGES = ['?panel=predictive', '?panel=fast-rvm', '?panel=classification', '?panel=evidence&embed=1'];
const PRESETS = { desktop: desktopConfig, mobile: undefined };
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;

/** One audit of `url` with `config`: the numbers this script prints. */
async function audit(url, config, port) {
  const options = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
  const { lhr } = await lighthouse(url, options, config);
  const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
  };
}

const root = fileURLToPath(new URL('../www', import.meta.url));
const { server, url } = await serve({ root, port: 0 });
const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium', chromeFlags: FLAGS });
try {
  console.log('preset   page                          score    FCP ms    LCP ms    TBT ms     CLS');
  for (const [preset, config] of Object.entries(PRESETS)) {
    for (const page of PAGES) {
      const results = [];
      for (let i = 0; i < runs; i += 1) results.push(await audit(url + page, config, chrome.port));
      results.sort((a, b) => a.score - b.score);
      const r = results[Math.floor(results.length / 2)];
      const ms = (v) => v.toFixed(0).padStart(9);
      console.log(`${preset.padEnd(8)} ${page.padEnd(29)} ${String(r.score).padStart(5)} ${ms(r.fcp)} ${ms(r.lcp)} ${ms(r.tbt)} ${r.cls.toFixed(3).padStart(7)}`);
    }
  }
} finally {
  await chrome.kill();
  server.close();
}
