// Browser checks of issue 30's URL state (see UrlStateBrowserTest): trace 0 a Kineto GPU trace, trace 1 a StarPU
// trace. The script opens trace 1, zooms and pans with keys, clicks a slice, collapses the legend and reads the URL the
// page wrote; a fresh page opened on that URL must show the same trace, window, selection and panels. Malformed
// URL states must fall back to the default view without a page error. Prints one JSON line; exits 1 on a failed check.
// Usage: node urlstate.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);

const browser = await launch();
const errors = [];
const failed = [];
/** A page in its own context (no shared history or storage), watched for page errors and failed API calls. */
const freshPage = async (staleSliceExpected = false) => {
  const ctx = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  // A link to a slice the trace lacks gets the server's refusal (and the browser's console line for it), nothing else.
  page.on('console', (m) => { if (m.type() === 'error' && !(staleSliceExpected && /\b40[04]\b/.test(m.text()))) errors.push(`console: ${m.text()}`); });
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400 && !(staleSliceExpected && (r.status() === 400 || r.status() === 404) && r.url().includes('/slice/'))) {
      failed.push(`${r.status()} ${r.url()}`);
    }
  });
  return page;
};
const idle = async (page, trace) => {
  await page.waitForFunction((t) => {
    const h = window.__hetscope;
    return h && h.trace === t && h.frame().fetches > 0 && !h.frame().busy;
  }, trace, { timeout: 20000 });
  await page.waitForTimeout(50);
};
/** What the page shows of its view: trace, selector, window, ruler, selection, details, panels, hash. */
const shown = (page) => page.evaluate(() => {
  const h = window.__hetscope;
  const text = (id) => document.getElementById(id)?.textContent ?? null;
  return {
    trace: h.trace,
    selector: document.getElementById('trace-select').value,
    view: h.view(),
    ruler: h.ruler(),
    selected: h.timeline.selection?.id ?? null,
    detailName: text('detail-name'),
    detailId: text('detail-slice-id'),
    legendCollapsed: document.getElementById('legend').classList.contains('collapsed'),
    helpOpen: !document.getElementById('help').hidden,
    href: location.href,
  };
});
/** Waits until the debounced URL update wrote the hash the test expects. */
const hashHas = (page, part) => page.waitForFunction((p) => location.hash.includes(p), part, { timeout: 5000 });

await finish(result, browser, async () => {
  const page = await freshPage();
  await page.goto(url);
  await idle(page, 0);
  result.defaultView0 = await shown(page);
  await page.selectOption('#trace-select', '1');
  await idle(page, 1);
  result.defaultView1 = await shown(page);
  // The hash follows the switch: trace 1, whole window.
  await hashHas(page, 'trace=1&');
  // Zoom in and pan with keys.
  for (const k of ['w', 'w', 'w', 'd']) {
    await page.keyboard.press(k);
    await idle(page, 1);
  }
  const zoomed = await page.evaluate(() => window.__hetscope.view());
  check(zoomed.t1 - zoomed.t0 < result.defaultView1.view.t1 - result.defaultView1.view.t0, 'the keys zoomed in');
  // Click the widest single slice drawn well inside the canvas.
  const target = await page.evaluate(() => {
    const h = window.__hetscope;
    const box = document.getElementById('timeline').getBoundingClientRect();
    let best = null;
    for (const d of h.drawnItems()) {
      const [, , , count, , id, name] = d.item;
      if (count !== 1) continue;
      const r = h.screenOf(id);
      if (!r || r.y < box.top + 10 || r.y > box.bottom - 10) continue;
      const x0 = Math.max(r.x0, box.left + 2);
      const x1 = Math.min(r.x1, box.right - 2);
      if (x1 - x0 >= 6 && (!best || x1 - x0 > best.w)) best = { id, name, x: (x0 + x1) / 2, y: r.y, w: x1 - x0 };
    }
    return best;
  });
  check(target, 'a single slice is drawn at least 6 px wide');
  await page.mouse.click(target.x, target.y);
  await page.waitForFunction((id) => document.getElementById('detail-slice-id')?.textContent === String(id),
    target.id, { timeout: 10000 });
  // Collapse the legend: an open/closed panel is part of the state.
  await page.click('#legend-toggle');
  await hashHas(page, `slice=${target.id}&`);
  await hashHas(page, 'panels=&').catch(() => {});
  await page.waitForTimeout(300);
  const before = await shown(page);
  result.before = before;
  check(before.selected === target.id, `the clicked slice ${target.id} is selected`);
  check(before.detailName === target.name, `the details show the clicked slice's name ${target.name}`);
  check(before.legendCollapsed, 'the legend is collapsed');
  const hash = new URL(before.href).hash;
  check(hash.includes(`t0=${before.view.t0}&t1=${before.view.t1}`), `the URL ${hash} holds the window ${before.view.t0}..${before.view.t1}`);
  check(/[#&]panels=(&|$)/.test(hash), `the URL ${hash} records no open panel`);
  await page.screenshot({ path: `${outDir}/urlstate-before.png` });

  // The same URL in a fresh page: the same trace, window, selection and panels.
  const again = await freshPage();
  await again.goto(before.href);
  await idle(again, 1);
  await again.waitForFunction((id) => document.getElementById('detail-slice-id')?.textContent === String(id),
    target.id, { timeout: 10000 });
  await again.waitForTimeout(300);
  const after = await shown(again);
  result.after = after;
  check(after.trace === 1 && after.selector === '1', 'the link opens trace 1');
  check(after.view.t0 === before.view.t0 && after.view.t1 === before.view.t1,
    `the link opens the window ${before.view.t0}..${before.view.t1} (got ${after.view.t0}..${after.view.t1})`);
  check(JSON.stringify(after.ruler) === JSON.stringify(before.ruler), 'the ruler shows the same labels');
  check(after.selected === before.selected && after.detailId === before.detailId && after.detailName === before.detailName,
    `the link selects slice ${before.detailId} (${before.detailName}), got ${after.detailId} (${after.detailName})`);
  check(after.legendCollapsed && !after.helpOpen, 'the link keeps the legend collapsed and the help closed');
  check(new URL(after.href).hash === hash, `the reopened page keeps the URL (${new URL(after.href).hash})`);
  await again.screenshot({ path: `${outDir}/urlstate-after.png` });
  // The restored view is live: zooming updates the URL again.
  await again.keyboard.press('s');
  await idle(again, 1);
  const out = await again.evaluate(() => window.__hetscope.view());
  await hashHas(again, `t0=${out.t0}&t1=${out.t1}`);

  // Malformed states fall back to the default view: a bad trace drops everything; bad parts of a good trace drop.
  const base = url.split('#')[0];
  result.malformed = [];
  for (const [h, trace] of [['#trace=9&t0=1&t1=5&slice=3', 0], ['#trace=abc&t0=x', 0], ['#%E0%A4%A&&=&trace', 0],
    ['#trace=1&t0=500&t1=100&slice=-4&panels=%3Cscript%3E', 1], ['#trace=1&t0=1e3&t1=99999999999999999999&slice=1.5', 1]]) {
    const p = await freshPage();
    await p.goto(base + h);
    await idle(p, trace);
    await p.waitForTimeout(300);
    const s = await shown(p);
    const def = trace === 0 ? result.defaultView0 : result.defaultView1;
    result.malformed.push({ hash: h, view: s.view, selected: s.selected });
    check(s.trace === trace && s.selector === String(trace), `${h} opens trace ${trace}`);
    check(s.view.t0 === def.view.t0 && s.view.t1 === def.view.t1, `${h} shows the whole trace`);
    check(s.selected === null && s.detailId === null, `${h} selects nothing`);
    check(!s.helpOpen, `${h} leaves the help closed`);
    await p.context().close();
  }

  // A well-formed link to a slice id the trace lacks: the window is restored, nothing selected, the page says why.
  {
    const v = before.view;
    const p = await freshPage(true);
    await p.goto(`${base}#trace=1&t0=${v.t0}&t1=${v.t1}&slice=987654321`);
    await idle(p, 1);
    await p.waitForFunction(() => document.getElementById('details-body').textContent.includes('not in this trace'), null,
      { timeout: 10000 });
    await hashHas(p, 'trace=1&');
    await p.waitForTimeout(300);
    const s = await shown(p);
    result.staleSlice = s;
    check(s.view.t0 === v.t0 && s.view.t1 === v.t1 && s.selected === null, 'a stale slice id keeps the window, selects nothing');
    check(!new URL(s.href).hash.includes('slice='), `the stale slice id leaves the URL (${new URL(s.href).hash})`);
    await p.context().close();
  }

  check(failed.length === 0, `no failed API requests (${failed.join('; ')})`);
  check(errors.length === 0, `no page errors (${errors.join('; ')})`);
});
