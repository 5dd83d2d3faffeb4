// Exact time formatting: values are integer nanoseconds; units only change how they are written.

const UNITS: [number, string][] = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];

/** A duration with a unit chosen for its size, e.g. 12.5 µs, 3 ms, 1.000002 s (no rounding beyond 1 ns). */
export function formatDuration(ns: number): string {
  const sign = ns < 0 ? '-' : '';
  const v = Math.abs(Math.round(ns));
  for (const [scale, unit] of UNITS) {
    if (v >= scale || scale === 1) {
      const whole = Math.floor(v / scale);
      const frac = v - whole * scale;
      if (frac === 0) return `${sign}${whole} ${unit}`;
      const digits = String(scale).length - 1;
      const fracText = String(frac).padStart(digits, '0').replace(/0+$/, '');
      return `${sign}${whole}.${fracText} ${unit}`;
    }
  }
  return `${ns} ns`;
}

/** A tick label, rounded to the tick step's precision. */
export function formatTick(ns: number, step: number): string {
  for (const [scale, unit] of UNITS) {
    if (step >= scale || scale === 1) {
      const decimals = Math.max(0, Math.ceil(-Math.log10(step / scale) - 1e-9));
      return `${(ns / scale).toFixed(decimals)} ${unit}`;
    }
  }
  return `${ns} ns`;
}

/** The largest 1-2-5 step (in ns, at least 1) that keeps ticks at least `minPx` pixels apart. */
export function tickStep(spanNs: number, widthPx: number, minPx = 90): number {
  const raw = (spanNs * minPx) / Math.max(1, widthPx);
  let step = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
  for (const m of [1, 2, 5, 10]) {
    if (step * m >= raw) return Math.max(1, step * m);
  }
  return Math.max(1, step * 10);
}

export function formatNumber(v: unknown): string {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    return v.toLocaleString('en-US', { maximumFractionDigits: 3 });
  }
  return v === null || v === undefined ? '' : String(v);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]!));
}

/**
 * Ruler labels for a window. While ticks written from the trace origin stay short they are absolute; once they would
 * need more than four significant digits (deep zoom far from the origin), the window gets one offset, a round time
 * at or before its start, and ticks are short deltas from it ("+120 ns"), as Perfetto's ruler does.
 */
export function rulerLabels(t0: number, t1: number, step: number): { offset: string | null; ticks: { t: number; text: string }[] } {
  const ticks: { t: number; text: string }[] = [];
  const first = Math.ceil(t0 / step) * step;
  const furthest = Math.max(Math.abs(t0), Math.abs(t1));
  const digits = Math.floor(Math.log10(Math.max(1, furthest / step))) + 1;
  if (digits <= 4) {
    for (let t = first; t <= t1; t += step) ticks.push({ t, text: formatTick(t, step) });
    return { offset: null, ticks };
  }
  const unit = Math.pow(10, Math.ceil(Math.log10(Math.max(1, t1 - t0))));
  const base = Math.floor(t0 / unit) * unit;
  for (let t = first; t <= t1; t += step) ticks.push({ t, text: `+${formatTick(t - base, step)}` });
  return { offset: formatDuration(base), ticks };
}

/**
 * The header people read over a column whose cells show units: the unit leaves the name, as in the CLI's tables
 * (docs/cli.md): `total_ns` is "total" (each cell says ms, µs, ...), `busy_pct` is "busy %". A name that would then
 * read like another column (`top_thread_ns` beside `top_thread`) stays whole. Pass every column of the table.
 */
export function columnHeader(col: string, columns: string[]): string {
  const label = /_ns$/.test(col) ? col.slice(0, -3) : /_pct$/.test(col) ? `${col.slice(0, -4)} %` : col;
  if (label === col) return col;
  const clash = columns.some((c) => c !== col && (c === label || columnLabel(c) === label));
  return clash ? col : label;
}

function columnLabel(c: string): string {
  return /_ns$/.test(c) ? c.slice(0, -3) : /_pct$/.test(c) ? `${c.slice(0, -4)} %` : c;
}

/**
 * A table's header cells: the readable name as text, the exact column name (as --json and the API name it) in
 * data-col, which is what tests and code should read.
 */
export function headerCells(columns: string[]): string {
  return columns.map((c) => `<th data-col="${escapeHtml(c)}" title="${escapeHtml(c)}">${escapeHtml(columnHeader(c, columns))}</th>`).join('');
}
