// StarPU memory views: the pictures `hetscope memory residency|heatmap|snapshot --svg` writes (residency per node,
// the presence heatmap with its colour scale, the snapshot at the timeline's cursor time: the centre of the visible
// window), the memory-manager Gantt (`hetscope memory manager --actions`) in the timeline's window with each
// action's share of that window, and one block's history (`hetscope memory history BLOCK`). The server draws and
// computes with the same library calls; pictures are shown as images, so nothing in a trace's names can run here.
import { escapeHtml, formatDuration, headerCells } from '../format';
import type { TableJson } from '../api';
import { colourFor } from '../colours';
import type { View, ViewHost } from './host';
import { get } from './host';
import { sizeCanvas } from '../canvas';

interface Pictures { memory: boolean; t?: number; residency?: string; heatmap?: string; snapshot?: string }
interface Rows { columns: string[]; rows: unknown[][] }
interface Manager { actions: Rows; shares: TableJson; blocks: { handle: string; label: string }[] }

let last: Pictures | null = null;
let manager: Manager | null = null;
let history: TableJson[] | null = null;
let timer: number | undefined;
const urls: string[] = [];
const LANE = 12;

function image(svg: string, id: string, title: string): string {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  urls.push(url);
  return `<figure class="mem-figure"><figcaption>${title}</figcaption><img id="${id}" src="${url}" alt="${title}"></figure>`;
}

function release(): void {
  for (const u of urls.splice(0)) URL.revokeObjectURL(u);
}

function table(t: { columns: string[]; rows: unknown[][] }, id: string): string {
  return `<table class="data" id="${id}"><thead><tr>${headerCells(t.columns)}</tr></thead><tbody>${
    t.rows.map((r) => `<tr>${r.map((v, j) => `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(v === null ? '' : String(v))}">${
      escapeHtml(v === null ? '' : typeof v === 'number' && /_ns$/.test(t.columns[j]) ? formatDuration(v) : String(v))}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

async function load(host: ViewHost): Promise<void> {
  const tl = host.timeline;
  const t = Math.round((tl.t0 + tl.t1) / 2);
  const [p, m] = await Promise.all([get<Pictures>(host, 'memory-pictures', { t }),
    get<Manager>(host, 'memory-manager', { t0: Math.round(tl.t0), t1: Math.round(tl.t1) })]);
  const pics = document.getElementById('mem-pics');
  if (!pics) return;
  release();
  last = p;
  manager = m;
  pics.innerHTML = `<p class="muted">Pictures of <code>hetscope memory … --svg</code>. The snapshot follows the centre of the timeline's window: <b id="mem-t">+${formatDuration(p.t!)}</b> (${p.t} ns).</p>
    <div class="mem-pictures">${image(p.snapshot!, 'mem-snapshot', 'snapshot at the cursor time')}${image(p.residency!, 'mem-residency', 'residency per node (20 ms bins)')}${image(p.heatmap!, 'mem-heatmap', 'presence heatmap (lifetime)')}</div>`;
  document.getElementById('mem-shares')!.innerHTML = table(m.shares, 'mem-shares-table');
  const select = document.getElementById('mem-block') as HTMLSelectElement;
  if (select.options.length <= 1) {
    select.insertAdjacentHTML('beforeend', m.blocks.map((b) => `<option value="${escapeHtml(b.handle)}">${escapeHtml(b.label)}</option>`).join(''));
  }
  drawGantt(host);
}

/** The manager's actions per node and sub-lane (the lanes ManagerGantt gives) in the timeline's window. */
function drawGantt(host: ViewHost): void {
  const canvas = document.getElementById('mem-gantt') as HTMLCanvasElement | null;
  if (!canvas || !manager) return;
  const cols = manager.actions.columns;
  const [node, lane, action, rel, dur] = ['node', 'lane', 'action', 'rel_ts', 'dur_ns'].map((c) => cols.indexOf(c));
  const nodes: string[] = [];
  const lanes = new Map<string, number>();
  for (const r of manager.actions.rows) {
    const n = String(r[node]);
    if (!lanes.has(n)) { lanes.set(n, 0); nodes.push(n); }
    lanes.set(n, Math.max(lanes.get(n)!, (r[lane] as number) + 1));
  }
  const top = new Map<string, number>();
  let y = 0;
  for (const n of nodes) { top.set(n, y); y += lanes.get(n)! * LANE + 14; }
  const w = Math.max(200, Math.min(host.timeline.width(), (canvas.parentElement?.clientWidth ?? 800) - 253));
  const h = Math.max(20, y);
  const ctx = sizeCanvas(canvas, w, h);
  ctx.clearRect(0, 0, w, h);
  ctx.font = '10px "DejaVu Sans", sans-serif';
  const tl = host.timeline;
  const x = (t: number) => ((t - tl.t0) / (tl.t1 - tl.t0)) * w;
  for (const n of nodes) { ctx.fillStyle = '#374151'; ctx.fillText(n, 2, top.get(n)! + 10); }
  let drawn = 0;
  for (const r of manager.actions.rows) {
    const x0 = x(r[rel] as number);
    const x1 = x((r[rel] as number) + (r[dur] as number));
    if (x1 < 0 || x0 > w) continue;
    ctx.fillStyle = colourFor(String(r[action]), 'memory', 'name');
    ctx.fillRect(Math.max(0, x0), top.get(String(r[node]))! + 13 + (r[lane] as number) * LANE, Math.max(1, Math.min(w, x1) - Math.max(0, x0)), LANE - 2);
    drawn++;
  }
  canvas.dataset.drawn = String(drawn);
}

export const memoryView: View = {
  id: 'memory',
  title: 'Memory',
  applies: async (host) => (await get<Pictures>(host, 'memory-pictures')).memory,
  async render(host, body) {
    body.innerHTML = `<div id="mem-pics"></div>
      <h4>Memory-manager Gantt <span class="muted">(<code>hetscope memory manager --actions</code>, in the timeline's window; share of the window per action)</span></h4>
      <canvas id="mem-gantt"></canvas><div id="mem-shares"></div>
      <h4>Block history <span class="muted">(<code>hetscope memory history BLOCK</code>)</span></h4>
      <select id="mem-block"><option value="">block…</option></select><div id="mem-history"></div>`;
    body.querySelector<HTMLSelectElement>('#mem-block')!.addEventListener('change', (e) => void showBlock(host, (e.target as HTMLSelectElement).value));
    await load(host);
  },
  onTimeline(host) {
    drawGantt(host);
    // The snapshot and the shares follow the window once it settles.
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      if (document.getElementById('mem-pics') && last && Math.round((host.timeline.t0 + host.timeline.t1) / 2) !== last.t) void load(host).catch(() => {});
    }, 400);
  },
  dispose() {
    clearTimeout(timer);
    release();
    last = null;
    manager = null;
    history = null;
  },
};

async function showBlock(host: ViewHost, handle: string): Promise<void> {
  if (!handle) return;
  const tables = await get<TableJson[]>(host, 'memory-block', { block: handle });
  history = tables;
  const out = document.getElementById('mem-history');
  if (out) out.innerHTML = tables.map((t, i) => `<h5>${escapeHtml(t.title ?? t.name)}</h5>${t.rows.length ? table(t, `mem-history-${i}`) : '<p class="muted">none</p>'}`).join('');
}

export function memoryTestHooks() {
  return { last: () => last, manager: () => manager, history: () => history };
}
