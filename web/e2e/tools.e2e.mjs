// Browser checks of issue 30's timeline tools (see TimelineToolsBrowserTest). Traces, in order: 0 the spec's sub-lane
// example (Kineto JSON), 1 a Kineto CUDA trace, 2 an Nsight Systems export, 3 a StarPU trace, 4 a perf CTF trace,
// 5 an OTF2 trace. The script reads where the spec's kernels are drawn, then on every trace opens the event table
// and reads what it shows; on trace 1 it sorts, filters, clicks rows and slices both ways and selects a range. What
// the page showed is printed as one JSON line for the Java test to recount from the stores; exits 1 on a failed check.
// Usage: node tools.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
page.on('response', (r) => { if (r.url().includes('/api/') && r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });

const idle = async (trace) => {
  await page.waitForFunction((t) => {
    const h = window.__hetscope;
    return h && h.trace === t && h.frame().fetches > 0 && !h.frame().busy;
  }, trace, { timeout: 30000 });
  await page.waitForTimeout(80);
};
/** Waits until the event table shows a state that `pred` accepts (and no request is outstanding), and returns it. */
const eventsWhen = async (pred, what) => {
  try {
    await page.waitForFunction((src) => {
      const st = window.__hetscope?.events?.();
      const host = document.getElementById('bottom-body');
      return st && host && !host.dataset.loading && (0, eval)(`(${src})`)(st);
    }, pred.toString(), { timeout: 20000 });
  } catch (e) {
    throw new Error(`event table never showed ${what}: ${JSON.stringify(await page.evaluate(() => window.__hetscope?.events?.()))}`);
  }
  return page.evaluate(() => window.__hetscope.events());
};
/** The rows the table shows, as text, with their ids. */
const tableRows = () => page.evaluate(() => [...document.querySelectorAll('#ev-body tr[data-id]')].map((tr) => ({
  id: Number(tr.dataset.id), active: tr.classList.contains('active'),
  cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
})));

await finish(result, browser, async () => {
  await page.goto(url);
  await idle(0);

  // --- defect 7: the spec's kernels in sub-lanes --------------------------------------------------------------
  const lanes = await page.evaluate(() => {
    const h = window.__hetscope;
    const out = {};
    for (const d of h.drawnItems()) {
      const [depth, , , count, , id, name] = d.item;
      if (count !== 1 || !name.startsWith('k_')) continue;
      const s = h.screenOf(id);
      out[name] = { id, row: depth, y: s.y, x0: s.x0, x1: s.x1, pixel: h.pixel((s.x0 + s.x1) / 2, s.y) };
    }
    return out;
  });
  result.subLanes = lanes;
  check(Object.keys(lanes).length === 4, `four spec kernels drawn: ${JSON.stringify(lanes)}`);
  check(lanes.k_b.y > lanes.k_a.y + 10, 'k_b [5,15] is drawn a row below k_a [0,10]');
  check(lanes.k_c.y === lanes.k_a.y && lanes.k_d.y === lanes.k_a.y, 'k_c [10,12] and k_d [16,20] share k_a\'s row');
  // Where k_c is drawn, its own colour shows, not k_b's painted over it.
  check(lanes.k_c.pixel !== 'rgb(255, 255, 255)', `k_c is painted at its centre: ${lanes.k_c.pixel}`);
  await page.screenshot({ path: `${outDir}/tools-sublanes-spec.png` });

  // --- the event table on every trace -----------------------------------------------------------------------
  await page.click('#bottom-tabs button[data-panel="events"]');
  result.windows = [];
  const count = await page.evaluate(() => document.querySelectorAll('#trace-select option').length);
  for (let t = 0; t < count; t++) {
    if (t > 0) {
      await page.selectOption('#trace-select', String(t));
      await idle(t);
    }
    const view = await page.evaluate(() => window.__hetscope.view());
    const st = await eventsWhen(`(st) => st.t0 === ${Math.max(0, view.t0)} && st.t1 === ${view.t1}`, `trace ${t}'s window`);
    const rows = await tableRows();
    check(st.total > 0 && rows.length === Math.min(100, st.total), `trace ${t}: the event table lists the window (${st.total})`);
    result.windows.push({ trace: t, t0: st.t0, t1: st.t1, total: st.total, ids: st.ids, firstRow: rows[0].cells,
      shownRows: (await page.textContent('#ev-rows')) });
    await page.screenshot({ path: `${outDir}/tools-events-${t}.png` });
  }

  // --- trace 1: sort, filter, link both ways, range --------------------------------------------------------
  await page.selectOption('#trace-select', '1');
  await idle(1);
  await eventsWhen('(st) => st.total > 0', 'trace 1');
  await page.click('#ev-table th[data-sort="dur"]');
  const byDur = await eventsWhen("(st) => st.sort === 'dur' && st.dir === 'desc'", 'the duration sort');
  const durRows = await tableRows();
  result.sortedByDuration = { t0: byDur.t0, t1: byDur.t1, ids: byDur.ids, durations: durRows.map((r) => r.cells[1]) };
  await page.click('#ev-table th[data-sort="dur"]');
  const byDurAsc = await eventsWhen("(st) => st.sort === 'dur' && st.dir === 'asc'", 'the ascending duration sort');
  result.sortedByDurationAsc = { ids: byDurAsc.ids };
  // Filter by the start of a listed slice's name, typed as a user would.
  const someName = durRows[Math.min(50, durRows.length - 1)].cells[2];
  const part = someName.slice(0, Math.min(8, someName.length)).trim();
  await page.click('#ev-name');
  await page.keyboard.type(part, { delay: 20 });
  const filtered = await eventsWhen(`(st) => st.filters.name === ${JSON.stringify(part)}`, 'the name filter');
  const filteredRows = await tableRows();
  check(filteredRows.every((r) => r.cells[2].toLowerCase().includes(part.toLowerCase())), `every row's name contains "${part}"`);
  result.nameFilter = { part, total: filtered.total, ids: filtered.ids, t0: filtered.t0, t1: filtered.t1, dir: filtered.dir };
  await page.fill('#ev-name', '');
  await page.click('#ev-args');
  await page.keyboard.type('stream', { delay: 20 });
  const argsFiltered = await eventsWhen("(st) => st.filters.args === 'stream'", 'the args filter');
  result.argsFilter = { total: argsFiltered.total, ids: argsFiltered.ids };
  await page.fill('#ev-args', '');
  await page.click('#ev-table th[data-sort="ts"]');
  await eventsWhen("(st) => st.sort === 'ts' && !st.filters.args && !st.filters.name", 'the start sort, no filters');
  await page.screenshot({ path: `${outDir}/tools-events-sorted.png` });

  // Row -> timeline: clicking the third row selects that slice on the timeline and in the details pane.
  const before = await tableRows();
  const rowId = before[2].id;
  await page.click(`#ev-body tr[data-id="${rowId}"] td:nth-child(3)`);
  await page.waitForFunction((id) => document.getElementById('detail-slice-id')?.textContent === String(id), rowId, { timeout: 10000 });
  const sel = await page.evaluate(() => window.__hetscope.selection?.() ?? window.__hetscope.timeline.selection);
  check(sel && sel.id === rowId, `row click selected slice ${rowId} on the timeline (${JSON.stringify(sel)})`);
  result.rowClick = { id: rowId, detailName: await page.textContent('#detail-name') };
  await idle(1);
  const onScreen = await page.evaluate((id) => window.__hetscope.screenOf(id), rowId);
  result.rowClick.onScreen = !!onScreen;

  // Timeline -> row: a kernel clicked on the timeline becomes the table's highlighted row, on whichever page.
  await page.keyboard.press('0');
  await idle(1);
  await page.click('#ev-table th[data-sort="dur"]'); // longest first: the kernel is rarely on the first page
  await eventsWhen("(st) => st.sort === 'dur'", 'the duration sort again');
  const k = await page.evaluate(() => window.__hetscope.locate('kernel'));
  check(k, 'a kernel is drawn');
  await page.mouse.click(k.x, k.y);
  const linked = await eventsWhen(`(st) => st.selected === ${k.id} && st.ids.includes(${k.id})`, `kernel ${k.id} as a row`);
  const activeRows = (await tableRows()).filter((r) => r.active);
  check(activeRows.length === 1 && activeRows[0].id === k.id, `the kernel's row is the one highlighted (${JSON.stringify(activeRows)})`);
  result.sliceClick = { id: k.id, offset: linked.offset, sort: linked.sort, dir: linked.dir, t0: linked.t0, t1: linked.t1 };
  await page.screenshot({ path: `${outDir}/tools-events-linked.png` });

  // A shift-drag range: the table lists that range's slices of the tracks drawn.
  const box = await page.evaluate(() => {
    const r = document.getElementById('timeline').getBoundingClientRect();
    return { left: r.left, top: r.top, width: r.width };
  });
  await page.keyboard.down('Shift');
  await page.mouse.move(box.left + box.width * 0.3, box.top + 40);
  await page.mouse.down();
  await page.mouse.move(box.left + box.width * 0.45, box.top + 60, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const ranged = await eventsWhen("(st) => st.scope === 'range'", 'the range');
  result.range = { t0: ranged.t0, t1: ranged.t1, tracks: ranged.tracks, total: ranged.total, ids: ranged.ids,
    sort: ranged.sort, dir: ranged.dir };
  check(ranged.total > 0, 'the range has slices');
  await page.screenshot({ path: `${outDir}/tools-events-range.png` });

  // --- area selection aggregates and the flame graph of that range, then of ranges on StarPU and perf ---------
  const aggregatesOf = async (t, name) => {
    await page.click('#bottom-tabs button[data-panel="selection"]');
    await page.waitForFunction(() => {
      const a = window.__hetscope.aggregates?.();
      const r = window.__hetscope.timeline.range;
      return a && r && a.t0 === r.t0 && a.t1 === r.t1 && a.tables.threads && !document.getElementById('bottom-body').dataset.loading;
    }, null, { timeout: 20000 }).catch(async (e) => {
      throw new Error(`${name}: the area selection never showed: ${await page.textContent('#bottom-body')}; ${errors.join('; ')}; ${JSON.stringify(await page.evaluate(() => [window.__hetscope.timeline.range, window.__hetscope.aggregates()?.t0]))}`);
    });
    const a = await page.evaluate(() => window.__hetscope.aggregates());
    await page.screenshot({ path: `${outDir}/tools-selection-${name}.png` });
    await page.click('#bottom-tabs button[data-panel="flame"]');
    await page.waitForFunction((t0) => {
      const s = window.__hetscope.aggregates?.();
      return s && s.t0 === t0 && s.frames && document.querySelector('#flame .frame');
    }, a.t0, { timeout: 20000 });
    const flame = await page.evaluate(() => ({ frames: window.__hetscope.aggregates().frames,
      shown: [...document.querySelectorAll('#flame .frame')].map((e) => e.dataset.path) }));
    await page.screenshot({ path: `${outDir}/tools-flame-${name}.png` });
    return { trace: t, t0: a.t0, t1: a.t1, tracks: a.tracks, tables: a.tables,
      frames: flame.frames.slice().sort((p, q) => q.total - p.total).slice(0, 40), shownFrames: flame.shown.length };
  };
  result.aggregates = [await aggregatesOf(1, 'kineto')];
  // Zoom into the widest frame with children: it spans the whole width and its children sit below it.
  const wide = result.aggregates[0].frames.find((f) => result.aggregates[0].frames.some((c) => c.path.startsWith(`${f.path};`)));
  if (wide) {
    await page.click(`#flame .frame[data-path="${wide.path.replace(/"/g, '\\"')}"]`);
    await page.waitForFunction(() => document.getElementById('flame-reset'), null, { timeout: 5000 });
    const zoomed = await page.evaluate(() => window.__hetscope.aggregates().frames);
    const top = zoomed.find((f) => f.path === wide.path);
    check(top && top.x === 0 && Math.abs(top.w - 1) < 1e-9, `zoomed frame ${wide.path} spans the width`);
    await page.screenshot({ path: `${outDir}/tools-flame-zoomed.png` });
  }
  for (const [t, name] of [[3, 'starpu'], [4, 'perf']]) {
    await page.selectOption('#trace-select', String(t));
    await idle(t);
    const b = await page.evaluate(() => {
      const r = document.getElementById('timeline').getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width };
    });
    await page.keyboard.down('Shift');
    await page.mouse.move(b.left + b.width * 0.2, b.top + 30);
    await page.mouse.down();
    await page.mouse.move(b.left + b.width * 0.7, b.top + 50, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await page.waitForFunction(() => window.__hetscope.timeline.range, null, { timeout: 5000 });
    result.aggregates.push(await aggregatesOf(t, name));
  }
  check(result.aggregates[1].tables.counters.rows.length > 0, 'StarPU counters over the range are listed');
  check(result.aggregates[2].tables.threads.rows.length > 0, 'perf threads\' CPU time is listed');
  check(errors.length === 0, `no page errors or failed requests: ${errors.join('; ')}`);
});
