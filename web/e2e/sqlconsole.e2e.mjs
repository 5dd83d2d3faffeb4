// Browser checks of the query console (see SqlConsoleBrowserTest): trace 0 a StarPU trace, trace 1 a Kineto GPU
// trace, trace 2 an Nsight trace, trace 3 a CTF (LTTng) trace, trace 4 an OTF2 trace. On each: open the SQL tab, type a query with ts/dur columns, run it with
// Ctrl+Enter, read the table the page shows (handed to the Java side, which compares it with the store's answer),
// click an item of the query-result track and a table row and check the timeline selects those slices; typed keys
// must not drive the timeline. Statements that write or touch files are refused with the server's message.
// Prints one JSON line; exits 1 on a failed check. Usage: node sqlconsole.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [], traces: [] };
const check = checker(result);
const QUERY = 'SELECT id AS slice_id, ts, dur, name, track_id FROM slice ORDER BY dur DESC, id LIMIT 12';

const browser = await launch();
const errors = [];
await finish(result, browser, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  // Refused queries are answered 400 on purpose; nothing else may fail.
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400 && !r.url().endsWith('/query')) errors.push(`${r.status()} ${r.url()}`);
  });
  const idle = async (trace) => {
    await page.waitForFunction((t) => {
      const h = window.__hetscope;
      return h && h.trace === t && h.frame().fetches > 0 && !h.frame().busy;
    }, trace, { timeout: 20000 });
    await page.waitForTimeout(50);
  };
  const runQuery = async (sql) => {
    await page.fill('#sql-input', '');
    await page.click('#sql-input');
    await page.keyboard.type(sql);
    const before = await page.evaluate(() => window.__hetscope.views.sql.answer());
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction((b) => {
      const a = window.__hetscope.views.sql.answer();
      return (a && a !== b) || !document.getElementById('sql-error').hidden;
    }, before, { timeout: 20000 }).catch(() => {});
    await page.waitForFunction(() => document.getElementById('sql-status').textContent !== 'running…', null, { timeout: 20000 });
  };
  const tableShown = () => page.evaluate(() => {
    const t = document.getElementById('sql-table');
    if (!t) return null;
    return {
      columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      // The value each cell holds (a duration cell reads "123 (123 ns)"; its value is the exact integer), and
      // that the cell's text starts with it.
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) =>
        (td.textContent.startsWith(td.dataset.v) ? td.dataset.v : `shown ${td.textContent} for ${td.dataset.v}`))),
    };
  });

  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('#trace-select option').length > 0, null, { timeout: 20000 });
  const traces = await page.$$eval('#trace-select option', (o) => o.length);
  for (let trace = 0; trace < traces; trace++) {
    if (trace > 0) {
      await page.selectOption('#trace-select', String(trace));
    }
    await idle(trace);
    const out = { trace };
    await page.waitForSelector('#bottom-tabs button[data-panel="sql"]', { timeout: 10000 });
    // After a trace switch the tab is still open: a click on an open tab closes it.
    if (!(await page.$('#bottom-tabs button[data-panel="sql"].active'))) await page.click('#bottom-tabs button[data-panel="sql"]');
    await page.waitForSelector('#sql-schema .sql-rel', { timeout: 10000 });
    out.relations = await page.$$eval('#sql-schema .sql-rel', (els) => els.map((e) => e.dataset.name));
    check(out.relations.includes('slice') && out.relations.includes('hs_slice_stats'),
      `trace ${trace}: the schema lists the store's tables and the library's views`);
    const viewBefore = await page.evaluate(() => window.__hetscope.view());
    await runQuery(QUERY);
    // Typing w, a, s, d into the query did not zoom or pan the timeline.
    const viewAfter = await page.evaluate(() => window.__hetscope.view());
    check(viewAfter.t0 === viewBefore.t0 && viewAfter.t1 === viewBefore.t1, `trace ${trace}: keys typed in the console stay there`);
    check(await page.isHidden('#sql-error'), `trace ${trace}: the query ran (${await page.textContent('#sql-error')})`);
    out.table = await tableShown();
    out.status = await page.textContent('#sql-status');
    check(out.table && out.table.rows.length === 12, `trace ${trace}: 12 rows shown`);
    // The result as a track above the timeline.
    check(await page.isVisible('#query-track'), `trace ${trace}: the query-result track is shown`);
    check(await page.evaluate(() => window.__hetscope.views.sql.drawn()) > 0, `trace ${trace}: the track draws its rows`);
    if (trace === 0) await page.screenshot({ path: `${outDir}/sql-console-starpu.png` });
    // Click the longest row's item on the track: the timeline selects that slice.
    const at = await page.evaluate(() => window.__hetscope.views.sql.locateRow(0));
    check(at, `trace ${trace}: row 0 is drawn on the track`);
    await page.mouse.click(at.x, at.y);
    const firstId = out.table.rows[0][0];
    await page.waitForFunction((id) => document.getElementById('detail-slice-id')?.textContent === id, firstId, { timeout: 10000 });
    out.trackClick = { selectedRow: await page.evaluate(() => window.__hetscope.views.sql.selectedRow()),
      detailId: await page.textContent('#detail-slice-id'), detailName: await page.textContent('#detail-name'),
      view: await page.evaluate(() => window.__hetscope.view()) };
    check(out.trackClick.selectedRow === 0, `trace ${trace}: the track click selects row 0`);
    // Click the third table row: its slice is selected on the timeline.
    await page.click('#sql-table tbody tr[data-row="2"]');
    const thirdId = out.table.rows[2][0];
    await page.waitForFunction((id) => document.getElementById('detail-slice-id')?.textContent === id, thirdId, { timeout: 10000 });
    await idle(trace);
    out.rowClick = { detailId: await page.textContent('#detail-slice-id'), detailName: await page.textContent('#detail-name'),
      timelineSelection: await page.evaluate(() => window.__hetscope.timeline.selection?.id ?? null),
      view: await page.evaluate(() => window.__hetscope.view()) };
    check(String(out.rowClick.timelineSelection) === thirdId, `trace ${trace}: the timeline selects slice ${thirdId}`);
    if (trace === 1) await page.screenshot({ path: `${outDir}/sql-console-kineto.png` });
    if (trace >= 2) await page.screenshot({ path: `${outDir}/sql-console-${['', '', 'nsys', 'ctf', 'otf2'][trace] || trace}.png` });
    // A library view: the same numbers the CLI's tables print.
    await runQuery('SELECT name, category, count, total_ns FROM hs_slice_stats ORDER BY total_ns DESC, name LIMIT 5');
    out.library = await tableShown();
    result.traces.push(out);
  }
  // Refusals, with the server's message shown and no table.
  result.refused = {};
  for (const [key, sql] of [['copy', "COPY slice TO '/tmp/hetscope-e2e-out.csv'"], ['attach', "ATTACH '/tmp/x.duckdb' AS x"],
    ['read_csv', "SELECT * FROM read_csv('/etc/passwd')"], ['create', 'CREATE TEMP VIEW hs_slice_stats AS SELECT 1 AS x']]) {
    await runQuery(sql);
    check(await page.isVisible('#sql-error'), `${key}: the refusal is shown`);
    result.refused[key] = await page.textContent('#sql-error');
    check(!(await page.$('#sql-table')), `${key}: no table is shown`);
    check(await page.isHidden('#query-track'), `${key}: no track is shown`);
  }
  await page.screenshot({ path: `${outDir}/sql-console-refused.png` });
  // The library's views were not replaced by the refused CREATE.
  await runQuery('SELECT count(*) AS n FROM hs_slice_stats');
  result.afterRefusals = await tableShown();
  check(errors.length === 0, `no page errors or failed requests: ${errors.join('; ')}`);
});
