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
