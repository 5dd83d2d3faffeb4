// Time from navigation to the first timeline drawn with server data, in Debian's Chromium.
// Usage: node first-draw.mjs URL   (uses web/e2e/node_modules/playwright-core)
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../web/e2e/package.json'));
const { chromium } = require('playwright-core');

const url = process.argv[2];
const browser = await chromium.launch({ executablePath: process.env.HETSCOPE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 2200, height: 1080 } });
const results = [];
for (let i = 0; i < 4; i++) {
  const t = Date.now();
  if (i === 0) await page.goto(url); else await page.reload();
  await page.waitForFunction(() => window.__hetscope && window.__hetscope.frame().firstDataDrawMs !== null,
    null, { timeout: 60000 });
  const inPage = await page.evaluate(() => window.__hetscope.frame().firstDataDrawMs);
  results.push({ run: i === 0 ? 'first open' : 'reload', pageMs: Math.round(inPage), driverMs: Date.now() - t });
}
await browser.close();
console.log('| page load | first drawn timeline (navigation start -> first frame with data) | as seen by the driver |');
console.log('|---|---|---|');
for (const r of results) console.log(`| ${r.run} | ${r.pageMs} ms | ${r.driverMs} ms |`);

// Window redraws, warm (after the reloads above): a fixed sequence of zooms and pans by keys, as a user drives the
// timeline. For each step, "draw" = the canvas frame drawn at once with what is cached (Timeline.draw), and
// "with data" = from the key press to the frame drawn with the new window's server data (the page asks at once,
// one request per kind of track; while one is on its way, further input waits for it).
const browser2 = await chromium.launch({ executablePath: process.env.HETSCOPE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
const page2 = await browser2.newPage({ viewport: { width: 2200, height: 1080 } });
await page2.goto(url);
await page2.waitForFunction(() => window.__hetscope && window.__hetscope.frame().fetches > 0 && !window.__hetscope.frame().busy,
  null, { timeout: 60000 });
await page2.click('#timeline', { position: { x: 5, y: 5 } });
const keys = ['w', 'w', 'w', 'd', 'd', 'w', 'w', 'a', 's', 'w', 'w', 'w', 'd', 's', 's', 'a', 'w', 'w', 'd', 'd',
  's', 's', 's', 's', '0'];
const draws = [];
const withData = [];
const inPage = [];
for (let round = 0; round < 4; round++) {
  for (const k of keys) {
    const before = await page2.evaluate(() => window.__hetscope.frame().fetches);
    const t = await page2.evaluate(() => performance.now());
    await page2.keyboard.press(k);
    await page2.waitForFunction((b) => { const f = window.__hetscope.frame(); return f.fetches > b && !f.busy; },
      before, { timeout: 60000, polling: 'raf' });
    const r = await page2.evaluate(() => ({ now: performance.now(), draw: window.__hetscope.frame().drawMs,
      keyToData: window.__hetscope.frame().keyToDataMs }));
    // the first round warms the server's caches and the JIT: the figures are the later rounds'
    if (round > 0) {
      draws.push(r.draw);
      withData.push(r.now - t);
      // pages before the key-to-data figure have none
      if (typeof r.keyToData === 'number') inPage.push(r.keyToData);
    }
  }
}
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
console.log('');
console.log(`| window redraw, warm (${draws.length} key presses) | p50 | p95 | max |`);
console.log('|---|---|---|---|');
console.log(`| canvas frame (Timeline.draw) | ${q(draws, 0.5).toFixed(1)} ms | ${q(draws, 0.95).toFixed(1)} ms | ${Math.max(...draws).toFixed(1)} ms |`);
console.log(`| key press -> frame with the new window's data | ${q(withData, 0.5).toFixed(1)} ms | ${q(withData, 0.95).toFixed(1)} ms | ${Math.max(...withData).toFixed(1)} ms |`);
if (inPage.length) {
  console.log(`| key event -> frame with the new window's data, timed in the page | ${q(inPage, 0.5).toFixed(1)} ms | ${q(inPage, 0.95).toFixed(1)} ms | ${Math.max(...inPage).toFixed(1)} ms |`);
}
await browser2.close();
