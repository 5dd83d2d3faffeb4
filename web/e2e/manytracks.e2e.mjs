// Browser checks of issue 30's track tools on a store of 16,400 tracks (see ManyTracksBrowserTest): the tree keeps
// only the rows on screen in the DOM; the track filter, pinning, collapse/expand all and search next/previous work
// on it, by typing and clicking. What the page showed is printed as one JSON line for the Java test to recount from
// the store; exits 1 on a failed check.
// Usage: node manytracks.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
page.on('response', (r) => { if (r.url().includes('/api/') && r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });

const idle = async () => {
  await page.waitForFunction(() => {
    const h = window.__hetscope;
    return h && h.frame().fetches > 0 && !h.frame().busy;
  }, null, { timeout: 30000 });
  await page.waitForTimeout(80);
};
const tree = () => page.evaluate(() => window.__hetscope.tree());
const rows = () => page.evaluate(() => window.__hetscope.rows());
/** Waits for the search step that lands on a match other than `previous` and returns the search state. */
const stepped = async (previous) => {
  await page.waitForFunction((p) => {
    const s = window.__hetscope.search();
    const d = document.getElementById('detail-slice-id')?.textContent;
    return s && s.id !== p && d === String(s.id);
  }, previous, { timeout: 15000 });
  await idle();
  return page.evaluate(() => ({ ...window.__hetscope.search(), pos: document.getElementById('search-pos').textContent,
    detail: document.getElementById('detail-name').textContent }));
};

await finish(result, browser, async () => {
  const t0 = Date.now();
  await page.goto(url);
  await idle();
  result.loadMs = Date.now() - t0;
  result.firstDataDrawMs = await page.evaluate(() => window.__hetscope.frame().firstDataDrawMs);
  // Where the first draw's time went: each API request's start and duration (ms from navigation).
  result.requests = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((e) => ({ name: e.name.replace(/^.*\/api\//, '').slice(0, 40), start: Math.round(e.startTime), ms: Math.round(e.duration) })));
  const all = await rows();
  const first = await tree();
  result.rowsAll = all.length;
  check(all.length === 16400, `every track laid out: ${all.length}`);
  check(first.dom.length > 10 && first.dom.length < 200, `only the rows on screen are in the DOM: ${first.dom.length}`);

  // Scroll to the bottom: the last track's row is on screen and drawn.
  await page.evaluate(() => { const r = document.getElementById('rows'); r.scrollTop = r.scrollHeight; });
  await idle();
  const bottom = await tree();
  result.bottomLast = bottom.dom[bottom.dom.length - 1];
  check(bottom.dom.length < 200 && result.bottomLast.id === all[all.length - 1], 'the last track is the last row shown');
  await page.screenshot({ path: `${outDir}/manytracks-bottom.png` });
  await page.evaluate(() => { document.getElementById('rows').scrollTop = 0; });
  await idle();

  // Track filter, typed.
  await page.click('#track-filter');
  await page.keyboard.type('worker 1234', { delay: 15 });
  await page.waitForFunction(() => window.__hetscope.tree().matches > 0 && document.getElementById('track-count').textContent !== '', null, { timeout: 10000 });
  await idle();
  const filtered = await tree();
  result.filter = { text: 'worker 1234', rows: await rows(), matches: filtered.matches,
    count: await page.textContent('#track-count'), dom: filtered.dom.map((d) => d.name) };
  await page.screenshot({ path: `${outDir}/manytracks-filter.png` });

  // Pin the first matching worker, clear the filter, scroll to the bottom: the pinned track stays at the top.
  const worker = filtered.dom.find((d) => d.name.startsWith('worker'));
  await page.click(`#tree .track-row[data-track-id="${worker.id}"] .pin`);
  await page.fill('#track-filter', '');
  await page.waitForFunction(() => window.__hetscope.rows().length === 16400, null, { timeout: 10000 });
  await page.evaluate(() => { const r = document.getElementById('rows'); r.scrollTop = r.scrollHeight; });
  await idle();
  const pinned = await tree();
  const rowsTop = await page.evaluate(() => document.getElementById('rows').getBoundingClientRect().top);
  const pinRow = pinned.dom.find((d) => d.pinned);
  check(pinRow && pinRow.id === worker.id && Math.abs(pinRow.top - rowsTop) < 2, `pinned ${worker.name} at the top while scrolled to the bottom`);
  const pinnedOrder = await rows();
  check(pinnedOrder[0] === worker.id && pinnedOrder.filter((id) => id === worker.id).length === 1, 'the pinned track comes first, once');
  const drawnPinned = await page.evaluate((id) => window.__hetscope.drawnItems().filter((d) => d.track === id).length, worker.id);
  check(drawnPinned > 0, 'the pinned track\'s slices are drawn');
  result.pinned = { id: worker.id, name: worker.name, drawn: drawnPinned };
  await page.screenshot({ path: `${outDir}/manytracks-pinned.png` });

  // Collapse all, expand all.
  await page.click('#collapse-all');
  await page.waitForFunction(() => window.__hetscope.rows().length < 1000, null, { timeout: 10000 });
  await idle();
  result.collapsedRows = (await rows()).length;
  await page.screenshot({ path: `${outDir}/manytracks-collapsed.png` });
  await page.click('#expand-all');
  await page.waitForFunction(() => window.__hetscope.rows().length === 16400, null, { timeout: 10000 });
  await idle();
  result.expandedRows = (await rows()).length;

  // Search next / previous, typed with Enter and Shift+Enter and with the buttons.
  await page.click('#search');
  await page.keyboard.type('task_0777', { delay: 15 });
  await page.keyboard.press('Enter');
  const s1 = await stepped(null);
  await page.keyboard.press('Enter');
  const s2 = await stepped(s1.id);
  await page.click('#search-next');
  const s3 = await stepped(s2.id);
  await page.keyboard.press('Shift+Enter');
  const s4 = await stepped(s3.id);
  const shown = await page.evaluate((id) => window.__hetscope.screenOf(id), s4.id);
  check(shown, `the found slice ${s4.id} is drawn on screen (its track scrolled into view)`);
  result.search = [s1, s2, s3, s4];
  await page.screenshot({ path: `${outDir}/manytracks-search.png` });
  check(errors.length === 0, `no page errors or failed requests: ${errors.join('; ')}`);
});
