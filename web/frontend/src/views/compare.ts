// Two runs side by side (issue 29): this trace (A, the baseline) and another of the server's traces (B) drawn on
// one time axis aligned on each run's first iteration (ProfilerStep#N; the trace start when it marks none), zoomed
// and panned together, above `hetscope diff A B`'s tables (operations, iterations, utilisation; the server sends
// TraceDiff's rows unchanged). Items come from each trace's own window API, placed only.
import { escapeHtml, formatDuration, formatTick, headerCells, tickStep } from '../format';
import { getJson, resolveNames } from '../api';
import type { TableJson, TraceSummary, TrackInfo, WindowResponse } from '../api';
import { colourFor } from '../colours';
import type { View, ViewHost } from './host';
import { sizeCanvas } from '../canvas';

interface Side { name: string; span: number; align_ns: number; aligned_on: string; tracks: number[] }
interface Answer { operations: TableJson; iterations: TableJson; utilisation: TableJson; a: Side; b: Side }

const LANE = 7;
const LANES = 3;
const ROW = LANE * LANES + 4;
const LABEL_W = 200;
/** Rows of the operations table rendered (the answer holds all). */
const SHOWN = 300;

interface State {
  host: ViewHost; traces: TraceSummary[]; b: number | null; answer: Answer | null;
  /** The shared window in aligned ns (0 = each run's first iteration). */
  u0: number; u1: number;
  data: { a: WindowResponse | null; b: WindowResponse | null }; names: { a: Map<number, string>; b: Map<number, string> };
  seq: number; timer: number | undefined; drag: { x: number; u0: number; u1: number } | null;
}
let st: State | null = null;

export const compareView: View = {
  id: 'compare',
  title: 'Compare runs',
  applies: async (host) => (await getJson<TraceSummary[]>('api/traces', {}, host.signal)).length > 1,
  async render(host, body) {
    const traces = await getJson<TraceSummary[]>('api/traces', {}, host.signal);
    st = { host, traces, b: null, answer: null, u0: 0, u1: 1, data: { a: null, b: null }, names: { a: new Map(), b: new Map() },
      seq: 0, timer: undefined, drag: null };
    const others = traces.filter((t) => t.index !== host.trace);
    body.innerHTML = `<div class="cmp-bar">A (baseline): <b>${escapeHtml(traces[host.trace].name)}</b> &nbsp; B: <select id="cmp-b">${
      others.map((t) => `<option value="${t.index}">${escapeHtml(t.name)}</option>`).join('')}</select>
      <span class="muted">Both timelines share one axis: 0 is each run's first iteration. Wheel zooms, drag pans, both at once.</span></div>
      <div id="cmp-status" class="muted"></div>
      <div class="cmp-timelines">
        <div class="cmp-side"><div class="cmp-title" id="cmp-title-a"></div><div class="cmp-row"><div class="cmp-labels" id="cmp-labels-a"></div><canvas id="cmp-canvas-a"></canvas></div></div>
        <div class="cmp-side"><div class="cmp-title" id="cmp-title-b"></div><div class="cmp-row"><div class="cmp-labels" id="cmp-labels-b"></div><canvas id="cmp-canvas-b"></canvas></div></div>
      </div>
      <div id="cmp-tables"></div>`;
    const select = body.querySelector<HTMLSelectElement>('#cmp-b')!;
    select.addEventListener('change', () => void load(Number(select.value)));
    for (const side of ['a', 'b'] as const) bindCanvas(document.getElementById(`cmp-canvas-${side}`) as HTMLCanvasElement);
    if (others.length) await load(others[0].index);
  },
  dispose() {
    if (st) clearTimeout(st.timer);
    st = null;
  },
};

async function load(b: number): Promise<void> {
  const s = st;
  if (!s) return;
  s.b = b;
  s.answer = null;
  s.data = { a: null, b: null };
  document.getElementById('cmp-status')!.textContent = 'comparing…';
  const a = await getJson<Answer>('api/diff', { a: s.host.trace, b }, s.host.signal);
  if (st !== s || s.b !== b) return;
  s.answer = a;
  const names = async (i: number) => new Map((await getJson<TrackInfo[]>(`api/t/${i}/tracks`, {}, s.host.signal)).map((t) => [t.id, t.name] as [number, string]));
  s.names = { a: await names(s.host.trace), b: await names(b) };
  s.u0 = Math.min(-a.a.align_ns, -a.b.align_ns);
  s.u1 = Math.max(a.a.span - a.a.align_ns, a.b.span - a.b.align_ns);
  document.getElementById('cmp-status')!.textContent = '';
  for (const side of ['a', 'b'] as const) {
    const x = a[side];
    document.getElementById(`cmp-title-${side}`)!.innerHTML = `<b>${side.toUpperCase()}</b> ${escapeHtml(x.name)} <span class="muted">aligned on ${escapeHtml(x.aligned_on)} at +${formatDuration(x.align_ns)}</span>`;
    document.getElementById(`cmp-labels-${side}`)!.innerHTML = x.tracks.map((id) => `<div class="cmp-label" style="height:${ROW}px">${escapeHtml(s.names[side].get(id) ?? `track ${id}`)}</div>`).join('');
  }
  renderTables(a);
  fetchWindows();
}

function table(t: TableJson, id: string, limit = Infinity): string {
  const cols = t.columns;
  let html = `<h4>${escapeHtml(t.title ?? t.name)} <span class="muted">(${t.rows.length} rows)</span></h4><table class="data" id="${id}"><thead><tr>${headerCells(cols)}</tr></thead><tbody>`;
  for (const r of t.rows.slice(0, limit)) {
    const status = cols.indexOf('status') >= 0 ? String(r[cols.indexOf('status')]) : '';
    html += `<tr class="st-${escapeHtml(status)}">${r.map((v, j) => {
      const text = v === null ? '' : typeof v === 'number' && /_ns$/.test(cols[j]) ? formatDuration(v)
        : typeof v === 'number' && /(_pct|p_value)$/.test(cols[j]) ? v.toPrecision(4) : String(v);
      return `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(v === null ? '' : String(v))}" title="${escapeHtml(v === null ? '' : String(v))}">${escapeHtml(text)}</td>`;
    }).join('')}</tr>`;
  }
  html += '</tbody></table>';
  if (t.rows.length > limit) html += `<p class="muted">${t.rows.length - limit} more rows: <code>hetscope diff A B</code> lists them all.</p>`;
  return html;
}

function renderTables(a: Answer): void {
  document.getElementById('cmp-tables')!.innerHTML = table(a.operations, 'cmp-operations', SHOWN)
    + table(a.iterations, 'cmp-iterations') + table(a.utilisation, 'cmp-utilisation');
}

function canvasWidth(): number {
  const c = document.getElementById('cmp-canvas-a');
  return Math.max(100, (c?.parentElement?.clientWidth ?? 800) - LABEL_W - 2);
}

function fetchWindows(): void {
  const s = st;
  if (!s?.answer || s.b === null) return;
  clearTimeout(s.timer);
  drawAll();
  s.timer = window.setTimeout(async () => {
    const seq = ++s.seq;
    const px = Math.round(canvasWidth());
    const get = (i: number, side: Side) => getJson<WindowResponse>(`api/t/${i}/window`, {
      t0: Math.round(s.u0 + side.align_ns), t1: Math.round(s.u1 + side.align_ns), px, tracks: side.tracks.join(',') }, s.host.signal);
    const [wa, wb] = await Promise.all([get(s.host.trace, s.answer!.a), get(s.b!, s.answer!.b)]);
    if (st !== s || seq !== s.seq) return;
    s.data = { a: resolveNames(wa), b: resolveNames(wb) };
    drawAll();
  }, 60);
}

/** The drawn x of aligned time u. */
const xOf = (s: State, u: number, w: number) => ((u - s.u0) / (s.u1 - s.u0)) * w;

function drawAll(): void {
  const s = st;
  if (!s?.answer) return;
  for (const side of ['a', 'b'] as const) draw(s, side);
}

function draw(s: State, side: 'a' | 'b'): void {
  const meta = s.answer![side];
  const canvas = document.getElementById(`cmp-canvas-${side}`) as HTMLCanvasElement | null;
  if (!canvas) return;
  const w = canvasWidth();
  const h = Math.max(1, meta.tracks.length) * ROW + 16;
  const ctx = sizeCanvas(canvas, w, h);
  ctx.clearRect(0, 0, w, h);
  // Ruler in aligned time.
  ctx.fillStyle = '#6b7280';
  ctx.font = '10px "DejaVu Sans", sans-serif';
  const step = tickStep(s.u1 - s.u0, w);
  for (let u = Math.ceil(s.u0 / step) * step; u <= s.u1; u += step) {
    const x = xOf(s, u, w);
    ctx.fillRect(x, 0, 1, 4);
    ctx.fillText(formatTick(u, step), x + 2, 11);
  }
  const win = s.data[side];
  const offset = meta.align_ns;
  let drawn = 0;
  if (win) {
    for (const tr of win.tracks) {
      const row = meta.tracks.indexOf(tr.track);
      if (row < 0) continue;
      for (const it of tr.items) {
        if (it[0] >= LANES) continue;
        const x0 = Math.max(0, xOf(s, it[1] - offset, w));
        const x1 = Math.min(w, xOf(s, it[2] - offset, w));
        if (x1 < 0 || x0 > w) continue;
        ctx.fillStyle = colourFor(String(it[6]), String(it[7]), 'name');
        ctx.fillRect(x0, 16 + row * ROW + 2 + it[0] * LANE, Math.max(1, x1 - x0), LANE - 1);
        drawn++;
      }
    }
  }
  // The alignment point: each run's first iteration.
  ctx.strokeStyle = '#111827';
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.moveTo(xOf(s, 0, w) + 0.5, 12);
  ctx.lineTo(xOf(s, 0, w) + 0.5, h);
  ctx.stroke();
  ctx.setLineDash([]);
  canvas.dataset.drawn = String(drawn);
}

function bindCanvas(canvas: HTMLCanvasElement): void {
  canvas.addEventListener('wheel', (e) => {
    const s = st;
    if (!s) return;
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const at = s.u0 + ((e.clientX - r.left) / r.width) * (s.u1 - s.u0);
    const f = e.deltaY > 0 ? 1.25 : 0.8;
    const span = Math.max(1000, (s.u1 - s.u0) * f);
    const frac = (at - s.u0) / (s.u1 - s.u0);
    s.u0 = at - frac * span;
    s.u1 = s.u0 + span;
    fetchWindows();
  }, { passive: false });
  canvas.addEventListener('mousedown', (e) => {
    if (!st) return;
    st.drag = { x: e.clientX, u0: st.u0, u1: st.u1 };
    const move = (m: MouseEvent) => {
      const s = st;
      if (!s?.drag) return;
      const du = ((m.clientX - s.drag.x) / canvas.getBoundingClientRect().width) * (s.drag.u1 - s.drag.u0);
      s.u0 = s.drag.u0 - du;
      s.u1 = s.drag.u1 - du;
      fetchWindows();
    };
    const up = () => {
      if (st) st.drag = null;
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  });
}

/** For the browser tests: the shared window, the answer, and where a slice of a side is drawn (page x). */
export function compareTestHooks() {
  return {
    window: () => (st ? { u0: st.u0, u1: st.u1 } : null),
    answer: () => st?.answer ?? null,
    busy: () => !st || st.answer === null || st.data.a === null || st.data.b === null,
    xOfSlice: (side: 'a' | 'b', name: string) => {
      const s = st;
      const win = s?.data[side];
      if (!s || !win) return null;
      for (const tr of win.tracks) for (const it of tr.items) {
        if (it[6] === name && it[3] === 1) {
          const r = (document.getElementById(`cmp-canvas-${side}`) as HTMLCanvasElement).getBoundingClientRect();
          return r.left + xOf(s, it[1] - s.answer![side].align_ns, r.width);
        }
      }
      return null;
    },
  };
}
