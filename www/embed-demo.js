// embed.html's live examples: the iframe snippet's frame and two panels mounted by
// embed.global.js (embed.js as a classic script: `RvmLab`). A classic script, so that the page
// also runs opened from disk, where browsers run no module. Elements are made with the DOM and
// styled through CSSOM, so the page runs under a Content-Security-Policy that allows no inline
// style or script; the snippet's own script is embed.global.js's listener here, which sizes
// every frame of the page that reports its height.

(function demo() {
  if (!window.RvmLab) {
    document.querySelector('#demo-missing').hidden = false;
    return;
  }
  const frame = document.createElement('iframe');
  frame.src = RvmLab.panelUrl({ panel: 'evidence' });
  frame.title = 'RVM Lab: Evidence surface';
  Object.assign(frame.style, { width: '100%', height: '1200px', border: '0', display: 'block' });
  document.querySelector('#iframe-demo').replaceChildren(frame);
  RvmLab.mount(document.querySelector('#mount-sparsity'), { panel: 'sparsity' });
  RvmLab.mount(document.querySelector('#mount-fast'), { panel: 'fast-rvm', N: 40, lang: 'zh' });
})();
