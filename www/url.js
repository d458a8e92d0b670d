// The URL is the state: the page's own keys (panel, lang, embed, lesson, large, stage) read
// once, the address bar rewritten after every change, the share box's permalink and iframe
// snippet, and the height an embedding page (embed.js) needs.

import { LANGUAGES } from './i18n.js';
import { $, framed, state, t } from './state.js';
import { call, panelNames } from './wasm.js';

/** URL keys the page reads itself; the rest belong to the panel. */
export const PAGE_KEYS = ['panel', 'lang', 'embed', 'lesson', 'large', 'stage'];
const DEFAULT_PANEL = 'predictive';

/** Reads panel, lang and embed; anything unusable falls back with a notice. */
export function readPageParams(query) {
  const notices = [];
  const names = panelNames();
  const panel = query.get('panel');
  if (panel !== null && !names.includes(panel)) {
    notices.push({ text: ['notice.panel', { value: panel, fallback: '' }], fallbackPanel: true });
  }
  const lang = query.get('lang');
  if (lang !== null && !LANGUAGES.includes(lang)) notices.push({ text: ['notice.lang', { value: lang }] });
  const embed = query.get('embed');
  if (embed !== null && embed !== '0' && embed !== '1') notices.push({ text: ['notice.embed', { value: embed }] });
  return {
    panel: names.includes(panel) ? panel : DEFAULT_PANEL,
    lang: LANGUAGES.includes(lang) ? lang : 'en',
    embed: embed === '1',
    notices,
  };
}

/** Writes the current state into the address bar (no new history entry): in a lesson its
 *  name and step (1-based), which set the panel; else the panel and its state. */
export function writeUrl() {
  const query = new URLSearchParams();
  if (state.lesson) {
    query.set('lesson', state.lesson.id);
    query.set('step', String(state.lesson.index + 1));
  } else {
    query.set('panel', state.panel);
    for (const [key, value] of call(() => state.lab.query())) query.set(key, value);
  }
  if (state.large) query.set('large', '1');
  if (state.stage) query.set('stage', '1');
  if (state.lang !== 'en') query.set('lang', state.lang);
  if (state.embed) query.set('embed', '1');
  history.replaceState(null, '', `${location.pathname}?${query}`);
  renderShare();
}

/** The permalink of the view and an iframe snippet that embeds it. */
export function renderShare() {
  if ($('#share').hidden) return;
  const link = location.href;
  const embedded = new URL(link);
  embedded.searchParams.set('embed', '1');
  const title = t(`panel.${state.panel}`).replace(/"/g, '&quot;');
  $('#share-link').value = link;
  $('#share-iframe').value =
    `<iframe src="${embedded.href.replace(/&/g, '&amp;')}" title="RVM Lab: ${title}" style="width:100%;height:560px;border:0"></iframe>`;
}

/** Opens or closes the share box. */
export function toggleShare() {
  const box = $('#share');
  box.hidden = !box.hidden;
  $('#share-toggle').setAttribute('aria-expanded', String(!box.hidden));
  renderShare();
  if (!box.hidden) $('#share-link').select();
}

/** In an iframe, tells the embedding page (embed.js) how tall the panel is. */
export function reportHeight() {
  if (framed) {
    window.parent.postMessage({ rvmLabHeight: document.documentElement.scrollHeight }, '*');
  }
}
