// embed.html's live examples: the iframe snippet (shown, then put on the page) and two panels
// mounted by embed.js. Elements are made with the DOM and styled through CSSOM, so the page
// runs under a Content-Security-Policy that allows no inline style or script.

import { mount, panelUrl } from './embed.js';

const address = new URL(panelUrl({ panel: 'evidence' }));
const src = address.pathname.split('/').pop() + address.search;
document.querySelector('#iframe-code').textContent =
  `<iframe src="${src}" title="RVM Lab: evidence" style="width:100%;height:560px;border:0"></iframe>`;
const frame = document.createElement('iframe');
frame.src = src;
frame.title = 'RVM Lab: evidence';
Object.assign(frame.style, { width: '100%', height: '560px', border: '0' });
document.querySelector('#iframe-demo').replaceChildren(frame);
mount(document.querySelector('#mount-sparsity'), { panel: 'sparsity' });
mount(document.querySelector('#mount-fast'), { panel: 'fast-rvm', N: 40, lang: 'zh' });
