// The URL is the state: the page's own keys (panel, lang, embed, lesson, large, stage, lock)
// read once, the address bar rewritten after every change (and the share box with it:
// share.js, loaded when first opened), and the height an embedding page (embed.js, the
// snippet) needs.

import { shareModule } from './assets.js';
import { LANGUAGES } from './i18n.js';
import { LINK_MAX, LinkError, decodeFragment, encodeFragment, splitPairs } from './link.js';
import { notify } from './notices.js';
import { framed, state, t } from './state.js';
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

/** Whether the next address written is a view of its own in the browser's history. */
let newEntry = false;

/**
 * A student's action is complete (a choice made, a slider let go, a point placed, a button
 * pressed, a lesson's step shown): the next view the address says becomes an entry of the
 * browser's history, so Back returns to this one; the writes after it (a slider's ticks, an
 * animation's frames) only rewrite that entry (`on` false: none). In a frame the address is
 * always rewritten: a course page's or a deck's Back is its own.
 */
export function commitView(on = true) {
  newEntry = on && !framed;
}

/** Puts `address` in the address bar: a new history entry after `commitView`, else in place
 *  of the current one. A document without an address of its own (a frame's srcdoc,
 *  about:srcdoc) refuses: its state stays on the page. */
function setAddress(address) {
  try {
    // (An unchanged address is left alone: Chromium's replaceState can take 10 ms, and a page
    // opened from its own link writes the address it has.)
    if (new URL(address, location.href).href === location.href) return;
    if (newEntry) history.pushState(null, '', address);
    else history.replaceState(null, '', address);
    newEntry = false;
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

/** The share module (share.js, a bundle of its own: the share box, the PNG for slides), once
 *  loaded. */
let share = null;

/** Loads the share module (once) and hands it to `then`; a failed download is a notice, and
 *  the page stays as it was. */
export async function withShare(then) {
  try {
    share ??= await shareModule();
  } catch (error) {
    notify({ text: ['app.part-failed', { message: String(error?.message ?? error) }] });
    return;
  }
  await then(share);
}

/** What the share box shows the view with: the reader's words, whether the link is still
 *  being packed, the longest link offered, the panel's title. */
const shareView = () => ({ lang: state.lang, t, packing, limit: LINK_MAX, title: t(`panel.${state.panel}`) });

/** The share box follows the view, once it has been opened. */
const renderShare = () => share?.renderShare(shareView);

/** Opens or closes the share box. */
export const toggleShare = () => withShare((module) => module.toggleShare(shareView));

/**
 * In a frame, tells the embedding page (embed.js, or the share box's snippet) how tall the
 * page is, whenever that changes: a drawing, a table, a details box opened, a lesson step, a
 * notice. The height is the root's box, which is as tall as the content: the document's
 * scrollHeight is never less than the frame's own height, so a frame told that could grow but
 * never shrink.
 */
export function reportHeights() {
  if (!framed) return;
  new ResizeObserver(([entry]) => {
    window.parent.postMessage({ rvmLabHeight: Math.ceil(entry.borderBoxSize[0].blockSize) }, '*');
  }).observe(document.documentElement);
}
