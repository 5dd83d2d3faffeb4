// The event table under the timeline (Trace Compass's events view): the slices of the visible window, or of the
// shift-drag range and its tracks, paged, sorted and filtered by the server; a row click selects the slice on the
// timeline and a slice selected on the timeline is shown as the highlighted row of the page holding it.
import { escapeHtml, formatDuration } from './format';
import { PanelContext, registerPanel } from './panels';

interface EventPage {
  total: number; offset: number; found: number | null; columns: string[];
  rows: [number, number, number, string, string, number, string | null, string | null][];
}

const PAGE = 100;
const COLUMNS: { key: string; title: string; sort: string | null }[] = [
  { key: 'ts', title: 'start', sort: 'ts' },
  { key: 'dur', title: 'duration', sort: 'dur' },
  { key: 'name', title: 'name', sort: 'name' },
  { key: 'category', title: 'category', sort: 'category' },
  { key: 'track', title: 'track', sort: 'track' },
  { key: 'args', title: 'args', sort: null },
];

/** What the table shows last, for the tests. */
export interface EventTableState {
  scope: 'window' | 'range'; t0: number; t1: number; total: number; offset: number; sort: string; dir: string;
  selected: number | null; ids: number[]; tracks: number[] | null; filters: Record<string, string>;
}

let lastState: EventTableState | null = null;
export function eventTableState(): EventTableState | null {
  return lastState;
}

function open(host: HTMLElement, ctx: PanelContext) {
  host.innerHTML = `<div class="ev-bar">
      <span id="ev-scope" class="muted"></span>
      <input id="ev-name" type="search" placeholder="name contains" autocomplete="off">
      <input id="ev-category" type="search" placeholder="category contains" autocomplete="off">
      <input id="ev-args" type="search" placeholder="args contain" autocomplete="off">
      <span class="ev-pager"><button id="ev-prev" title="previous page">‹</button>
      <span id="ev-rows" class="mono"></span><button id="ev-next" title="next page">›</button></span>
    </div>
    <table class="data ev-table" id="ev-table"><thead><tr>${COLUMNS.map((c) =>
      `<th data-col="${c.key}"${c.sort ? ` class="sortable" data-sort="${c.sort}"` : ''}>${c.title}</th>`).join('')}</tr></thead>
    <tbody id="ev-body"></tbody></table>`;
  const q = <T extends HTMLElement>(id: string) => host.querySelector<T>(`#${id}`)!;
  let scope: 'window' | 'range' = 'window';
  let range: { t0: number; t1: number; tracks: number[] } | null = null;
  let sort = 'ts';
  let dir: 'asc' | 'desc' = 'asc';
  let offset = 0;
  let selected: number | null = ctx.timeline.selection?.id ?? null;
  let seq = 0;
  let timer: number | undefined;

  const bounds = () => (scope === 'range' && range ? { t0: range.t0, t1: range.t1 }
    : { t0: Math.max(0, ctx.timeline.t0), t1: Math.max(ctx.timeline.t1, Math.max(0, ctx.timeline.t0) + 1) });

  async function load(find: number | null = null): Promise<void> {
    const my = ++seq;
    const b = bounds();
    const params: Record<string, string | number> = { t0: b.t0, t1: b.t1, sort, dir, offset, limit: PAGE };
    if (scope === 'range' && range) params.tracks = range.tracks.join(',');
    for (const f of ['name', 'category', 'args']) {
      const v = q<HTMLInputElement>(`ev-${f}`).value.trim();
      if (v) params[f] = v;
    }
    if (find !== null) params.find = find;
    host.dataset.loading = '1';
    const page = await ctx.get<EventPage>(`${ctx.base}/events`, params);
    if (my !== seq) return;
    offset = page.offset;
    render(page, b);
    delete host.dataset.loading;
  }

  function render(page: EventPage, b: { t0: number; t1: number }): void {
    q('ev-scope').textContent = scope === 'range'
      ? `range ${formatDuration(b.t0)} … ${formatDuration(b.t1)}, ${range!.tracks.length} tracks`
      : `window ${formatDuration(b.t0)} … ${formatDuration(b.t1)}`;
    q('ev-rows').textContent = page.total === 0 ? '0 events'
      : `${page.offset + 1}–${page.offset + page.rows.length} of ${page.total.toLocaleString('en-US')}`;
    q<HTMLButtonElement>('ev-prev').disabled = page.offset === 0;
    q<HTMLButtonElement>('ev-next').disabled = page.offset + page.rows.length >= page.total;
    host.querySelectorAll<HTMLElement>('th.sortable').forEach((th) => {
      th.classList.toggle('sorted', th.dataset.sort === sort);
      th.dataset.dir = th.dataset.sort === sort ? dir : '';
    });
    const body = q('ev-body');
    body.innerHTML = page.rows.map((r) => {
      const [id, ts, dur, name, category, , track, args] = r;
      return `<tr class="clickable${id === selected ? ' active' : ''}" data-id="${id}">`
        + `<td class="num" data-ns="${ts}">${escapeHtml(formatDuration(ts))}</td>`
        + `<td class="num" data-ns="${dur}">${escapeHtml(formatDuration(dur))}</td>`
        + `<td title="${escapeHtml(name)}">${escapeHtml(name)}</td><td>${escapeHtml(category)}</td>`
        + `<td title="${escapeHtml(track ?? '')}">${escapeHtml(track ?? '')}</td>`
        + `<td class="ev-args" title="${escapeHtml(args ?? '')}">${escapeHtml(args ?? '')}</td></tr>`;
    }).join('') || '<tr><td colspan="6" class="muted">No slice here matches.</td></tr>';
    const filters: Record<string, string> = {};
    for (const f of ['name', 'category', 'args']) {
      const v = q<HTMLInputElement>(`ev-${f}`).value.trim();
      if (v) filters[f] = v;
    }
    lastState = { scope, t0: b.t0, t1: b.t1, total: page.total, offset: page.offset, sort, dir, selected,
      ids: page.rows.map((r) => r[0]), tracks: scope === 'range' && range ? range.tracks : null, filters };
    body.querySelector('tr.active')?.scrollIntoView({ block: 'nearest' });
  }

  const reload = (delay = 0, find: number | null = null) => {
    clearTimeout(timer);
    timer = window.setTimeout(() => void load(find).catch(fail), delay);
  };
  const fail = (e: Error) => {
    if (e.name === 'AbortError' || ctx.signal.aborted) return;
    q('ev-body').innerHTML = `<tr><td colspan="6" class="panel-error">${escapeHtml(e.message)}</td></tr>`;
  };
  ctx.signal.addEventListener('abort', () => clearTimeout(timer));

  host.querySelectorAll<HTMLElement>('th.sortable').forEach((th) => th.addEventListener('click', () => {
    if (sort === th.dataset.sort) dir = dir === 'asc' ? 'desc' : 'asc';
    else {
      sort = th.dataset.sort!;
      dir = sort === 'dur' ? 'desc' : 'asc';
    }
    offset = 0;
    void load(selected).catch(fail);
  }));
  for (const f of ['name', 'category', 'args']) {
    q<HTMLInputElement>(`ev-${f}`).addEventListener('input', () => {
      offset = 0;
      reload(200, selected);
    });
  }
  q('ev-prev').addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE);
    reload();
  });
  q('ev-next').addEventListener('click', () => {
    offset += PAGE;
    reload();
  });
  q('ev-body').addEventListener('click', (e) => {
    const tr = (e.target as HTMLElement).closest<HTMLElement>('tr[data-id]');
    if (!tr) return;
    selected = Number(tr.dataset.id);
    host.querySelectorAll('#ev-body tr.active').forEach((r) => r.classList.remove('active'));
    tr.classList.add('active');
    if (lastState) lastState.selected = selected;
    ctx.selectSlice(selected);
  });
  // Keys typed in the filters must not zoom the timeline; the timeline ignores INPUT targets already.
  void load(selected).catch(fail);
  return {
    view: () => {
      if (scope === 'window') {
        offset = 0;
        reload(250, selected);
      }
    },
    select: (id: number | null) => {
      if (id === selected && id !== null) return;
      selected = id;
      if (id === null) {
        host.querySelectorAll('#ev-body tr.active').forEach((r) => r.classList.remove('active'));
        if (lastState) lastState.selected = null;
        return;
      }
      const row = host.querySelector<HTMLElement>(`#ev-body tr[data-id="${id}"]`);
      if (row) {
        host.querySelectorAll('#ev-body tr.active').forEach((r) => r.classList.remove('active'));
        row.classList.add('active');
        row.scrollIntoView({ block: 'nearest' });
        if (lastState) lastState.selected = id;
      } else {
        // Not on this page: ask for the page that holds it in the current order and filters.
        void load(id).catch(fail);
      }
    },
    range: (r: { t0: number; t1: number; tracks: number[] } | null) => {
      range = r;
      scope = r ? 'range' : 'window';
      offset = 0;
      reload(0, selected);
    },
  };
}

registerPanel({ id: 'events', title: 'Events', order: 10, open });
