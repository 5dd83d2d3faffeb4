// A StarVZ-style worker panel for task runtimes: one row per worker with its tasks coloured by codelet (the
// timeline's codelet colours) in the timeline's window, the worker's idle share of the run (WorkerIdle, as
// `hetscope tasks critical-path` prints it), a codelet legend and the per-codelet statistics (`hetscope stats`).
// A click on a task selects it on the timeline.
import { escapeHtml, formatDuration, headerCells } from '../format';
import type { TableJson } from '../api';
import { colourFor } from '../colours';
import type { View, ViewHost } from './host';
import { get } from './host';
import { sizeCanvas } from '../canvas';

interface Answer {
  tasks_present: boolean; idle?: TableJson; workers?: number[]; codelets?: TableJson;
  codelet_names?: string[]; tasks?: [number, number, number, number, number][]; truncated?: boolean;
}

const ROW = 18;
let st: { host: ViewHost; a: Answer; drawn: number } | null = null;

function dataTable(t: TableJson, id: string): string {
  return `<table class="data" id="${id}"><thead><tr>${headerCells(t.columns)}</tr></thead><tbody>${
    t.rows.map((r) => `<tr>${r.map((v, j) => `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(v === null ? '' : String(v))}">${
      escapeHtml(v === null ? '' : typeof v === 'number' && /_ns$/.test(t.columns[j]) ? formatDuration(v) : typeof v === 'number' && /percent|pct/.test(t.columns[j]) ? `${v.toFixed(2)} %` : String(v))}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

export const workersView: View = {
  id: 'workers',
  title: 'Workers',
  applies: async (host) => (await get<Answer>(host, 'workers', { probe: 1 })).tasks_present,
  async render(host, body) {
    const a = await get<Answer>(host, 'workers');
    st = { host, a, drawn: 0 };
    const idle = a.idle!;
    const names = host.timeline.tracks;
    const nameOf = (id: number) => names.find((t) => t.id === id)?.name ?? `track ${id}`;
    const pct = idle.columns.indexOf('idle_percent');
    body.innerHTML = `<p class="muted">Tasks per worker in the timeline's window, coloured by codelet; idle share over the run as <code>hetscope tasks critical-path</code> gives it.${a.truncated ? ' Only the first tasks are drawn.' : ''}</p>
      <div class="wk-layout"><div class="wk-labels">${a.workers!.map((w, i) => `<div class="wk-label" style="height:${ROW}px" data-track="${w}">${escapeHtml(nameOf(w))} <span class="wk-idle">idle ${(Number(idle.rows[i][pct])).toFixed(1)} %</span></div>`).join('')}</div>
      <canvas id="wk-canvas"></canvas></div>
      <div id="wk-legend" class="wk-legend">${a.codelet_names!.map((n) => `<span class="legend-entry"><span class="legend-swatch" style="background:${colourFor(n, 'task', 'name')}"></span>${escapeHtml(n)}</span>`).join('')}</div>
      <div class="wk-tables"><div><h4>Idle time per worker</h4>${dataTable(idle, 'wk-idle')}</div><div><h4>Codelets</h4>${dataTable(a.codelets!, 'wk-codelets')}</div></div>`;
    const canvas = body.querySelector<HTMLCanvasElement>('#wk-canvas')!;
    canvas.addEventListener('click', (e) => {
      const hit = taskAt(e.clientX, e.clientY);
      if (hit && hit[4] >= 0) void host.selectSlice(hit[4]);
    });
    draw();
  },
  onTimeline: () => draw(),
  dispose() {
    st = null;
  },
};

function geometry() {
  const canvas = document.getElementById('wk-canvas') as HTMLCanvasElement | null;
  if (!st || !canvas) return null;
  // As wide as the timeline's canvas and, with the label column, under it: a task lies below its slice.
  const w = Math.max(100, Math.min(st.host.timeline.width(), (canvas.parentElement?.clientWidth ?? 800) - 251));
  return { canvas, w, tl: st.host.timeline };
}

function draw(): void {
  const g = geometry();
  if (!g || !st) return;
  const { canvas, w, tl } = g;
  const a = st.a;
  const h = a.workers!.length * ROW;
  const ctx = sizeCanvas(canvas, w, h);
  ctx.clearRect(0, 0, w, h);
  const row = new Map(a.workers!.map((id, i) => [id, i]));
  const span = tl.t1 - tl.t0;
  let drawn = 0;
  for (const t of a.tasks!) {
    const r = row.get(t[0]);
    if (r === undefined) continue;
    const x0 = ((t[1] - tl.t0) / span) * w;
    const x1 = ((t[1] + t[2] - tl.t0) / span) * w;
    if (x1 < 0 || x0 > w) continue;
    ctx.fillStyle = colourFor(a.codelet_names![t[3]], 'task', 'name');
    ctx.fillRect(Math.max(0, x0), r * ROW + 2, Math.max(1, Math.min(w, x1) - Math.max(0, x0)), ROW - 4);
    drawn++;
  }
  st.drawn = drawn;
}

function taskAt(cx: number, cy: number): [number, number, number, number, number] | null {
  const g = geometry();
  if (!g || !st) return null;
  const rect = g.canvas.getBoundingClientRect();
  const r = Math.floor((cy - rect.top) / ROW);
  const worker = st.a.workers![r];
  const t = g.tl.t0 + ((cx - rect.left) / g.w) * (g.tl.t1 - g.tl.t0);
  const slack = ((g.tl.t1 - g.tl.t0) / g.w) * 1;
  let best: [number, number, number, number, number] | null = null;
  for (const task of st.a.tasks!) {
    if (task[0] === worker && task[1] - slack <= t && t <= task[1] + task[2] + slack && (!best || task[2] < best[2])) best = task;
  }
  return best;
}

/** For the browser tests: the answer, how many tasks the last frame drew, and where a task lies (page coordinates). */
export function workersTestHooks() {
  return {
    answer: () => st?.a ?? null,
    drawn: () => st?.drawn ?? 0,
    locate: (minWidthPx = 4) => {
      const g = geometry();
      if (!g || !st) return null;
      const rect = g.canvas.getBoundingClientRect();
      const span = g.tl.t1 - g.tl.t0;
      let best: { x: number; y: number; slice: number; width: number } | null = null;
      st.a.tasks!.forEach((t) => {
        const r = st!.a.workers!.indexOf(t[0]);
        const x0 = Math.max(0, ((t[1] - g.tl.t0) / span) * g.w);
        const x1 = Math.min(g.w, ((t[1] + t[2] - g.tl.t0) / span) * g.w);
        if (r < 0 || x1 - x0 < minWidthPx) return;
        if (!best || x1 - x0 > best.width) best = { x: rect.left + (x0 + x1) / 2, y: rect.top + r * ROW + ROW / 2, slice: t[4], width: x1 - x0 };
      });
      return best;
    },
  };
}
