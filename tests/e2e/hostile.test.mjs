// The hostile matrix (issue 18, item 3): well over a hundred inputs a careless or hostile
// user (or a copied link, a pasted file, a broken lesson) can give, on every panel, in both
// languages — URL keys and values, values typed into the boxes beside the sliders, CSV
// pastes, lesson files and lesson steps, presses far outside the plot. For each one:
//   - what the page says: a readable message in the page's language (an error beside the
//     control, or a notice above the panel), or — for the few inputs the design ignores
//     (a press outside the plot, markup in a lesson's equation) — nothing changed at all;
//   - the chart still drawn, and after a refused change the last good one (URL and pixels);
//   - no console error and no uncaught exception;
//   - the module alive (not in its dead state) and the page responsive: a frame comes within
//     a few seconds, and a normal input afterwards still changes the URL and the chart.
// The matrix is data (one row per input); one function per kind of input runs a row.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasHash, draws, panelNames, settled, start, waitForDraws } from './browser.mjs';

/**
 * What the matrix needs to know of each panel: a numeric box to type into (`key`), the
 * normal input that shows the module alive (`alive`: a box and two good values, used in
 * turn, or `'step'`: the player's Step or Back), which URL keys it has, and for panels with
 * data the columns of a CSV row, the largest N and whether t is a count.
 */
const PANELS = {
  basis: { key: 's', alive: ['M', '4', '5'], keys: ['N', 'M', 'seed', 'basis'] },
  'least-squares': { key: 'M', alive: ['M', '5', '6'], keys: ['N', 'M', 'seed', 'basis'], csv: 2, maxN: 1000 },
  'gradient-descent': { key: 'rate', alive: ['M', '3', '2'], keys: ['N', 'M', 'seed', 'basis'], csv: 2, maxN: 200 },
  regularisation: { key: 'lambda', alive: ['lambda', '2', '3'], keys: ['N', 'M', 'seed', 'basis'], csv: 2, maxN: 100 },
  predictive: { key: 'alpha', alive: ['M', '5', '6'], keys: ['N', 'M', 'seed', 'basis'], csv: 2, maxN: 1000 },
  sequential: { key: 'alpha', alive: ['alpha', '3', '4'], keys: ['N', 'seed', 'k'] },
  evidence: { key: 's', alive: ['M', '5', '6'], keys: ['N', 'M', 'seed', 'basis'] },
  'model-comparison': { key: 'alpha', alive: ['beta', '25', '30'], keys: ['N', 'M', 'seed', 'basis'], csv: 2, maxN: 1000 },
  sparsity: { key: 'beta', alive: ['alpha', '0.1', '0.2'], keys: [] },
  'lambda-curve': { key: 'sparsity', alive: ['q2', '9', '8'], keys: ['case'] },
  'fast-rvm': { key: 's', alive: 'step', keys: ['N', 'M', 'seed', 'basis', 'step'], csv: 2, maxN: 2000 },
  classification: { key: 's', alive: 'step', keys: ['N', 'seed', 'layout', 'step'], csv: 3, maxN: 400 },
  poisson: { key: 's', alive: 'step', keys: ['N', 'seed', 'step'], csv: 2, maxN: 400, counts: true },
  multiclass: { key: 's', alive: 'step', keys: ['N', 'seed', 'layout', 'step'], csv: 3, maxN: 150 },
};

const MARKUP = '<img src=x onerror=alert(1)>';
const LONG = '9'.repeat(3000);
const enc = encodeURIComponent;

/** URL inputs for every panel: its numeric box given what no number is, markup in a key and
 *  in a value, an over-long key. Each falls back to the default with a notice. */
const URL_ALL = (p) => [
  `${p.key}=NaN`,
  `${p.key}=Infinity&${p.key}=-Infinity`,
  `${p.key}=`,
  `${p.key}=${enc(MARKUP)}`,
  `${p.key}=${LONG}`,
  `${enc(MARKUP)}=1`,
  `${'k'.repeat(3000)}=1`,
  `${p.key}=NaN&${p.key}=NaN`,
];
/** URL inputs for the keys a panel has. */
const URL_KEYS = {
  N: ['N=1e9', 'N=-1'],
  M: ['M=1e308'],
  seed: ['seed=-1'],
  basis: [`basis=${enc('<script>alert(1)</script>')}`],
  layout: ['layout=nope'],
  case: ['case=%00'],
  step: ['step=999999999'],
  k: ['k=999999999'],
};
/** URL inputs of the page's own keys (on the panel named first). */
const URL_PAGE = [
  { panel: 'predictive', input: `panel=${enc(MARKUP)}`, lang: 'zh', lands: 'predictive' },
  { panel: 'predictive', input: 'panel=nope', lang: 'en', lands: 'predictive' },
  { panel: 'sparsity', input: 'lang=fr', lang: 'en' },
  { panel: 'evidence', input: `lang=${enc(MARKUP)}`, lang: 'en' },
  { panel: 'basis', input: 'embed=2', lang: 'zh' },
  { panel: 'fast-rvm', input: `embed=${enc(MARKUP)}`, lang: 'en' },
  { panel: 'predictive', input: 'panel=predictive&panel=nope', lang: 'zh' },
  // A key given twice: its first value counts, and a notice says so.
  { panel: 'predictive', input: 'M=5&M=NaN', lang: 'en', keeps: ['M', '5'] },
  { panel: 'sparsity', input: 'alpha=NaN&alpha=0.1&alpha=7', lang: 'zh' },
  { panel: 'fast-rvm', input: 'step=3&step=abc', lang: 'zh', keeps: ['step', '3'] },
  { panel: 'sequential', input: 'seed=2&seed=2', lang: 'en', keeps: ['seed', '2'] },
  // Values the fuzzer found that were read but then could not be drawn (axes wider than f64).
  { panel: 'sparsity', input: 't1=1e308', lang: 'zh' },
  { panel: 'fast-rvm', input: 'noise=6.6e136', lang: 'en' },
  // Numbers beyond the range the lab reads (±1e50), in the data and in a setting.
  { panel: 'fast-rvm', input: 'points=1e308:1e308,-1e308:-1e308', lang: 'en' },
  { panel: 'classification', input: 'points=0.5:1e51:0', lang: 'zh' },
  { panel: 'predictive', input: 's=1e308', lang: 'zh' },
  // Typed formulas (issue 35) a link can carry: each refused with what is wrong, that key
  // alone keeping its default (issue 53): the family stays, with its default formula in the
  // URL, as with the formula family chosen (the formula module loads for them first).
  { panel: 'basis', input: `basis=formula&formula=${enc('exp(-abs(x-mu)/sigma)')}`, lang: 'zh', keeps: ['basis', 'formula'], from: 'basis=formula' },
  { panel: 'fast-rvm', input: `basis=formula&formula=${enc('1/(x-mu)')}`, lang: 'en', keeps: ['basis', 'formula'], from: 'basis=formula' },
  { panel: 'evidence', input: `basis=formula&formula=${enc('(x+1)^1e9*mu')}`, lang: 'zh', keeps: ['basis', 'formula'], from: 'basis=formula' },
  // Too long is refused as the formula key is read, the others when the basis is made.
  { panel: 'predictive', input: `basis=formula&formula=${'x'.repeat(300)}`, lang: 'en', keeps: ['basis', 'formula'], from: 'basis=formula' },
  { panel: 'least-squares', input: `basis=formula&formula=${enc(`${'('.repeat(40)}x*mu${')'.repeat(40)}`)}`, lang: 'zh', keeps: ['basis', 'formula'], from: 'basis=formula' },
  { panel: 'regularisation', input: `basis=formula&formula=${enc(MARKUP)}`, lang: 'en', keeps: ['basis', 'formula'], from: 'basis=formula' },
  { panel: 'model-comparison', input: 'basis=formula&formula=exp(mu)', lang: 'zh', keeps: ['basis', 'formula'], from: 'basis=formula' },
  { panel: 'gradient-descent', input: `basis=formula&formula=${enc('sqrt(x - 2)*mu')}`, lang: 'en', keeps: ['basis', 'formula'], from: 'basis=formula' },
];

/** Values typed into a panel's numeric box: each refused with a message beside it (three a
 *  panel, the next three on the next). */
const TYPED = ['NaN', 'abc', '-5', '1e400', MARKUP, '', '١٢', '0x10', 'Infinity', '--1', '1e308', '-1e51'];

/** CSV pastes for a panel whose rows have `columns` numbers (t a whole count when
 *  `counts`), at most `maxN` of them. */
function csvCases(columns, maxN, counts = false) {
  const t = (x) => (counts ? String(Math.round(x * 7)) : (x * 0.7).toFixed(2));
  const row = (x) => (columns === 2 ? `${x},${t(x)}` : `${x},${(1 - x).toFixed(2)},${Math.round(x * 3) % 2}`);
  const many = (n) => Array.from({ length: n }, (_, i) => row(Number(((i % 97) / 97).toFixed(3)))).join('\n');
  const cases = [
    { input: '', expect: 'message', label: 'empty' },
    { input: columns === 2 ? 'x,t' : 'x1,x2,class', expect: 'message', label: 'only a header' },
    { input: columns === 2 ? 'NaN,1' : 'NaN,1,0', expect: 'message', label: 'NaN' },
    { input: columns === 2 ? 'x,t\n0.1,Infinity' : 'x1,x2,class\n0.1,Infinity,0', expect: 'message', label: 'Infinity' },
    { input: `${row(0.2)}\n${columns === 2 ? '١,٢' : '١,٢,٠'}`, expect: 'message', label: 'unicode digits' },
    { input: `${row(0.2)}\n<b onmouseover=alert(1)>${row(0.3)}</b>`, expect: 'message', label: 'markup' },
    { input: `${row(0.2)}\n${row(0.3)},9`, expect: 'message', label: 'a column too many' },
    { input: `${row(0.2)}\n0.3`, expect: 'message', label: 'a column too few' },
    { input: many(maxN + 1), expect: 'message', label: `${maxN + 1} rows`, limit: maxN },
    { input: row(0.5), expect: 'accepted', label: 'one row' },
    { input: columns === 3 ? '0.5,0.5,0\n0.5,0.5,1\n0.5,0.5,0' : counts ? '0.5,1\n0.5,9\n0.5,0' : '0.5,0.1\n0.5,0.9\n0.5,-0.4', expect: 'accepted', label: 'duplicate x' },
  ];
  if (columns === 2) cases.push({ input: '0.1,1\n0.4,1\n0.7,1\n0.9,1', expect: 'accepted', label: 'constant t' });
  // The range the lab reads, ±1e50 (issue 32): beyond it refused with the range named; at
  // its edges and far inside (in other units) computed, and the permalink reopens the view.
  const wide = (x, y) => (columns === 2 ? `${x},${y}` : `${x},${y},${Number(x > 0)}`);
  cases.push({ input: `${wide('1e308', '1e308')}\n${wide('-1e308', '-1e308')}`, expect: 'message', label: '±1e308', limit: '1e50' });
  cases.push({ input: `${wide('0.5', '0.5')}\n${wide('0.7', '-1.000001e50')}`, expect: 'message', label: 'just beyond 1e50', limit: '1e50' });
  if (!counts) {
    const scaled = (c) => [0.1, 0.3, 0.5, 0.7, 0.9].map((x, k) => `${x},${(((k * 7) % 5) - 2) * c}${columns === 2 ? '' : `,${k % 2}`}`).join('\n');
    cases.push({ input: scaled(1e50 / 2), expect: 'accepted', label: 'values up to 1e50' });
    cases.push({ input: scaled(1e-50), expect: 'accepted', label: 'values of 1e-50' });
    cases.push({ input: `${wide('1e50', '0.5')}\n${wide('-1e50', '-0.5')}\n${wide('0.5', '0.25')}`, expect: 'accepted', label: 'x at ±1e50' });
  }
  if (counts) {
    cases.push({ input: '0.1,2\n0.3,-1', expect: 'message', label: 'count -1' });
    cases.push({ input: '0.1,2\n0.3,2.5', expect: 'message', label: 'count 2.5' });
  }
  else {
    cases.push({ input: '0.1,0.2,0\n0.3,0.4,9', expect: 'message', label: 'class 9' });
    cases.push({ input: '0.1,0.2,0\n0.3,0.4,-1', expect: 'message', label: 'class -1' });
    cases.push({ input: '0.1,0.2,0\n0.3,0.4,0.5', expect: 'message', label: 'class 0.5' });
  }
  return cases;
}
/** 10⁵ rows, on two panels: refused at once with the limit named. */
const HUGE = { predictive: 'en', classification: 'zh' };

/** A lesson file of one step with `step` merged in. */
const lessonOf = (step, extra = {}) =>
  JSON.stringify({
    title: { en: 'Hostile', zh: '恶意' },
    steps: [{ title: { en: 'A step', zh: '一步' }, text: { en: 'Text', zh: '文字' }, state: 'panel=predictive', ...step }],
    ...extra,
  });
/** Lesson cases: `body` is served as lessons/`id`.json (none: the real file); the page is
 *  opened at `?panel=<panel>&lesson=<id>&step=<step>`. */
const LESSONS = [
  { id: 'fast-rvm', body: '{"title": ', expect: 'message', label: 'not JSON' },
  { id: 'sparsity', body: '[]', expect: 'message', label: 'an array' },
  { id: 'evidence', body: 'null', expect: 'message', label: 'null' },
  { id: 'ridge-lasso', body: '"a lesson"', expect: 'message', label: 'a string' },
  { id: 'fast-rvm', body: JSON.stringify({ title: { en: 'Only English' }, steps: [] }), expect: 'message', label: 'an English title and no steps' },
  { id: 'sparsity', body: JSON.stringify({ title: { en: 'T', zh: '题' }, steps: 'many' }), expect: 'message', label: 'steps a string' },
  { id: 'classification', body: lessonOf({ state: `panel=${MARKUP}` }), expect: 'message', label: 'unknown panel' },
  { id: 'evidence', body: lessonOf({ state: 42 }), expect: 'message', label: 'state a number' },
  { id: 'gradient-descent', body: lessonOf({ text: { en: ' ', zh: '' } }), expect: 'message', label: 'text blank in both languages' },
  { id: 'bayesian-regression', body: lessonOf({ action: { steps: -1 } }), expect: 'message', label: 'steps -1' },
  { id: 'fast-rvm', body: lessonOf({ action: { points: [[0.1, 'two']] } }), expect: 'message', label: 'a point with text' },
  { id: 'basis-least-squares', body: lessonOf({ math: '$x^2$' }), expect: 'message', label: 'TeX for MathML' },
  { id: 'fast-rvm', body: lessonOf({ state: 'panel=fast-rvm', action: { highlight: 99999 } }), expect: 'message', label: 'highlight 99999', shown: true },
  { id: 'sparsity', body: lessonOf({ action: { points: [[1e308, -1e308], [1e308, 1e308]] } }), expect: 'message', label: 'points at 1e308', shown: true },
  {
    id: 'classification',
    body: lessonOf({ state: 'panel=classification', action: { points: Array(500).fill([0.1, 0.2]) } }),
    expect: 'message',
    label: '500 points over the limit',
    shown: true,
  },
  { id: 'evidence', body: lessonOf({ state: 'panel=predictive&alpha=NaN&M=1e9' }), expect: 'fallback', label: 'bad values in its state', shown: true },
  {
    id: 'sparsity',
    body: lessonOf({ math: `<math><mi>x</mi></math>${MARKUP}<script>window.pwned = 1</script>`, title: { en: MARKUP, zh: MARKUP } }),
    expect: 'silent',
    label: 'markup in its equation and title',
    shown: true,
  },
  { id: 'fast-rvm', step: '999999999', expect: 'fallback', label: 'step 999999999', shown: true },
  { id: 'fast-rvm', step: '-5', expect: 'fallback', label: 'step -5', shown: true },
  { id: 'sparsity', step: 'abc', expect: 'fallback', label: 'step abc', shown: true },
  { id: 'evidence', step: '1e400', expect: 'fallback', label: 'step 1e400', shown: true },
  { id: 'classification', step: '0', expect: 'fallback', label: 'step 0', shown: true },
  { id: 'ridge-lasso', step: '', expect: 'fallback', label: 'step empty', shown: true },
  { id: 'nope', step: '1', expect: 'message', label: 'an unknown lesson' },
  { id: MARKUP, step: '1', expect: 'message', label: 'markup as the lesson' },
];

/** Presses far outside the plot: ignored by design, nothing changes. */
const CLICKS = ['corner', 'edge', 'below', 'beyond'];

/** The whole matrix, one row per input. */
function matrix() {
  const rows = [];
  const names = Object.keys(PANELS);
  names.forEach((panel, i) => {
    const p = PANELS[panel];
    const lang = (k) => ((i + k) % 2 ? 'zh' : 'en');
    // Three of the inputs every panel takes, the next three on the next panel; one input of
    // each key the panel has.
    const all = URL_ALL(p);
    const urls = [0, 1, 2].map((k) => all[(i * 3 + k) % all.length]);
    urls.push(...p.keys.map((key, k) => URL_KEYS[key][(i + k) % URL_KEYS[key].length]));
    urls.forEach((input, k) => rows.push({ panel, lang: lang(k), kind: 'url', input, expect: 'fallback' }));
    // Four typed values a panel, a different four on the next one.
    for (let k = 0; k < 3; k += 1) {
      rows.push({ panel, lang: lang(k), kind: 'control', input: TYPED[(i * 3 + k) % TYPED.length], expect: 'message' });
    }
    if (p.csv) {
      // Every other paste, the others on the next panel with data; the languages in turn.
      csvCases(p.csv, p.maxN, p.counts)
        .filter((c, k) => (k + i) % 2 === 0)
        .forEach((c, k) => rows.push({ panel, lang: lang(k), kind: 'csv', ...c }));
      if (HUGE[panel]) rows.push({ panel, lang: HUGE[panel], kind: 'csv', huge: 100000, expect: 'message', label: '10⁵ rows', limit: p.maxN });
    }
    for (const k of [0, 1]) rows.push({ panel, lang: lang(k), kind: 'click', input: CLICKS[(i * 2 + k) % CLICKS.length], expect: 'silent' });
  });
  for (const c of URL_PAGE) rows.push({ kind: 'url', expect: 'fallback', ...c });
  LESSONS.forEach((c, k) => rows.push({ panel: 'predictive', lang: k % 2 ? 'zh' : 'en', kind: 'lesson', input: c.label, ...c }));
  return rows;
}

const ROWS = matrix();

test('the matrix covers every panel of the module, and only those', async () => {
  assert.deepEqual(Object.keys(PANELS).sort(), (await panelNames()).sort());
  assert.ok(ROWS.length >= 120, `${ROWS.length} inputs`);
});

// ---------------------------------------------------------------------------------------

let env;
/** One page for the whole run (reloaded where a case needs a fresh start). */
let page;
const counts = { tried: 0, message: 0, fallback: 0, silent: 0, accepted: 0, errors: 0, deaths: 0 };
const byKind = {};
const byPanel = {};
let slowestFrame = 0;
/** The default URL of each panel (in English), from a clean load. */
const defaults = {};

before(async () => {
  env = await start();
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 } });
  page = await context.newPage();
  page.logs = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.logs.push({ text: message.text(), url: message.location()?.url ?? '' });
  });
  page.on('pageerror', (error) => page.logs.push({ text: `uncaught: ${error}`, url: '' }));
  page.on('dialog', (dialog) => {
    page.logs.push({ text: `a dialog opened: ${dialog.message()}`, url: '' });
    dialog.dismiss();
  });
});

after(async () => {
  const line = `hostile matrix: tried ${counts.tried}, message ${counts.message}, fallback ${counts.fallback}, `
    + `silently ignored ${counts.silent}, accepted ${counts.accepted}, console errors ${counts.errors}, deaths ${counts.deaths}`;
  console.log(line);
  console.log(`  by kind: ${JSON.stringify(byKind)}`);
  console.log(`  by panel: ${JSON.stringify(byPanel)}`);
  console.log(`  slowest frame after an input: ${slowestFrame} ms`);
  await env?.close();
});

/** Opens `query` and waits until the panel is ready, drawn and done with its work. */
async function load(query) {
  await page.goto(env.url + query);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
  await waitForDraws(page, 1);
  await settled(page);
}

const search = () => page.evaluate(() => location.search);
const langOf = () => page.evaluate(() => window.rvmLab?.state.lang);
const panelOf = () => page.evaluate(() => window.rvmLab?.state.panel);
const langSuffix = (lang) => (lang === 'zh' ? '&lang=zh' : '');

/** Opens the panel in the language of the case, unless the page shows it already, clean. */
async function ready(row) {
  const clean = (await panelOf()) === row.panel && (await langOf()) === row.lang
    && !(await page.evaluate(() => window.rvmLab.state.lesson || window.rvmLab.state.dead));
  if (!clean) await load(`?panel=${row.panel}${langSuffix(row.lang)}`);
  await settled(page);
}

/** The default URL of a panel in a language (or of the panel opened with the pairs `from`). */
async function defaultUrl(panel, lang, from = '') {
  const key = `${panel}&${from}`;
  if (!defaults[key]) {
    await load(`?panel=${panel}${from ? `&${from}` : ''}`);
    defaults[key] = await search();
  }
  return defaults[key] + langSuffix(lang);
}

/** Whether the canvas holds a drawing: enough pixels darker than the card. */
function chartDrawn() {
  return page.evaluate(() => {
    const canvas = document.querySelector('#chart');
    if (!canvas.width || !canvas.height) return false;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 28) if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) ink += 1;
    return ink > 200;
  });
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff01-\uff5e]/;

/**
 * Whether `text` reads in `lang`, the parts it echoes of the input (`echoed`) left out: 中文
 * has Chinese characters and no English phrase (three words in a row); English has words
 * and no Chinese character.
 */
function readsIn(text, lang, echoed) {
  let rest = text;
  for (const part of echoed.filter(Boolean).sort((a, b) => b.length - a.length)) rest = rest.split(part).join(' ');
  if (lang === 'zh') return CJK.test(rest) && !/[A-Za-z]{2,} [A-Za-z0-9]+ [A-Za-z]{2,}/.test(rest);
  return !CJK.test(rest) && /[A-Za-z]{3,}/.test(rest);
}

/** The notices above the panel, and the errors beside the controls. */
const notices = () => page.$$eval('#notices:not([hidden]) li', (items) => items.map((li) => li.textContent));
const errors = () => page.$$eval('.error', (els) => els.map((el) => el.textContent).filter((text) => text.trim() !== ''));
/** Everything that tells what the state is: URL, pixels, number of drawings. */
const snapshot = async () => ({ url: await search(), pixels: await canvasHash(page), draws: await draws(page) });

/** The pieces of a URL input as the page sees them (decoded keys and values). */
const urlParts = (input) => [...new URLSearchParams(input)].flat();

// ---- one function per kind of input --------------------------------------------------

/** A URL: opened fresh; each unusable key falls back to its default with a notice. */
async function runUrl(row) {
  const lands = row.lands ?? row.panel;
  const asked = new URLSearchParams(row.input).has('lang') ? '' : langSuffix(row.lang);
  const expected = new URLSearchParams(await defaultUrl(lands, row.lang, row.from));
  if (row.keeps) expected.set(...row.keeps);
  const named = new URLSearchParams(row.input).has('panel') ? '' : `panel=${row.panel}&`;
  await load(`?${named}${row.input}${asked}`);
  const said = await notices();
  assert.ok(said.length > 0, 'a notice says which parameter was not used');
  for (const text of said) assert.ok(readsIn(text, row.lang, urlParts(row.input)), `in ${row.lang}: ${text.slice(0, 200)}`);
  assert.equal(await panelOf(), lands);
  assert.equal(await search(), `?${expected}`, 'the defaults, and the URL says so');
  return said;
}

/** A value typed into the panel's numeric box (and Enter): refused beside the box, the last
 *  good state kept. */
async function runControl(row) {
  await ready(row);
  const key = PANELS[row.panel].key;
  const was = await snapshot();
  await page.fill(`#ctl-${key}`, row.input);
  await page.press(`#ctl-${key}`, 'Enter');
  await page.waitForSelector(`#err-${key}:not(:empty)`, { timeout: 5000 });
  const said = await page.textContent(`#err-${key}`);
  assert.ok(readsIn(said, row.lang, [row.input]), `in ${row.lang}: ${said}`);
  assert.equal(await page.getAttribute(`#ctl-${key}`, 'aria-invalid'), 'true');
  assert.deepEqual(await snapshot(), was, 'the last good state and chart stay');
  return [said];
}

/** Rows pasted into "Data as CSV" (10⁵ of them set at once, as a paste would). */
async function runCsv(row) {
  await ready(row);
  const was = await snapshot();
  const text = row.huge
    ? Array.from({ length: row.huge }, (_, i) => `${(i / row.huge).toFixed(5)},${(i % 13) / 13},${i % 2}`.split(',').slice(0, PANELS[row.panel].csv).join(',')).join('\n')
    : row.input;
  await page.$eval('#csv-text', (el, value) => { el.value = value; }, text);
  const took = await page.$eval('#csv', (form) => {
    const t0 = performance.now();
    form.requestSubmit();
    return performance.now() - t0;
  });
  if (row.huge) assert.ok(took < 2000, `refused in ${Math.round(took)} ms`);
  if (row.expect === 'accepted') {
    await waitForDraws(page, was.draws + 1);
    await settled(page);
    assert.equal(await page.textContent('#err-csv'), '', 'no error');
    assert.notEqual(await search(), was.url, 'the data are in the URL');
    const numbers = await page.$$eval('#readouts dd', (dds) => dds.map((dd) => dd.textContent));
    assert.ok(numbers.every((v) => !/NaN|undefined/.test(v)), `readouts: ${numbers.join(' ')}`);
    await permalinkReopens(numbers);
    return [];
  }
  const said = await page.textContent('#err-csv');
  assert.notEqual(said.trim(), '', 'a message beside the CSV box');
  const lines = text.split('\n').flatMap((line) => [line.trim(), line.trim().slice(0, 40)]);
  assert.ok(readsIn(said, row.lang, row.huge ? [] : lines), `in ${row.lang}: ${said}`);
  if (row.limit) assert.ok(said.includes(String(row.limit)), `names the limit ${row.limit}: ${said}`);
  assert.deepEqual(await snapshot(), was, 'the data and chart stay');
  return [said];
}

/** The page's permalink, opened afresh, shows the same state: URL, readouts and chart. */
async function permalinkReopens(numbers) {
  const url = await search();
  const pixels = await canvasHash(page);
  await load(url);
  assert.equal(await search(), url, 'the permalink reopens to the same URL');
  assert.deepEqual(await notices(), [], 'with no notice');
  assert.deepEqual(await page.$$eval('#readouts dd', (dds) => dds.map((dd) => dd.textContent)), numbers, 'and the same readouts');
  assert.equal(await canvasHash(page), pixels, 'and the same chart');
}

/** A lesson file (served in place of the real one) or a lesson step in the URL. */
async function runLesson(row) {
  const lands = 'predictive';
  const expected = await defaultUrl(lands, row.lang);
  const pattern = `**/lessons/${row.id}.json`;
  const serve = (route) => route.fulfill({ contentType: 'application/json', body: row.body });
  if (row.body !== undefined) await page.route(pattern, serve);
  try {
    await load(`?panel=${lands}&lesson=${enc(row.id)}&step=${enc(row.step ?? '1')}${langSuffix(row.lang)}`);
  } finally {
    if (row.body !== undefined) await page.unroute(pattern, serve);
  }
  const shown = await page.isVisible('#lesson');
  assert.equal(shown, Boolean(row.shown), row.shown ? 'the lesson is shown' : 'no lesson is shown');
  if (!row.shown) assert.equal(await search(), expected, 'the page stays as it was');
  const said = await notices();
  if (row.expect === 'silent') {
    assert.deepEqual(said, []);
    assert.equal(await page.$$eval('#lesson-math *', (els) => els.filter((el) => el.namespaceURI !== 'http://www.w3.org/1998/Math/MathML').length), 0, 'only MathML');
    assert.equal(await page.$$eval('#lesson-math math', (els) => els.length), 1, 'the equation is there');
    assert.equal(await page.evaluate(() => window.pwned), undefined, 'no script of the file ran');
    assert.equal(await page.textContent('#lesson-step-title'), MARKUP, 'markup in a title is text');
    return [];
  }
  assert.ok(said.length > 0, 'a notice');
  const echoed = [row.id, `lessons/${row.id}.json`, row.step, '<math', ...(row.body ? [MARKUP] : [])];
  for (const text of said) assert.ok(readsIn(text, row.lang, echoed), `in ${row.lang}: ${text}`);
  if (row.step !== undefined && row.shown) {
    const step = Number(new URLSearchParams(await search()).get('step'));
    assert.ok(Number.isInteger(step) && step >= 1, `a real step: ${step}`);
  }
  return said;
}

/** A press far outside the plot: nothing changes. */
async function runClick(row) {
  await ready(row);
  const was = await snapshot();
  const box = await page.$eval('#chart', (c) => {
    const b = c.getBoundingClientRect();
    return { x: b.left, y: b.top, w: b.width, h: b.height };
  });
  if (row.input === 'corner') await page.mouse.click(box.x + 1, box.y + 1);
  if (row.input === 'edge') await page.mouse.click(box.x + box.w - 1, box.y + box.h / 2);
  if (row.input === 'below') await page.mouse.click(box.x + box.w / 2, box.y + box.h + 200);
  if (row.input === 'beyond') {
    // Pointer events a million screens away (a broken driver, a synthetic event).
    await page.$eval('#chart', (chart) => {
      const events = [['pointerdown', 1e9, -1e9], ['pointermove', -1e12, 1e12], ['pointerup', 1e9, -1e9]];
      for (const [type, clientX, clientY] of events) {
        chart.dispatchEvent(new PointerEvent(type, { clientX, clientY, button: 0, pointerId: 7, isPrimary: true, pointerType: 'mouse', bubbles: true }));
      }
      chart.dispatchEvent(new MouseEvent('dblclick', { clientX: -1e308, clientY: 1e308, bubbles: true }));
    });
  }
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  assert.deepEqual(await errors(), [], 'no message');
  const now = await snapshot();
  assert.equal(now.url, was.url, 'the URL is the same');
  assert.equal(now.pixels, was.pixels, 'the chart is the same');
  return [];
}

const RUN = { url: runUrl, control: runControl, csv: runCsv, lesson: runLesson, click: runClick };

// ---- what every input must leave behind ----------------------------------------------

/** A frame comes within a few seconds: the page is responsive. */
async function responsive() {
  const t0 = Date.now();
  await Promise.race([
    page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(1)))),
    new Promise((_, fail) => setTimeout(() => fail(new Error('no frame within 5 s')), 5000)),
  ]);
  slowestFrame = Math.max(slowestFrame, Date.now() - t0);
}

/** Not in the dead state: the flag is down, no crash banner, the controls enabled. */
function alive() {
  return page.evaluate(() => window.rvmLab?.state.dead === false && document.querySelector('#crash').hidden);
}

/** A normal input (a good value typed, or Step / Back) still changes the URL and the chart. */
async function normalInput() {
  // In a lesson the URL names the lesson's step: leave it (the lesson menu's "none") first.
  if (await page.isVisible('#lesson')) {
    await page.selectOption('#lesson-select', '');
    await page.waitForFunction(() => new URLSearchParams(location.search).has('panel'));
  }
  const panel = await panelOf();
  const how = PANELS[panel].alive;
  await settled(page);
  const was = await snapshot();
  if (how === 'step') {
    const at = Number(new URLSearchParams(was.url).get('step'));
    await page.click(at > 0 ? '#back' : '#step');
  } else {
    const [key, a, b] = how;
    const value = new URLSearchParams(was.url).get(key) === a ? b : a;
    await page.fill(`#ctl-${key}`, value);
    await page.press(`#ctl-${key}`, 'Enter');
  }
  await page.waitForFunction((url) => location.search !== url, was.url, { timeout: 10000 });
  await waitForDraws(page, was.draws + 1);
  await settled(page);
  assert.notEqual(await canvasHash(page), was.pixels, 'the chart follows a normal input');
  assert.deepEqual(await errors(), [], 'and no message stays');
}

ROWS.forEach((row, n) => {
  const name = `${n + 1}. ${row.panel} ${row.lang} ${row.kind}: ${row.label ?? String(row.input).slice(0, 60)} → ${row.expect}`;
  test(name, async () => {
    page.logs.length = 0;
    counts.tried += 1;
    byKind[row.kind] = (byKind[row.kind] ?? 0) + 1;
    byPanel[row.panel] = (byPanel[row.panel] ?? 0) + 1;
    let failure = null;
    try {
      await RUN[row.kind](row);
      counts[row.expect] += 1;
    } catch (error) {
      failure = error;
    }
    // A lesson the index does not list is never asked for: no console line at all.
    const logs = page.logs;
    if (logs.length) counts.errors += 1;
    const living = await alive().catch(() => false);
    if (!living) counts.deaths += 1;
    if (failure) throw failure;
    assert.deepEqual(logs, [], 'no console error, no uncaught exception');
    assert.ok(living, 'the module is alive');
    assert.ok(await chartDrawn(), 'the chart is drawn');
    await responsive();
    await normalInput();
    assert.deepEqual(page.logs, [], 'nor after');
  });
});

test('summary: no console error and no death in the whole matrix', () => {
  assert.equal(counts.errors, 0, 'console errors');
  assert.equal(counts.deaths, 0, 'deaths');
  assert.equal(counts.tried, ROWS.length);
  assert.equal(counts.message + counts.fallback + counts.silent + counts.accepted, ROWS.length, 'every input as expected');
});
