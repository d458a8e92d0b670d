#!/usr/bin/env node
// Lighthouse's performance audit of the built page, served by scripts/serve.mjs on
// 127.0.0.1 (compressed, as a class would get it), in Debian's Chromium (never a downloaded
// browser), with the desktop and the mobile presets (simulated throttling): every panel,
// every built-in lesson at its middle step, embed=1, the stage view and the deck page. Prints
// the score, FCP, LCP, TBT, CLS and the main thread's script time of each, then a summary line
// per preset (lowest score, highest TBT, highest CLS, highest LCP).
// A benchmark, run by hand after `bash scripts/build.sh`; no test asserts on its numbers.
//
//   node scripts/lighthouse.mjs [--runs 3] [--preset mobile] [--only fast-rvm]
//     --runs N     the median run of each page is printed
//     --preset P   desktop or mobile only
//     --only TEXT  only the pages whose address contains TEXT
//     --root DIR   the built page in DIR instead of www/ (another build, for a before/after)
//     --tasks      also list each page's long tasks as Lighthouse simulates them (start and
//                  length in ms, the script it blames): where the blocking time comes from

import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { readFileSync } from 'node:fs';
import { serve } from './serve.mjs';

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const root = option('--root') ?? fileURLToPath(new URL('../www', import.meta.url));

/** Every page a reader meets first: each panel, each lesson at its middle step, a panel
 *  embedded, one on stage, and the deck. */
async function pages() {
  // The panels in menu order, as the built module lists them (its registry).
  const glue = await import(`${root}/pkg/rvm_lab.js`);
  glue.initSync({ module: readFileSync(`${root}/pkg/rvm_lab_bg.wasm`) });
  const panels = glue.panelNames();
  const lessons = JSON.parse(readFileSync(`${root}/lessons/index.json`, 'utf8')).map(({ id }) => {
    const steps = JSON.parse(readFileSync(`${root}/lessons/${id}.json`, 'utf8')).steps.length;
    return `?lesson=${id}&step=${Math.ceil(steps / 2)}`;
  });
  return [
    ...panels.map((panel) => `?panel=${panel}`),
    ...lessons,
    '?panel=evidence&embed=1',
    '?panel=fast-rvm&stage=1',
    'deck.html',
  ];
}

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

const runs = Number(option('--runs') ?? 1);
const presets = Object.entries(PRESETS).filter(([name]) => !option('--preset') || name === option('--preset'));
const chosen = (await pages()).filter((page) => !option('--only') || page.includes(option('--only')));

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
    // The main thread's script evaluation (ms), from its breakdown by kind of work.
    script: (lhr.audits['mainthread-work-breakdown']?.details?.items ?? [])
      .filter((item) => item.group === 'scriptEvaluation')
      .reduce((sum, item) => sum + item.duration, 0),
    tasks: (lhr.audits['long-tasks']?.details?.items ?? []).map(
      (task) => `${task.startTime.toFixed(0)}+${task.duration.toFixed(0)} ${String(task.url).split('/').pop()}`,
    ),
  };
}

const { server, url } = await serve({ root, port: 0 });
const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium', chromeFlags: FLAGS });
try {
  console.log('preset   page                                score    FCP ms    LCP ms    TBT ms     CLS  script ms');
  for (const [preset, config] of presets) {
    const medians = [];
    for (const page of chosen) {
      const results = [];
      for (let i = 0; i < runs; i += 1) results.push(await audit(url + page, config, chrome.port));
      results.sort((a, b) => a.score - b.score);
      const r = results[Math.floor(results.length / 2)];
      medians.push({ page, ...r });
      const ms = (v) => v.toFixed(0).padStart(9);
      console.log(`${preset.padEnd(8)} ${page.padEnd(35)} ${String(r.score).padStart(5)} ${ms(r.fcp)} ${ms(r.lcp)} ${ms(r.tbt)} ${r.cls.toFixed(3).padStart(7)} ${ms(r.script)}`);
      if (process.argv.includes('--tasks')) console.log(`         long tasks: ${r.tasks.join(', ') || 'none'}`);
    }
    const worst = (key, sign) => medians.reduce((a, b) => (sign * (b[key] - a[key]) > 0 ? b : a));
    const low = worst('score', -1);
    const [tbt, cls, lcp] = [worst('tbt', 1), worst('cls', 1), worst('lcp', 1)];
    console.log(`${preset} summary: ${medians.length} pages; lowest score ${low.score} (${low.page}), highest TBT ${tbt.tbt.toFixed(0)} ms (${tbt.page}), `
      + `highest CLS ${cls.cls.toFixed(3)} (${cls.page}), highest LCP ${lcp.lcp.toFixed(0)} ms (${lcp.page})`);
  }
} finally {
  await chrome.kill();
  server.close();
}
