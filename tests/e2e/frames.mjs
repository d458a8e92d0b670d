// Helpers of the embedding tests that work with either driver (playwright-core driving
// Chromium, puppeteer-core driving Firefox): the lab in a frame on a course page, and waiting
// for its chart.

/**
 * Runs in the (course) page, through the driver's `evaluate`: appends an iframe with the
 * attributes `attrs` to the body, and records every message the page receives in
 * `window.received`.
 */
export function putFrame(attrs) {
  window.received = [];
  addEventListener('message', ({ data }) => window.received.push(data));
  const frame = document.createElement('iframe');
  for (const [name, value] of Object.entries(attrs)) frame.setAttribute(name, value);
  frame.style.width = '1000px';
  frame.style.height = '760px';
  document.body.append(frame);
}

/** Waits until `frame` (a page or a frame, which may still be on its way to another document)
 *  shows a drawn chart, its work done; returns its address. */
export async function drawnIn(frame, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const ready = await frame
      .evaluate(() => document.body?.dataset.ready === '1' && Number(document.querySelector('#chart')?.dataset.draws ?? 0) >= 1 && document.body.dataset.working !== '1')
      .catch(() => false);
    if (ready) return frame.evaluate(() => location.href);
    if (Date.now() > deadline) throw new Error(`no chart in ${frame.url()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
