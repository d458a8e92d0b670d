// The URL is the state: the page's own keys (panel, lang, embed, lesson, large, stage, lock) read
// once, the address bar rewritten after every change, the share box's permalink and iframe
// snippet, and the height an embedding page (embed.js) needs.

import { LANGUAGES } from './i18n.js';
import { LINK_MAX, LinkError, decodeFragment, encodeFragment, splitPairs } from './link.js';
import { $, framed, state, t } from './state.js';
import { call, panelNames } from './wasm.js';

/** URL keys the page reads itself; the rest belong to the panel. */
export const PAGE_KEYS = ['panel', 'lang', 'embed', 'lesson', 'large', 'stage', 'lock'];
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

/** Counts address-bar writes: a packed fragment lands only if no later write began. */
let writes = 0;
/** Whether the address bar's fragment is still being packed. */
let packing = false;

/** The view as the address holds it: the panel and its state (a lesson step's `state`). */
export const viewPairs = () => [['panel', state.panel], ...call(() => state.lab.query())];

/** Writes the current state into the address bar (no new history entry): in a lesson its
 *  name and step (1-based), which set the panel (a lesson from a link or a file: an empty
 *  name, and the fragment that holds it); else the panel and its state. A state too long for
 *  the query puts its long values in the fragment (link.js): at once as a plain query, then
 *  packed. */
export function writeUrl() {
  const pairs = [];
  if (state.lesson) {
    pairs.push(['lesson', state.lesson.id], ['step', String(state.lesson.index + 1)]);
  } else {
    pairs.push(...viewPairs());
  }
  if (state.large) pairs.push(['large', '1']);
  if (state.stage) pairs.push(['stage', '1']);
  if (state.lang !== 'en') pairs.push(['lang', state.lang]);
  if (state.embed) pairs.push(['embed', '1']);
  if (state.locked) pairs.push(['lock', '1']);
  const { query, fragment } = splitPairs(pairs);
  const address = `${location.pathname}?${new URLSearchParams(query)}`;
  const write = ++writes;
  const link = state.lesson?.link;
  packing = !link && fragment.length > 0;
  setAddress(link ? `${address}#${link}` : packing ? `${address}#${new URLSearchParams(fragment)}` : address);
  renderShare();
  if (!packing) return;
  encodeFragment(fragment)
    .then((hash) => {
      if (write !== writes) return;
      packing = false;
      setAddress(`${address}#${hash}`);
      renderShare();
    })
    .catch(() => {
      // The plain fragment stays: longer, but a working link.
      if (write === writes) packing = false;
      renderShare();
    });
}

/** Puts `address` in the address bar, without a new history entry. A document without an
 *  address of its own (a frame's srcdoc, about:srcdoc) refuses: its state stays on the page. */
function setAddress(address) {
  try {
    // (An unchanged address is left alone: Chromium's replaceState can take 10 ms, and a page
    // opened from its own link writes the address it has.)
    if (new URL(address, location.href).href === location.href) return;
    history.replaceState(null, '', address);
  } catch {
    // SecurityError: this document's address cannot change; TypeError: it has none a path
    // can be read against (about:srcdoc).
  }
}

/**
 * The pairs of the address's fragment (the long values of a large state, or a lesson's JSON
 * under `lesson`). One that cannot be read gives a notice and no pairs: the view opens from
 * its query.
 */
export async function readFragment() {
  if (location.hash.length <= 1) return [];
  try {
    return await decodeFragment(location.hash);
  } catch (error) {
    const reason = error instanceof LinkError ? error.message : String(error);
    state.notices.push({ text: ['notice.fragment', { message: reason }] });
    return [];
  }
}

/** The permalink of the view and an iframe snippet that embeds it; a link longer than
 *  LINK_MAX, or none at all (a srcdoc), is not offered: the box says so and offers the data
 *  as CSV. */
export function renderShare() {
  if ($('#share').hidden) return;
  const link = location.href;
  // A frame's srcdoc has no address of its own to share.
  const addressless = location.protocol === 'about:';
  const tooLong = !packing && link.length > LINK_MAX;
  $('#share-long').hidden = !(tooLong || addressless);
  $('#share-links').hidden = tooLong || addressless;
  if (tooLong || addressless) {
    $('#share-long-text').textContent = addressless
      ? t('share.no-address')
      : t('share.too-long', { length: link.length, limit: LINK_MAX });
    $('#share-csv').hidden = $('#csv').hidden;
    return;
  }
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
  if (!box.hidden && !$('#share-links').hidden) $('#share-link').select();
}

/** In an iframe, tells the embedding page (embed.js) how tall the panel is. */
export function reportHeight() {
  if (framed) {
    window.parent.postMessage({ rvmLabHeight: document.documentElement.scrollHeight }, '*');
  }
}
