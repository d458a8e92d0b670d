// The lecture hall: stage view (?stage=1) on its own and in a reveal.js deck (www/deck.html,
// reveal.js served from the project) at projector sizes. The chart fills the frame and stays
// crisp, its text is large enough for the back of a hall, a click only focuses it, and a
// clicker's keys go on to the deck when the lab does not use them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { open, panelNames, start } from './browser.mjs';

const SHOTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** Every text on stage (tick labels, legend, counter, lesson, buttons): at least this
 *  fraction of the viewport's height, 22 px at 720 p (the back-row rule). */
const STAGE_TEXT = 0.03;

let env;
before(async () => {
  env = await start();
  mkdirSync(SHOTS, { recursive: true });
});
after(() => env.close());

/** In the document of `frame` (a page or an iframe): the chart's box, the canvas's backing
 *  size, and the smallest text the chart draws, in canvas pixels, read from the same
 *  drawing as SVG (Rust draws both at the same scale; plotters' SVG backend writes a font
 *  of size s as font-size s / 1.24, its canvas backend as s px). */
function measureChart(frame) {
  return frame.evaluate(() => {
    const canvas = document.querySelector('#chart');
    const { lab, drawScale } = window.rvmLab.state;
    const svg = lab.svg(canvas.width, canvas.height, drawScale);
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]) * 1.24);
    return {
      box: canvas.getBoundingClientRect().toJSON(),
      backing: [canvas.width, canvas.height],
      smallestText: Math.min(...sizes),
      viewport: [innerWidth, innerHeight],
      scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    };
  });
}

describe('stage view', () => {
  test('every panel at 1280×720: no scrollbars, the chart fills most of the view, text ≥ 3 % of its height', async () => {
    for (const name of await panelNames()) {
      const page = await open(env, `?panel=${name}&stage=1`, { viewport: { width: 1280, height: 720 } });
      const m = await measureChart(page);
      assert.deepEqual(m.scroll, m.viewport, `${name}: the page scrolls`);
      assert.ok(m.box.top >= 0 && m.box.left >= 0 && m.box.bottom <= 720 && m.box.right <= 1280, `${name}: chart cut off`);
      const cover = (m.box.width * m.box.height) / (1280 * 720);
      assert.ok(cover >= 0.6, `${name}: the chart covers ${(cover * 100).toFixed(0)} % of the view`);
      const text = (m.smallestText * m.box.width) / m.backing[0];
      assert.ok(text >= STAGE_TEXT * 720, `${name}: chart text ${text.toFixed(1)} px`);
      assert.equal(await page.isVisible('#controls'), false, `${name}: the controls wait in the drawer`);
      assert.deepEqual(page.consoleErrors, []);
      await page.context().close();
    }
  });

  test('1280×720 and 1024×768: every text is ≥ 3 % of the view’s height, and the step’s numbers, the player, Large type and Full screen are in view', async () => {
    const views = [
      '?panel=fast-rvm&step=9&stage=1',
      '?panel=classification&step=7&stage=1',
      '?panel=gradient-descent&stage=1',
      '?lesson=fast-rvm&step=5&stage=1',
      '?lesson=sparsity&step=2&stage=1&lang=zh',
    ];
    for (const [width, height] of [[1280, 720], [1024, 768]]) {
      for (const view of views) {
        const label = `${width}×${height} ${view}`;
        const page = await open(env, view, { viewport: { width, height } });
        const m = await measureChart(page);
        assert.deepEqual(m.scroll, m.viewport, `${label}: the page scrolls`);
        const chartText = (m.smallestText * m.box.width) / m.backing[0];
        assert.ok(chartText >= STAGE_TEXT * height, `${label}: chart text ${chartText.toFixed(1)} px`);
        // Every text the page shows (its own text nodes, in view and not clipped away): its
        // font size.
        const small = await page.evaluate((least) => {
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const el = node.parentElement;
            if (!node.textContent.trim() || !el.checkVisibility({ visibilityProperty: true })) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const box = range.getBoundingClientRect();
            if (box.width < 1 || box.height < 1 || el.closest('.visually-hidden, header.site, dialog')) continue;
            // An equation's size is its own (its indices and limits are set smaller, as in
            // any typesetting).
            const size = parseFloat(getComputedStyle(el.closest('math') ?? el).fontSize);
            if (size < least) found.push(`${el.id || el.className || el.tagName}: ${size.toFixed(1)} px “${node.textContent.trim().slice(0, 30)}”`);
          }
          return found;
        }, STAGE_TEXT * height);
        assert.deepEqual(small, [], `${label}: text under ${(STAGE_TEXT * height).toFixed(1)} px`);
        // What must be in view, whole and not covered: the summary (the step's action, its
        // relevance vectors, ln p), the player's buttons and counter, Large type, Full screen.
        const needed = ['#chart-summary', '#large-toggle', '#fullscreen-toggle', '#drawer-toggle'];
        if (!view.includes('sparsity')) needed.push('#play', '#step', '#progress-text');
        if (view.includes('lesson')) needed.push('#lesson-prev', '#lesson-next', '#lesson-counter', '#lesson-step-title');
        for (const selector of needed) {
          const seen = await page.$eval(selector, (el) => {
            const box = el.getBoundingClientRect();
            const inView = box.width > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5;
            const top = document.elementFromPoint(box.left + Math.min(box.width / 2, 8), box.top + Math.min(box.height / 2, 8));
            return inView && (el === top || el.contains(top));
          });
          assert.ok(seen, `${label}: ${selector} is not in view`);
        }
        if (view.includes('fast-rvm&step=9')) {
          const summary = await page.textContent('#chart-summary');
          assert.match(summary, /delete φ0.*8 relevance vectors.*ln p\(t\|α,β\) = -81\.379/, summary);
        }
        await page.screenshot({ path: `${SHOTS}stage-text-${width}x${height}-${view.replace(/\W+/g, '-')}.png` });
        assert.deepEqual(page.consoleErrors, []);
        await page.context().close();
      }
    }
  });

  test('Large type makes every text on stage 1.3 times as large, the chart’s too, and is kept in the address', async () => {
    const page = await open(env, '?panel=fast-rvm&step=9&stage=1', { viewport: { width: 1280, height: 720 } });
    const sizes = async () => ({
      chart: (await measureChart(page)).smallestText,
      summary: parseFloat(await page.$eval('#chart-summary', (el) => getComputedStyle(el).fontSize)),
    });
    const before = await sizes();
    const draws = await page.$eval('#chart', (c) => Number(c.dataset.draws));
    await page.click('#large-toggle');
    await page.waitForFunction((n) => Number(document.querySelector('#chart').dataset.draws) > n, draws);
    const after = await sizes();
    assert.equal(await page.getAttribute('#large-toggle', 'aria-pressed'), 'true');
    assert.equal(new URL(page.url()).searchParams.get('large'), '1');
    assert.ok(Math.abs(after.summary / before.summary - 1.3) < 0.02, `summary ${before.summary} → ${after.summary} px`);
    assert.ok(Math.abs(after.chart / before.chart - 1.3) < 0.1, `chart text ${before.chart} → ${after.chart}`);
    await page.context().close();
  });

  test('every kind of fast-RVM step is named on the chart: add, re-estimate, delete, the noise’s β, converged', async () => {
    const page = await open(env, '?panel=fast-rvm&step=0', { viewport: { width: 1280, height: 720 } });
    const named = await page.evaluate(async () => {
      const lab = window.rvmLab.state.lab;
      const seen = new Map();
      for (let step = 0; step <= 26; step += 1) {
        lab.set('step', String(step));
        const action = lab.report().summary[0].args.action.key;
        const texts = [...lab.svg(900, 500, 1).matchAll(/<text[^>]*>\s*([^<]*?)\s*<\/text>/g)].map((m) => m[1]);
        if (!seen.has(action)) seen.set(action, texts.find((t) => /^(add φ|re-estimate|delete φ|converged)/.test(t)) ?? null);
      }
      return Object.fromEntries(seen);
    });
    assert.match(named['cell.add'], /^add φ\d+$/);
    assert.match(named['cell.delete'], /^delete φ\d+$/);
    assert.match(named['cell.noise'], /^re-estimate β = \d/);
    assert.equal(named['cell.converged'], 'converged');
    await page.context().close();
  });

  test('800×450 to 3840×2160, 16:9 and 4:3: nothing scrolls or is cut off; the text grows with the view', async () => {
    let previous = 0;
    for (const [width, height] of [[800, 450], [1024, 768], [1920, 1080], [3840, 2160]]) {
      const page = await open(env, '?lesson=fast-rvm&step=3&stage=1', { viewport: { width, height } });
      const m = await measureChart(page);
      assert.deepEqual(m.scroll, m.viewport, `${width}×${height}: the page scrolls`);
      assert.ok(m.box.bottom <= height && m.box.height >= 0.45 * height, `${width}×${height}: chart ${JSON.stringify(m.box)}`);
      const text = (m.smallestText * m.box.width) / m.backing[0];
      assert.ok(text >= STAGE_TEXT * height, `${width}×${height}: chart text ${text.toFixed(1)} px`);
      assert.ok(text >= previous, 'the text grows with the view');
      previous = text;
      const lesson = await page.$eval('#lesson', (el) => el.getBoundingClientRect().toJSON());
      assert.ok(lesson.left >= m.box.right - 1, 'the lesson’s text sits beside the chart');
      await page.screenshot({ path: `${SHOTS}stage-lesson-${width}x${height}.png` });
      await page.context().close();
    }
  });

  test('a click on the chart only focuses it; “Edit on chart” makes a click add a point; the drawer opens and closes', async () => {
    const page = await open(env, '?panel=predictive&stage=1', { viewport: { width: 1280, height: 720 } });
    const points = () => page.evaluate(() => window.rvmLab.state.lab.value('points') ?? '');
    const before = await points();
    const box = await page.$eval('#chart', (c) => c.getBoundingClientRect().toJSON());
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.4);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'chart', 'the chart has the focus');
    assert.equal(await points(), before, 'no point was added');
    await page.click('#edit-toggle');
    assert.equal(await page.getAttribute('#edit-toggle', 'aria-pressed'), 'true');
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.4);
    assert.notEqual(await points(), before, 'in edit mode the click adds a point');
    await page.click('#drawer-toggle');
    assert.equal(await page.isVisible('#controls'), true);
    assert.equal(await page.getAttribute('#drawer-toggle', 'aria-expanded'), 'true');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#controls'), false, 'Escape closes the drawer');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'drawer-toggle');
    await page.click('#stage-leave');
    assert.equal(await page.isVisible('#controls'), true, 'off stage the controls are back');
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('stage')), null);
    // "Present" enters the stage again: the chart fills its box, not the page's height.
    await page.click('#stage-enter');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('stage') === '1');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const [chart, frame] = await page.evaluate(() => ['#chart', '#canvas-box'].map((s) => document.querySelector(s).getBoundingClientRect().height));
    assert.ok(Math.abs(chart - frame) <= 1 && frame > 0.6 * 720, `chart ${chart} px in a box of ${frame} px`);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('on stage the chart is in the projector look: deeper colours and wider lines, in the legend and in SVG; off stage the screen look is back', async () => {
    const page = await open(env, '?panel=least-squares&stage=1', { viewport: { width: 1280, height: 720 } });
    // The generating curve: Okabe–Ito's bluish green on screen, palette::PROJECTOR's deeper green on stage.
    const look = () =>
      page.evaluate(() => {
        const svg = new DOMParser().parseFromString(window.rvmLab.state.lab.svg(800, 500, 1), 'image/svg+xml');
        const widths = (colour) =>
          [...svg.querySelectorAll('[stroke]')]
            .filter((el) => el.getAttribute('stroke').toLowerCase() === colour)
            .map((el) => Number(el.getAttribute('stroke-width') ?? 1));
        const swatches = [...document.querySelectorAll('#legend .swatch')].map((el) => getComputedStyle(el).borderColor);
        return { screen: widths('#009e73'), projector: widths('#006b45'), swatches };
      });
    const stage = await look();
    assert.equal(stage.screen.length, 0, 'no screen green on stage');
    assert.ok(stage.projector.length > 0, 'the curve is drawn in the projector green');
    assert.ok(stage.swatches.includes('rgb(0, 107, 69)') && !stage.swatches.includes('rgb(0, 158, 115)'), stage.swatches.join());
    await page.click('#stage-leave');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('stage') === null);
    const screen = await look();
    assert.equal(screen.projector.length, 0, 'no projector green off stage');
    assert.ok(screen.swatches.includes('rgb(0, 158, 115)'), screen.swatches.join());
    // palette::Look::width: lines 1.5 times as wide, rounded.
    assert.equal(Math.max(...stage.projector), Math.round(1.5 * Math.max(...screen.screen)));
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('s steps the solver and Shift+S steps it back, also with a button focused', async () => {
    const page = await open(env, '?panel=fast-rvm&step=0&stage=1', { viewport: { width: 1280, height: 720 } });
    const step = () => page.$eval('#readouts dd[data-key="step"]', (el) => el.textContent);
    await page.focus('#play');
    await page.keyboard.press('s');
    await page.keyboard.press('s');
    assert.equal(await step(), '2');
    await page.keyboard.press('Shift+S');
    assert.equal(await step(), '1');
    await page.context().close();
  });
});

/** Opens the example deck at `size` on slide `index`; returns the page, the slide's frame
 *  element and its document once the panel in it is ready. */
async function openDeck(size, index) {
  const context = await env.browser.newContext({ viewport: size });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.on('pageerror', (error) => page.consoleErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') page.consoleErrors.push(message.text());
  });
  page.requests = [];
  page.on('request', (request) => page.requests.push(request.url()));
  await page.goto(`${env.url}deck.html#/${index}`);
  await page.waitForFunction(() => window.Reveal?.isReady());
  const element = await page.waitForSelector('section.present iframe');
  const frame = await element.contentFrame();
  await frame.waitForSelector('body[data-ready="1"]');
  await frame.waitForFunction(() => Number(document.querySelector('#chart').dataset.draws ?? 0) >= 1);
  await frame.waitForFunction(() => document.body.dataset.working !== '1');
  await frame.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return { page, element, frame };
}

const slide = (page) => page.evaluate(() => window.Reveal.getIndices().h);

describe('in a reveal.js deck', () => {
  // A phone held upright, too: the deck stays a deck (reveal's scroll view is off), and the
  // stage's text follows the height of a 4 : 3 slide of the phone's width, so the chart keeps
  // the frame (sized by the whole height, the text left the chart a strip 40 px high).
  for (const size of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }, { width: 412, height: 823 }]) {
    const label = `${size.width}×${size.height}`;
    const presentation = Math.min(size.height, (size.width * 3) / 4);

    test(`${label}: the framed chart lies inside its frame, covers ≥ 50 % of it, is crisp and readable`, async () => {
      for (const index of [1, 2, 3]) {
        const { page, element, frame } = await openDeck(size, index);
        assert.equal(await page.evaluate(() => window.Reveal.isScrollView()), false, 'the deck shows slides');
        const outer = await element.boundingBox();
        const m = await measureChart(frame);
        const k = outer.width / m.viewport[0];
        const chart = { left: outer.x + m.box.left * k, top: outer.y + m.box.top * k, width: m.box.width * k, height: m.box.height * k };
        assert.ok(chart.left >= outer.x - 0.5 && chart.top >= outer.y - 0.5, `slide ${index}: chart starts outside the frame`);
        assert.ok(chart.left + chart.width <= outer.x + outer.width + 0.5, `slide ${index}: chart wider than the frame`);
        assert.ok(chart.top + chart.height <= outer.y + outer.height + 0.5, `slide ${index}: chart below the frame`);
        // (Half the frame at least: the legend, the summary, the player and the stage's tools
        // share the rest, in text 3 % of the deck's height.)
        const cover = (chart.width * chart.height) / (outer.width * outer.height);
        assert.ok(cover >= 0.5, `slide ${index}: the chart covers ${(cover * 100).toFixed(0)} % of its frame`);
        assert.ok(Math.abs(m.backing[0] - chart.width) <= 2, `slide ${index}: ${m.backing[0]} canvas pixels for ${chart.width.toFixed(0)} on screen`);
        const text = (m.smallestText * chart.width) / m.backing[0];
        assert.ok(text >= STAGE_TEXT * presentation, `slide ${index}: chart text ${text.toFixed(1)} px on screen`);
        await page.screenshot({ path: `${SHOTS}deck-${index}-${size.width}x${size.height}.png` });
        const outside = page.requests.filter((url) => !url.startsWith(env.url));
        assert.deepEqual(outside, [], 'the deck loads nothing from another host');
        assert.deepEqual(page.consoleErrors, []);
        await page.context().close();
      }
    });
  }

  test('after a click on the plot, → and PageDown advance the deck, ← and PageUp go back, and no point was added', async () => {
    const { page, element, frame } = await openDeck({ width: 1280, height: 720 }, 1);
    const points = () => frame.evaluate(() => window.rvmLab.state.lab.value('points') ?? '');
    const before = await points();
    const box = await element.boundingBox();
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.4);
    assert.equal(await frame.evaluate(() => document.activeElement.id), 'chart');
    assert.equal(await points(), before, 'the click added no point');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 2);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 1);
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 2);
    assert.equal(await points(), before);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });

  test('space goes on to the deck and never scrolls the frame; s steps the framed RVM', async () => {
    const { page, element, frame } = await openDeck({ width: 1280, height: 720 }, 2);
    const box = await element.boundingBox();
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.4);
    const step = () => frame.$eval('#readouts dd[data-key="step"]', (el) => el.textContent);
    assert.equal(await step(), '0');
    await page.keyboard.press('s');
    assert.equal(await step(), '1', 's steps the RVM');
    assert.equal(await slide(page), 2, 's stays in the frame');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 3);
    assert.equal(await frame.evaluate(() => scrollY), 0);
    await page.context().close();
  });

  test('in a framed lesson the clicker walks the lesson, then leaves it for the next slide; ← on its first step goes back', async () => {
    const { page, element, frame } = await openDeck({ width: 1280, height: 720 }, 4);
    const counter = () => frame.textContent('#lesson-counter');
    const box = await element.boundingBox();
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.7);
    assert.equal(await counter(), 'step 1 of 5');
    for (let k = 2; k <= 5; k += 1) {
      await page.keyboard.press('PageDown');
      assert.equal(await counter(), `step ${k} of 5`);
      assert.equal(await slide(page), 4, 'the deck waits while the lesson has steps');
    }
    await page.screenshot({ path: `${SHOTS}deck-lesson-1280x720.png` });
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 5);
    // The deck's plugin takes the focus back from the left slide's frame as the slide with
    // no lab is shown; then ← reaches the deck.
    await page.waitForFunction(() => document.activeElement?.tagName !== 'IFRAME');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 4);
    assert.equal(await counter(), 'step 5 of 5', 'the lesson is where it was left');
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.7);
    for (let k = 4; k >= 1; k -= 1) {
      await page.keyboard.press('ArrowLeft');
      assert.equal(await counter(), `step ${k} of 5`);
    }
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 3);
    assert.deepEqual(page.consoleErrors, []);
    await page.context().close();
  });
});
