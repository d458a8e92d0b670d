// RVM Lab's page: it opens a panel (the wasm `Lab`), puts the page in the reader's
// language, and wires the page's own controls. Every number comes from Rust; the modules
// beside this one each own one part of the page:
//   wasm.js     the module and the guard around every call      state.js   shared state
//   url.js      the URL, the share box, the embedding page       view.js    chart and report
//   controls.js the panel's controls and every change tried      player.js  play, step, background work
//   exports.js  files in and out (PNG, SVG, CSV)                 lesson-view.js  lessons on the page
//   errors.js, notices.js  messages about changes and the URL    i18n.js, lesson.js  words, lesson files
//   stage.js    stage view for projectors and decks              host.js    keys, and the page framing the lab
//   handles.js  the keyboard's way to what a drag moves            points.js  data by hand: move, remove, undo
//   tables.js, plotted.js  tables, and the chart's data table
//   assets.js   where strings, lessons and the solver come from   scorm.js   a lesson in an LMS
//   boot.js, startup.js  start-up: where the page cannot start, it says why
//   editor.js   the lesson editor, a bundle of its own loaded when first used (editorApi)

import { attempt, buildControls } from './controls.js';
import { warmUp } from './comparisons.js';
import { syncHandles, wireHandles } from './handles.js';
import { syncPoints, wirePoints, wirePointer } from './points.js';
import { clearErrors, renderErrors } from './errors.js';
import { download, wireFiles } from './exports.js';
import { wirePlotted } from './plotted.js';
import { KNOWN_PANELS, LANGUAGES, STRINGS, loadLanguage, loadPanelWords } from './i18n.js';
import { hearHost, wireHost } from './host.js';
import { editorModule } from './assets.js';
import { LessonError, lessonJson, loadLesson, shownStep, validateLesson } from './lesson.js';
import { closeLesson, fillLessonMenu, lessonFault, mathNodes, openLesson, playLesson, renderLesson, showTruth, wireLessons } from './lesson-view.js';
import { asksForFormula, formulaLoaded, loadFormula, loadFormulaWords } from './formula.js';
import { encodeFragment } from './link.js';
import { notify, renderNotices } from './notices.js';
import { advance, pause, play, restart, startWork, stepBack } from './player.js';
import { setStage, wireStage } from './stage.js';
import { findApi, startScorm } from './scorm.js';
import { StartupError, showStartupFailure } from './startup.js';
import { follow, syncControls } from './sync.js';
import { nextTask } from './tasks.js';
import { $, state, t } from './state.js';
import { PAGE_KEYS, commitView, readFragment, readPageParams, reportHeights, toggleShare, viewPairs, writeUrl } from './url.js';
import { renderReports, schedule, show, warmCanvasText } from './view.js';
import { Lab, call, crashForTests, die, loadModule, panelNames } from './wasm.js';

/** The `chart.*` strings of the current language, for words drawn inside charts. */
function chartLabels() {
  return Object.keys(STRINGS[state.lang]).filter((key) => key.startsWith('chart.')).map((key) => [key.slice(6), t(key)]);
}

/** Puts the page's own words in the current language: its static texts and labels, and the
 *  open panel's title and introduction (its own words, [`loadPanelWords`], are in by then;
 *  should they have failed to load, the introduction stays empty). Needs no module, so the
 *  first paint has them. */
function applyWords() {
  // A key the strings lack shows as itself, as `t` gives it, but a panel's own words that
  // failed to load leave its introduction empty.
  const word = (key) => STRINGS[state.lang]?.[key] ?? (key.startsWith(`panel.${state.panel}.`) ? '' : key);
  window.rvmLabStartup.applyWords(word, state.panel, state.lang);
}

/** Puts every word of the page, and the words drawn in the chart, in the current language. */
function applyLanguage() {
  call(() => state.lab.setLabels(chartLabels()));
  schedule();
  applyWords();
  for (const option of $('#panel-select').options) option.textContent = t(`panel.${option.value}`);
  for (const option of $('#lesson-select').options) {
    if (option.dataset.title) option.textContent = JSON.parse(option.dataset.title)[state.lang];
  }
  $('#legend').dataset.shown = '';
  syncHandles();
  syncPoints();
  renderReports();
  renderNotices();
  renderErrors();
  renderLesson();
}

/** The latest request to open a panel: an earlier one still loading its words gives way. */
let opening = 0;

/** A promise of the next task: what comes after it runs in a task of its own. */
const yieldTask = () => new Promise((resolve) => nextTask(resolve));

/**
 * Shows panel `name` with the state in `pairs` ([key, value] from the URL), once its own
 * words are in; resolves to whether it did (`false` when another panel was asked for
 * meanwhile).
 */
async function openPanel(name, pairs) {
  const ticket = ++opening;
  // A panel whose words cannot be loaded still opens, without its introduction. A formula
  // basis needs the formula module: if it cannot be loaded, the panel says so (a notice)
  // and keeps its basis.
  await Promise.all([
    loadPanelWords(state.lang, name).catch(() => null),
    asksForFormula(pairs) && loadFormula(state.lang).catch(() => null),
    warmUp(name, pairs),
  ]);
  if (ticket !== opening) return false;
  pause();
  // The panel is computed once, at the URL's state (at its defaults, with a notice, if that
  // state does not compute), in a task of its own: with the page's work after it, it would be
  // one long task on a slow phone. The panel shown until then stays as it was.
  const lab = call(() => new Lab(name, pairs));
  const notices = call(() => lab.openingNotices());
  await yieldTask();
  if (ticket !== opening) {
    lab.free();
    return false;
  }
  state.lab?.free();
  state.lab = lab;
  state.panel = name;
  // The chart's box takes the panel's aspect ratio from the stylesheet.
  document.documentElement.dataset.panel = name;
  // On stage the charts are drawn in the projector look (`palette::Look`); a lesson's step
  // may hide the curve that generated the data.
  call(() => state.lab.setProjector(state.stage));
  showTruth();
  $('#panel-select').value = name;
  state.notices.push(...notices.map((error) => ({ error })));
  state.description = call(() => state.lab.describe());
  const { animated, playSpeed, pointAxes, counts } = state.description;
  buildControls();
  document.documentElement.classList.remove('no-module');
  $('#player').hidden = !animated;
  $('#speed').value = String(playSpeed);
  $('#add-point').hidden = !pointAxes;
  $('#csv').hidden = $('#add-point').hidden;
  $('#add-point').querySelectorAll('label > span').forEach((span, i) => {
    span.dataset.i18n = `control.${pointAxes?.[i] ?? ['x', 't'][i]}`;
  });
  // A count is typed and stepped as a whole number.
  $('#add-point').t.inputMode = counts ? 'numeric' : 'decimal';
  $('#point-y').step = counts ? '1' : '0.01';
  applyLanguage();
  syncControls();
  clearErrors();
  // The address (Chromium's replaceState can take 10 ms) and the first drawing follow in a
  // task of their own: with the controls and the words, one task was over 50 ms on a phone
  // 4× slower. A panel asked for meanwhile takes over from here.
  await yieldTask();
  if (ticket !== opening) return false;
  writeUrl();
  show();
  startWork();
  return true;
}

/** What the lesson editor (editor.js, a bundle of its own with no module state of the page)
 *  may use of the page: given when it opens, never imported again. (`Lab` opens a panel at
 *  its defaults, to say how a step's view differs from them; `mathNodes` shows an equation as
 *  readers see it.) */
const editorApi = () => ({
  state, t, notify, download, viewPairs, playLesson, closeLesson, lessonFault, lessonJson, validateLesson, LessonError,
  encodeFragment, panels: panelNames(), Lab, mathNodes,
});

/**
 * Loads the lesson editor (once) and hands it the page: `then(editor, api)` opens it, plays a
 * link's lesson … A failed download is a notice; the page stays as it was.
 */
async function withEditor(then) {
  try {
    await then(await editorModule(), editorApi());
  } catch (error) {
    notify({ text: ['lesson.make-failed', { message: String(error?.message ?? error) }] });
  }
}

/** The page's own controls: panel and language, reset, notices, share, the chart's pointer,
 *  the player, the add-point form, and redrawing on resize. */
function wireEvents() {
  $('#lang-toggle').addEventListener('click', async () => {
    const next = state.lang === 'zh' ? 'en' : 'zh';
    try {
      await Promise.all([
        loadLanguage(next),
        loadPanelWords(next, state.panel),
        formulaLoaded() && loadFormulaWords(next).catch(() => null),
      ]);
    } catch (error) {
      die(error);
      return;
    }
    state.lang = next;
    applyLanguage();
    writeUrl();
  });
  // Words loaded after the panel opened (the formula family's, with its module).
  document.addEventListener('rvm-lab:words', applyLanguage);
  $('#reset').addEventListener('click', () => attempt('reset', () => state.lab.reset()));
  $('#notices .dismiss').addEventListener('click', () => {
    state.notices = [];
    renderNotices();
  });
  $('#panel-select').addEventListener('change', (event) => {
    if (!state.lesson) visits.set(state.panel, call(() => state.lab.query()));
    closeLesson();
    openPanel(event.target.value, visits.get(event.target.value) ?? []);
  });
  // A student's action begins or ends (a press, a choice, a key outside a box typed in, where
  // the box's change ends it): the view it makes is an entry of the browser's history of its
  // own (url.js `commitView`).
  for (const type of ['pointerdown', 'click', 'change']) document.addEventListener(type, () => commitView(), true);
  const typing = 'input[type=text], input[type=number], textarea';
  document.addEventListener('keydown', (event) => event.target.matches?.(typing) || commitView(), true);
  window.addEventListener('popstate', () => showAddress().catch(die));
  wireLessons(openPanel);
  wireHost();
  wireStage(() => {
    writeUrl();
    schedule();
  });
  wireFiles();
  wirePlotted();
  wireHandles();
  wirePoints();
  wirePointer();
  // The handles and points lists follow every change of the state, after the controls.
  follow(syncHandles);
  follow(syncPoints);
  $('#share-toggle').addEventListener('click', toggleShare);
  $('#editor-open').addEventListener('click', () => withEditor((editor, api) => editor.openEditor(api)));
  // A lesson file dropped on the page opens in the editor (a CSV file on the chart is data).
  document.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  document.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (event.defaultPrevented || state.locked || !/\.json$/i.test(file?.name)) return;
    event.preventDefault();
    withEditor((editor, api) => editor.openEditor(api, file));
  });
  $('#play').addEventListener('click', () => (state.playing ? pause() : play()));
  $('#step').addEventListener('click', () => {
    pause();
    advance(1);
  });
  $('#back').addEventListener('click', stepBack);
  $('#restart').addEventListener('click', restart);
  $('#add-point').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const x = Number(form.x.value === '' ? NaN : form.x.value);
    const tValue = Number(form.t.value === '' ? NaN : form.t.value);
    attempt('add-point', () => state.lab.addPoint(x, tValue));
  });
  new ResizeObserver(schedule).observe($('#canvas-box'));
  // devicePixelRatio changes without a resize when the window moves to another screen.
  const watchScale = () =>
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener(
      'change',
      () => {
        schedule();
        watchScale();
      },
      { once: true },
    );
  watchScale();
}

/**
 * The panel's state in an address: the pairs of its `query` that are not the page's own, then
 * those of its `fragment` (a large state's long values travel there, link.js, and so does a
 * lesson's JSON in a lesson link, `?lesson=&step=k#z=…`, under the key `lesson`). A key given
 * twice in the query counts once, as the page's own keys do: its first value (a notice says so).
 */
function panelPairs(query, fragment) {
  const pairs = [];
  const seen = new Set();
  const repeated = new Set();
  for (const [key, value] of query) {
    if (!seen.has(key)) {
      seen.add(key);
      if (!PAGE_KEYS.includes(key) && !(query.has('lesson') && key === 'step')) pairs.push([key, value]);
    } else if (!repeated.has(key)) {
      repeated.add(key);
      state.notices.push({ text: ['notice.repeated', { key, value: query.get(key) }] });
    }
  }
  return [...pairs, ...fragment.filter(([key]) => !PAGE_KEYS.includes(key))];
}

/** Each panel's state as the student left it during this visit (its `Lab.query`), which it
 *  opens with again when chosen from the menu. */
const visits = new Map();

/**
 * The browser's Back or Forward: the view its address holds — a built-in lesson's step, or a
 * panel and its state (leaving a lesson). A lesson from a link or a file, whose text the
 * address holds packed, is read from it as on opening: the page opens that address again.
 */
async function showAddress() {
  commitView(false);
  const query = new URLSearchParams(location.search);
  const lesson = query.get('lesson');
  const step = query.get('step') ?? '1';
  if (lesson === '') {
    location.reload();
  } else if (lesson) {
    await openLesson(lesson, Number(step) - 1, step);
  } else {
    if (state.lesson) closeLesson();
    const fragment = await readFragment();
    const page = readPageParams(query);
    await openPanel(page.panel, panelPairs(query, fragment));
  }
  commitView();
}

/**
 * Lesson `id` at step `asked` (1-based text; the first if absent, the nearest if out of
 * range) as `state.lesson` holds it, read beside the module and checked against the panels
 * the build knows; null if it cannot be (the module then reads it and says why).
 */
async function earlyLesson(id, asked) {
  try {
    const data = await loadLesson(id, KNOWN_PANELS);
    return { id, data, index: shownStep(Number(asked ?? 1) - 1, data.steps.length) };
  } catch {
    return null;
  }
}

/** How long the solver's download waits for the shell's paint at most (ms), where the page
 *  does not paint (a tab not shown). */
const AFTER_PAINT_WAIT = 200;

async function main() {
  // boot.js starts this module while the page is still being read.
  if (document.readyState === 'loading') await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }));
  // A host's frame takes the page's height from the shell on (and may answer at once).
  hearHost();
  reportHeights();
  const query = new URLSearchParams(location.search);
  // (A lesson link's fragment, which the address keeps while the lesson plays.)
  const hash = location.hash.slice(1);
  // The words of the asked language load beside the module (readPageParams, which needs
  // the module, checks the language again and reports a bad one).
  const asked = LANGUAGES.includes(query.get('lang')) ? query.get('lang') : 'en';
  // The shell is laid out before the module arrives: the panel the URL names (the module
  // checks the name and may open another), its words, embed and stage; the chart's box
  // has its final size from the stylesheet, and says it is loading the solver.
  const named = query.get('panel');
  if (named) document.documentElement.dataset.panel = named;
  document.body.classList.toggle('embed', query.get('embed') === '1');
  // Student mode: `lock=1`, or a lesson's LMS package (scripts/package.mjs).
  state.locked = query.get('lock') === '1' || document.documentElement.dataset.lock === '1';
  document.body.classList.toggle('locked', state.locked);
  // A lesson's band comes with the lesson file, which loads beside the module: the page shows
  // once it is in, with the band and the step's panel (its chart box, its words). Where the
  // build cannot check the lesson's panels, or an LMS says where the student left off, the
  // page waits for the module and shows then, whole.
  // A lesson's own single file (an LMS package, scripts/package.mjs) opens it by default.
  const lessonId = query.get('lesson') ?? (query.has('panel') ? null : (document.documentElement.dataset.lesson ?? null));
  const early = lessonId && KNOWN_PANELS && (query.has('step') || !findApi()) ? earlyLesson(lessonId, query.get('step')) : null;
  const reveal = () => document.documentElement.classList.remove('no-words');
  // The panel's own words load beside the language's when the build knows the name as a
  // panel's; otherwise they follow, once the language's strings say which panel opens (a
  // name that is no panel's falls back to the default panel, and asks the server for nothing).
  // (A lesson's panel comes with the lesson file.)
  // (loadPanelWords keeps each load, so the await below takes this one up.)
  const likely = lessonId ? null : (named ?? state.panel);
  if (KNOWN_PANELS?.includes(likely)) loadPanelWords(asked, likely).catch(() => null);
  const shell = loadLanguage(asked).then(async () => {
    state.lang = asked;
    if (`panel.${named}` in STRINGS[asked]) state.panel = named;
    const lesson = await early;
    if (lesson) {
      state.panel = lesson.data.steps[lesson.index].panel;
      document.documentElement.dataset.panel = state.panel;
    }
    await loadPanelWords(asked, state.panel).catch(() => null);
    if (query.get('stage') === '1') setStage(true);
    applyWords();
    if (lesson && !state.lesson) {
      state.lesson = lesson;
      renderLesson();
      // The lesson menu says which lesson this is (it needs only the index, read already).
      await fillLessonMenu();
    }
    if (!lessonId || lesson) reveal();
  });
  // The solver (most of the page's bytes) is asked for once the shell's text is on screen
  // (the page's first contentful paint: nothing shows before its words), or the shell has
  // failed: its text first, then the chart. The small files the shell waits for are asked for
  // beside this module (boot.js), so they are mostly in by now. A frame's callbacks run some
  // milliseconds before it is on screen, so the browser's paint entry is waited for, not a
  // frame; where none comes (a tab not shown), at most AFTER_PAINT_WAIT ms.
  const afterPaint = () => new Promise((done) => {
    setTimeout(done, AFTER_PAINT_WAIT);
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      done();
    }).observe({ type: 'paint', buffered: true });
  });
  const solver = shell.then(afterPaint, afterPaint).then(() => {
    const module = loadModule();
    // While it downloads, the browser sets up the charts' fonts (view.js).
    nextTask(warmCanvasText);
    return module;
  });
  try {
    // The page's strings failing to load is a failed download too.
    await Promise.all([solver, shell.catch((error) => Promise.reject(new StartupError('download', error.message)))]);
  } catch (error) {
    showStartupFailure(error);
    return;
  }
  // The module's compilation and our first use of it (its code compiled as it first runs)
  // are separate tasks, so that neither blocks input for long.
  await yieldTask();
  const page = readPageParams(query);
  Object.assign(state, { lang: page.lang, embed: page.embed, notices: page.notices });
  document.body.classList.toggle('embed', state.embed);
  const select = $('#panel-select');
  for (const name of panelNames()) select.append(new Option(name, name));
  state.large = query.get('large') === '1';
  const fragment = await readFragment();
  const pairs = panelPairs(query, fragment);
  const linked = fragment.find(([key]) => key === 'lesson')?.[1];
  wireEvents();
  await yieldTask();
  // A lesson shown early opens its step's panel itself (no other panel's chart box between),
  // and has filled the lesson menu.
  if (!(await early)) {
    await openPanel(page.panel, pairs);
    await fillLessonMenu();
  }
  if (lessonId) {
    // In an LMS the lesson reports to it, and opens where the student left it.
    state.scorm = await startScorm(lessonId);
    const step = query.get('step') ?? String(state.scorm?.resumeStep() ?? 1);
    await openLesson(lessonId, Number(step) - 1, step);
  }
  // A lesson link's lesson, checked as a lesson file is; a broken one is a notice.
  if (linked !== undefined) {
    await withEditor((editor, api) => editor.playLink(api, linked, hash, Number(query.get('step') ?? 1) - 1));
  }
  // The lesson did not open after all (the module knows its panels better): the URL's panel.
  if (!state.lab) await openPanel(page.panel, pairs);
  renderLesson();
  reveal();
  document.body.dataset.ready = '1';
  // The view opened is one the browser's Back returns to.
  commitView();
  // A handle for the console and the browser tests.
  window.rvmLab = { state, crashForTests: () => call(crashForTests) };
}

main().catch((error) => die(error));
