// What every browser check script shares: its arguments, the result it prints, checks that stop it, Debian's
// Chromium, the drawn colours of items, and the ending (one JSON line on standard output; exit 1 on a failed check).
// Usage of a script: node SCRIPT.e2e.mjs URL OUT_DIR
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

export const [url, outDir] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });

/** A check that records itself in {@code result.checks} and stops the script when it fails. */
export const checker = (result) => (ok, what) => {
  result.checks.push({ ok: !!ok, what });
  if (!ok) throw new Error(`check failed: ${what}`);
};

/** Debian's Chromium; the background-networking flags keep it from trying to reach Google's hosts. */
export const launch = () => chromium.launch({
  executablePath: process.env.HETSCOPE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

/** Runs the checks, closes the browser, prints the result as one JSON line and exits 1 when a check failed. */
export const finish = async (result, browser, checks) => {
  let exitCode = 0;
  try {
    await checks();
    result.ok = true;
  } catch (e) {
    result.ok = false;
    result.error = String(e && e.message ? e.message : e);
    exitCode = 1;
  } finally {
    await browser.close();
  }
  // Exit once the line is written: process.exit right after console.log cuts a long line on a pipe (past 64 KiB).
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(exitCode));
};

/**
 * Samples the drawn colour of single items of the visible rows, away from their labels, at most {@code max} names:
 * [{ id, name, category, pixel }]; {@code wanted} may restrict the name or the category.
 */
export const sampleColours = (page, wanted = {}, max = 12) => page.evaluate(([want, most]) => {
  const h = window.__hetscope;
  const out = [];
  const names = new Set();
  for (const d of h.drawnItems()) {
    const [, , , count, , id, name, category] = d.item;
    if (count !== 1 || names.has(name) || (want.name && want.name !== name)
      || (want.category && want.category !== category)) continue;
    const r = h.screenOf(id);
    const box = document.getElementById('timeline').getBoundingClientRect();
    if (!r || r.y < box.top + 10 || r.y > box.bottom - 10) continue;
    const x0 = Math.max(r.x0, box.left + 1);
    const x1 = Math.min(r.x1, box.right - 1);
    if (x1 - x0 < 4) continue;
    // Labels are drawn from the left on items wider than 36 px: read those near their right end and top.
    const wide = r.x1 - r.x0 > 36;
    const x = wide ? x1 - 2 : (x0 + x1) / 2;
    const y = wide ? r.y - 6.5 : r.y;
    names.add(name);
    out.push({ id, name, category, pixel: h.pixel(x, y) });
    if (out.length >= most) break;
  }
  return out;
}, [wanted, max]);
