// Browser checks of the run comparison (see CompareRunsBrowserTest): trace 0 a Kineto CUDA trace, trace 1 a Kineto
// ROCm trace, trace 2 the same file as trace 0. Opens the Compare tab on trace 0, reads the diff tables (the Java side
// compares them with TraceDiff, 'hetscope diff --json'), checks both timelines put their first iteration at the same
// x, zooms with the wheel and drags, and checks both follow; then compares trace 0 with its copy.
// Prints one JSON line; exits 1 on a failed check. Usage: node compare.e2e.mjs URL OUT_DIR
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);
const browser = await launch();
const errors = [];
await finish(result, browser, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1600, height: 1100 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => { if (r.url().includes('/api/') && r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  await page.goto(url);
  await page.waitForFunction(() => window.__hetscope && window.__hetscope.frame().fetches > 0 && !window.__hetscope.frame().busy, null, { timeout: 20000 });
  await page.waitForSelector('#bottom-tabs button[data-panel="compare"]', { timeout: 10000 });
  await page.click('#bottom-tabs button[data-panel="compare"]');
  const settled = async () => {
    await page.waitForFunction(() => !window.__hetscope.views.compare.busy(), null, { timeout: 30000 });
    await page.waitForTimeout(400);
  };
  const tables = () => page.evaluate(() => Object.fromEntries(['cmp-operations', 'cmp-iterations', 'cmp-utilisation'].map((id) => {
    const t = document.getElementById(id);
    return [id, { columns: [...t.querySelectorAll('thead th')].map((th) => th.dataset.col ?? th.textContent),
      labels: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.dataset.v === '' ? 'null' : td.dataset.v)) }];
  })));
  const xs = () => page.evaluate(() => {
    const c = window.__hetscope.views.compare;
    const a = c.answer();
    return { a: c.xOfSlice('a', a.a.aligned_on), b: c.xOfSlice('b', a.b.aligned_on), window: c.window(), alignedOn: [a.a.aligned_on, a.b.aligned_on],
      drawn: [document.getElementById('cmp-canvas-a').dataset.drawn, document.getElementById('cmp-canvas-b').dataset.drawn].map(Number) };
  });
  await settled();
  result.first = { tables: await tables(), at: await xs() };
  check(result.first.at.a !== null && result.first.at.b !== null, `both first iterations are drawn (${JSON.stringify(result.first.at)})`);
  check(Math.abs(result.first.at.a - result.first.at.b) <= 1, `the first iterations start at the same x: ${result.first.at.a} and ${result.first.at.b}`);
  check(result.first.at.drawn[0] > 0 && result.first.at.drawn[1] > 0, `both timelines draw their slices (${result.first.at.drawn})`);
  await page.screenshot({ path: `${outDir}/compare-runs.png` });
  // Wheel-zoom on A's timeline: both zoom, the alignment holds.
  const box = await page.locator('#cmp-canvas-a').boundingBox();
  await page.mouse.move(result.first.at.a + 5, box.y + box.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
  await settled();
  result.zoomed = await xs();
  check(result.zoomed.window.u1 - result.zoomed.window.u0 < (result.first.at.window.u1 - result.first.at.window.u0) / 2, 'the wheel zoomed in');
  check(result.zoomed.a !== null && Math.abs(result.zoomed.a - result.zoomed.b) <= 1, `still aligned after zooming: ${result.zoomed.a} and ${result.zoomed.b}`);
  // Drag B's timeline: both pan.
  const bb = await page.locator('#cmp-canvas-b').boundingBox();
  await page.mouse.move(bb.x + 600, bb.y + 30);
  await page.mouse.down();
  await page.mouse.move(bb.x + 400, bb.y + 30, { steps: 5 });
  await page.mouse.up();
  await settled();
  result.dragged = await xs();
  check(result.dragged.window.u0 > result.zoomed.window.u0, 'the drag panned the shared window');
  check(result.dragged.a === null || Math.abs(result.dragged.a - result.dragged.b) <= 1, 'still aligned after the drag');
  await page.screenshot({ path: `${outDir}/compare-runs-zoomed.png` });
  // Against its own copy: nothing changed.
  await page.selectOption('#cmp-b', '2');
  await page.waitForFunction(() => window.__hetscope.views.compare.answer()?.b.name === 'copy of rank0', null, { timeout: 30000 });
  await settled();
  result.self = { tables: await tables(), at: await xs() };
  check(errors.length === 0, `no page errors or failed requests: ${errors.join('; ')}`);
});
