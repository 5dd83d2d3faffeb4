// Browser checks of issue 30's defects 1-5 on a server holding several real traces (see InteractionBrowserTest):
// trace 0 a Kineto GPU trace, then traces with instant events (StarPU markers, an LTTng-UST CTF trace, Kineto global
// instants). The script clicks, drags, types and reads what the page shows; it prints one JSON line with what it saw
// (the Java test compares it with the store) and exits 1 on a failed check.
// Usage: node interaction.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish, sampleColours } from './harness.mjs';

const result = { checks: [], instants: {} };
const check = checker(result);

/** "+1.25 µs" or "3 ms" -> nanoseconds (a number; the values here stay far below 2^53). */
const UNIT = { s: 1e9, ms: 1e6, 'µs': 1e3, ns: 1 };
const toNs = (text) => {
  const m = /^\+?(-?[0-9.]+) (s|ms|µs|ns)$/.exec(text.trim());
  if (!m) throw new Error(`not a duration: '${text}'`);
  return Math.round(Number(m[1]) * UNIT[m[2]]);
};
/** Significant digits of a label's number: "+1.25 µs" -> 3, "1234567890 ns" -> 10. */
const significant = (text) => {
  const digits = text.replace(/^\+/, '').split(' ')[0].replace('.', '').replace(/^[0-]+/, '');
  return Math.max(1, digits.length);
};


const browser = await launch();
await finish(result, browser, async () => {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  const requests = [];
  page.on('request', (r) => { if (r.url().includes('/api/')) requests.push(new URL(r.url())); });
  const failed = [];
  page.on('response', (r) => { if (r.url().includes('/api/') && r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });

  const idle = async (trace) => {
    await page.waitForFunction((t) => {
      const h = window.__hetscope;
      return h && h.trace === t && h.frame().fetches > 0 && !h.frame().busy;
    }, trace, { timeout: 20000 });
    await page.waitForTimeout(50);
  };
  const hook = (fn, arg) => page.evaluate(fn, arg);

  await page.goto(url);
  await idle(0);
  const span = await hook(() => window.__hetscope.timeline.span);

  // ---- 4. a click picks the slice under the cursor, not a narrower neighbour within 2 px ---------------------
  // Zoom in around kernels until two single slices of one lane lie back to back with the later one shorter.
  const findPair = () => hook(() => {
    const all = window.__hetscope.drawnItems().filter((d) => d.item[3] === 1);
    const byLane = new Map();
    for (const d of all) {
      const k = `${d.track}/${d.item[0]}`;
      if (!byLane.has(k)) byLane.set(k, []);
      byLane.get(k).push(d.item);
    }
    let best = null;
    for (const items of byLane.values()) {
      items.sort((a, b) => a[1] - b[1]);
      for (let i = 0; i + 1 < items.length; i++) {
        const a = items[i];
        const b = items[i + 1];
        const gap = b[1] - a[2];
        const da = a[2] - a[1];
        const db = b[2] - b[1];
        if (gap >= 0 && db > 0 && db < da && gap * 40 <= da && (!best || da > best.a[2] - best.a[1])) best = { a, b, gap };
      }
    }
    return best && { a: { id: best.a[5], name: best.a[6], start: best.a[1], end: best.a[2] },
      b: { id: best.b[5], name: best.b[6], start: best.b[1], end: best.b[2] }, gap: best.gap };
  });
  let pair = await findPair();
  for (let i = 0; !pair && i < 6; i++) {
    const k = await hook(() => window.__hetscope.locate('kernel'));
    await page.mouse.move(k.x, k.y);
    await page.mouse.wheel(0, -900);
    await idle(0);
    pair = await findPair();
  }
  check(pair, 'found two back-to-back slices of one lane, the later one shorter');
  // A scale where A is about 400 px wide: the gap to B is then at most 10 px... so narrow it to under 1 px.
  const width = await hook(() => window.__hetscope.timeline.width());
  const da = pair.a.end - pair.a.start;
  const pxPerNs = Math.min(400 / da, pair.gap > 0 ? 0.8 / pair.gap : Infinity);
  const t0 = Math.round(pair.a.start - 100 / pxPerNs);
  await hook(([a, b]) => window.__hetscope.timeline.setView(a, b), [t0, Math.round(t0 + width / pxPerNs)]);
  await idle(0);
  const ra = await hook((id) => window.__hetscope.screenOf(id), pair.a.id);
  const rb = await hook((id) => window.__hetscope.screenOf(id), pair.b.id);
  check(ra && rb && ra.x1 - ra.x0 > 6, 'both slices drawn, the first wider than 6 px');
  // Mouse events carry whole CSS pixels: the click lands between 0.5 and 1.5 px inside A's right edge.
  const clickX = Math.ceil(ra.x1 - 0.5) - 1;
  check(rb.x0 - clickX <= 2, 'the second slice starts within 2 px of the click');
  await page.mouse.click(clickX, ra.y);
  await page.waitForSelector('#detail-name', { timeout: 10000 });
  await page.waitForFunction((id) => window.__hetscope.timeline.selection?.id === id || false, pair.a.id, { timeout: 5000 })
    .catch(() => {});
  const view = await hook(() => window.__hetscope.view());
  const box = await page.locator('#timeline').boundingBox();
  result.clickUnderCursor = {
    under: pair.a, neighbour: pair.b,
    clickNs: view.t0 + ((clickX - box.x) / width) * (view.t1 - view.t0),
    selected: await hook(() => window.__hetscope.timeline.selection?.id ?? null),
    detailName: await page.textContent('#detail-name'),
    detailDuration: await page.textContent('#detail-duration'),
  };
  check(result.clickUnderCursor.selected === pair.a.id, `the slice under the cursor (${pair.a.id}) is selected, not ${result.clickUnderCursor.selected}`);
  check(toNs(result.clickUnderCursor.detailDuration) === da, 'the details panel shows its duration');
  await page.screenshot({ path: `${outDir}/click-under-cursor.png` });

  // ---- 2. the duration chart's y axis is as wide as its widest label -------------------------------------------
  // Click slices of several names until a chart shows a label of 8 or more characters ("1.035 ms").
  const names = await hook(() => {
    const seen = new Set();
    const out = [];
    for (const d of window.__hetscope.drawnItems()) {
      if (d.item[3] === 1 && !seen.has(d.item[6])) { seen.add(d.item[6]); out.push(d.item[5]); }
    }
    return out;
  });
  result.durationAxes = [];
  for (const id of names.slice(0, 12)) {
    const r = await hook((i) => window.__hetscope.screenOf(i), id);
    if (!r) continue;
    const x = Math.max(box.x + 2, Math.min(box.x + width - 2, (Math.max(r.x0, box.x) + Math.min(r.x1, box.x + width)) / 2));
    await page.mouse.click(x, r.y);
    const shown = await page.waitForFunction(() => window.__hetscope.durationAxis?.() && document.querySelector('#dur-chart .u-over'),
      null, { timeout: 3000 }).then(() => true, () => false);
    if (!shown) continue;
    const axis = await page.evaluate(() => {
      const labels = window.__hetscope.durationAxis().labels.filter((l) => l);
      // Measured here, independently of the page's sizing code, in the font the chart draws with.
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = '11px "DejaVu Sans", sans-serif';
      const widest = Math.max(...labels.map((l) => ctx.measureText(l).width));
      const over = document.querySelector('#dur-chart .u-over');
      return { labels, widest, plotLeft: parseFloat(over.style.left) || over.offsetLeft };
    });
    result.durationAxes.push(axis);
    if (axis.labels.some((l) => l.length >= 8)) break;
  }
  check(result.durationAxes.length > 0, 'a duration chart was drawn');
  const longest = result.durationAxes.reduce((a, b) => (b.widest > a.widest ? b : a));
  check(longest.labels.some((l) => l.length >= 8), `a chart with a label of 8+ characters (${longest.labels.join(', ')})`);
  // uPlot draws y labels right-aligned 10 px (ticks) + 5 px (gap) left of the plot: the widest must fit.
  for (const a of result.durationAxes) {
    check(a.plotLeft - 15 >= a.widest, `y labels ${a.labels.join(', ')} (${a.widest.toFixed(1)} px) fit left of the plot at ${a.plotLeft} px`);
  }
  await page.locator('#details').screenshot({ path: `${outDir}/duration-chart.png` });

  // ---- 5. at deep zoom the ruler shows an offset and short deltas ----------------------------------------------
  const deep = [Math.round(span * 0.6), Math.round(span * 0.6) + 300];
  await hook(([a, b]) => window.__hetscope.timeline.setView(a, b), deep);
  await idle(0);
  const ruler = await hook(() => window.__hetscope.ruler());
  const deepView = await hook(() => window.__hetscope.view());
  result.ruler = { ...ruler, view: deepView };
  check(ruler.offset !== null, 'the deep-zoomed ruler shows an offset');
  check(ruler.ticks.length >= 3, 'the ruler shows ticks');
  for (const t of ruler.ticks) check(significant(t) <= 4, `ruler tick '${t}' has at most 4 significant digits`);
  const offsetNs = toNs(ruler.offset);
  check(offsetNs <= deepView.t0 && deepView.t0 - offsetNs < 1000, `offset ${ruler.offset} is just before the window start ${deepView.t0} ns`);
  const tickTimes = ruler.ticks.map((t) => offsetNs + toNs(t));
  check(tickTimes.every((t) => t >= deepView.t0 && t <= deepView.t1), 'offset + delta of every tick lies in the window');
  const rulerBox = await page.locator('#ruler-row').boundingBox();
  await page.screenshot({ path: `${outDir}/ruler-deep-zoom.png`, clip: { x: 0, y: rulerBox.y, width: 1600, height: rulerBox.height + 200 } });
  // The whole trace keeps absolute labels.
  await page.keyboard.press('0');
  await idle(0);
  result.rulerWhole = await hook(() => window.__hetscope.ruler());
  check(result.rulerWhole.offset === null, 'the whole-trace ruler has absolute labels');

  // ---- 6. a kernel's device: the store's id, named, beside the trace's own numbering -------------------------
  const kernel = await hook(() => window.__hetscope.locate('kernel'));
  check(kernel, 'a kernel is drawn');
  await page.mouse.click(kernel.x, kernel.y);
  await page.waitForSelector('#kernel-device', { timeout: 10000 });
  result.kernelDevice = { id: kernel.id, text: await page.textContent('#kernel-device') };

  // ---- 1. switching trace tears down the previous view ---------------------------------------------------------
  // Trace 1's statistics are held back so that the pane can be read while they load.
  let releaseTables;
  const tablesHeld = new Promise((r) => { releaseTables = r; });
  await page.route(/\/api\/t\/1\/tables$/, async (route) => { await tablesHeld; await route.continue(); });
  check(await page.locator('#table-tabs button').count() > 0, "trace 0's statistics are shown before the switch");
  await page.selectOption('#trace-select', '1');
  await idle(1);
  result.switchPane = {
    tabs: await page.locator('#table-tabs button').count(),
    tables: await page.locator('#table-body table').count(),
    details: (await page.textContent('#details-body')).trim(),
  };
  check(result.switchPane.tabs === 0 && result.switchPane.tables === 0, "no statistics of trace 0 while trace 1's load");
  check(!result.switchPane.details.includes('Range') && !(await page.locator('#detail-name').count()),
    "the details pane holds nothing of trace 0");
  const trace1Tracks = new Set(await hook(async () => (await (await fetch('api/t/1/tracks')).json()).map((t) => t.id)));
  const mark = requests.length;
  await page.locator('#timeline').hover();
  await page.keyboard.press('w');
  await page.waitForTimeout(150);
  await idle(1);
  const after = requests.slice(mark).map((u) => u.pathname);
  result.afterSwitchRequests = after;
  check(after.some((p) => /\/api\/t\/1\/window\.bin$/.test(p)), 'a key press asks trace 1 for a window');
  check(!after.some((p) => p.includes('/api/t/0/')), 'the previous trace\'s view sends nothing after the switch');
  check(after.filter((p) => /\/window\.bin$/.test(p)).length === 1, 'one window request per key press');
  // Shift-drag a range: the request carries trace 1's tracks only and the pane shows the range table.
  const rangeMark = requests.length;
  const tl = await page.locator('#timeline').boundingBox();
  const rangeResponse = page.waitForResponse((r) => r.url().includes('/range?'), { timeout: 10000 });
  await page.keyboard.down('Shift');
  await page.mouse.move(tl.x + tl.width * 0.3, tl.y + 40);
  await page.mouse.down();
  await page.mouse.move(tl.x + tl.width * 0.5, tl.y + 60, { steps: 5 });
  await page.mouse.move(tl.x + tl.width * 0.6, tl.y + 60, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const rr = await rangeResponse;
  await page.waitForSelector('#details-body table', { timeout: 10000 });
  await page.waitForTimeout(300);
  const ranges = requests.slice(rangeMark).filter((u) => u.pathname.endsWith('/range'));
  result.rangeRequests = ranges.map((u) => u.pathname + u.search);
  check(ranges.length === 1, `one range request after a shift-drag (${ranges.length})`);
  check(ranges[0].pathname.endsWith('/api/t/1/range') && rr.status() === 200, 'the range request goes to trace 1 and succeeds');
  const ids = ranges[0].searchParams.get('tracks').split(',').filter((s) => s).map(Number);
  check(ids.length > 0 && ids.every((id) => trace1Tracks.has(id)), 'the range request names trace 1\'s tracks only');
  result.rangeHeading = await page.textContent('#details-body h3');
  check(result.rangeHeading.startsWith('Range'), 'the details pane shows the range');
  releaseTables();
  await page.waitForSelector('#table-tabs button', { timeout: 20000 });
  await page.waitForSelector('#table-body table, #table-body p', { timeout: 20000 });
  check(await page.locator('#table-tabs button').count() > 0, "trace 1's statistics arrive");
  await page.screenshot({ path: `${outDir}/after-switch.png` });

  // ---- 3. instants drawn as ticks, and a click on one shows it -------------------------------------------------
  const traceCount = await hook(async () => (await (await fetch('api/traces')).json()).length);
  for (let trace = 1; trace < Math.min(traceCount, 4); trace++) {
    if (trace !== 1) {
      await page.selectOption('#trace-select', String(trace));
      await idle(trace);
    }
    const tracks = await hook(async (t) => (await (await fetch(`api/t/${t}/tracks`)).json()), trace);
    const withInstants = tracks.filter((t) => t.instants > 0 && t.slices === 0);
    check(withInstants.length > 0, `trace ${trace} has a track of instants only`);
    // Scroll the first such track into view.
    await hook((id) => {
      const el = document.querySelector(`.track-row[data-track-id="${id}"]`);
      document.getElementById('rows').scrollTop = Math.max(0, el.offsetTop - 40);
    }, withInstants[0].id);
    await page.waitForTimeout(100);
    await idle(trace);
    let tick = await hook(() => window.__hetscope.locateInstant());
    // Zoom in around a tick until one stands alone.
    for (let i = 0; !tick && i < 8; i++) {
      const drawn = await hook(() => window.__hetscope.frame().instants);
      check(drawn > 0, `trace ${trace}: instants are drawn`);
      const any = await hook(() => window.__hetscope.locateInstant(false));
      check(any, `trace ${trace}: a tick is in view`);
      // Centred on that tick, a quarter of the window wide.
      await hook((t) => {
        const tl = window.__hetscope.timeline;
        const half = (tl.t1 - tl.t0) / 8;
        tl.setView(t - half, t + half);
      }, any.t);
      await idle(trace);
      tick = await hook(() => window.__hetscope.locateInstant());
    }
    check(tick, `trace ${trace}: a tick stands alone to be clicked`);
    const drawn = await hook(() => window.__hetscope.frame().instants);
    await page.mouse.click(tick.x, tick.y);
    await page.waitForSelector('#detail-instant-id', { timeout: 10000 });
    const seen = {
      drawn,
      id: tick.id,
      name: await page.textContent('#detail-name'),
      ts: await page.textContent('#detail-ts'),
      shownId: Number(await page.textContent('#detail-instant-id')),
    };
    result.instants[trace] = seen;
    if (trace === 1) {
      await page.keyboard.press('0');
      await idle(1);
      await page.locator('#rows').evaluate((el) => { el.scrollTop = 0; });
      await idle(1);
      result.starpuColours = await sampleColours(page);
      check(result.starpuColours.length > 0, 'StarPU slices sampled');
    }
    check(seen.shownId === tick.id && seen.name === tick.name, `trace ${trace}: the clicked instant's details are shown`);
    await page.screenshot({ path: `${outDir}/instants-trace${trace}.png` });
  }

  // ---- 6. thread states in Trace Compass's colours (a kernel trace) -------------------------------------------
  if (traceCount > 4) {
    await page.selectOption('#trace-select', '4');
    await idle(4);
    let states = [];
    for (let i = 0; i < 12 && !states.some((x) => x.name === 'blocked'); i++) {
      states = await sampleColours(page, { category: 'state' });
      if (!states.some((x) => x.name === 'blocked')) {
        await page.locator('#rows').evaluate((el) => { el.scrollTop += el.clientHeight * 0.8; });
        await page.waitForTimeout(60);
        await idle(4);
      }
    }
    result.stateColours = states;
    check(states.some((x) => x.name === 'blocked'), 'a blocked thread state is drawn');
    await page.screenshot({ path: `${outDir}/thread-states.png` });
  }

  check(failed.length === 0, `no failed API requests (${failed.join('; ')})`);
  check(errors.length === 0, `no page errors (${errors.join('; ')})`);
});
