// Mounting RVM Lab panels into a course page:
//
//   import { mount } from './rvm-lab/embed.js';
//   mount(document.querySelector('#evidence'), { panel: 'evidence', alpha: '0.1', lang: 'zh' });
//
// or, from a page on another host (a module from another origin needs CORS headers; a classic
// script does not), with the same file built as a classic script (scripts/build.sh):
//
//   <script src="https://lab.example.org/rvm-lab/embed.global.js"></script>
//   <script>RvmLab.mount(document.querySelector('#evidence'), { panel: 'evidence' });</script>
//
// Each panel is the lab's own page (index.html beside this module, so any sub-path of any
// static host works) in an iframe with `embed=1`: panels on one page stay independent, and
// the course page needs no styles or scripts of the lab. The iframe takes the width of its
// element and follows the height the panel reports.

/** Where this file was loaded from, index.html beside it: the <script> that ran it (as the
 *  classic embed.global.js), or as a module its own URL. */
const HERE = document.currentScript?.src || import.meta.url;

/** The address of the panel described by `options` (panel, lang and any panel state). */
export function panelUrl(options = {}) {
  const url = new URL('./index.html', HERE);
  for (const [key, value] of Object.entries(options)) url.searchParams.set(key, String(value));
  url.searchParams.set('embed', '1');
  return url.href;
}

/** Mounts a panel into `element`; returns its iframe. */
export function mount(element, options = {}) {
  const frame = document.createElement('iframe');
  frame.src = panelUrl(options);
  frame.title = options.title ?? `RVM Lab: ${options.panel ?? 'panel'}`;
  Object.assign(frame.style, { width: '100%', height: '560px', border: '0', display: 'block' });
  element.replaceChildren(frame);
  return frame;
}

// Embedded panels post their height; the matching iframe takes it.
window.addEventListener('message', (event) => {
  const height = event.data?.rvmLabHeight;
  if (!Number.isFinite(height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(height)}px`;
  }
});
