// Browser checks of issue 30's hover tooltips, colour legend and keyboard help (see FeaturesBrowserTest): trace 0 a
// Kineto GPU trace, trace 1 a StarPU trace (declared Paje colours, instants, counters), trace 2 a perf kernel trace
// (thread states). The script hovers, clicks and types, reads what the page shows and prints one JSON line (the Java
// test compares it with the stores); it exits 1 on a failed check.
// Usage: node features.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish, sampleColours } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);
/** "rgb(1, 2, 3)" -> [1, 2, 3]; colours match within 2 per channel (hsl to rgb rounding differs by one). */
const channels = (c) => (/rgba?\((\d+), (\d+), (\d+)/.exec(c) || []).slice(1).map(Number);
const sameColour = (a, b) => {
  const x = channels(a);
  const y = channels(b);
  return x.length === 3 && y.length === 3 && x.every((v, i) => Math.abs(v - y[i]) <= 2);
};


/** The legend as shown: sections with their entries' names and swatch colours as the browser computed them. */
const readLegend = (page) => page.evaluate(() => [...document.querySelectorAll('#legend-body .legend-section')].map((s) => ({
  kind: s.dataset.kind,
  title: s.querySelector('h5').textContent,
  entries: [...s.querySelectorAll('.legend-entry')].map((e) => ({
    name: e.querySelector('.legend-name').textContent,
    colour: getComputedStyle(e.querySelector('.legend-swatch')).backgroundColor,
  })),
})));

const browser = await launch();
await finish(result, browser, async () => {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
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
  const tooltip = () => page.evaluate(() => {
    const t = document.getElementById('tooltip');
    const text = (id) => document.getElementById(id)?.textContent ?? null;
    const r = t.getBoundingClientRect();
    return { visible: !t.hidden && r.width > 0, kind: t.dataset.kind, id: t.dataset.id, count: t.dataset.count ?? null,
      name: text('tip-name'), category: text('tip-category'), duration: text('tip-duration'), start: text('tip-start'),
      value: text('tip-value'), x: r.left, y: r.top, text: t.innerText };
  });
  const selectTrace = async (i) => {
    await page.selectOption('#trace-select', String(i));
    await idle(i);
  };

  await page.goto(url);
  await idle(0);

  // ---- hover tooltips: a slice, following the mouse, hidden on leave -------------------------------------------
  const kernel = await hook(() => window.__hetscope.locate('kernel'));
  check(kernel, 'a kernel is drawn');
  const r = await hook((id) => window.__hetscope.screenOf(id), kernel.id);
  const hx = Math.max(r.x0 + 1, Math.min(kernel.x, r.x1 - 1));
  await page.mouse.move(hx, kernel.y);
  await page.waitForFunction(() => !document.getElementById('tooltip').hidden, null, { timeout: 5000 });
  const tip = await tooltip();
  result.hoverSlice = { id: kernel.id, ...tip };
  check(tip.kind === 'slice' && Number(tip.id) === kernel.id, `the tooltip describes the hovered kernel ${kernel.id} (${tip.id})`);
  check(tip.name === kernel.name && tip.category === 'kernel', `tooltip name and category (${tip.name}, ${tip.category})`);
  check(/^[0-9.]+ (s|ms|µs|ns)$/.test(tip.duration) && /^\+[0-9.]+ (s|ms|µs|ns)$/.test(tip.start),
    `duration and start carry units (${tip.duration}, ${tip.start})`);
  check(Math.abs(tip.x - (hx + 14)) <= 1 || tip.x < hx, 'the tooltip sits beside the cursor');
  await page.screenshot({ path: `${outDir}/tooltip-slice.png`, clip: { x: Math.max(0, hx - 300), y: Math.max(0, kernel.y - 150), width: 700, height: 300 } });
  // It follows the mouse along the slice (or to whatever is under the cursor 3 px lower, still the same row).
  await page.mouse.move(hx, kernel.y + 3);
  const moved = await tooltip();
  check(moved.visible && Math.abs(moved.y - tip.y - 3) <= 1, `the tooltip follows the mouse (${tip.y} -> ${moved.y})`);
  await page.mouse.move(5, 20); // the toolbar
  await page.waitForTimeout(50);
  check(!(await tooltip()).visible, 'the tooltip hides when the mouse leaves the timeline');

  // ---- the legend for colour by name and by category --------------------------------------------------------
  await page.waitForFunction(() => document.querySelectorAll('#legend-body .legend-entry').length > 0, null, { timeout: 5000 });
  const legendName = await readLegend(page);
  const drawn0 = await sampleColours(page, {}, 16);
  result.kinetoLegend = legendName;
  const entry = (legend, name) => legend.flatMap((s) => s.entries).find((e) => e.name === name);
  let matched = 0;
  for (const d of drawn0) {
    const e = entry(legendName, d.name);
    if (e) {
      check(sameColour(e.colour, d.pixel), `legend swatch of ${d.name} (${e.colour}) is its drawn colour (${d.pixel})`);
      matched++;
    }
  }
  check(matched > 0, `drawn names appear in the legend with their colours (${matched} of ${drawn0.length})`);
  await page.selectOption('#colour-mode', 'category');
  await page.waitForTimeout(50);
  const legendCat = await readLegend(page);
  result.kinetoCategoryLegend = legendCat;
  const kernelSwatch = entry(legendCat, 'kernel');
  const kernelPixel = (await sampleColours(page, { category: 'kernel' }, 16))[0];
  check(kernelSwatch && kernelPixel && sameColour(kernelSwatch.colour, kernelPixel.pixel),
    `by category the legend's kernel swatch is the kernels' drawn colour (${kernelSwatch?.colour}, ${kernelPixel?.pixel})`);
  await page.selectOption('#colour-mode', 'name');
  await page.click('#legend-toggle');
  check(!(await page.locator('#legend-body').isVisible()), 'the legend collapses');
  await page.click('#legend-toggle');
  check(await page.locator('#legend-body').isVisible(), 'the legend expands again');

  // ---- keyboard help ------------------------------------------------------------------------------------------
  await page.locator('#timeline').hover({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await page.waitForSelector('#help:not([hidden])', { timeout: 3000 });
  const listed = await page.$$eval('#help-keys tr.help-key', (rows) => rows.map((r) => r.dataset.keys.split(' ')));
  result.helpKeys = listed;
  const keys = new Set(listed.flat());
  for (const k of ['w', '+', '=', 's', '-', 'a', 'ArrowLeft', 'd', 'ArrowRight', '0', 'f', 'Escape', '?']) {
    check(keys.has(k), `the help lists the key ${k}`);
  }
  await page.screenshot({ path: `${outDir}/help-overlay.png` });
  await page.keyboard.press('Escape');
  check(await page.locator('#help').isHidden(), 'Escape closes the help');
  // Every listed timeline key does what the help says (from the whole trace, each from a known view).
  const span = await hook(() => window.__hetscope.timeline.span);
  const effect = async (key) => {
    await hook(([a, b]) => window.__hetscope.timeline.setView(a, b), [Math.round(span * 0.4), Math.round(span * 0.5)]);
    const before = await hook(() => window.__hetscope.view());
    await page.keyboard.press(key);
    const after = await hook(() => window.__hetscope.view());
    return { d0: after.t0 - before.t0, width: (after.t1 - after.t0) / (before.t1 - before.t0) };
  };
  const effects = {};
  for (const k of ['w', '+', '=']) { effects[k] = await effect(k); check(effects[k].width < 0.99, `${k} zooms in`); }
  for (const k of ['s', '-']) { effects[k] = await effect(k); check(effects[k].width > 1.01, `${k} zooms out`); }
  for (const k of ['a', 'ArrowLeft']) { effects[k] = await effect(k); check(effects[k].d0 < 0 && Math.abs(effects[k].width - 1) < 0.01, `${k} pans left`); }
  for (const k of ['d', 'ArrowRight']) { effects[k] = await effect(k); check(effects[k].d0 > 0 && Math.abs(effects[k].width - 1) < 0.01, `${k} pans right`); }
  await page.keyboard.press('0');
  const whole = await hook(() => window.__hetscope.view());
  check(whole.t0 === 0 && whole.t1 === span, '0 shows the whole trace');
  result.keyEffects = effects;
  await page.keyboard.press('?');
  check(await page.locator('#help').isVisible(), '? opens the help again');
  await page.keyboard.press('?');
  check(await page.locator('#help').isHidden(), '? closes it');
  await idle(0);
  // A wheel zoom moves the view under the cursor: the tooltip goes until the mouse moves again.
  const again = await hook(() => window.__hetscope.locate('kernel'));
  await page.mouse.move(again.x, again.y);
  await page.waitForFunction(() => !document.getElementById('tooltip').hidden, null, { timeout: 5000 });
  await page.mouse.wheel(0, -300);
  await page.waitForTimeout(50);
  check(!(await tooltip()).visible, 'a wheel zoom hides the tooltip');
  await page.mouse.move(5, 20);
  await page.keyboard.press('0');
  await idle(0);

  // ---- StarPU: declared colours in the legend, a hovered instant and counter ---------------------------------
  await selectTrace(1);
  await page.keyboard.press('0');
  await idle(1);
  await page.waitForFunction(() => document.querySelectorAll('#legend-body .legend-entry').length > 0, null, { timeout: 5000 });
  result.starpuLegend = await readLegend(page);
  result.starpuVisible = await hook(() => ({ ...window.__hetscope.view(),
    tracks: [...new Set(window.__hetscope.drawnItems().map((d) => d.track))] }));
  const starpuDrawn = await sampleColours(page, {}, 16);
  result.starpuDrawn = starpuDrawn;
  let starpuMatched = 0;
  for (const d of starpuDrawn) {
    const e = entry(result.starpuLegend, d.name);
    check(e, `the drawn ${d.category} ${d.name} is in the legend`);
    check(sameColour(e.colour, d.pixel), `legend swatch of ${d.name} (${e.colour}) is its drawn colour (${d.pixel})`);
    starpuMatched++;
  }
  check(starpuMatched > 0, 'StarPU slices sampled');
  check(result.starpuLegend.some((s) => s.kind === 'declared'), "the legend has the trace's declared colours");
  await page.locator('#side').screenshot({ path: `${outDir}/legend-starpu.png` });

  const tracks = await hook(async () => (await (await fetch('api/t/1/tracks')).json()));
  const scrollTo = (id) => hook((i) => {
    const el = document.querySelector(`.track-row[data-track-id="${i}"]`);
    document.getElementById('rows').scrollTop = Math.max(0, el.offsetTop - 40);
  }, id);
  const instantTrack = tracks.find((t) => t.instants > 0 && t.slices === 0);
  check(instantTrack, 'the StarPU trace has a track of instants');
  await scrollTo(instantTrack.id);
  await page.waitForTimeout(100);
  await idle(1);
  let tick = await hook(() => window.__hetscope.locateInstant());
  for (let i = 0; !tick && i < 8; i++) {
    const any = await hook(() => window.__hetscope.locateInstant(false));
    check(any, 'a tick is in view');
    await hook((t) => {
      const tl = window.__hetscope.timeline;
      const half = (tl.t1 - tl.t0) / 8;
      tl.setView(t - half, t + half);
    }, any.t);
    await idle(1);
    tick = await hook(() => window.__hetscope.locateInstant());
  }
  check(tick, 'a tick stands alone');
  await page.mouse.move(tick.x, tick.y);
  await page.waitForFunction(() => !document.getElementById('tooltip').hidden, null, { timeout: 5000 });
  result.hoverInstant = { id: tick.id, ...(await tooltip()) };
  check(result.hoverInstant.kind === 'instant' && Number(result.hoverInstant.id) === tick.id
    && result.hoverInstant.name === tick.name, `the tooltip describes the hovered instant ${tick.id}`);
  await page.screenshot({ path: `${outDir}/tooltip-instant.png`, clip: { x: Math.max(0, tick.x - 300), y: Math.max(0, tick.y - 150), width: 700, height: 300 } });
  await page.mouse.move(5, 20);

  const counterTrack = tracks.find((t) => t.counterSamples > 0 && t.slices === 0);
  if (counterTrack) {
    // Where StarPU's task counters move (the run's last fifth), narrow enough for single samples per pixel.
    const sp = await hook(() => window.__hetscope.timeline.span);
    await hook(([a, b]) => window.__hetscope.timeline.setView(a, b), [Math.round(sp * 0.86), Math.round(sp * 0.86 + sp / 40)]);
    await idle(1);
    await scrollTo(counterTrack.id);
    await page.waitForTimeout(100);
    await idle(1);
    const pos = await hook((id) => {
      const el = document.querySelector(`.track-row[data-track-id="${id}"]`).getBoundingClientRect();
      const c = document.getElementById('timeline').getBoundingClientRect();
      return { x: c.left + c.width * 0.5, y: el.top + el.height / 2 };
    }, counterTrack.id);
    await page.mouse.move(pos.x, pos.y);
    await page.waitForFunction(() => !document.getElementById('tooltip').hidden, null, { timeout: 5000 });
    result.hoverCounter = { track: counterTrack.id, ...(await tooltip()) };
    check(result.hoverCounter.kind === 'counter' && Number(result.hoverCounter.id) === counterTrack.id,
      'the tooltip describes the hovered counter');
    await page.screenshot({ path: `${outDir}/tooltip-counter.png`, clip: { x: Math.max(0, pos.x - 300), y: Math.max(0, pos.y - 150), width: 700, height: 300 } });
    await page.mouse.move(5, 20);
  }

  // ---- perf: thread states in the legend, in the colours drawn ------------------------------------------------
  await selectTrace(2);
  let states = [];
  for (let i = 0; i < 12 && !states.some((x) => x.name === 'blocked'); i++) {
    states = await sampleColours(page, { category: 'state' }, 16);
    if (!states.some((x) => x.name === 'blocked')) {
      await page.locator('#rows').evaluate((el) => { el.scrollTop += el.clientHeight * 0.8; });
      await page.waitForTimeout(60);
      await idle(2);
    }
  }
  check(states.length > 0, 'thread states are drawn');
  result.perfLegend = await readLegend(page);
  result.perfStates = states;
  const stateSection = result.perfLegend.find((s) => s.kind === 'thread-state');
  check(stateSection, 'the legend has a thread-state section');
  // Thread states proper are in the thread-state section; other 'state' slices (a thread's name) coloured by name.
  const threadStates = new Set(['running', 'runnable', 'blocked', 'syscall']);
  let stateMatched = 0;
  for (const d of states) {
    const e = threadStates.has(d.name) ? stateSection.entries.find((x) => x.name === d.name) : entry(result.perfLegend, d.name);
    if (threadStates.has(d.name)) check(e, `the ${d.name} state is in the thread-state section`);
    if (!e) continue;
    check(sameColour(e.colour, d.pixel), `the ${d.name} state's swatch (${e.colour}) is its drawn colour (${d.pixel})`);
    if (threadStates.has(d.name)) stateMatched++;
  }
  check(stateMatched >= 2, `drawn thread states checked against the legend (${stateMatched})`);
  await page.screenshot({ path: `${outDir}/legend-thread-states.png` });

  check(failed.length === 0, `no failed API requests (${failed.join('; ')})`);
  check(errors.length === 0, `no page errors (${errors.join('; ')})`);
});
