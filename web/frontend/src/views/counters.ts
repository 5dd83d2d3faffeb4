// The counter view (`hetscope counters`): hardware counters per kernel (dispatches, mean, min, max), a click on a
// kernel's row drills down to its dispatches with their exact values (`--dispatches`; a click there selects the
// dispatch on the timeline), and a counter's step series per device (`--series`): the value of a kernel holds from
// its end to the next kernel end on that device. The server sends KernelCounters' rows; the page only draws them.
import { escapeHtml, formatDuration, formatNumber } from '../format';
import type { TableJson } from '../api';
import type { View, ViewHost } from './host';
import { get } from './host';
import { sizeCanvas } from '../canvas';

interface Rows { columns: string[]; rows: unknown[][]; origin?: string }
interface Answer { counters_present: boolean; counters?: string[]; per_kernel?: TableJson; overlapped?: number; dispatches?: Rows; series?: Rows }

let st: { host: ViewHost; a: Answer; kernel: string | null; series: Rows | null; counter: string | null } | null = null;

function cell(v: unknown, col: string): string {
  const text = v === null || v === undefined ? '' : typeof v === 'number' && /(_ns)$/.test(col) ? `${v} (${formatDuration(v)})`
    : typeof v === 'number' && !Number.isInteger(v) ? formatNumber(v) : String(v);
  return `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(v === null || v === undefined ? '' : String(v))}" title="${escapeHtml(String(v))}">${escapeHtml(text)}</td>`;
}

function table(t: Rows, id: string, attr: (r: unknown[], i: number) => string): string {
  return `<table class="data" id="${id}"><thead><tr>${t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${
    t.rows.map((r, i) => `<tr${attr(r, i)}>${r.map((v, j) => cell(v, t.columns[j])).join('')}</tr>`).join('')}</tbody></table>`;
}

export const countersView: View = {
  id: 'counters',
  title: 'Counters',
  applies: async (host) => (await get<Answer>(host, 'counters', { probe: 1 })).counters_present,
  async render(host, body) {
    const a = await get<Answer>(host, 'counters');
    st = { host, a, kernel: null, series: null, counter: null };
    body.innerHTML = `<p class="muted">Hardware counters per kernel (<code>hetscope counters</code>). Click a kernel for its dispatches; pick a counter for its step series.${
      a.overlapped ? ` ${a.overlapped} counted kernels overlapped another on their device: their device-wide counters are mixed.` : ''}</p>
      <div class="ctr-layout"><div class="ctr-kernels">${table(a.per_kernel!, 'ctr-per-kernel', (r) => ` class="clickable" data-kernel="${escapeHtml(String(r[0]))}"`)}</div>
      <div class="ctr-detail"><div class="ctr-bar">step series of <select id="ctr-counter"><option value="">counter…</option>${a.counters!.map((c) => `<option>${escapeHtml(c)}</option>`).join('')}</select> <span id="ctr-series-info" class="muted"></span></div>
      <canvas id="ctr-series"></canvas><div id="ctr-dispatches"></div></div></div>`;
    body.querySelectorAll<HTMLElement>('#ctr-per-kernel tr.clickable').forEach((tr) => tr.addEventListener('click', () => void drill(tr.dataset.kernel!)));
    body.querySelector<HTMLSelectElement>('#ctr-counter')!.addEventListener('change', (e) => void series((e.target as HTMLSelectElement).value));
  },
  onTimeline: () => drawSeries(),
  dispose() {
    st = null;
  },
};

async function drill(kernel: string): Promise<void> {
  const s = st;
  if (!s) return;
  s.kernel = kernel;
  document.querySelectorAll<HTMLElement>('#ctr-per-kernel tr.clickable').forEach((tr) => tr.classList.toggle('active', tr.dataset.kernel === kernel));
  const a = await get<Answer>(s.host, 'counters', { kernel });
  if (st !== s || s.kernel !== kernel) return;
  const d = a.dispatches!;
  s.a.dispatches = d;
  const out = document.getElementById('ctr-dispatches')!;
  out.innerHTML = `<h4>${escapeHtml(kernel)}: ${d.rows.length} dispatches</h4>` + table(d, 'ctr-dispatch-table', (r) => ` class="clickable" data-slice="${escapeHtml(String(r[0]))}"`);
  out.querySelectorAll<HTMLElement>('tr.clickable').forEach((tr) => tr.addEventListener('click', () => {
    out.querySelectorAll('tr.active').forEach((x) => x.classList.remove('active'));
    tr.classList.add('active');
    void s.host.selectSlice(Number(tr.dataset.slice));
  }));
}

async function series(counter: string): Promise<void> {
  const s = st;
  if (!s || !counter) return;
  s.counter = counter;
  const a = await get<Answer>(s.host, 'counters', { series: counter });
  if (st !== s || s.counter !== counter) return;
  s.series = a.series!;
  drawSeries();
}

/** The step series of each device in the timeline's window: a value holds from its point to the next. */
function drawSeries(): void {
  const s = st;
  const canvas = document.getElementById('ctr-series') as HTMLCanvasElement | null;
  if (!s || !canvas || !s.series) return;
  const cols = s.series.columns;
  const dev = cols.indexOf('device');
  const val = cols.indexOf('value');
  const rel = cols.indexOf('rel_ts');
  const byDevice = new Map<unknown, [number, number][]>();
  for (const r of s.series.rows) {
    if (typeof r[val] !== 'number') continue;
    if (!byDevice.has(r[dev])) byDevice.set(r[dev], []);
    byDevice.get(r[dev])!.push([r[rel] as number, r[val] as number]);
  }
  const w = Math.max(200, (canvas.parentElement?.clientWidth ?? 600) - 4);
  const rowH = 60;
  const h = Math.max(1, byDevice.size) * rowH;
  const ctx = sizeCanvas(canvas, w, h);
  ctx.clearRect(0, 0, w, h);
  const tl = s.host.timeline;
  const x = (t: number) => ((t - tl.t0) / (tl.t1 - tl.t0)) * w;
  let i = 0;
  let points = 0;
  ctx.font = '10px "DejaVu Sans", sans-serif';
  for (const [device, pts] of byDevice) {
    const top = i * rowH;
    const max = Math.max(...pts.map((p) => Math.abs(p[1])), 0) || 1;
    const y = (v: number) => top + rowH - 6 - (v / max) * (rowH - 18);
    ctx.strokeStyle = '#0f766e';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    pts.forEach((p, j) => {
      const x0 = x(p[0]);
      const x1 = j + 1 < pts.length ? x(pts[j + 1][0]) : w;
      if (j === 0) ctx.moveTo(x0, y(p[1]));
      else ctx.lineTo(x0, y(p[1]));
      ctx.lineTo(x1, y(p[1]));
      if (x1 >= 0 && x0 <= w) points++;
    });
    ctx.stroke();
    ctx.fillStyle = '#374151';
    ctx.fillText(`device ${String(device)} · max ${formatNumber(max)}`, 4, top + 11);
    i++;
  }
  canvas.dataset.points = String(points);
  document.getElementById('ctr-series-info')!.textContent = `${s.series.rows.length} points over ${byDevice.size} device(s), in the timeline's window`;
}

export function countersTestHooks() {
  return { answer: () => st?.a ?? null, series: () => st?.series ?? null };
}
