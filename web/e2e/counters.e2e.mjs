// Browser checks of the counter view (see CounterViewBrowserTest) on a Kineto trace with CUPTI profiler counters:
// the per-kernel table, a kernel's drill-down to its dispatches, a dispatch selected on the timeline, and a counter's
// step series. The Java side compares what the page shows with `hetscope counters` (KernelCounters) on the store.
// Prints one JSON line; exits 1 on a failed check. Usage: node counters.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);
const browser = await launch();
const errors = [];
await finish(result, browser, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => { if (r.url().includes('/api/') && r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  const values = (sel) => page.evaluate((s) => {
    const t = document.querySelector(s);
    return t && { columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.dataset.v === '' ? 'NULL' : td.dataset.v))) };
  }, sel);
  await page.goto(url);
  await page.waitForFunction(() => window.__hetscope && window.__hetscope.frame().fetches > 0 && !window.__hetscope.frame().busy, null, { timeout: 20000 });
  await page.click('#bottom-tabs button[data-panel="counters"]');
  await page.waitForSelector('#ctr-per-kernel', { timeout: 20000 });
  result.perKernel = await values('#ctr-per-kernel');
  check(result.perKernel.rows.length > 0, 'the per-kernel table has rows');
  const kernel = result.perKernel.rows[0][0];
  result.kernel = kernel;
  await page.click('#ctr-per-kernel tbody tr:first-child');
  await page.waitForSelector('#ctr-dispatch-table', { timeout: 20000 });
  result.dispatches = await values('#ctr-dispatch-table');
  check(result.dispatches.rows.length > 0, `the drill-down lists ${kernel}'s dispatches`);
  await page.click('#ctr-dispatch-table tbody tr:first-child');
  const slice = result.dispatches.rows[0][0];
  await page.waitForFunction((id) => document.getElementById('detail-slice-id')?.textContent === id, slice, { timeout: 10000 });
  result.selected = await page.evaluate(() => window.__hetscope.timeline.selection?.id ?? null);
  const counter = await page.$eval('#ctr-counter option:nth-child(2)', (o) => o.value);
  result.counter = counter;
  await page.selectOption('#ctr-counter', counter);
  await page.waitForFunction(() => Number(document.getElementById('ctr-series').dataset.points) > 0, null, { timeout: 10000 });
  result.series = await page.evaluate(() => window.__hetscope.views.counters.series());
  result.seriesPoints = await page.$eval('#ctr-series', (c) => Number(c.dataset.points));
  await page.screenshot({ path: `${outDir}/views-counters-kineto-cupti.png` });
  check(errors.length === 0, `no page errors or failed requests: ${errors.join('; ')}`);
});
