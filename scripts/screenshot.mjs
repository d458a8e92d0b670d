#!/usr/bin/env node
// Regenerates docs/screenshot.png (the README's picture) from the built page:
//   bash scripts/build.sh && node scripts/screenshot.mjs
import { fileURLToPath } from 'node:url';
import { open, start } from '../tests/e2e/browser.mjs';

const out = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url));
const env = await start();
try {
  const page = await open(env, '?panel=predictive&alpha=0.5&points=0.62:0.35,0.7:-0.2', { viewport: { width: 1100, height: 720 } });
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await env.close();
}
