// The two languages' string files (no browser): the same keys in both, the same `{name}`
// placeholders in each pair, and no empty string — a page shows a raw key, or an unfilled
// placeholder, where one language lacks what the other has.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../www/strings/en.js';
import zh from '../../www/strings/zh.js';
import { LANGUAGES, STRINGS, loadLanguage, translate } from '../../www/i18n.js';

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('English and 中文 have the same keys and placeholders', () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const [key, text] of Object.entries(en)) {
    assert.ok(text.trim() !== '' && zh[key].trim() !== '', key);
    assert.deepEqual(placeholders(zh[key]), placeholders(text), key);
  }
});

test('loadLanguage loads each language once and translate fills placeholders', async () => {
  for (const lang of LANGUAGES) assert.equal(await loadLanguage(lang), STRINGS[lang]);
  assert.equal(STRINGS.en, en);
  assert.equal(translate('en', 'message.not-converged', { steps: 7 }), 'The fast run did not converge within 7 steps.');
  assert.equal(translate('zh', 'no.such.key'), 'no.such.key');
});
