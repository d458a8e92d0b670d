// The two languages' string files (no browser): the same keys in both, the same `{name}`
// placeholders in each pair, and no empty string — a page shows a raw key, or an unfilled
// placeholder, where one language lacks what the other has. The same for each panel's own
// words (strings/<lang>/<panel>.js), which every panel has: its introduction and chart in
// words, and nothing the page's strings hold too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';
import { LANGUAGES, STRINGS, format, loadLanguage, loadPanelWords, translate } from '../../www/i18n.js';
import { panelNames } from './browser.mjs';

const placeholders = (text) => [...text.matchAll(/\{([\w-]+)\}/g)].map((m) => m[1]).sort();

/** The same keys, no empty text and the same placeholders in the English and 中文 tables. */
function samePairs(english, chinese, where) {
  assert.deepEqual(Object.keys(chinese).sort(), Object.keys(english).sort(), where);
  for (const [key, text] of Object.entries(english)) {
    assert.ok(text.trim() !== '' && chinese[key].trim() !== '', `${where}: ${key}`);
    assert.deepEqual(placeholders(chinese[key]), placeholders(text), `${where}: ${key}`);
  }
}

test('English and 中文 have the same keys and placeholders', () => {
  samePairs(en, zh, 'strings');
});

test('every panel has its own words in both languages, and only its own', async () => {
  for (const name of await panelNames()) {
    const [english, chinese] = await Promise.all(['en', 'zh'].map(async (lang) => (await import(`../../www/strings/${lang}/${name}.js`)).default));
    samePairs(english, chinese, name);
    assert.ok(`panel.${name}.intro` in english && `panel.${name}.chart` in english, name);
    for (const key of Object.keys(english)) assert.ok(!(key in en), `${name}: ${key} is in the page's strings too`);
  }
});

test('loadLanguage loads each language once and translate fills placeholders', async () => {
  for (const lang of LANGUAGES) assert.equal(await loadLanguage(lang), STRINGS[lang]);
  assert.equal(STRINGS.en, en);
  assert.equal(translate('en', 'message.not-converged', { steps: 7 }), 'The fast run did not converge within 7 steps.');
  assert.equal(translate('zh', 'no.such.key'), 'no.such.key');
  // A panel's words join its language's strings once loaded; a name that is no panel's is
  // never fetched.
  assert.equal(await loadPanelWords('en', 'fast-rvm'), STRINGS.en);
  assert.match(translate('en', 'panel.fast-rvm.intro'), /Tipping & Faul/);
  await assert.rejects(loadPanelWords('en', '../en'));
});

test('a count says its word for that many: "1 relevance vector", "2 relevance vectors"', async () => {
  assert.equal(format('{rv} {rv|vector|vectors}', { rv: 1 }), '1 vector');
  assert.equal(format('{rv} {rv|vector|vectors}', { rv: '2' }), '2 vectors');
  assert.equal(format('{rv} {rv|vector|vectors}', { rv: 0 }), '0 vectors');
  assert.equal(format('{rv|vector|vectors}', {}), '{rv|vector|vectors}', 'no count, no word');
  await loadPanelWords('en', 'fast-rvm');
  const summary = (rv) => translate('en', 'summary.fast-rvm', { step: 1, steps: 9, action: 'added', m: 3, alpha: 2, rv, L: 1, dL: 1 });
  assert.match(summary(1), /; 1 relevance vector; /);
  assert.match(summary(4), /; 4 relevance vectors; /);
  assert.match(translate('en', 'message.not-converged', { steps: 1 }), /within 1 step\./);
});
