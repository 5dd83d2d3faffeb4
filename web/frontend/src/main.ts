import './style.css';
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { Flow, TableJson, TraceSummary, TrackInfo, decodeWindow, getJson } from './api';
import { escapeHtml, formatDuration, formatNumber, headerCells } from './format';
import { GESTURES, Hover, InstantSelection, SHORTCUTS, Selection, Timeline } from './timeline';
import { LegendSection, legendFor, setDeclaredColours } from './colours';
import { activePanel, contextGet, initPanels, panelEvents, reopen, showPanel } from './panels';
import { eventTableState } from './events';
import { aggregatesState } from './aggregates';
import { resetViews, timelineChanged, viewTestHooks } from './views/index';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface SliceDetails {
  id: number; track_id: number; ts: number; absolute_ts: string; dur: number; name: string; category: string;
  source_category: string | null; depth: number; correlation_id: number | null; args: string | null;
  track_name: string | null; kernel: Record<string, unknown> | null;
  kernel_device: { id: number; kind: string; ordinal: number | null; name: string | null } | null; transfer: Record<string, unknown> | null;
  counters: [string, number][]; flows: Flow[];
  name_stats: { category: string; count: number; total: number; mean: number; min: number; max: number;
    median: number; stddev: number | null; percentile: number | null };
}

let timeline: Timeline | null = null;
let base = '';
let durationChart: uPlot | null = null;
/** Aborted when the page switches trace: every request and pane update of the previous trace stops with it. */
let session = new AbortController();
/** What the duration chart's y axis showed last (labels, axis width, widest label), for the tests. */
let durationAxis: { labels: string[]; size: number; widest: number } | null = null;

/** GET within the current trace's session: a switch cancels it, and its answer is never painted. */
function get<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
  return getJson<T>(path, params, session.signal);
}

/** Empties every pane that shows something of the previous trace. */
function clearPanes(): void {
  $('details-body').innerHTML = '<span class="muted">Nothing selected.</span>';
  $('table-tabs').replaceChildren();
  $('table-body').innerHTML = '<p class="muted">Loading statistics…</p>';
  $('highlight-info').textContent = '';
  $('search-pos').textContent = '';
  searchState = null;
  selectedTs = null;
  $('tooltip').hidden = true;
  $('legend-body').replaceChildren();
  legendShown = [];
  $('search-results').hidden = true;
  $<HTMLInputElement>('search').value = '';
  if (durationChart) durationChart.destroy();
  durationChart = null;
  durationAxis = null;
}

/**
 * The view as the URL's hash keeps it, so that a link reopens it: trace index, visible window in integer ns from the
 * trace start, the selected slice's id and the open panels. Example: #trace=1&t0=100&t1=5000&slice=42&panels=legend
 */
interface UrlState { trace: number; t0: number | null; t1: number | null; slice: number | null; panels: string[];
  tab: string | null }

const PANELS = ['legend', 'help'];
/** The slice selected now (its id), as the URL records it. */
let selectedSlice: number | null = null;
/** The shift-drag range selected now, as the timeline reported it. */
let currentRange: { t0: number; t1: number; tracks: number[] } | null = null;
/** The selected slice's start (ns from the trace start): where search next/previous continue from. */
let selectedTs: number | null = null;
let urlTimer: number | undefined;

/** Parses the hash; any part that is not well formed is dropped (and with a bad trace, all of it). */
function readUrlState(hash: string, traceCount: number): UrlState | null {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const int = (k: string, min: number): number | null => {
    const v = q.get(k);
    if (v === null || !/^-?\d{1,16}$/.test(v)) return null;
    const n = Number(v);
    return Number.isSafeInteger(n) && n >= min ? n : null;
  };
  const trace = int('trace', 0);
  if (trace === null || trace >= traceCount) return null;
  let t0 = int('t0', Number.MIN_SAFE_INTEGER);
  let t1 = int('t1', Number.MIN_SAFE_INTEGER);
  if (t0 === null || t1 === null || t1 <= t0) t0 = t1 = null;
  const panels = q.has('panels') ? (q.get('panels') ?? '').split(',').filter((p) => PANELS.includes(p)) : ['legend'];
  const tab = q.get('tab');
  return { trace, t0, t1, slice: int('slice', 0), panels, tab: tab && /^[\w-]{1,40}$/.test(tab) ? tab : null };
}

function currentUrlState(): UrlState | null {
  if (!timeline) return null;
  const panels = [];
  if (!$('legend').classList.contains('collapsed')) panels.push('legend');
  if (!$('help').hidden) panels.push('help');
  return { trace: Number(base.split('/').pop()), t0: timeline.t0, t1: timeline.t1, slice: selectedSlice, panels,
    tab: activePanel() };
}

/** Writes the view into the hash shortly after the last change (zooming fires many changes a second). */
function scheduleUrl(): void {
  clearTimeout(urlTimer);
  urlTimer = window.setTimeout(() => {
    const st = currentUrlState();
    if (!st) return;
    let hash = `#trace=${st.trace}&t0=${st.t0}&t1=${st.t1}`;
    if (st.slice !== null) hash += `&slice=${st.slice}`;
    hash += `&panels=${st.panels.join(',')}`;
    if (st.tab) hash += `&tab=${st.tab}`;
    if (location.hash !== hash) history.replaceState(history.state, '', hash);
  }, 150);
}

function setPanels(panels: string[]): void {
  const legendOpen = panels.includes('legend');
  $('legend').classList.toggle('collapsed', !legendOpen);
  $('legend-toggle').textContent = legendOpen ? '▾' : '▸';
  $('help').hidden = !panels.includes('help');
}

/** The legend's sections as last shown, for the tests. */
let legendShown: LegendSection[] = [];

/** Tooltip text from the fields the timeline already has: only formatting happens here. */
function showTooltip(h: Hover | null, x: number, y: number): void {
  const tip = $('tooltip');
  if (!h) {
    tip.hidden = true;
    return;
  }
  const row = (k: string, v: string, id: string) => `<div class="tip-row">${k} <b id="${id}">${escapeHtml(v)}</b></div>`;
  let html: string;
  if (h.kind === 'slice') {
    html = `<div class="tip-name" id="tip-name">${escapeHtml(h.count > 1 ? `${formatNumber(h.count)} × ${h.name}` : h.name)}</div>`
      + row('category', h.category, 'tip-category')
      + row(h.count > 1 ? 'span' : 'duration', formatDuration(h.dur), 'tip-duration')
      + row('start', `+${formatDuration(h.start)}`, 'tip-start')
      + (h.count > 1 ? row('busy', formatDuration(h.busy), 'tip-busy') : '');
    tip.dataset.kind = 'slice';
    tip.dataset.id = h.count > 1 ? '' : String(h.id);
  } else if (h.kind === 'instant') {
    html = `<div class="tip-name" id="tip-name">${escapeHtml(h.count > 1 ? `${formatNumber(h.count)} instants, first ${h.name}` : h.name)}</div>`
      + row('category', h.category, 'tip-category') + row('track', h.track, 'tip-track')
      + row('instant at', `+${formatDuration(h.ts)}`, 'tip-start');
    tip.dataset.kind = 'instant';
    tip.dataset.id = String(h.id);
  } else {
    const unit = h.unit ? ` ${h.unit}` : '';
    html = `<div class="tip-name" id="tip-name">${escapeHtml(h.track)}</div>`
      + row('category', 'counter', 'tip-category')
      + row(h.count > 1 ? 'last value' : 'value', formatNumber(h.value) + unit, 'tip-value')
      + (h.count > 1
        ? row(`${formatNumber(h.count)} samples from`, `+${formatDuration(h.ts)}`, 'tip-start')
          + row('min … max', `${formatNumber(h.min)} … ${formatNumber(h.max)}${unit}`, 'tip-range')
        : row('sample at', `+${formatDuration(h.ts)}`, 'tip-start'));
    tip.dataset.kind = 'counter';
    tip.dataset.id = String(h.trackId);
    tip.dataset.count = String(h.count);
  }
  tip.innerHTML = html;
  tip.hidden = false;
  // Beside the cursor, flipped to its other side near the window's edges.
  const r = tip.getBoundingClientRect();
  const left = x + 14 + r.width > window.innerWidth ? x - 10 - r.width : x + 14;
  const top = y + 16 + r.height > window.innerHeight ? y - 10 - r.height : y + 16;
  tip.style.left = `${Math.max(0, left)}px`;
  tip.style.top = `${Math.max(0, top)}px`;
}

/** Rebuilds the legend from what the timeline draws now, in the colouring in use. */
/** The legend's HTML as last put in the page: a window that draws the same names leaves the DOM alone. */
let legendHtml = '';

function updateLegend(): void {
  if (!timeline) return;
  const mode = timeline.colourMode;
  legendShown = legendFor(timeline.visibleNames(), mode);
  $('legend-mode').textContent = `(by ${mode})`;
  const html = legendShown.length ? legendShown.map((s) =>
    `<div class="legend-section" data-kind="${escapeHtml(s.kind)}"><h5>${escapeHtml(s.title)}</h5>` + s.entries.map((e) =>
      `<div class="legend-entry" title="${escapeHtml(e.name)}"><span class="legend-swatch" style="background:${e.colour}"></span><span class="legend-name">${escapeHtml(e.name)}</span></div>`).join('')
    + '</div>').join('') : '<span class="muted">nothing drawn</span>';
  const body = $('legend-body');
  if (html !== legendHtml || body.innerHTML === '') {
    body.innerHTML = html;
    legendHtml = html;
  }
}

function bindHelp(): void {
  const help = $('help');
  const kbd = (k: string) => `<kbd>${escapeHtml(k)}</kbd>`;
  const rows = (list: { keys: string[]; what: string }[], join: string) => list.map((s) =>
    `<tr class="help-key" data-keys="${escapeHtml(s.keys.join(' '))}"><td>${s.keys.map(kbd).join(join)}</td><td>${escapeHtml(s.what)}</td></tr>`).join('');
  $('help-keys').innerHTML = '<tr class="group"><td colspan="2">keys (timeline)</td></tr>' + rows(SHORTCUTS, ' ')
    + rows([{ keys: ['?'], what: 'show or hide this help' }], ' ')
    + rows([{ keys: ['Escape'], what: 'in the search box: clear the search and its highlight' }], ' ')
    + rows([{ keys: ['Enter'], what: 'in the search box: next slice whose name contains it (‹ › buttons too)' },
      { keys: ['Shift', 'Enter'], what: 'in the search box: previous such slice' }], ' + ')
    + '<tr class="group"><td colspan="2">tracks and panels</td></tr>'
    + rows([{ keys: ['filter tracks'], what: 'show the tracks whose name or kind contains the text, with their parents' },
      { keys: ['○'], what: 'pin a track to the top (● unpins)' },
      { keys: ['⊟', '⊞'], what: 'collapse / expand all tracks' },
      { keys: ['Events'], what: 'the window\'s (or range\'s) events: sort, filter, click a row to select it' },
      { keys: ['Area selection', 'Flame graph'], what: 'what a Shift-drag range holds' }], ' ')
    + '<tr class="group"><td colspan="2">mouse</td></tr>' + rows(GESTURES, ' + ');
  const toggle = (show: boolean) => {
    help.hidden = !show;
    scheduleUrl();
  };
  $('help-button').addEventListener('click', () => toggle(help.hidden));
  help.addEventListener('click', (e) => { if (e.target === help) toggle(false); });
  // Registered before any timeline's handler: while the help is open, Escape closes it and nothing else.
  window.addEventListener('keydown', (e) => {
    if ((e.target as HTMLElement).tagName === 'INPUT') return;
    if (e.key === '?') {
      toggle(help.hidden);
      e.preventDefault();
    } else if (e.key === 'Escape' && !help.hidden) {
      toggle(false);
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  });
  $('legend-toggle').addEventListener('click', () => {
    const legend = $('legend');
    legend.classList.toggle('collapsed');
    $('legend-toggle').textContent = legend.classList.contains('collapsed') ? '▸' : '▾';
    scheduleUrl();
  });
}

/** Opens a trace, at the window and selection a URL gave when there is one. */
async function openTrace(index: number, restore: UrlState | null = null): Promise<void> {
  selectedSlice = null;
  currentRange = null;
  session.abort();
  session = new AbortController();
  if (timeline) timeline.destroy();
  timeline = null;
  clearPanes();
  base = `api/t/${index}`;
  const traces = await get<TraceSummary[]>('api/traces');
  const tracks = await get<TrackInfo[]>(`${base}/tracks`);
  setDeclaredColours(await get<Record<string, string>>(`${base}/colours`));
  const summary = traces[index];
  $('tree').replaceChildren();
  const view = new Timeline(base, tracks, summary.span, $('rows'), $('tree'), $<HTMLCanvasElement>('timeline'),
    $<HTMLCanvasElement>('ruler'));
  timeline = view;
  view.colourMode = $<HTMLSelectElement>('colour-mode').value as 'name' | 'category';
  view.onSelect = (s) => void quiet(showSlice(s));
  view.onSelectInstant = (s) => {
    panelEvents.selectInstant(s.id);
    selectedSlice = null;
    scheduleUrl();
    void quiet(showInstant(s));
  };
  view.onView = () => {
    scheduleUrl();
    panelEvents.view(view.t0, view.t1);
    timelineChanged();
  };
  view.onRange = (r) => {
    currentRange = r;
    panelEvents.range(r);
    void quiet(showRange(r));
  };
  view.onHover = (h, x, y) => showTooltip(h, x, y);
  view.onData = () => {
    updateLegend();
    timelineChanged();
  };
  view.onFilterReset = () => {
    $<HTMLInputElement>('track-filter').value = '';
    showTrackCount();
  };
  $<HTMLInputElement>('track-filter').value = '';
  showTrackCount();
  (window as unknown as { __hetscope: unknown }).__hetscope = {
    timeline: view,
    trace: index,
    view: () => ({ t0: view.t0, t1: view.t1 }),
    frame: () => ({ drawCount: view.drawCount, items: view.itemsDrawn, singles: view.singlesDrawn,
      instants: view.instantsDrawn, fetches: view.fetchCount, busy: view.busy(), drawMs: view.lastDrawMs,
      firstDataDrawMs: view.firstDataDrawMs, lanes: view.lanesComposed, keyToDataMs: view.keyToDataMs }),
    decodeWindow,
    locate: (category: string) => view.locate(category),
    locateInstant: (alone = true) => view.locateInstant(alone),
    screenOf: (id: number) => view.screenOf(id),
    drawnItems: () => view.drawnItems(),
    ruler: () => view.rulerText,
    pixel: (x: number, y: number) => view.pixel(x, y),
    durationAxis: () => durationAxis,
    legend: () => legendShown,
    selection: () => view.selection,
    urlState: () => currentUrlState(),
    events: () => eventTableState(),
    aggregates: () => aggregatesState(),
    rows: () => view.rowOrder(),
    tree: () => ({ shown: view.treeRowsShown, matches: view.filterMatches, pinned: [...view.pinned],
      dom: [...document.querySelectorAll<HTMLElement>('#tree .track-row')].map((e) => ({
        id: Number(e.dataset.trackId), top: e.getBoundingClientRect().top, pinned: e.classList.contains('pinned'),
        name: e.querySelector('.track-name')?.textContent ?? '' })) }),
    search: () => searchState,
    views: viewTestHooks(),
  };
  // The analysis views (views/index.ts) drop what they built for the previous trace.
  resetViews();
  if (restore && restore.t0 !== null && restore.t1 !== null) view.setView(restore.t0, restore.t1);
  if (restore && restore.slice !== null) {
    // A slice id that this trace lacks (an edited or stale link) leaves nothing selected rather than an error.
    const id = restore.slice;
    void showSlice({ id, track: -1 }).catch((e) => {
      if ((e as Error).name === 'AbortError') return;
      selectedSlice = null;
      $('details-body').innerHTML = `<span class="muted">The link's slice ${id} is not in this trace.</span>`;
      scheduleUrl();
    });
  }
  void reopen();
  scheduleUrl();
  // Statistics can take a while on large traces: ask for them once the timeline is on screen.
  view.onFirstData = () => void quiet(loadTables());
}

/** Runs a pane update, dropping the failure of one the trace switch cancelled. */
async function quiet(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if ((e as Error).name !== 'AbortError') throw e;
  }
}

async function showInstant(s: InstantSelection, reveal = false): Promise<void> {
  const d = await get<{ id: number; ts: number; absolute_ts: string; name: string; category: string;
    source_category: string | null; args: string | null; track_name: string | null; track_id: number }>(
    `${base}/instant/${s.id}`);
  if (reveal && timeline) {
    timeline.select(null);
    timeline.selectedInstant = d.id;
    timeline.reveal(d.track_id, d.ts, 0);
  }
  const kv = (k: string, v: string) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`;
  let html = `<h3 id="detail-name" style="margin:2px 0 6px;font-size:13px">${escapeHtml(d.name)}</h3><dl class="kv">`;
  html += kv('instant at', `<span id="detail-ts" class="mono">${formatDuration(d.ts)}</span> <span class="muted">(absolute ${d.absolute_ts} ns)</span>`);
  html += kv('track', escapeHtml(d.track_name ?? String(d.track_id)));
  html += kv('category', escapeHtml(d.category + (d.source_category ? ` (source: ${d.source_category})` : '')));
  html += kv('instant id', `<span id="detail-instant-id">${d.id}</span>`);
  html += '</dl>';
  html += argsHtml(d.args);
  $('details-body').innerHTML = html;
}

function argsHtml(args: string | null): string {
  if (!args) return '';
  const kv = (k: string, v: string) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`;
  let html = '<h4>Arguments (as the trace gave them)</h4><dl class="kv" id="args">';
  try {
    for (const [k, v] of Object.entries(JSON.parse(args) as Record<string, unknown>)) {
      html += kv(k, escapeHtml(typeof v === 'object' ? JSON.stringify(v) : String(v)));
    }
  } catch {
    html += kv('raw', escapeHtml(args));
  }
  return html + '</dl>';
}

async function showSlice(s: Selection | null, reveal = false): Promise<void> {
  const body = $('details-body');
  if (!s) {
    selectedSlice = null;
    panelEvents.select(null);
    scheduleUrl();
    body.innerHTML = '<span class="muted">Nothing selected.</span>';
    return;
  }
  durationAxis = null;
  const d = await get<SliceDetails>(`${base}/slice/${s.id}`);
  // The track comes from the store: a selection restored from a URL knows only the id.
  timeline!.select({ id: d.id, track: d.track_id }, d.flows);
  selectedTs = d.ts;
  if (reveal) timeline!.reveal(d.track_id, d.ts, d.dur);
  selectedSlice = d.id;
  panelEvents.select(d.id);
  scheduleUrl();
  const st = d.name_stats;
  const kv = (k: string, v: string) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`;
  let html = `<h3 id="detail-name" style="margin:2px 0 6px;font-size:13px">${escapeHtml(d.name)}</h3><dl class="kv">`;
  html += kv('duration', `<span id="detail-duration" class="mono">${formatDuration(d.dur)}</span>`);
  html += kv('start', `<span class="mono">${formatDuration(d.ts)}</span> <span class="muted">(absolute ${d.absolute_ts} ns)</span>`);
  html += kv('track', escapeHtml(d.track_name ?? String(d.track_id)));
  html += kv('category', escapeHtml(d.category + (d.source_category ? ` (source: ${d.source_category})` : '')));
  if (d.correlation_id !== null) html += kv('correlation', String(d.correlation_id));
  html += kv('slice id', `<span id="detail-slice-id">${d.id}</span>`);
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
      for (const [k, v] of Object.entries(obj)) {
        if (v === null) continue;
        if (title === 'Kernel' && k === 'device_id') {
          // The store numbers devices itself; the trace's own number (ordinal, args' "device") can differ.
          const dev = d.kernel_device;
          const what = dev ? ` — ${dev.kind} ${dev.ordinal ?? '?'} in the trace${dev.name ? `, ${dev.name}` : ''}` : '';
          html += kv('device (store id)', `<span id="kernel-device">${escapeHtml(formatNumber(v) + what)}</span>`);
          continue;
        }
        html += kv(k, escapeHtml(formatNumber(v)));
      }
      html += '</dl>';
    }
  }
  if (d.counters.length) {
    html += '<h4>Counters</h4><dl class="kv">';
    for (const [k, v] of d.counters) html += kv(k, formatNumber(v));
    html += '</dl>';
  }
  html += argsHtml(d.args);
  body.innerHTML = html;
  body.querySelectorAll<HTMLElement>('.flow-link').forEach((el) => el.addEventListener('click', () => {
    const sel = { id: Number(el.dataset.slice), track: Number(el.dataset.track) };
    void quiet(showSlice(sel));
  }));
  void quiet(drawDurations(d.name, d.category, d.dur));
}

/** A uPlot scatter of every occurrence's duration over time, with the selected one's duration as a line. */
async function drawDurations(name: string, category: string, selectedDur: number): Promise<void> {
  const host = document.getElementById('dur-chart');
  if (!host) return;
  const r = await get<{ ts: number[]; dur: number[] }>(`${base}/durations`, { name, category, max: 2000 });
  if (durationChart) durationChart.destroy();
  durationChart = null;
  if (r.ts.length < 2) return;
  const font = '11px "DejaVu Sans", sans-serif';
  const opts: uPlot.Options = {
    width: 390, height: 130,
    scales: { x: { time: false } },
    legend: { show: false },
    axes: [
      { values: (_u, vals) => vals.map((v) => formatDuration(v)), size: 28, font },
      {
        values: (_u, vals) => vals.map((v) => formatDuration(v)), font,
        // Wide enough for the widest label as drawn: a fixed width cut "1.035 ms" to "035 ms".
        size: (u, values) => {
          const labels = (values ?? []).map(String);
          const widest = textWidth(labels, font);
          const axis = u.axes[1];
          const size = Math.ceil(widest + (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + 4);
          durationAxis = { labels, size, widest };
          return size;
        },
      },
    ],
    series: [
      {},
      { stroke: '#2563eb', paths: () => null, points: { show: true, size: 4, fill: '#2563eb' } },
      { stroke: '#dc2626', width: 1, points: { show: false } },
    ],
  };
  durationChart = new uPlot(opts, [r.ts, r.dur, r.ts.map(() => selectedDur)], host);
}

let measurer: CanvasRenderingContext2D | null = null;

/** The widest of some labels in a canvas font, in CSS pixels. */
function textWidth(labels: string[], font: string): number {
  measurer ??= document.createElement('canvas').getContext('2d')!;
  measurer.font = font;
  return labels.reduce((m, l) => Math.max(m, measurer!.measureText(l).width), 0);
}

async function showRange(r: { t0: number; t1: number; tracks: number[] } | null): Promise<void> {
  if (!r) return;
  const t = await get<TableJson>(`${base}/range`, { t0: r.t0, t1: r.t1, tracks: r.tracks.join(',') });
  $('details-body').innerHTML = `<h3 style="margin:2px 0 6px;font-size:13px">Range ${formatDuration(r.t0)} … ${formatDuration(r.t1)} (${formatDuration(r.t1 - r.t0)})</h3>`
    + renderTable(t, false) + '<p class="muted">Press f to zoom to this range, Esc to clear.</p>';
}

function renderTable(t: TableJson, clickable: boolean): string {
  const nameCol = t.columns.indexOf('name');
  let html = '<table class="data"><thead><tr>' + headerCells(t.columns) + '</tr></thead><tbody>';
  for (const row of t.rows.slice(0, 500)) {
    const name = nameCol >= 0 ? String(row[nameCol]) : '';
    html += `<tr${clickable && nameCol >= 0 ? ` class="clickable" data-name="${escapeHtml(name)}"` : ''}>`;
    row.forEach((v, i) => {
      const col = t.columns[i];
      const text = typeof v === 'number' && /_ns$/.test(col) ? formatDuration(v) : formatNumber(v);
      // data-v: the exact figure the API sent (integer ns), whatever the cell shows for reading.
      html += `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(v === null || v === undefined ? '' : String(v))}" title="${escapeHtml(text)}">${escapeHtml(text)}</td>`;
    });
    html += '</tr>';
  }
  html += '</tbody></table>';
  if (t.rows.length > 500) html += `<p class="muted">${t.rows.length - 500} more rows not shown.</p>`;
  return html;
}

async function loadTables(): Promise<void> {
  const list = await get<{ name: string; title: string; group: string }[]>(`${base}/tables`);
  const tabs = $('table-tabs');
  tabs.replaceChildren();
  for (const p of list) {
    const b = document.createElement('button');
    b.textContent = p.title;
    b.dataset.table = p.name;
    b.title = p.group;
    b.addEventListener('click', () => void quiet(showTable(p.name)));
    tabs.append(b);
  }
  if (list.length) await showTable(list[0].name);
}

async function showTable(name: string): Promise<void> {
  $('table-tabs').querySelectorAll('button').forEach((b) => b.classList.toggle('active', b.dataset.table === name));
  const t = await get<TableJson>(`${base}/tables/${encodeURIComponent(name)}`);
  const clickable = name === 'kernels' || name === 'api';
  $('table-body').innerHTML = t.rows.length ? renderTable(t, clickable) : '<p class="muted">No rows in this trace.</p>';
  $('table-body').querySelectorAll<HTMLElement>('tr.clickable').forEach((tr) => tr.addEventListener('click', () => {
    const same = timeline!.highlight === tr.dataset.name;
    setHighlight(same ? null : tr.dataset.name!);
  }));
  markActiveRows();
}

function markActiveRows(): void {
  $('table-body').querySelectorAll<HTMLElement>('tr.clickable').forEach((tr) =>
    tr.classList.toggle('active', tr.dataset.name === timeline?.highlight));
}

function setHighlight(name: string | null): void {
  timeline?.setHighlight(name);
  $('highlight-info').textContent = name ? `highlighting “${name}” (click again to clear)` : '';
  markActiveRows();
}

/** What search next/previous found last, for the tests: the match, its place among all matches, and the count. */
let searchState: { q: string; id: number | null; index: number | null; total: number; wrapped: boolean } | null = null;

/** Jumps to the next or previous slice whose name contains the search text, from the selection or the window. */
async function searchStep(dir: 'next' | 'prev'): Promise<void> {
  const q = $<HTMLInputElement>('search').value.trim();
  if (!q || !timeline) return;
  const from = selectedSlice !== null && selectedTs !== null ? { ts: selectedTs, id: selectedSlice }
    : { ts: dir === 'next' ? timeline.t0 : timeline.t1, id: -1 };
  const r = await get<{ total: number; index: number | null; wrapped?: boolean;
    match: { id: number; ts: number; dur: number; track_id: number; name: string } | null }>(
    `${base}/find`, { q, ts: from.ts, id: from.id, dir });
  searchState = { q, id: r.match?.id ?? null, index: r.index, total: r.total, wrapped: !!r.wrapped };
  $('search-pos').textContent = r.match ? `${formatNumber(r.index)} / ${formatNumber(r.total)}` : '0 / 0';
  $('search-results').hidden = true;
  if (r.match) await showSlice({ id: r.match.id, track: r.match.track_id }, true);
}

function showTrackCount(): void {
  const filter = $<HTMLInputElement>('track-filter').value.trim();
  $('track-count').textContent = timeline && filter ? `${formatNumber(timeline.filterMatches)} of ${formatNumber(timeline.tracks.length)}` : '';
}

function bindTracks(): void {
  let timer: number | undefined;
  $<HTMLInputElement>('track-filter').addEventListener('input', (e) => {
    clearTimeout(timer);
    const text = (e.target as HTMLInputElement).value;
    timer = window.setTimeout(() => {
      timeline?.setFilter(text);
      showTrackCount();
    }, 120);
  });
  $('collapse-all').addEventListener('click', () => timeline?.collapseAll(true));
  $('expand-all').addEventListener('click', () => timeline?.collapseAll(false));
  // The buttons hand the focus back to the search box, so Enter / Shift+Enter go on from there.
  $('search-next').addEventListener('click', () => {
    $('search').focus();
    void quiet(searchStep('next'));
  });
  $('search-prev').addEventListener('click', () => {
    $('search').focus();
    void quiet(searchStep('prev'));
  });
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
      let t: TableJson;
      try {
        t = await get<TableJson>(`${base}/search`, { q });
      } catch (e) {
        if ((e as Error).name === 'AbortError') return;
        throw e;
      }
      results.replaceChildren(...t.rows.map((r) => {
        const el = document.createElement('div');
        el.innerHTML = `<span>${escapeHtml(String(r[0]))}</span><span class="muted">${escapeHtml(String(r[1]))} · ${formatNumber(r[2])}×</span>`;
        el.addEventListener('click', () => {
          results.hidden = true;
          setHighlight(String(r[0]));
          // Jump to the name's first slice (the search's first_id column).
          void quiet(showSlice({ id: Number(r[4]), track: -1 }, true));
        });
        return el;
      }));
      if (!t.rows.length) results.innerHTML = '<div class="muted">no slice name contains this</div>';
      results.hidden = false;
    }, 150);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      clearTimeout(timer);
      void quiet(searchStep(e.shiftKey ? 'prev' : 'next'));
    } else if (e.key === 'Escape') {
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
  select.addEventListener('change', () => void quiet(openTrace(Number(select.value))));
  $<HTMLSelectElement>('colour-mode').addEventListener('change', (e) => {
    if (!timeline) return;
    timeline.colourMode = (e.target as HTMLSelectElement).value as 'name' | 'category';
    timeline.draw();
    updateLegend();
  });
  $('zoom-selection').addEventListener('click', () => timeline?.zoomToSelection());
  $('zoom-reset').addEventListener('click', () => timeline?.reset());
  bindSearch();
  bindTracks();
  bindHelp();
  initPanels((signal) => timeline && {
    base, trace: Number(base.split('/').pop()), timeline, signal, get: contextGet(signal),
    selectSlice: (id) => void quiet(showSlice({ id, track: -1 }, true)),
    selectInstant: (id) => {
      selectedSlice = null;
      scheduleUrl();
      void quiet(showInstant({ id, track: -1 }, true));
    },
    showWindow: (t0, t1) => timeline?.setView(t0, t1),
    range: () => currentRange,
  }, () => scheduleUrl());
  const restore = readUrlState(location.hash, traces.length);
  if (restore) {
    select.value = String(restore.trace);
    setPanels(restore.panels);
    if (restore.tab) showPanel(restore.tab);
  }
  if (traces.length) await openTrace(restore?.trace ?? 0, restore);
}

main().catch((e) => {
  document.body.dataset.error = String(e);
  $('details-body').textContent = `Could not load the trace: ${e}`;
});
