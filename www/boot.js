// The page's start-up guard: a small classic script that runs first, wherever the page is
// opened, and never leaves a blank page.
//
// - Where a served copy of the lab cannot start — opened from disk (file://), or in a frame
//   sandboxed without allow-same-origin (an opaque origin, refused module scripts and the
//   solver's download) — it opens the single file beside it, rvm-lab.html, with the same query
//   and fragment: that file holds everything and needs neither. It first asks a hidden frame
//   to load it (the single file answers from its first script, `PROBE`), so a copy without one
//   (the sources, unbuilt) says so instead of ending on the browser's "file not found".
// - Elsewhere it starts the page's module script (app.min.js). When that cannot load (a failed
//   download, a policy that refuses it), or the module cannot start the solver (no WebAssembly,
//   a policy that refuses WebAssembly, a failed download: startup.js calls
//   `rvmLabStartup.fail`), the chart's box says what failed and what to do, in the reader's
//   language, and the rest of the page is hidden (html.failed).
//
// Its words are here, in both languages, because it speaks before the page's strings load.
// (With JavaScript off, the page's <noscript> says so and html.no-js hides the rest.)

(function () {
  'use strict';

  var html = document.documentElement;
  var single = html.getAttribute('data-build') === 'single';

  /** The hidden frame's name, and the single file's answer from it. */
  var PROBE = 'rvm-lab-probe';
  var HERE = 'rvm-lab:single-file';

  // The single file loaded by a served copy's probe: it answers, and goes no further.
  if (single && window.name === PROBE && window.parent !== window) {
    window.parent.postMessage(HERE, '*');
    window.stop();
    return;
  }

  /** How long the probe waits for the single file before saying it is not there (ms): a slow
   *  USB stick reads its 0.6 MB well within. */
  var PROBE_WAIT = 4000;

  /** What failed, and what to do, by reason. */
  var MESSAGES = {
    en: {
      file: 'This copy of the lab was opened from disk, where browsers do not run its modules: opening the single file beside it, rvm-lab.html, instead…',
      sandbox: 'This frame is sandboxed without allow-same-origin, where browsers refuse the lab’s modules: opening the single file, rvm-lab.html, instead…',
      nosingle: 'This copy of the lab cannot start here (opened from disk, or in a sandboxed frame), and the single file that can, rvm-lab.html, is not beside it. Download the lab’s release bundle, or serve this folder from a web server (README, first lines).',
      module: 'The page’s script (app.min.js) could not be loaded: check the connection and reload. If a course site refuses it, use the single file, rvm-lab.html.',
      download: 'A part of the lab could not be downloaded: check the connection and reload.',
      nowasm: 'This browser does not run WebAssembly, or it is turned off: the lab needs it. Use a current Firefox, Chrome, Edge or Safari.',
      csp: 'This site’s Content-Security-Policy refuses WebAssembly, which the lab’s solver is: its script-src needs \'wasm-unsafe-eval\'. Or use the single file, rvm-lab.html.',
      old: 'This browser is too old for the single file, which needs WebAssembly SIMD and DecompressionStream (Chrome 91, Firefox 113, Safari 16.4 or later): update it, or open the lab’s served page.',
      failed: 'The lab could not start.',
      detail: 'Details: ',
    },
    zh: {
      file: '本副本是从磁盘直接打开的，浏览器不会运行其中的模块：正在改为打开同目录下的单文件版 rvm-lab.html……',
      sandbox: '此框架处于沙箱中且未设置 allow-same-origin，浏览器会拒绝加载实验室的模块：正在改为打开单文件版 rvm-lab.html……',
      nosingle: '本副本无法在此处启动（从磁盘打开，或位于沙箱框架中），而可以启动的单文件版 rvm-lab.html 不在同一目录中。请下载实验室的发布包，或用 Web 服务器提供此文件夹（见 README 开头）。',
      module: '无法加载页面脚本（app.min.js）：请检查网络后刷新。若课程网站拒绝加载，请使用单文件版 rvm-lab.html。',
      download: '实验室的某个部分无法下载：请检查网络后刷新。',
      nowasm: '此浏览器不支持 WebAssembly，或已将其关闭；实验室需要它。请使用较新的 Firefox、Chrome、Edge 或 Safari。',
      csp: '本网站的内容安全策略（Content-Security-Policy）禁止 WebAssembly，而实验室的求解器正是 WebAssembly：其 script-src 需要包含 \'wasm-unsafe-eval\'。也可改用单文件版 rvm-lab.html。',
      old: '此浏览器版本过旧，无法运行单文件版（需要 WebAssembly SIMD 与 DecompressionStream：Chrome 91、Firefox 113、Safari 16.4 或更新版本）：请更新浏览器，或打开实验室的在线页面。',
      failed: '实验室无法启动。',
      detail: '详情：',
    },
  };

  /** The first value of URL key `key` as written (null without one), as app.js reads it. */
  function first(key) {
    var found = new RegExp('[?&]' + key + '=([^&#]*)').exec(location.search);
    return found ? found[1] : null;
  }

  /** The reader's language: the page's `lang` key, else the browser's first choice. */
  function language() {
    var asked = first('lang');
    if (asked !== null) return asked === 'zh' ? 'zh' : 'en';
    var preferred = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    return /^zh\b/i.test(preferred) ? 'zh' : 'en';
  }

  /** Once the document is read, `then()`. */
  function whenRead(then) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', then);
    else then();
  }

  /** The reason shown in the chart's box, if any: the first failure is the one to fix. */
  var shown = null;

  /** Says in the chart's box why the lab cannot start (`reason`, a key of MESSAGES), and hides
   *  the rest of the page. `detail` (the browser's own words) follows, if given. The single
   *  file's search (`file`, `sandbox`) may give way to its outcome. */
  function fail(reason, detail) {
    if (shown && shown !== 'file' && shown !== 'sandbox') return;
    shown = reason;
    var lang = language();
    var words = MESSAGES[lang];
    var text = (words[reason] || words.failed) + (detail ? ' ' + words.detail + detail : '');
    whenRead(function () {
      html.classList.remove('no-words', 'no-module');
      html.classList.add('failed');
      html.lang = lang === 'zh' ? 'zh-CN' : 'en';
      var box = document.getElementById('loading');
      if (!box) return;
      // (The page's words, should they arrive later, leave it as it is.)
      box.removeAttribute('data-i18n');
      box.textContent = text;
      box.setAttribute('role', 'alert');
      box.setAttribute('data-reason', reason);
    });
  }

  /** Whether the page has been refused WebAssembly by a Content-Security-Policy. */
  var wasmRefused = false;
  addEventListener('securitypolicyviolation', function (event) {
    if (/^wasm/i.test(event.blockedURI || '') || /wasm/i.test(event.sample || '')) wasmRefused = true;
  });

  /**
   * Puts the page's own words in `lang` (`word(key)` looks each up): its static texts and
   * labels, and panel `panel`'s title, introduction and chart label. app.js calls it whenever
   * the language or the panel changes; here it runs before the module, with the words
   * shell.js brings. The introduction is put in the chart's box too, which shows it while the
   * solver loads where the page's own is not shown (embedded, on stage).
   */
  function applyWords(word, panel, lang) {
    html.lang = lang === 'zh' ? 'zh-CN' : 'en';
    document.title = word('app.title');
    var texts = document.querySelectorAll('[data-i18n]');
    for (var i = 0; i < texts.length; i += 1) texts[i].textContent = word(texts[i].getAttribute('data-i18n'));
    var labelled = document.querySelectorAll('[data-i18n-label]');
    for (var j = 0; j < labelled.length; j += 1) labelled[j].setAttribute('aria-label', word(labelled[j].getAttribute('data-i18n-label')));
    document.getElementById('panel-title').textContent = word('panel.' + panel);
    var intro = word('panel.' + panel + '.intro');
    document.getElementById('panel-intro').textContent = intro;
    var early = document.getElementById('loading-intro');
    if (early) early.textContent = intro;
    document.getElementById('chart').setAttribute('aria-label', word('panel.' + panel + '.chart'));
    var toggle = document.getElementById('lang-toggle');
    toggle.textContent = word('lang.switch');
    toggle.setAttribute('aria-label', word('lang.switch.label'));
    toggle.lang = lang === 'zh' ? 'en' : 'zh';
  }

  window.rvmLabStartup = {
    applyWords: applyWords,
    fail: fail,
    /** Whether a policy refused WebAssembly: as the browser reported it, or as its error says. */
    refusedWasm: function (error) {
      return wasmRefused || /Content.Security.Policy|\bCSP\b|unsafe-eval/i.test(String(error && error.message));
    },
  };

  html.classList.remove('no-js');
  html.classList.add('no-words', 'no-module');
  // In a host's frame (style.css: an embedded panel keeps its scrollbar's room there).
  if (window.parent !== window) html.classList.add('framed');
  if (single) return;

  // A served copy where modules cannot run: the single file beside it, same state, once a
  // hidden frame has found it there.
  if (location.protocol === 'file:' || self.origin === 'null') {
    fail(location.protocol === 'file:' ? 'file' : 'sandbox');
    var target = new URL('rvm-lab.html', location.href);
    var probe = document.createElement('iframe');
    probe.name = PROBE;
    probe.hidden = true;
    probe.title = 'rvm-lab.html';
    probe.src = target.href;
    target.search = location.search;
    target.hash = location.hash;
    var missing = setTimeout(function () {
      fail('nosingle');
    }, PROBE_WAIT);
    addEventListener('message', function (event) {
      if (event.source !== probe.contentWindow || event.data !== HERE) return;
      clearTimeout(missing);
      location.replace(target.href);
    });
    whenRead(function () {
      document.body.appendChild(probe);
    });
    return;
  }

  /** Asks for `path` (beside this script) ahead of its use: `rel` modulepreload, or preload
   *  `as` fetch (as fetch() asks for it, so that the two requests are one). */
  function preload(path, rel, as) {
    var link = document.createElement('link');
    link.rel = rel;
    if (as) {
      link.as = as;
      link.crossOrigin = 'anonymous';
    }
    link.href = new URL(path, document.currentScript.src).href;
    document.head.appendChild(link);
  }

  // The page's modules: put in here rather than in the page, so that where they cannot load
  // (above) the browser never asks for them, and their failure has a message.
  var module = document.createElement('script');
  module.type = 'module';
  module.src = new URL('app.min.js', document.currentScript.src).href;
  module.addEventListener('error', function () {
    fail('module');
  });
  document.head.appendChild(module);

  // The words of the page's language, and the open panel's own, load beside the module instead
  // of once it runs (app.js asks for them then): the page shows when its words are in, so on a
  // slow network its text paints a round trip sooner. Only names the build knows as panels
  // with words of their own are asked for (PANELS_WITH_WORDS, as in app.js).
  var lang = first('lang') === 'zh' ? 'zh' : 'en';
  var named = first('panel');
  var lessonId = first('lesson');
  var lesson = lessonId !== null;
  // A lesson's file, and the index that lists it, load beside the module too, and so do the
  // words of its step's panel: BUILT_LESSONS holds the panel of each step of each lesson
  // lessons/index.json lists. The page shows with the lesson's band as soon as these are in
  // (app.js). A name that is no built lesson's asks the server for nothing.
  var lessons = typeof BUILT_LESSONS === 'undefined' ? {} : BUILT_LESSONS; // eslint-disable-line no-undef
  var steps = lesson && Object.prototype.hasOwnProperty.call(lessons, lessonId) ? lessons[lessonId] : null;
  var panel = named || (lesson ? null : 'predictive');
  if (steps) {
    ['lessons/index.json', 'lessons/' + lessonId + '.json'].forEach(function (path) {
      preload(path, 'preload', 'fetch');
    });
    // So does the equations' font, which the lesson's band shows at once: swapped in after the
    // band had been laid out in another font, it changed the band's height under the chart (a
    // layout shift of 0.017 on the fast RVM's piecewise αᵢ).
    preload('fonts/lab-math.woff2', 'preload', 'font');
    // The step the URL asks for, as the page reads it (a step the lesson lacks: the nearest).
    var step = Math.floor(Number(first('step') || 1)) || 1;
    panel = steps[Math.min(Math.max(step, 1), steps.length) - 1];
  }
  var known = typeof PANELS_WITH_WORDS === 'undefined' ? [] : PANELS_WITH_WORDS; // eslint-disable-line no-undef
  var words = ['strings/' + lang + '.js'];
  if (known.indexOf(panel) >= 0) words.push('strings/' + lang + '/' + panel + '.js');
  words.forEach(function (path) {
    preload(path, 'modulepreload');
  });

  // A panel in English — the page as most readers first meet it — shows with its words, before
  // the module: shell.js (a module too, so a browser that cannot read it never asks for it)
  // brings the English strings and the panel's own, and hands them to `showShell`. Its text,
  // the page's largest paint, then waits for two small files the browser already fetches, not
  // for the module and the solver. Another language, a lesson (its band comes with its file)
  // and the stage (laid out by the module) wait for the module as before.
  if (lang === 'en' && !lesson && first('stage') !== '1' && known.indexOf(panel) >= 0) {
    window.rvmLabStartup.shellPanel = panel;
    window.rvmLabStartup.showShell = function (words) {
      whenRead(function () {
        if (shown || !html.classList.contains('no-words')) return;
        if (named) html.setAttribute('data-panel', panel);
        document.body.classList.toggle('embed', first('embed') === '1');
        document.body.classList.toggle('locked', first('lock') === '1');
        applyWords(function (key) {
          return words[key] || '';
        }, panel, 'en');
        html.classList.remove('no-words');
      });
    };
    var shell = document.createElement('script');
    shell.type = 'module';
    shell.src = new URL('shell.min.js', document.currentScript.src).href;
    document.head.appendChild(shell);
  }
})();
