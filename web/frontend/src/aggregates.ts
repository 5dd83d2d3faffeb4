// Area selection views of the bottom panel: what a shift-drag range holds (CPU time per thread and process, busy
// time per device, counters over the range) and a flame graph of the selected tracks' slices. Every figure comes
// from the server's standard-library tables (GET /aggregates); the page only lays them out.
import { TableJson } from './api';
import { escapeHtml, formatDuration, formatNumber } from './format';
import { colourFor } from './colours';
import { PanelContext, registerPanel } from './panels';

interface Aggregates {
  threads: TableJson; processes: TableJson; devices: TableJson; counters: TableJson; calltree: TableJson | null;
}

/** What the panels showed last, for the tests: the range, the tables' rows as shown, the flame graph's frames. */
export interface AggregatesState {
  t0: number; t1: number; tracks: number[];
  tables: Record<string, { columns: string[]; rows: string[][] }>;
  frames: { path: string; total: number; self: number; x: number; w: number; depth: number }[] | null;
}
let state: AggregatesState | null = null;
export function aggregatesState(): AggregatesState | null {
  return state;
}

/** One request per range, shared by both tabs. */
let cache: { key: string; signal: AbortSignal; data: Promise<Aggregates> } | null = null;
function load(ctx: PanelContext, r: { t0: number; t1: number; tracks: number[] }): Promise<Aggregates> {
  const key = `${ctx.base}|${r.t0}|${r.t1}|${r.tracks.join(',')}`;
  // A request made for a tab that was closed since is cancelled: ask again.
  if (!cache || cache.key !== key || cache.signal.aborted) {
    const entry = { key, signal: ctx.signal,
      data: ctx.get<Aggregates>(`${ctx.base}/aggregates`, { t0: r.t0, t1: r.t1, tracks: r.tracks.join(',') }) };
    entry.data.catch(() => { if (cache === entry) cache = null; });
    cache = entry;
  }
  return cache.data;
}

/** Runs a panel update, showing its failure in the panel unless the panel was closed meanwhile. */
function guard(host: HTMLElement, ctx: PanelContext, p: Promise<void>): void {
  p.catch((e: Error) => {
    if (e.name === 'AbortError' || ctx.signal.aborted) return;
    host.innerHTML = `<p class="panel-error">${escapeHtml(e.message)}</p>`;
    delete host.dataset.loading;
  });
}

const HINT = '<p class="muted">Shift-drag on the timeline to select a time range over the tracks on screen.</p>';

function cell(col: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' && /_ns$/.test(col)) return formatDuration(v);
  if (typeof v === 'number' && /_pct$/.test(col)) return `${v.toFixed(2)} %`;
  if (typeof v === 'number' && !Number.isInteger(v)) return formatNumber(Number(v.toPrecision(6)));
  return formatNumber(v);
}

function table(id: string, t: TableJson, hide: string[] = []): string {
  const cols = t.columns.map((c, i) => [c, i] as const).filter(([c]) => !hide.includes(c));
  const rows = t.rows.map((r) => cols.map(([c, i]) => cell(c, r[i])));
  state!.tables[id] = { columns: cols.map(([c]) => c), rows };
  if (!rows.length) return `<h4>${escapeHtml(t.title)}</h4><p class="muted">none in this range</p>`;
  return `<h4>${escapeHtml(t.title)}</h4><table class="data agg" id="agg-${id}"><thead><tr>${cols.map(([c]) =>
    `<th>${escapeHtml(c.replace(/_ns$/, '').replace(/_pct$/, ' %'))}</th>`).join('')}</tr></thead><tbody>${rows.map((r) =>
    `<tr>${r.map((v, i) => `<td class="${typeof t.rows[0][cols[i][1]] === 'number' ? 'num' : ''}" title="${escapeHtml(v)}">${escapeHtml(v)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function openSelection(host: HTMLElement, ctx: PanelContext) {
  const show = async (r: { t0: number; t1: number; tracks: number[] } | null) => {
    if (!r) {
      host.innerHTML = HINT;
      return;
    }
    host.innerHTML = '<p class="muted">Loading…</p>';
    host.dataset.loading = '1';
    const a = await load(ctx, r);
    if (ctx.signal.aborted) return;
    state = { t0: r.t0, t1: r.t1, tracks: r.tracks, tables: {}, frames: state?.frames ?? null };
    host.innerHTML = `<div class="agg-head">Range ${formatDuration(r.t0)} … ${formatDuration(r.t1)}
        (${formatDuration(r.t1 - r.t0)}), ${r.tracks.length} tracks on screen</div><div class="agg-grid">
        <div>${table('processes', a.processes)}${table('devices', a.devices)}</div>
        <div>${table('threads', a.threads)}</div>
        <div>${table('counters', a.counters, ['track_id'])}</div></div>`;
    delete host.dataset.loading;
  };
  guard(host, ctx, show(ctx.range()));
  return { range: (r: { t0: number; t1: number; tracks: number[] } | null) => guard(host, ctx, show(r)) };
}

function openFlame(host: HTMLElement, ctx: PanelContext) {
  let root = '';
  const show = async (r: { t0: number; t1: number; tracks: number[] } | null) => {
    if (!r) {
      host.innerHTML = HINT;
      return;
    }
    host.innerHTML = '<p class="muted">Loading…</p>';
    host.dataset.loading = '1';
    const a = await load(ctx, r);
    if (ctx.signal.aborted) return;
    draw(a.calltree, r);
    delete host.dataset.loading;
  };
  const draw = (t: TableJson | null, r: { t0: number; t1: number; tracks: number[] }) => {
    if (!t || !t.rows.length) {
      host.innerHTML = '<p class="muted">No slices of the selected tracks in this range.</p>';
      return;
    }
    const col = (n: string) => t.columns.indexOf(n);
    const [cPath, cDepth, cName, cSlices, cTotal, cSelf] = ['path', 'depth', 'name', 'slices', 'total_ns', 'self_ns'].map(col);
    // Frames under the root (a path zoomed into, or all), laid out left to right by total time, widest first.
    const rows = t.rows.filter((x) => !root || x[cPath] === root || String(x[cPath]).startsWith(`${root};`));
    const rootDepth = root ? (rows.find((x) => x[cPath] === root)?.[cDepth] as number ?? 0) : 0;
    const children = new Map<string, unknown[][]>();
    for (const x of rows) {
      const p = String(x[cPath]);
      const parent = p === root ? '\u0000' : (p.includes(';') ? p.slice(0, p.lastIndexOf(';')) : '');
      const key = root && p === root ? '\u0000' : parent;
      if (!children.has(key)) children.set(key, []);
      children.get(key)!.push(x);
    }
    const tops = root ? children.get('\u0000') ?? [] : children.get('') ?? [];
    const whole = tops.reduce((s, x) => s + (x[cTotal] as number), 0) || 1;
    const frames: AggregatesState['frames'] = [];
    const H = 17;
    let html = '';
    let maxDepth = 0;
    const place = (list: unknown[][], x0: number) => {
      let x = x0;
      for (const f of [...list].sort((p, q) => (q[cTotal] as number) - (p[cTotal] as number))) {
        const w = (f[cTotal] as number) / whole;
        const d = (f[cDepth] as number) - rootDepth;
        maxDepth = Math.max(maxDepth, d);
        const path = String(f[cPath]);
        frames!.push({ path, total: f[cTotal] as number, self: f[cSelf] as number, x, w, depth: d });
        if (w * 100 >= 0.05) {
          const name = String(f[cName]);
          html += `<div class="frame" data-path="${escapeHtml(path)}" style="left:${(x * 100).toFixed(4)}%;width:${(w * 100).toFixed(4)}%;top:${d * H}px;background:${colourFor(name, '', 'name')}" title="${escapeHtml(`${name}\n${formatDuration(f[cTotal] as number)} total, ${formatDuration(f[cSelf] as number)} self, ${formatNumber(f[cSlices])} slices`)}">${escapeHtml(name)}</div>`;
        }
        place(children.get(path) ?? [], x);
        x += w;
      }
    };
    place(tops, 0);
    state = { t0: r.t0, t1: r.t1, tracks: r.tracks, tables: state?.tables ?? {}, frames };
    host.innerHTML = `<div class="agg-head">Flame graph of ${formatNumber(r.tracks.length)} tracks, ${formatDuration(r.t0)} … ${formatDuration(r.t1)}: width is time in the range${root ? ` — zoomed into <b>${escapeHtml(root.split(';').pop()!)}</b> <button id="flame-reset">show all</button>` : ' (click a frame to zoom in)'}</div>
      <div id="flame" style="height:${(maxDepth + 1) * H}px">${html}</div>`;
    host.querySelector('#flame-reset')?.addEventListener('click', () => {
      root = '';
      draw(t, r);
    });
    host.querySelectorAll<HTMLElement>('.frame').forEach((el) => el.addEventListener('click', () => {
      root = el.dataset.path!;
      draw(t, r);
    }));
  };
  guard(host, ctx, show(ctx.range()));
  return {
    range: (r: { t0: number; t1: number; tracks: number[] } | null) => {
      root = '';
      guard(host, ctx, show(r));
    },
  };
}

registerPanel({ id: 'selection', title: 'Area selection', order: 20, open: openSelection });
registerPanel({ id: 'flame', title: 'Flame graph', order: 30, open: openFlame });
