import './style.css';
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { Flow, TableJson, TraceSummary, TrackInfo, getJson } from './api';
import { escapeHtml, formatDuration, formatNumber } from './format';
import { Selection, Timeline } from './timeline';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface SliceDetails {
  id: number; track_id: number; ts: number; absolute_ts: string; dur: number; name: string; category: string;
  source_category: string | null; depth: number; correlation_id: number | null; args: string | null;
  track_name: string | null; kernel: Record<string, unknown> | null; transfer: Record<string, unknown> | null;
  counters: [string, number][]; flows: Flow[];
  name_stats: { category: string; count: number; total: number; mean: number; min: number; max: number;
    median: number; stddev: number | null; percentile: number | null };
}

let timeline: Timeline;
let base = '';
let durationChart: uPlot | null = null;

async function openTrace(index: number): Promise<void> {
  base = `api/t/${index}`;
  const traces = await getJson<TraceSummary[]>('api/traces');
  const tracks = await getJson<TrackInfo[]>(`${base}/tracks`);
  const summary = traces[index];
  $('tree').replaceChildren();
  timeline = new Timeline(base, tracks, summary.span, $('rows'), $('tree'), $<HTMLCanvasElement>('timeline'),
    $<HTMLCanvasElement>('ruler'));
  timeline.colourMode = $<HTMLSelectElement>('colour-mode').value as 'name' | 'category';
  timeline.onSelect = (s) => void showSlice(s);
  timeline.onRange = (r) => void showRange(r);
  (window as unknown as { __hetscope: unknown }).__hetscope = {
    timeline,
    view: () => ({ t0: timeline.t0, t1: timeline.t1 }),
    frame: () => ({ drawCount: timeline.drawCount, items: timeline.itemsDrawn, singles: timeline.singlesDrawn,
      fetches: timeline.fetchCount, busy: timeline.busy(), firstDataDrawMs: timeline.firstDataDrawMs }),
    locate: (category: string) => timeline.locate(category),
  };
  // Statistics can take a while on large traces: ask for them once the timeline is on screen.
  timeline.onFirstData = () => void loadTables();
}

async function showSlice(s: Selection | null): Promise<void> {
  const body = $('details-body');
  if (!s) {
    body.innerHTML = '<span class="muted">Nothing selected.</span>';
    return;
  }
  const d = await getJson<SliceDetails>(`${base}/slice/${s.id}`);
  timeline.select(s, d.flows);
  const st = d.name_stats;
  const kv = (k: string, v: string) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`;
  let html = `<h3 id="detail-name" style="margin:2px 0 6px;font-size:13px">${escapeHtml(d.name)}</h3><dl class="kv">`;
  html += kv('duration', `<span id="detail-duration" class="mono">${formatDuration(d.dur)}</span>`);
  html += kv('start', `<span class="mono">${formatDuration(d.ts)}</span> <span class="muted">(absolute ${d.absolute_ts} ns)</span>`);
  html += kv('track', escapeHtml(d.track_name ?? String(d.track_id)));
  html += kv('category', escapeHtml(d.category + (d.source_category ? ` (source: ${d.source_category})` : '')));
  if (d.correlation_id !== null) html += kv('correlation', String(d.correlation_id));
  html += kv('slice id', String(d.id));
  html += '</dl>';
  if (st && st.count > 0) {
    html += `<h4>Duration against ${formatNumber(st.count)} ${escapeHtml(st.category)} slices of this name</h4><dl class="kv" id="name-stats">`;
    html += kv('percentile', st.percentile === null ? '' : `${st.percentile.toFixed(1)} %`);
    html += kv('mean', formatDuration(st.mean));
    html += kv('median', formatDuration(st.median));
    html += kv('min … max', `${formatDuration(st.min)} … ${formatDuration(st.max)}`);
    if (st.stddev !== null) html += kv('std. dev. (population)', formatDuration(st.stddev));
    html += kv('total', formatDuration(st.total));
    html += '</dl><div id="dur-chart"></div>';
  }
  if (d.flows.length) {
    html += '<h4>Flows</h4><ul id="flow-list">';
    for (const f of d.flows) {
      const partner = f.direction === 'out' ? f.to : f.from;
      html += `<li>${f.direction === 'out' ? '→' : '←'} <span class="flow-link" data-slice="${partner.slice}" data-track="${partner.track}">${escapeHtml(String(f.partner_name))}</span> <span class="muted">(${escapeHtml(f.kind)}, ${escapeHtml(f.rule)})</span></li>`;
    }
    html += '</ul>';
  }
  for (const [title, obj] of [['Kernel', d.kernel], ['Transfer', d.transfer]] as const) {
    if (obj) {
      html += `<h4>${title}</h4><dl class="kv">`;
      for (const [k, v] of Object.entries(obj)) if (v !== null) html += kv(k, escapeHtml(formatNumber(v)));
      html += '</dl>';
    }
  }
  if (d.counters.length) {
    html += '<h4>Counters</h4><dl class="kv">';
    for (const [k, v] of d.counters) html += kv(k, formatNumber(v));
    html += '</dl>';
  }
  if (d.args) {
    html += '<h4>Arguments</h4><dl class="kv" id="args">';
    try {
      for (const [k, v] of Object.entries(JSON.parse(d.args) as Record<string, unknown>)) {
        html += kv(k, escapeHtml(typeof v === 'object' ? JSON.stringify(v) : String(v)));
      }
    } catch {
      html += kv('raw', escapeHtml(d.args));
    }
    html += '</dl>';
  }
  body.innerHTML = html;
  body.querySelectorAll<HTMLElement>('.flow-link').forEach((el) => el.addEventListener('click', () => {
    const sel = { id: Number(el.dataset.slice), track: Number(el.dataset.track) };
    void showSlice(sel);
  }));
  void drawDurations(d.name, d.category, d.dur);
}

/** A uPlot scatter of every occurrence's duration over time, with the selected one's duration as a line. */
async function drawDurations(name: string, category: string, selectedDur: number): Promise<void> {
  const host = document.getElementById('dur-chart');
  if (!host) return;
  const r = await getJson<{ ts: number[]; dur: number[] }>(`${base}/durations`, { name, category, max: 2000 });
  if (durationChart) durationChart.destroy();
  if (r.ts.length < 2) return;
  const opts: uPlot.Options = {
    width: 390, height: 130,
    scales: { x: { time: false } },
    legend: { show: false },
    axes: [
      { values: (_u, vals) => vals.map((v) => formatDuration(v)), size: 28 },
      { values: (_u, vals) => vals.map((v) => formatDuration(v)), size: 60 },
    ],
    series: [
      {},
      { stroke: '#2563eb', paths: () => null, points: { show: true, size: 4, fill: '#2563eb' } },
      { stroke: '#dc2626', width: 1, points: { show: false } },
    ],
  };
  durationChart = new uPlot(opts, [r.ts, r.dur, r.ts.map(() => selectedDur)], host);
}

async function showRange(r: { t0: number; t1: number; tracks: number[] } | null): Promise<void> {
  if (!r) return;
  const t = await getJson<TableJson>(`${base}/range`, { t0: r.t0, t1: r.t1, tracks: r.tracks.join(',') });
  $('details-body').innerHTML = `<h3 style="margin:2px 0 6px;font-size:13px">Range ${formatDuration(r.t0)} … ${formatDuration(r.t1)} (${formatDuration(r.t1 - r.t0)})</h3>`
    + renderTable(t, false) + '<p class="muted">Press f to zoom to this range, Esc to clear.</p>';
}

function renderTable(t: TableJson, clickable: boolean): string {
  const nameCol = t.columns.indexOf('name');
  let html = '<table class="data"><thead><tr>' + t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('') + '</tr></thead><tbody>';
  for (const row of t.rows.slice(0, 500)) {
    const name = nameCol >= 0 ? String(row[nameCol]) : '';
    html += `<tr${clickable && nameCol >= 0 ? ` class="clickable" data-name="${escapeHtml(name)}"` : ''}>`;
    row.forEach((v, i) => {
      const col = t.columns[i];
      const text = typeof v === 'number' && /_ns$/.test(col) ? formatDuration(v) : formatNumber(v);
      html += `<td class="${typeof v === 'number' ? 'num' : ''}" title="${escapeHtml(text)}">${escapeHtml(text)}</td>`;
    });
    html += '</tr>';
  }
  html += '</tbody></table>';
  if (t.rows.length > 500) html += `<p class="muted">${t.rows.length - 500} more rows not shown.</p>`;
  return html;
}

async function loadTables(): Promise<void> {
  const list = await getJson<{ name: string; title: string; group: string }[]>(`${base}/tables`);
  const tabs = $('table-tabs');
  tabs.replaceChildren();
  for (const p of list) {
    const b = document.createElement('button');
    b.textContent = p.title;
    b.dataset.table = p.name;
    b.title = p.group;
    b.addEventListener('click', () => void showTable(p.name));
    tabs.append(b);
  }
  if (list.length) await showTable(list[0].name);
}

async function showTable(name: string): Promise<void> {
  $('table-tabs').querySelectorAll('button').forEach((b) => b.classList.toggle('active', b.dataset.table === name));
  const t = await getJson<TableJson>(`${base}/tables/${encodeURIComponent(name)}`);
  const clickable = name === 'kernels' || name === 'api';
  $('table-body').innerHTML = t.rows.length ? renderTable(t, clickable) : '<p class="muted">No rows in this trace.</p>';
  $('table-body').querySelectorAll<HTMLElement>('tr.clickable').forEach((tr) => tr.addEventListener('click', () => {
    const same = timeline.highlight === tr.dataset.name;
    setHighlight(same ? null : tr.dataset.name!);
  }));
  markActiveRows();
}

function markActiveRows(): void {
  $('table-body').querySelectorAll<HTMLElement>('tr.clickable').forEach((tr) =>
    tr.classList.toggle('active', tr.dataset.name === timeline.highlight));
}

function setHighlight(name: string | null): void {
  timeline.setHighlight(name);
  $('highlight-info').textContent = name ? `highlighting “${name}” (click again to clear)` : '';
  markActiveRows();
}

function bindSearch(): void {
  const input = $<HTMLInputElement>('search');
  const results = $('search-results');
  let timer: number | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(async () => {
      const q = input.value.trim();
      if (!q) {
        results.hidden = true;
        setHighlight(null);
        return;
      }
      const t = await getJson<TableJson>(`${base}/search`, { q });
      results.replaceChildren(...t.rows.map((r) => {
        const el = document.createElement('div');
        el.innerHTML = `<span>${escapeHtml(String(r[0]))}</span><span class="muted">${escapeHtml(String(r[1]))} · ${formatNumber(r[2])}×</span>`;
        el.addEventListener('click', () => {
          results.hidden = true;
          setHighlight(String(r[0]));
        });
        return el;
      }));
      if (!t.rows.length) results.innerHTML = '<div class="muted">no slice name contains this</div>';
      results.hidden = false;
    }, 150);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      results.hidden = true;
      input.value = '';
      setHighlight(null);
    }
  });
}

async function main(): Promise<void> {
  const traces = await getJson<TraceSummary[]>('api/traces');
  const select = $<HTMLSelectElement>('trace-select');
  for (const t of traces) {
    const o = document.createElement('option');
    o.value = String(t.index);
    o.textContent = t.name;
    select.append(o);
  }
  select.addEventListener('change', () => void openTrace(Number(select.value)));
  $<HTMLSelectElement>('colour-mode').addEventListener('change', (e) => {
    timeline.colourMode = (e.target as HTMLSelectElement).value as 'name' | 'category';
    timeline.draw();
  });
  $('zoom-selection').addEventListener('click', () => timeline.zoomToSelection());
  $('zoom-reset').addEventListener('click', () => timeline.reset());
  bindSearch();
  if (traces.length) await openTrace(0);
}

main().catch((e) => {
  document.body.dataset.error = String(e);
  $('details-body').textContent = `Could not load the trace: ${e}`;
});
