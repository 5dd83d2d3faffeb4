// The query console (like Perfetto's query page): one read-only SQL statement over the store's tables and the
// standard library's views, answered by the server (SqlConsole.java) as a table and, when the rows have ts and dur
// columns, as a track drawn above the timeline in the timeline's window. Nothing is computed here: rows are shown
// as the server sent them, only placed on screen.
import { escapeHtml, formatDuration, formatNumber } from '../format';
import { colourFor } from '../colours';
import type { View, ViewHost } from './host';
import { get, post, showSpan } from './host';
import { sizeCanvas } from '../canvas';

interface Answer {
  columns: string[]; rows: unknown[][]; truncated: boolean; elapsed_ms: number;
  /** [start (trace-relative ns), dur, row index, track_id or -1] */
  track: [number, number, number, number][] | null; track_note: string | null;
}
interface Relation { name: string; kind: string; columns: string[] }

const EXAMPLES: [string, string][] = [
  ['longest slices', 'SELECT id AS slice_id, ts, dur, name, category, track_id FROM slice ORDER BY dur DESC LIMIT 20'],
  ['slice statistics (library)', 'SELECT * FROM hs_slice_stats ORDER BY total_ns DESC LIMIT 50'],
  ['device utilisation (library)', 'SELECT * FROM hs_device_utilisation'],
  ['launch latency per flow (library)', 'SELECT * FROM hs_launch_latency ORDER BY latency_ns DESC LIMIT 100'],
  ['tables and views', 'SHOW ALL TABLES'],
];
/** Rows rendered into the page's table (the answer holds up to the server's cap). */
const SHOWN_ROWS = 1000;
const LANE = 14;
const MAX_LANES = 16;

interface State {
  /** Per lane the track_id it belongs to (-1: rows without one); laneOf: the lane of each drawn row. */
  host: ViewHost; answer: Answer | null; trackShown: boolean; lanes: number[]; laneOf: Map<number, number>; drawn: number;
  selectedRow: number | null;
}
let st: State | null = null;

const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export const sqlView: View = {
  id: 'sql',
  title: 'SQL',
  applies: async () => true,
  async render(host, body) {
    st = { host, answer: null, trackShown: false, lanes: [], laneOf: new Map(), drawn: 0, selectedRow: null };
    body.innerHTML = `
      <div class="sql-layout">
        <div class="sql-side"><h4>Tables and views</h4><div id="sql-schema" class="sql-schema"></div></div>
        <div class="sql-main">
          <textarea id="sql-input" spellcheck="false" rows="4" placeholder="SELECT … (Ctrl+Enter runs)"></textarea>
          <div class="sql-bar">
            <button id="sql-run" title="run (Ctrl+Enter)">Run query</button>
            <select id="sql-examples"><option value="">examples…</option>${EXAMPLES.map(([t], i) => `<option value="${i}">${escapeHtml(t)}</option>`).join('')}</select>
            <label title="draw rows with ts and dur columns as a track above the timeline"><input type="checkbox" id="sql-track-toggle" checked> show as a track</label>
            <span id="sql-status" class="muted"></span>
          </div>
          <div id="sql-error" class="view-error" hidden></div>
          <div id="sql-result"></div>
        </div>
      </div>`;
    const input = el<HTMLTextAreaElement>('sql-input');
    input.value = EXAMPLES[0][1];
    el('sql-run').addEventListener('click', () => void run());
    input.addEventListener('keydown', (e) => {
      // Keys typed here are the query's, not the timeline's shortcuts.
      e.stopPropagation();
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void run();
      }
    });
    el<HTMLSelectElement>('sql-examples').addEventListener('change', (e) => {
      const i = (e.target as HTMLSelectElement).value;
      if (i !== '') input.value = EXAMPLES[Number(i)][1];
    });
    el<HTMLInputElement>('sql-track-toggle').addEventListener('change', (e) => {
      if (!st) return;
      st.trackShown = (e.target as HTMLInputElement).checked;
      drawTrack();
    });
    bindTrack();
    const rels = await get<Relation[]>(host, 'schema');
    el('sql-schema').replaceChildren(...rels.map((r) => {
      const d = document.createElement('div');
      d.className = `sql-rel ${r.kind}`;
      d.dataset.name = r.name;
      d.title = r.columns.join('\n');
      d.innerHTML = `${escapeHtml(r.name)} <span class="muted">${r.kind}</span>`;
      d.addEventListener('click', () => {
        input.value = `SELECT * FROM ${r.name} LIMIT 100`;
        input.focus();
      });
      return d;
    }));
  },
  onTimeline: () => drawTrack(),
  dispose() {
    st = null;
    const qt = document.getElementById('query-track');
    if (qt) qt.hidden = true;
  },
};

async function run(): Promise<void> {
  const s = st;
  if (!s) return;
  const sql = el<HTMLTextAreaElement>('sql-input').value;
  el('sql-status').textContent = 'running…';
  el('sql-error').hidden = true;
  let a: Answer;
  try {
    a = await post<Answer>(s.host, 'query', { sql });
  } catch (e) {
    if ((e as Error).name === 'AbortError') return;
    el('sql-status').textContent = '';
    el('sql-error').textContent = (e as Error).message;
    el('sql-error').hidden = false;
    el('sql-result').replaceChildren();
    s.answer = null;
    drawTrack();
    return;
  }
  if (st !== s) return;
  s.answer = a;
  s.selectedRow = null;
  s.trackShown = el<HTMLInputElement>('sql-track-toggle').checked;
  // One lane per distinct track_id in order of appearance; rows without one share the first lane.
  layoutLanes(s, a);
  el('sql-status').textContent = `${formatNumber(a.rows.length)} rows${a.truncated ? ' (more not sent: add a LIMIT or aggregate)' : ''} in ${a.elapsed_ms} ms`
    + (a.track ? ` · ${formatNumber(a.track.length)} drawn as a track` : '') + (a.track_note ? ` · ${a.track_note}` : '');
  renderRows(a);
  drawTrack();
}

/**
 * Lanes of the query track: rows grouped by track_id in order of first appearance, and within a track the rows that
 * overlap in time put on sub-lanes (first lane free at the row's start), so that no row hides another and a click
 * picks one. Past MAX_LANES lanes the rest share the last one.
 */
function layoutLanes(s: State, a: Answer): void {
  s.lanes = [];
  s.laneOf = new Map();
  const items = [...(a.track ?? [])].sort((x, y) => x[0] - y[0] || x[2] - y[2]);
  const ends = new Map<number, { lane: number; end: number }[]>();
  for (const it of items) {
    if (!ends.has(it[3])) ends.set(it[3], []);
    const sub = ends.get(it[3])!;
    let slot = sub.find((l) => l.end <= it[0]);
    if (!slot) {
      if (s.lanes.length < MAX_LANES) {
        slot = { lane: s.lanes.length, end: 0 };
        s.lanes.push(it[3]);
        sub.push(slot);
      } else {
        s.laneOf.set(it[2], MAX_LANES - 1);
        continue;
      }
    }
    slot.end = it[0] + it[1];
    s.laneOf.set(it[2], slot.lane);
  }
  // Lanes of one track side by side, in the tracks' order of appearance.
  const order = [...new Set(s.lanes)];
  const sorted = s.lanes.map((t, i) => ({ t, i })).sort((x, y) => order.indexOf(x.t) - order.indexOf(y.t) || x.i - y.i);
  const renumber = new Map(sorted.map((x, j) => [x.i, j]));
  s.lanes = sorted.map((x) => x.t);
  for (const [row, lane] of s.laneOf) s.laneOf.set(row, renumber.get(lane)!);
}

/** The column holding the row's slice id: slice_id, or id when the row is a slice (it has ts and dur). */
function sliceColumn(a: Answer): number {
  const sid = a.columns.indexOf('slice_id');
  if (sid >= 0) return sid;
  return a.track ? a.columns.indexOf('id') : -1;
}

function renderRows(a: Answer): void {
  const out = el('sql-result');
  if (!a.columns.length) {
    out.innerHTML = '<p class="muted">The statement returned no columns.</p>';
    return;
  }
  const ts = a.columns.indexOf('ts');
  const linkable = a.track !== null;
  let html = `<table class="data" id="sql-table"><thead><tr>${a.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>`;
  a.rows.slice(0, SHOWN_ROWS).forEach((row, i) => {
    html += `<tr data-row="${i}"${linkable ? ' class="clickable"' : ''}>`;
    row.forEach((v, j) => {
      const col = a.columns[j];
      // Exact integers as the database gave them; durations also in units for reading.
      const text = v === null ? 'NULL' : typeof v === 'number' && (/_ns$/.test(col) || col === 'dur') && j !== ts
        ? `${v} (${formatDuration(v)})` : String(v);
      // data-v: the value exactly as the server sent it, whatever the cell shows for reading.
      html += `<td class="${typeof v === 'number' ? 'num' : ''}${v === null ? ' null' : ''}" data-v="${escapeHtml(v === null ? 'NULL' : String(v))}" title="${escapeHtml(text)}">${escapeHtml(text)}</td>`;
    });
    html += '</tr>';
  });
  html += '</tbody></table>';
  if (a.rows.length > SHOWN_ROWS) html += `<p class="muted">${formatNumber(a.rows.length - SHOWN_ROWS)} more rows received, not shown.</p>`;
  if (!a.rows.length) html += '<p class="muted">No rows.</p>';
  out.innerHTML = html;
  if (linkable) {
    out.querySelectorAll<HTMLElement>('tr[data-row]').forEach((tr) => tr.addEventListener('click', () => void goToRow(Number(tr.dataset.row))));
  }
}

/** Shows a result row on the timeline: its time span, and its slice selected when the row names one. */
async function goToRow(row: number): Promise<void> {
  const s = st;
  if (!s || !s.answer || !s.answer.track) return;
  s.selectedRow = row;
  el('sql-result').querySelectorAll<HTMLElement>('tr[data-row]').forEach((tr) => tr.classList.toggle('active', Number(tr.dataset.row) === row));
  const item = s.answer.track.find((it) => it[2] === row);
  if (item) showSpan(s.host, item[0], item[0] + item[1]);
  const col = sliceColumn(s.answer);
  const id = col >= 0 ? s.answer.rows[row][col] : null;
  if (typeof id === 'number') {
    try {
      await s.host.selectSlice(id);
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
      el('sql-status').textContent = `row ${row + 1}: no slice with id ${id} to select (${(e as Error).message})`;
    }
  }
  drawTrack();
}

function trackItemsOnScreen(): { it: [number, number, number, number]; x0: number; x1: number; lane: number }[] {
  const s = st;
  if (!s || !s.answer?.track) return [];
  const tl = s.host.timeline;
  const w = tl.width();
  const span = tl.t1 - tl.t0;
  const out = [];
  for (const it of s.answer.track) {
    const x0 = ((it[0] - tl.t0) / span) * w;
    const x1 = ((it[0] + it[1] - tl.t0) / span) * w;
    if (x1 < 0 || x0 > w) continue;
    const lane = s.laneOf.get(it[2]) ?? 0;
    out.push({ it, x0, x1, lane });
  }
  return out;
}

function drawTrack(): void {
  const qt = document.getElementById('query-track');
  if (!qt) return;
  const s = st;
  const show = !!(s && s.trackShown && s.answer?.track && s.answer.track.length);
  qt.hidden = !show;
  if (!show || !s) return;
  const a = s.answer!;
  const canvas = el<HTMLCanvasElement>('query-canvas');
  const w = s.host.timeline.width();
  const lanes = Math.max(1, s.lanes.length);
  const h = lanes * LANE + 4;
  const ctx = sizeCanvas(canvas, w, h);
  ctx.clearRect(0, 0, w, h);
  const nameCol = a.columns.indexOf('name');
  let drawn = 0;
  ctx.font = '10px "DejaVu Sans", sans-serif';
  for (const { it, x0, x1, lane } of trackItemsOnScreen()) {
    const name = nameCol >= 0 ? String(a.rows[it[2]][nameCol]) : 'query row';
    const y = 2 + lane * LANE;
    const left = Math.max(0, x0);
    const width = Math.max(1, Math.min(w, x1) - left);
    ctx.fillStyle = colourFor(name, 'query', 'name');
    ctx.fillRect(left, y, width, LANE - 2);
    if (it[2] === s.selectedRow) {
      ctx.strokeStyle = '#111827';
      ctx.lineWidth = 2;
      ctx.strokeRect(left + 1, y + 1, Math.max(1, width - 2), LANE - 4);
    }
    if (width > 40) {
      ctx.fillStyle = '#111';
      ctx.fillText(name.slice(0, Math.floor(width / 6)), left + 2, y + 10);
    }
    drawn++;
  }
  s.drawn = drawn;
  const trackName = (id: number) => id < 0 ? 'rows' : s.host.timeline.tracks.find((t) => t.id === id)?.name ?? `track ${id}`;
  // One label per lane, level with it: the lane's track, or the result's row count when there is one lane.
  el('query-track-label').innerHTML = s.lanes.length > 1
    ? s.lanes.map((l, i) => `<div class="qt-lane">${i === 0 ? `<b>query</b> ` : ''}<span class="muted">${i > 0 && s.lanes[i - 1] === l ? '' : escapeHtml(trackName(l))}</span></div>`).join('')
    : `<div class="qt-lane"><b>query result</b> <span class="muted">${formatNumber(a.track!.length)} rows</span></div>`;
  el('query-track-label').style.height = `${h}px`;
}

function bindTrack(): void {
  const canvas = el<HTMLCanvasElement>('query-canvas');
  canvas.onclick = (e) => {
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    const lane = Math.floor((e.clientY - r.top - 2) / LANE);
    let best: { row: number; width: number } | null = null;
    for (const d of trackItemsOnScreen()) {
      if (d.lane !== lane || x < d.x0 - 1 || x > d.x1 + 1) continue;
      // The narrowest item under the cursor: wide rows do not hide short ones drawn inside them.
      if (!best || d.x1 - d.x0 < best.width) best = { row: d.it[2], width: d.x1 - d.x0 };
    }
    if (best) {
      el(`sql-result`).querySelector(`tr[data-row="${best.row}"]`)?.scrollIntoView({ block: 'nearest' });
      void goToRow(best.row);
    }
  };
}

/** For the browser tests: the last answer and where a row's item is drawn on the query track (page coordinates). */
export function sqlTestHooks() {
  return {
    answer: () => st?.answer ?? null,
    drawn: () => st?.drawn ?? 0,
    selectedRow: () => st?.selectedRow ?? null,
    locateRow: (row: number) => {
      const d = trackItemsOnScreen().find((x) => x.it[2] === row);
      if (!d) return null;
      const r = el<HTMLCanvasElement>('query-canvas').getBoundingClientRect();
      return { x: r.left + (Math.max(0, d.x0) + Math.min(r.width, d.x1)) / 2, y: r.top + 2 + d.lane * LANE + LANE / 2 };
    },
  };
}
