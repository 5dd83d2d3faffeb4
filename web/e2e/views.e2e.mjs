// Browser checks of the advice and critical-path views (see AnalysisViewsBrowserTest): trace 0 a StarPU trace,
// trace 1 a Kineto GPU trace. Opens each view's tab, reads the tables the page shows (the Java side compares them
// with the CLI's tables for the same store), clicks findings and path steps and reads where the timeline went and
// what it selected. Prints one JSON line; exits 1 on a failed check. Usage: node views.e2e.mjs URL OUT_DIR
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
  const idle = async (trace) => {
    await page.waitForFunction((t) => {
      const h = window.__hetscope;
      return h && h.trace === t && h.frame().fetches > 0 && !h.frame().busy;
    }, trace, { timeout: 20000 });
    await page.waitForTimeout(80);
  };
  const tableValues = (sel) => page.evaluate((s) => {
    const t = document.querySelector(s);
    if (!t) return null;
    return {
      // The exact column names (data-col, as --json names them) and the headers people read.
      columns: [...t.querySelectorAll('thead th')].map((th) => th.dataset.col ?? th.textContent),
      labels: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.dataset.v ?? td.textContent)),
    };
  }, sel);
  const waitDetail = (id) => page.waitForFunction((i) => document.getElementById('detail-slice-id')?.textContent === String(i), id, { timeout: 10000 });
  const state = () => page.evaluate(() => ({ view: window.__hetscope.view(), selected: window.__hetscope.timeline.selection?.id ?? null,
    detailId: document.getElementById('detail-slice-id')?.textContent ?? null, highlight: window.__hetscope.timeline.highlight }));

  await page.goto(url);
  await idle(0);
  // StarPU: the critical path.
  await page.waitForSelector('#bottom-tabs button[data-panel="critical"]', { timeout: 10000 });
  await page.click('#bottom-tabs button[data-panel="critical"]');
  await page.waitForSelector('#cp-path', { timeout: 10000 });
  result.cpSummary = await tableValues('#cp-summary');
  result.cpPath = await tableValues('#cp-path');
  result.cpSlices = await page.evaluate(() => window.__hetscope.views.critical.answer().slices);
  check(result.cpPath.rows.length > 1, 'the critical path has several tasks');
  const last = result.cpPath.rows.length - 1;
  await page.click(`#cp-path tr[data-step="${last}"]`);
  await waitDetail(result.cpSlices[last]);
  await idle(0);
  result.cpStep = await state();
  result.cpOutlined = await page.evaluate(() => window.__hetscope.views.critical.outlined());
  check(result.cpOutlined >= 1, `path tasks are outlined on the timeline (${result.cpOutlined})`);
  await page.keyboard.press('Escape');
  await page.click('#zoom-reset');
  await idle(0);
  // Zoom to the path's span: most of its tasks are drawn one by one and outlined.
  result.cpOutlinedWhole = await page.evaluate(() => window.__hetscope.views.critical.outlined());
  await page.screenshot({ path: `${outDir}/views-critical-path-starpu.png` });
  // StarPU: the worker panel.
  await page.click('#bottom-tabs button[data-panel="workers"]');
  await page.waitForSelector('#wk-codelets', { timeout: 20000 });
  result.wkIdle = await tableValues('#wk-idle');
  result.wkCodelets = await tableValues('#wk-codelets');
  result.wkLabels = await page.$$eval('.wk-label', (els) => els.map((e) => e.textContent));
  result.wkLegend = await page.$$eval('#wk-legend .legend-entry', (els) => els.map((e) => e.textContent));
  result.wkDrawn = await page.evaluate(() => window.__hetscope.views.workers.drawn());
  check(result.wkDrawn > 0, `the worker panel draws tasks (${result.wkDrawn})`);
  const task = await page.evaluate(() => window.__hetscope.views.workers.locate(4));
  check(task, 'a task is drawn at least 4 px wide');
  await page.mouse.click(task.x, task.y);
  await waitDetail(task.slice);
  result.wkClicked = task.slice;
  await page.screenshot({ path: `${outDir}/views-workers-starpu.png` });
  await page.click('#bottom-tabs button[data-panel="advice"]');
  await page.waitForSelector('#advice-table, #advice-none', { timeout: 20000 });
  result.adviceStarpu = await tableValues('#advice-table');
  // StarPU memory pictures: the snapshot follows the window's centre.
  await page.click('#bottom-tabs button[data-panel="memory"]');
  await page.waitForSelector('#mem-snapshot', { timeout: 20000 });
  const loaded = () => page.evaluate(() => ['mem-snapshot', 'mem-residency', 'mem-heatmap'].map((id) => {
    const img = document.getElementById(id);
    return img && img.complete ? img.naturalWidth : 0;
  }));
  await page.waitForFunction(() => ['mem-snapshot', 'mem-residency', 'mem-heatmap'].every((id) => document.getElementById(id)?.naturalWidth > 0), null, { timeout: 10000 });
  result.memory1 = await page.evaluate(() => window.__hetscope.views.memory.last());
  result.memory1.widths = await loaded();
  result.memory1.view = await page.evaluate(() => window.__hetscope.view());
  result.memory1.shownT = await page.textContent('#mem-t');
  result.memory1.shares = await tableValues('#mem-shares-table');
  result.memory1.ganttDrawn = await page.$eval('#mem-gantt', (c) => Number(c.dataset.drawn));
  check(result.memory1.ganttDrawn > 0, `the memory-manager Gantt draws actions (${result.memory1.ganttDrawn})`);
  result.block = await page.$eval('#mem-block option:nth-child(2)', (o) => o.value);
  await page.selectOption('#mem-block', result.block);
  await page.waitForSelector('#mem-history h5', { timeout: 10000 });
  result.history = await page.evaluate(() => window.__hetscope.views.memory.history());
  await page.screenshot({ path: `${outDir}/views-memory-starpu.png` });
  await page.evaluate(() => document.getElementById('mem-gantt').scrollIntoView());
  await page.screenshot({ path: `${outDir}/views-memory-manager-starpu.png` });
  await page.keyboard.press('a');
  await idle(0);
  await page.waitForFunction((t) => window.__hetscope.views.memory.last()?.t !== t, result.memory1.t, { timeout: 10000 });
  result.memory2 = await page.evaluate(() => window.__hetscope.views.memory.last());
  result.memory2.view = await page.evaluate(() => window.__hetscope.view());
  check(result.memory2.snapshot !== undefined, 'the snapshot was redrawn for the new window');

  // Kineto: advice with its evidence.
  await page.selectOption('#trace-select', '1');
  await idle(1);
  await page.waitForSelector('#bottom-tabs button[data-panel="advice"]', { timeout: 10000 });
  // Views that need tasks or residency say that this trace has none.
  for (const id of ['critical', 'memory', 'workers']) {
    await page.click(`#bottom-tabs button[data-panel="${id}"]`);
    await page.waitForSelector(`#view-${id}-none`, { timeout: 10000 });
  }
  // The statistics pane under the timeline: its first tab, the kernels, as 'hetscope stats --json' has them.
  await page.waitForSelector('#table-tabs button[data-table="kernels"]', { timeout: 20000 });
  await page.click('#table-tabs button[data-table="kernels"]');
  await page.waitForSelector('#table-body table', { timeout: 20000 });
  result.statsKernels = await tableValues('#table-body table');
  await page.click('#bottom-tabs button[data-panel="advice"]');
  await page.waitForSelector('#advice-table', { timeout: 20000 });
  result.advice = await tableValues('#advice-table');
  // Launch latency: the histogram's bars and the per-function table.
  await page.click('#bottom-tabs button[data-panel="latency"]');
  await page.waitForSelector('#lat-stats', { timeout: 20000 });
  result.latencyBars = await page.$$eval('#lat-histogram .lat-bar-row', (rows) => rows.map((r) => ({
    label: r.querySelector('.lat-label').textContent, count: Number(r.querySelector('.lat-count').dataset.v),
    width: r.querySelector('.lat-bar').getBoundingClientRect().width })));
  result.latencyStats = await tableValues('#lat-stats');
  check(result.latencyBars.length > 3, 'the histogram has bars');
  await page.screenshot({ path: `${outDir}/views-launch-latency-kineto.png` });
  await page.click('#bottom-tabs button[data-panel="advice"]');
  result.findings = await page.evaluate(() => window.__hetscope.views.advice.findings());
  result.followed = {};
  for (const rule of ['gpu-idle', 'launch-bound']) {
    const i = result.findings.findIndex((f) => f.rule === rule);
    check(i >= 0, `advise finds ${rule} on this trace`);
    await page.click(`#advice-table tr[data-index="${i}"]`);
    if (result.findings[i].window_is) await page.waitForTimeout(300);
    else await waitDetail(result.findings[i].slices[0]);
    await idle(1);
    result.followed[rule] = { index: i, ...(await state()) };
    await page.screenshot({ path: `${outDir}/views-advice-${rule}-kineto.png` });
  }
  // Nsight: pageable copies, the evidence selected is such a copy.
  await page.selectOption('#trace-select', '2');
  await page.waitForFunction(() => window.__hetscope.trace === 2 && window.__hetscope.frame().fetches > 0 && !window.__hetscope.frame().busy, null, { timeout: 20000 });
  if (!(await page.$('#bottom-tabs button[data-panel="advice"].active'))) await page.click('#bottom-tabs button[data-panel="advice"]');
  await page.waitForFunction(() => window.__hetscope.views.advice.findings().some((f) => f.rule === 'pageable-memory'), null, { timeout: 20000 });
  result.adviceNsys = await tableValues('#advice-table');
  result.findingsNsys = await page.evaluate(() => window.__hetscope.views.advice.findings());
  const pi = result.findingsNsys.findIndex((f) => f.rule === 'pageable-memory');
  await page.click(`#advice-table tr[data-index="${pi}"]`);
  await waitDetail(result.findingsNsys[pi].slices[0]);
  await idle(2);
  result.pageable = { index: pi, ...(await state()) };
  await page.screenshot({ path: `${outDir}/views-advice-pageable-nsys.png` });
  check(errors.length === 0, `no page errors or failed requests: ${errors.join('; ')}`);
});
