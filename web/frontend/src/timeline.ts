// The canvas timeline: track rows beside a DOM track tree, server-aggregated slices, counters as step lines,
// flow arrows, a ruler, and zoom/pan/select interaction.
import {
  CounterResponse, Flow, InstantItem, InstantResponse, Item, TrackInfo, getJson, getWindow,
} from './api';
import { colourFor } from './colours';
import { formatDuration, rulerLabels, tickStep } from './format';
import { sizeCanvas } from './canvas';
import { LaneRaster, rgba } from './raster';

const LANE_H = 17;
const COUNTER_H = 44;
const HEADER_H = 20;
const MIN_SPAN = 20; // ns: below this a pixel would be a fraction of a nanosecond

/** A laid-out track: y from the top of the scrolled list, or (pinned) from the top of the viewport. */
interface Row { track: TrackInfo; y: number; h: number; level: number; hasChildren: boolean; pinned: boolean; }

export interface Selection { id: number; track: number; }

/** A clicked instant event. */
export interface InstantSelection { id: number; track: number; }

/** What the mouse is over: fields as the server sent them (times in ns from the trace origin). */
export type Hover =
  | { kind: 'slice'; id: number; name: string; category: string; start: number; dur: number; count: number; busy: number }
  | { kind: 'instant'; id: number; name: string; category: string; ts: number; count: number; track: string }
  | { kind: 'counter'; trackId: number; track: string; unit: string | null; ts: number; value: number; count: number;
      min: number; max: number };

/**
 * Every key the timeline handles, as the help overlay (`?`) lists them; the key handler below dispatches on the
 * same keys, and the page adds `?` and Escape for the overlay itself.
 */
export const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['w', '+', '='], what: 'zoom in' },
  { keys: ['s', '-'], what: 'zoom out' },
  { keys: ['a', 'ArrowLeft'], what: 'pan left' },
  { keys: ['d', 'ArrowRight'], what: 'pan right' },
  { keys: ['0'], what: 'show the whole trace' },
  { keys: ['f'], what: 'zoom to the selected slice or range' },
  { keys: ['Escape'], what: 'clear the range selection (or close this help)' },
];

/** Mouse gestures of the timeline, for the help overlay. */
export const GESTURES: { keys: string[]; what: string }[] = [
  { keys: ['wheel'], what: 'zoom around the cursor' },
  { keys: ['Shift', 'wheel'], what: 'pan' },
  { keys: ['drag'], what: 'pan' },
  { keys: ['Shift', 'drag'], what: 'select a time range (totals per name)' },
  { keys: ['click'], what: 'select a slice or instant; a merged run zooms in' },
];

export class Timeline {
  readonly tracks: TrackInfo[];
  private readonly children = new Map<number | null, TrackInfo[]>();
  private readonly collapsed = new Set<number>();
  /** Tracks kept at the top of the viewport whatever the scroll, in pinning order. */
  readonly pinned: number[] = [];
  /** Lower-case text a track's name or kind must contain (its ancestors stay, to keep the tree); '' shows all. */
  private filterText = '';
  private rows: Row[] = [];
  /** Height of the pinned area at the top of the viewport. */
  private pinnedH = 0;
  /** How many tracks the filter matched (without the ancestors shown for them). */
  filterMatches = 0;
  /** Tree rows in the DOM now (only those on screen: a store may have tens of thousands of tracks). */
  treeRowsShown = 0;
  private layoutVersion = 0;
  private treeKey = '';
  private rowByTrack = new Map<number, Row>();
  t0 = 0;
  t1 = 1;
  private items = new Map<number, Item[]>();
  private counters = new Map<number, CounterResponse>();
  private instants = new Map<number, InstantItem[]>();
  selectedInstant: number | null = null;
  /** Cancels this view's listeners and requests when the page switches to another trace. */
  private readonly lifetime = new AbortController();
  private readonly resize: ResizeObserver;
  /** What the ruler showed last: the offset label (null when ticks are absolute) and the tick labels. */
  rulerText: { offset: string | null; ticks: string[] } = { offset: null, ticks: [] };
  instantsDrawn = 0;
  private flows: Flow[] = [];
  private selectedFlows: Flow[] = [];
  selection: Selection | null = null;
  range: { t0: number; t1: number } | null = null;
  highlight: string | null = null;
  colourMode: 'name' | 'category' = 'name';
  /** For tests and the status line: what the last frame drew. */
  drawCount = 0;
  itemsDrawn = 0;
  singlesDrawn = 0;
  fetchCount = 0;
  /** The canvas fill colour drawItem set last (null: unknown, something else drew since). */
  private lastFill: string | null = null;
  /** The canvas global alpha drawItem set last (1 between rows and for everything else drawn). */
  private lastAlpha = 1;
  /** Slices as one fillRect each, the way the pixel rows are checked against (tests set it). */
  referenceDraw = false;
  /** Lanes the last frame drew as pixel rows. */
  lanesComposed = 0;
  private readonly raster = new LaneRaster();
  /** How long the last frame took to draw on the canvas, in ms (for the redraw benchmark). */
  lastDrawMs = 0;
  /** When the last key that moved the view was pressed (event time), until the frame with its window's data. */
  private keyAt: number | null = null;
  /** From the last such key press to the frame drawn with that window's data, in ms (for the redraw benchmark). */
  keyToDataMs: number | null = null;
  /** Milliseconds from navigation start to the first frame drawn with server data (performance.now()). */
  firstDataDrawMs: number | null = null;
  private fetchSeq = 0;
  private fetchTimer: number | undefined;
  private pending = false;
  /** A window request is on its way; a refresh meanwhile only marks the view stale. */
  private inFlight = false;
  private stale = false;
  private firstDataSignalled = false;
  private drag: { x: number; y: number; t0: number; t1: number; moved: boolean; shift: boolean } | null = null;
  onSelect: (s: Selection | null) => void = () => {};
  onRange: (r: { t0: number; t1: number; tracks: number[] } | null) => void = () => {};
  onView: () => void = () => {};
  onSelectInstant: (s: InstantSelection) => void = () => {};
  /** Called once, after the first window arrived and was drawn. */
  onFirstData: () => void = () => {};
  /** What lies under the mouse (null when nothing, or when it left the canvas), with the page position. */
  onHover: (h: Hover | null, pageX: number, pageY: number) => void = () => {};
  /** Called when the timeline dropped the track filter itself (to reveal a slice the filter hid). */
  onFilterReset: () => void = () => {};
  /** Called after each window arrived and was drawn (the legend follows what is on screen). */
  onData: () => void = () => {};

  constructor(
    private readonly base: string,
    tracks: TrackInfo[],
    readonly span: number,
    private readonly rowsEl: HTMLElement,
    private readonly treeEl: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly ruler: HTMLCanvasElement,
  ) {
    this.tracks = tracks;
    const ids = new Set(tracks.map((t) => t.id));
    for (const t of tracks) {
      const parent = t.parentId !== null && ids.has(t.parentId) ? t.parentId : null;
      if (!this.children.has(parent)) this.children.set(parent, []);
      this.children.get(parent)!.push(t);
    }
    this.t0 = 0;
    this.t1 = span;
    this.layout();
    this.bind();
    this.resize = new ResizeObserver(() => this.refresh());
    this.resize.observe(this.rowsEl);
  }

  /** Stops handling input and drops outstanding requests: called before another trace's view takes the page. */
  destroy(): void {
    this.lifetime.abort();
    this.resize.disconnect();
    if (this.fetchTimer !== undefined) clearTimeout(this.fetchTimer);
    this.pending = false;
  }

  get destroyed(): boolean {
    return this.lifetime.signal.aborted;
  }

  // ---- layout -------------------------------------------------------------------------------------------------

  private rowHeight(t: TrackInfo): number {
    if (t.counterSamples > 0 && t.slices === 0) return COUNTER_H;
    if (t.slices > 0) return Math.max(1, t.lanes) * LANE_H + 4;
    if (t.instants > 0) return LANE_H + 4;
    return HEADER_H;
  }

  layout(): void {
    this.rows = [];
    const byId = new Map(this.tracks.map((t) => [t.id, t]));
    let y = 0;
    for (const id of this.pinned) {
      const t = byId.get(id);
      if (!t) continue;
      const h = this.rowHeight(t);
      this.rows.push({ track: t, y, h, level: 0, hasChildren: false, pinned: true });
      y += h;
    }
    this.pinnedH = y;
    const pinned = new Set(this.pinned);
    // With a filter: the tracks that match and their ancestors, expanded whatever their collapsed state.
    let keep: Set<number> | null = null;
    this.filterMatches = 0;
    if (this.filterText) {
      keep = new Set();
      for (const t of this.tracks) {
        if (!`${t.name ?? ''} ${t.kind}`.toLowerCase().includes(this.filterText)) continue;
        this.filterMatches++;
        for (let p: number | null = t.id; p !== null && !keep.has(p); p = byId.get(p)?.parentId ?? null) keep.add(p);
      }
    }
    const walk = (parent: number | null, level: number) => {
      for (const t of this.children.get(parent) ?? []) {
        if (keep && !keep.has(t.id)) continue;
        const kids = this.children.get(t.id) ?? [];
        if (!pinned.has(t.id)) {
          const h = this.rowHeight(t);
          this.rows.push({ track: t, y, h, level, hasChildren: kids.length > 0, pinned: false });
          y += h;
        }
        if (kids.length > 0 && (keep || !this.collapsed.has(t.id))) walk(t.id, level + 1);
      }
    };
    walk(null, 0);
    this.rowByTrack = new Map(this.rows.map((r) => [r.track.id, r]));
    this.treeEl.style.height = `${y}px`;
    this.treeEl.replaceChildren();
    this.layoutVersion++;
    this.refresh();
  }

  /** Shows only the tracks whose name or kind contains `text` (case-insensitive), with their ancestors. */
  setFilter(text: string): void {
    this.filterText = text.trim().toLowerCase();
    this.layout();
  }

  /** Pins a track to the top of the viewport, or unpins it. */
  togglePin(trackId: number): void {
    const i = this.pinned.indexOf(trackId);
    if (i >= 0) this.pinned.splice(i, 1);
    else this.pinned.push(trackId);
    this.layout();
  }

  /** Collapses every track with children (true) or expands them all (false). */
  collapseAll(collapse: boolean): void {
    this.collapsed.clear();
    if (collapse) for (const [parent, kids] of this.children) if (parent !== null && kids.length) this.collapsed.add(parent);
    this.layout();
  }

  /** The laid-out rows' track ids in order (pinned first), for tests. */
  rowOrder(): number[] {
    return this.rows.map((r) => r.track.id);
  }

  /** Top of a row in the viewport (CSS px from the top of the rows area). */
  private sy(r: Row): number {
    return r.pinned ? r.y : r.y - this.rowsEl.scrollTop;
  }

  /** The row under a viewport y (CSS px from the top of the rows area): pinned ones first, then by binary search. */
  private rowAt(cy: number): Row | null {
    if (cy < this.pinnedH) return this.rows.find((r) => r.pinned && cy >= r.y && cy < r.y + r.h) ?? null;
    const y = cy + this.rowsEl.scrollTop;
    let lo = 0;
    let hi = this.rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.rows[mid];
      if (r.pinned || r.y + r.h <= y) lo = mid + 1;
      else if (r.y > y) hi = mid - 1;
      else return r;
    }
    return null;
  }

  /** Puts the DOM rows of the tree for what is on screen (pinned rows stay at the top of the viewport). */
  private renderTree(rows: Row[]): void {
    const top = this.rowsEl.scrollTop;
    this.treeEl.replaceChildren(...rows.map((r) => {
      const el = this.treeRow(r);
      if (r.pinned) {
        el.style.top = `${top + r.y}px`;
        el.classList.add('pinned');
      }
      return el;
    }));
    this.treeRowsShown = rows.length;
  }

  private treeRow(r: Row): HTMLElement {
    const el = document.createElement('div');
    el.className = 'track-row';
    el.dataset.trackId = String(r.track.id);
    el.dataset.kind = r.track.kind;
    el.style.top = `${r.y}px`;
    el.style.height = `${r.h}px`;
    el.style.paddingLeft = `${6 + r.level * 14}px`;
    const toggle = document.createElement('span');
    toggle.className = 'toggle';
    toggle.textContent = r.hasChildren ? (this.collapsed.has(r.track.id) ? '▸' : '▾') : '';
    toggle.addEventListener('click', () => this.toggle(r.track.id), { signal: this.lifetime.signal });
    const pin = document.createElement('span');
    pin.className = 'pin';
    pin.textContent = r.pinned ? '●' : '○';
    pin.title = r.pinned ? 'unpin this track' : 'pin this track to the top';
    pin.addEventListener('click', () => this.togglePin(r.track.id), { signal: this.lifetime.signal });
    const name = document.createElement('span');
    name.className = 'track-name';
    name.textContent = r.track.name ?? `track ${r.track.id}`;
    const kind = document.createElement('span');
    kind.className = 'kind';
    kind.textContent = r.track.kind + (r.track.unit ? ` (${r.track.unit})` : '');
    el.title = `${r.track.name} — ${r.track.kind}, ${r.track.slices} slices`;
    el.append(toggle, pin, name, kind);
    return el;
  }

  toggle(trackId: number): void {
    if (this.collapsed.has(trackId)) this.collapsed.delete(trackId);
    else this.collapsed.add(trackId);
    this.layout();
  }

  // ---- view ---------------------------------------------------------------------------------------------------

  width(): number {
    return Math.max(1, this.rowsEl.clientWidth - this.treeEl.offsetWidth);
  }

  setView(t0: number, t1: number): void {
    let span = Math.max(MIN_SPAN, t1 - t0);
    const maxSpan = this.span * 1.5;
    if (span > maxSpan) span = maxSpan;
    const mid = (t0 + t1) / 2;
    let a = Math.round(mid - span / 2);
    a = Math.min(Math.max(a, Math.round(-this.span * 0.25)), Math.round(this.span * 1.25 - span));
    this.t0 = a;
    this.t1 = a + Math.round(span);
    this.refresh();
    this.onView();
  }

  zoom(factor: number, anchorX?: number): void {
    const w = this.width();
    const x = anchorX ?? w / 2;
    const at = this.t0 + ((this.t1 - this.t0) * x) / w;
    const span = Math.max(MIN_SPAN, (this.t1 - this.t0) * factor);
    const t0 = at - (span * x) / w;
    this.setView(t0, t0 + span);
  }

  pan(fraction: number): void {
    const d = (this.t1 - this.t0) * fraction;
    this.setView(this.t0 + d, this.t1 + d);
  }

  reset(): void {
    this.setView(0, this.span);
  }

  zoomToSelection(): void {
    if (this.range) {
      this.setView(this.range.t0, this.range.t1);
      return;
    }
    const item = this.selection ? this.findItem(this.selection.id) : null;
    if (item) {
      const pad = Math.max(MIN_SPAN, (item[2] - item[1]) * 0.25);
      this.setView(item[1] - pad, item[2] + pad);
    }
  }

  setHighlight(name: string | null): void {
    this.highlight = name;
    this.refresh();
  }

  select(s: Selection | null, flows: Flow[] = []): void {
    this.selection = s;
    if (s) this.selectedInstant = null;
    this.selectedFlows = flows;
    this.draw();
  }

  /**
   * Brings a slice on screen: expands the track's collapsed ancestors, scrolls its row into view and, when the slice
   * lies outside the window, centres the window on it (keeping the zoom unless the slice is wider).
   */
  reveal(trackId: number, ts: number, dur: number): void {
    const byId = new Map(this.tracks.map((t) => [t.id, t]));
    let changed = false;
    for (let p = byId.get(trackId)?.parentId ?? null; p !== null; p = byId.get(p)?.parentId ?? null) {
      if (this.collapsed.delete(p)) changed = true;
      if (!byId.has(p)) break;
    }
    if (!this.rowByTrack.has(trackId) && this.filterText) {
      // The filter hides the track: drop it rather than point at nothing.
      this.filterText = '';
      this.onFilterReset();
      changed = true;
    }
    if (changed) this.layout();
    const r = this.rowByTrack.get(trackId);
    if (r && !r.pinned) {
      const top = this.rowsEl.scrollTop;
      if (r.y < top + this.pinnedH || r.y + r.h > top + this.rowsEl.clientHeight) {
        this.rowsEl.scrollTop = Math.max(0, r.y - this.pinnedH - (this.rowsEl.clientHeight - this.pinnedH) / 3);
      }
    }
    const span = this.t1 - this.t0;
    const end = ts + Math.max(dur, 1);
    if (ts < this.t0 || end > this.t1) {
      const want = Math.max(span, dur * 1.5);
      const mid = ts + dur / 2;
      this.setView(mid - want / 2, mid + want / 2);
    } else {
      this.refresh();
    }
  }

  private findItem(id: number): Item | null {
    for (const list of this.items.values()) {
      for (const it of list) if (it[5] === id && it[3] === 1) return it;
    }
    return null;
  }

  // ---- data ---------------------------------------------------------------------------------------------------

  /**
   * Redraws now with what is cached and asks the server for the new window once the events of this task are
   * handled. While a request is on its way, the next one leaves when it returns, for the window shown then: requests
   * never queue up behind each other, and a single key press waits for nothing but its own.
   */
  refresh(): void {
    if (this.destroyed) return;
    this.draw();
    this.pending = true;
    this.stale = true;
    if (this.inFlight || this.fetchTimer !== undefined) return;
    this.fetchTimer = window.setTimeout(() => {
      this.fetchTimer = undefined;
      void this.fetchWindow();
    }, 0);
  }

  /** True while a window request is outstanding or scheduled (tests wait for this to clear). */
  busy(): boolean {
    return this.pending;
  }

  /** The rows on screen: scrolled ones not hidden by the pinned area, then the pinned ones (drawn over them). */
  private visibleRows(): Row[] {
    const top = this.rowsEl.scrollTop + this.pinnedH;
    const bottom = this.rowsEl.scrollTop + this.rowsEl.clientHeight;
    const out: Row[] = [];
    // Rows are in y order after the pinned ones: start at the first one reaching below `top`.
    let lo = this.rows.findIndex((r) => !r.pinned);
    if (lo >= 0) {
      let hi = this.rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.rows[mid].y + this.rows[mid].h > top) hi = mid;
        else lo = mid + 1;
      }
      for (let i = lo; i < this.rows.length && this.rows[i].y < bottom; i++) out.push(this.rows[i]);
    }
    for (const r of this.rows) if (r.pinned && r.y < this.rowsEl.clientHeight) out.push(r);
    return out;
  }

  private async fetchWindow(): Promise<void> {
    this.inFlight = true;
    this.stale = false;
    const seq = ++this.fetchSeq;
    const t0 = this.t0;
    const t1 = this.t1;
    const px = Math.round(this.width());
    const visible = this.visibleRows();
    const sliceTracks = visible.filter((r) => r.track.slices > 0).map((r) => r.track.id);
    const instantTracks = visible.filter((r) => r.track.instants > 0).map((r) => r.track.id);
    const signal = this.lifetime.signal;
    const counterTracks = visible.filter((r) => r.track.counterSamples > 0 && r.track.slices === 0)
      .map((r) => r.track.id);
    try {
      const params: Record<string, string | number> = { t0, t1, px, tracks: sliceTracks.join(',') };
      if (this.highlight) params.highlight = this.highlight;
      const [win, flows, inst, ...counters] = await Promise.all([
        sliceTracks.length ? getWindow(`${this.base}/window.bin`, params, signal) : null,
        getJson<{ flows: Flow[]; truncated: boolean }>(`${this.base}/flows`, { t0, t1 }, signal),
        instantTracks.length ? getJson<InstantResponse>(`${this.base}/instants`,
          { t0, t1, px, tracks: instantTracks.join(',') }, signal) : null,
        ...counterTracks.map((id) => getJson<CounterResponse>(`${this.base}/counter`, { track: id, t0, t1, px },
          signal)),
      ]);
      if (seq !== this.fetchSeq || this.destroyed) return;
      this.instants = new Map();
      if (inst) for (const t of inst.tracks) this.instants.set(t.track, t.items);
      this.items = new Map();
      if (win) for (const t of win.tracks) this.items.set(t.track, t.items);
      this.flows = flows.truncated ? [] : flows.flows;
      this.counters = new Map();
      for (const c of counters) this.counters.set(c.track, c);
      this.fetchCount++;
    } catch (e) {
      if (!this.destroyed) console.error(e);
    } finally {
      this.inFlight = false;
      if (seq === this.fetchSeq && !this.destroyed) {
        this.draw();
        if (this.stale) {
          // The view moved meanwhile: what came is drawn where it lies, and the window shown now is asked for.
          void this.fetchWindow();
        } else {
          this.pending = false;
          if (!this.firstDataSignalled && this.fetchCount > 0) {
            this.firstDataSignalled = true;
            this.onFirstData();
          }
          this.onData();
          // After the legend too: all of it is done before the browser shows the frame.
          if (this.keyAt !== null) {
            this.keyToDataMs = performance.now() - this.keyAt;
            this.keyAt = null;
          }
        }
      }
    }
  }

  // ---- drawing ------------------------------------------------------------------------------------------------

  private prepare(c: HTMLCanvasElement, w: number, h: number): CanvasRenderingContext2D {
    return sizeCanvas(c, w, h);
  }


  private x(t: number, w: number): number {
    return ((t - this.t0) / (this.t1 - this.t0)) * w;
  }

  draw(): void {
    if (this.destroyed) return;
    const started = performance.now();
    const w = this.width();
    const h = this.rowsEl.clientHeight;
    const top = this.rowsEl.scrollTop;
    this.canvas.style.top = `${top}px`;
    const ctx = this.prepare(this.canvas, w, h);
    ctx.clearRect(0, 0, w, h);
    ctx.font = '11px "DejaVu Sans", sans-serif';
    ctx.textBaseline = 'middle';
    let drawn = 0;
    let singles = 0;
    let instants = 0;
    const rows = this.visibleRows();
    const treeKey = `${top}|${this.layoutVersion}|${rows.length}|${rows[0]?.track.id}|${rows[rows.length - 1]?.track.id}`;
    if (treeKey !== this.treeKey) {
      this.treeKey = treeKey;
      this.renderTree(rows);
    }
    // Slices of each row's lanes are composed as pixel rows first (raster.ts); items outside the row's lanes (more
    // depths than the track declares) and the reference drawing for tests go through fillRect one by one.
    const dpr = window.devicePixelRatio || 1;
    const raster = this.referenceDraw ? null : this.raster;
    const firstLane: number[] = [];
    if (raster) {
      raster.begin(this.canvas.width);
      for (const r of rows) {
        const items = this.items.get(r.track.id);
        if (!items) {
          firstLane.push(-1);
          continue;
        }
        const lanes = Math.max(1, r.track.lanes);
        const first = raster.addLanes(lanes, rgba(this.rowBackground(r)));
        firstLane.push(first);
        for (const it of items) {
          const depth = it[0];
          if (depth >= lanes) continue;
          const x0 = this.x(it[1], w);
          const x1 = this.x(it[2], w);
          if (x1 < 0 || x0 > w) continue;
          const xa = Math.max(-1, x0);
          const width = Math.max(1, Math.min(w + 1, x1) - xa);
          raster.fill(first + depth, xa * dpr, (xa + width) * dpr, rgba(colourFor(it[6], it[7], this.colourMode)),
            this.itemAlpha(it));
        }
      }
      raster.upload();
      ctx.imageSmoothingEnabled = false;
    }
    this.lanesComposed = raster ? raster.lanesUsed() : 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const y = this.sy(r);
      ctx.fillStyle = this.rowBackground(r);
      ctx.fillRect(0, y, w, r.h);
      ctx.strokeStyle = '#eef0f3';
      ctx.beginPath();
      ctx.moveTo(0, y + r.h - 0.5);
      ctx.lineTo(w, y + r.h - 0.5);
      ctx.stroke();
      const items = this.items.get(r.track.id);
      this.lastFill = null;
      if (items) {
        const lanes = raster ? Math.max(1, r.track.lanes) : 0;
        if (raster) {
          ctx.setTransform(1, 0, 0, 1, 0, 0);
          for (let d = 0; d < lanes; d++) {
            // Whole device rows get the lane's pixels; a row the lane covers in part (a fractional pixel ratio or
            // scroll position) gets them in proportion, as the edge of a fillRect would.
            const top = (y + 2 + d * LANE_H) * dpr;
            const bottom = (y + 2 + d * LANE_H + LANE_H - 2) * dpr;
            const a = Math.ceil(top);
            const b = Math.floor(bottom);
            raster.draw(ctx, firstLane[i] + d, a, b);
            if (a > top || bottom > b) {
              if (a > top) {
                ctx.globalAlpha = a - top;
                raster.draw(ctx, firstLane[i] + d, a - 1, a);
              }
              if (bottom > b) {
                ctx.globalAlpha = bottom - b;
                raster.draw(ctx, firstLane[i] + d, b, b + 1);
              }
              ctx.globalAlpha = 1;
            }
          }
          ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        }
        this.lastAlpha = 1;
        for (const it of items) {
          const shown = it[0] < lanes ? this.decorateItem(ctx, it, y, w) : this.drawItem(ctx, it, y, w);
          if (shown) {
            drawn++;
            if (it[3] === 1) singles++;
          }
        }
        if (this.lastAlpha !== 1) ctx.globalAlpha = 1;
      }
      const ticks = this.instants.get(r.track.id);
      if (ticks) instants += this.drawInstants(ctx, ticks, y, r.h, w);
      const counter = this.counters.get(r.track.id);
      if (counter) this.drawCounter(ctx, counter, y, r.h, w);
    }
    if (this.pinnedH > 0) {
      ctx.strokeStyle = '#94a3b8';
      ctx.beginPath();
      ctx.moveTo(0, this.pinnedH - 0.5);
      ctx.lineTo(w, this.pinnedH - 0.5);
      ctx.stroke();
    }
    this.drawFlows(ctx, top, w);
    if (this.range) {
      const a = this.x(this.range.t0, w);
      const b = this.x(this.range.t1, w);
      ctx.fillStyle = 'rgba(37, 99, 235, 0.12)';
      ctx.fillRect(a, 0, b - a, h);
      ctx.strokeStyle = 'rgba(37, 99, 235, 0.8)';
      ctx.strokeRect(a + 0.5, 0, b - a, h);
    }
    this.drawRuler();
    this.itemsDrawn = drawn;
    this.singlesDrawn = singles;
    this.instantsDrawn = instants;
    this.drawCount++;
    this.lastDrawMs = performance.now() - started;
    if (this.firstDataDrawMs === null && this.fetchCount > 0) this.firstDataDrawMs = performance.now();
    document.body.dataset.drawCount = String(this.drawCount);
    document.getElementById('window-info')!.textContent =
      `${formatDuration(this.t0)} … ${formatDuration(this.t1)}  (${formatDuration(this.t1 - this.t0)})`;
  }

  private rowBackground(r: Row): string {
    return r.level % 2 ? '#fcfcfd' : '#ffffff';
  }

  /** A single slice is opaque; a merged run as opaque as its slices fill it; everything but matches dims under search. */
  private itemAlpha(it: Item): number {
    const [, start, end, count, busy, , , , matches] = it;
    if (this.highlight !== null && matches === 0) return 0.15;
    return count === 1 ? 1 : 0.35 + 0.65 * Math.min(1, busy / Math.max(1, end - start));
  }

  /**
   * What drawItem draws over an item's fill (already in the lane's pixel row): the search outline, the selection
   * outline and the label. Returns whether the item lies in the window.
   */
  private decorateItem(ctx: CanvasRenderingContext2D, it: Item, rowY: number, w: number): boolean {
    const [depth, start, end, count, , id, , , matches] = it;
    const x0 = this.x(start, w);
    const x1 = this.x(end, w);
    if (x1 < 0 || x0 > w) return false;
    const xa = Math.max(-1, x0);
    const width = Math.max(1, Math.min(w + 1, x1) - xa);
    const matched = this.highlight !== null && matches > 0;
    const selected = this.selection !== null && count === 1 && id === this.selection.id;
    if (!matched && !selected && width <= 36) return true;
    const y = rowY + 2 + depth * LANE_H;
    this.drawOverlay(ctx, it, xa, y, width, matched, selected);
    return true;
  }

  /** The search outline, the selection outline and the label, over an item's fill however that was drawn. */
  private drawOverlay(ctx: CanvasRenderingContext2D, it: Item, xa: number, y: number, width: number,
    matched: boolean, selected: boolean): void {
    if (matched) {
      ctx.strokeStyle = '#f59e0b';
      ctx.lineWidth = 2;
      ctx.strokeRect(xa, y, width, LANE_H - 2);
      ctx.lineWidth = 1;
    }
    if (selected) {
      ctx.strokeStyle = '#111827';
      ctx.lineWidth = 2;
      ctx.strokeRect(xa + 1, y + 1, Math.max(1, width - 2), LANE_H - 4);
      ctx.lineWidth = 1;
    }
    if (width > 36) this.drawLabel(ctx, it, xa, y, width);
  }

  private drawLabel(ctx: CanvasRenderingContext2D, it: Item, xa: number, y: number, width: number): void {
    const count = it[3];
    const name = it[6];
    const dimmed = this.highlight !== null && it[8] === 0;
    const label = count === 1 ? name : `${count.toLocaleString('en-US')} × ${name}`;
    ctx.save();
    ctx.beginPath();
    ctx.rect(xa, y, width, LANE_H - 2);
    ctx.clip();
    ctx.fillStyle = dimmed ? '#9ca3af' : '#ffffff';
    ctx.fillText(label, Math.max(xa, 0) + 3, y + (LANE_H - 2) / 2 + 0.5);
    ctx.restore();
  }

  private drawItem(ctx: CanvasRenderingContext2D, it: Item, rowY: number, w: number): boolean {
    const [depth, start, end, count, , id, name, category, matches] = it;
    const x0 = this.x(start, w);
    const x1 = this.x(end, w);
    if (x1 < 0 || x0 > w) return false;
    const xa = Math.max(-1, x0);
    const width = Math.max(1, Math.min(w + 1, x1) - xa);
    const y = rowY + 2 + depth * LANE_H;
    // Each canvas call costs even when it changes nothing (tens of thousands per zoomed-out frame): the alpha and
    // the colour are only set when they differ from the previous item's.
    const alpha = this.itemAlpha(it);
    if (alpha !== this.lastAlpha) {
      ctx.globalAlpha = alpha;
      this.lastAlpha = alpha;
    }
    // Setting the same colour again still makes the canvas parse it: only set a different one.
    const colour = colourFor(name, category, this.colourMode);
    if (colour !== this.lastFill) {
      ctx.fillStyle = colour;
      this.lastFill = colour;
    }
    ctx.fillRect(xa, y, width, LANE_H - 2);
    if (alpha !== 1 && (width > 36 || (this.highlight !== null && matches > 0)
      || (this.selection && count === 1 && id === this.selection.id))) {
      ctx.globalAlpha = 1;
      this.lastAlpha = 1;
    }
    if (width > 36 || (this.highlight !== null && matches > 0)) this.lastFill = null;
    this.drawOverlay(ctx, it, xa, y, width, this.highlight !== null && matches > 0,
      this.selection !== null && count === 1 && id === this.selection.id);
    return true;
  }

  /** Instants as ticks over the row with a small head; a column holding several has a taller, darker head. */
  private drawInstants(ctx: CanvasRenderingContext2D, ticks: InstantItem[], y: number, h: number, w: number): number {
    let n = 0;
    for (const [ts, count, id, name] of ticks) {
      const x = Math.round(this.x(ts, w)) + 0.5;
      if (x < -3 || x > w + 3) continue;
      const selected = id === this.selectedInstant;
      ctx.strokeStyle = selected ? '#111827' : colourFor(name, 'marker', this.colourMode);
      ctx.lineWidth = selected ? 2 : 1;
      ctx.beginPath();
      ctx.moveTo(x, y + 2);
      ctx.lineTo(x, y + h - 3);
      ctx.stroke();
      ctx.lineWidth = 1;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.moveTo(x - 3.5, y + 2);
      ctx.lineTo(x + 3.5, y + 2);
      ctx.lineTo(x, y + (count > 1 ? 9 : 7));
      ctx.closePath();
      ctx.fill();
      n++;
    }
    return n;
  }

  private drawCounter(ctx: CanvasRenderingContext2D, c: CounterResponse, y: number, h: number, w: number): void {
    const lo = c.min ?? 0;
    const hi = c.max ?? 1;
    const scale = (v: number) => y + h - 4 - ((v - lo) / (hi - lo || 1)) * (h - 10);
    ctx.strokeStyle = '#0f766e';
    ctx.fillStyle = 'rgba(15, 118, 110, 0.12)';
    ctx.beginPath();
    let value: number | null = c.before ? c.before[1] : null;
    let x = 0;
    if (value !== null) ctx.moveTo(0, scale(value));
    for (const [ts, first, mn, mx, last] of c.points) {
      const px = Math.max(0, this.x(ts, w));
      if (value !== null) ctx.lineTo(px, scale(value));
      else ctx.moveTo(px, scale(first));
      ctx.lineTo(px, scale(first));
      if (mn !== mx) {
        ctx.lineTo(px, scale(mn));
        ctx.lineTo(px, scale(mx));
      }
      ctx.lineTo(px, scale(last));
      value = last;
      x = px;
    }
    if (value !== null) ctx.lineTo(Math.max(x, Math.min(w, this.x(this.span, w))), scale(value));
    ctx.stroke();
    ctx.fillStyle = '#334155';
    ctx.fillText(`${hi.toLocaleString('en-US')}`, 4, y + 8);
  }

  private laneCentre(track: number, depth: number, top: number): number | null {
    const r = this.rowByTrack.get(track);
    if (!r) return null;
    return (r.pinned ? r.y : r.y - top) + 2 + Math.min(depth, Math.max(0, r.track.lanes - 1)) * LANE_H + (LANE_H - 2) / 2;
  }

  private drawFlows(ctx: CanvasRenderingContext2D, top: number, w: number): void {
    const draw = (f: Flow, strong: boolean) => {
      const ya = this.laneCentre(f.from.track, f.from.depth, top);
      const yb = this.laneCentre(f.to.track, f.to.depth, top);
      if (ya === null || yb === null) return;
      const xa = this.x(f.from.ts + f.from.dur, w);
      const xb = this.x(f.to.ts, w);
      ctx.strokeStyle = strong ? '#dc2626' : 'rgba(80, 80, 80, 0.45)';
      ctx.lineWidth = strong ? 2 : 1;
      ctx.beginPath();
      ctx.moveTo(xa, ya);
      const mid = (xa + xb) / 2;
      ctx.bezierCurveTo(mid, ya, mid, yb, xb, yb);
      ctx.stroke();
      const dir = yb >= ya ? 1 : -1;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.moveTo(xb, yb);
      ctx.lineTo(xb - 6, yb - 4 * dir);
      ctx.lineTo(xb - 6 + 2, yb + 3 * dir);
      ctx.closePath();
      ctx.fill();
      ctx.lineWidth = 1;
    };
    // Hundreds of arrows hide the slices; past that only the selected slice's flows are drawn.
    if (this.flows.length <= 150) for (const f of this.flows) draw(f, false);
    for (const f of this.selectedFlows) draw(f, true);
  }

  private drawRuler(): void {
    const w = this.width();
    const h = 26;
    const ctx = this.prepare(this.ruler, w, h);
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    const span = this.t1 - this.t0;
    const step = tickStep(span, w);
    ctx.strokeStyle = '#94a3b8';
    ctx.fillStyle = '#1f2937';
    ctx.font = '10px "DejaVu Sans", sans-serif';
    ctx.textBaseline = 'top';
    const labels = rulerLabels(this.t0, this.t1, step);
    let left = 0;
    if (labels.offset !== null) {
      // Perfetto-style: the window's offset once, at the left, and short deltas from it on the ticks.
      const text = labels.offset;
      const tw = ctx.measureText(text).width + 10;
      ctx.fillStyle = '#e2e8f0';
      ctx.fillRect(0, 0, tw, h);
      ctx.fillStyle = '#0f172a';
      ctx.fillText(text, 5, 8);
      left = tw;
      ctx.fillStyle = '#1f2937';
    }
    const ticks: string[] = [];
    for (const { t, text } of labels.ticks) {
      const x = Math.round(this.x(t, w)) + 0.5;
      if (x < left) continue;
      ctx.beginPath();
      ctx.moveTo(x, 14);
      ctx.lineTo(x, h);
      ctx.stroke();
      ctx.fillText(text, x + 3, 3);
      ticks.push(text);
    }
    this.rulerText = { offset: labels.offset, ticks };
  }

  // ---- interaction --------------------------------------------------------------------------------------------

  private bind(): void {
    // Every listener goes with this view: the canvas, the rows and the window outlive it across trace switches.
    const opts = { signal: this.lifetime.signal };
    this.rowsEl.addEventListener('scroll', () => this.refresh(), opts);
    this.canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      // The view moves under the cursor: the tooltip would describe what was there before.
      this.onHover(null, 0, 0);
      const rect = this.canvas.getBoundingClientRect();
      if (e.shiftKey) this.pan(e.deltaY * 0.001);
      else this.zoom(Math.exp(e.deltaY * 0.0015), e.clientX - rect.left);
    }, { passive: false, signal: this.lifetime.signal });
    this.canvas.addEventListener('mousedown', (e) => {
      this.drag = { x: e.clientX, y: e.clientY, t0: this.t0, t1: this.t1, moved: false, shift: e.shiftKey };
      this.canvas.style.cursor = e.shiftKey ? 'crosshair' : 'grabbing';
    }, opts);
    this.canvas.addEventListener('mousemove', (e) => {
      if (this.drag) return;
      const rect = this.canvas.getBoundingClientRect();
      this.onHover(this.hoverAt(e.clientX - rect.left, e.clientY - rect.top), e.clientX, e.clientY);
    }, opts);
    this.canvas.addEventListener('mouseleave', () => this.onHover(null, 0, 0), opts);
    window.addEventListener('mousemove', (e) => {
      if (!this.drag) return;
      this.onHover(null, 0, 0);
      const dx = e.clientX - this.drag.x;
      if (Math.abs(dx) > 3 || Math.abs(e.clientY - this.drag.y) > 3) this.drag.moved = true;
      if (!this.drag.moved) return;
      const w = this.width();
      const rect = this.canvas.getBoundingClientRect();
      if (this.drag.shift) {
        const k = (this.t1 - this.t0) / w;
        const a = this.t0 + (this.drag.x - rect.left) * k;
        const b = this.t0 + (e.clientX - rect.left) * k;
        this.range = { t0: Math.round(Math.min(a, b)), t1: Math.round(Math.max(a, b)) };
        this.draw();
      } else {
        const dt = (-dx / w) * (this.drag.t1 - this.drag.t0);
        this.setView(this.drag.t0 + dt, this.drag.t1 + dt);
      }
    }, opts);
    window.addEventListener('mouseup', (e) => {
      if (!this.drag) return;
      const d = this.drag;
      this.drag = null;
      this.canvas.style.cursor = 'grab';
      if (!d.moved) this.click(e);
      else if (d.shift && this.range && this.range.t1 > this.range.t0) {
        this.onRange({ ...this.range, tracks: this.visibleRows().filter((r) => r.track.slices > 0)
          .map((r) => r.track.id) });
      }
    }, opts);
    window.addEventListener('keydown', (e) => {
      if ((e.target as HTMLElement).tagName === 'INPUT') return;
      switch (e.key) {
        case 'w': case '+': case '=': this.zoom(0.7); break;
        case 's': case '-': this.zoom(1 / 0.7); break;
        case 'a': case 'ArrowLeft': this.pan(-0.15); break;
        case 'd': case 'ArrowRight': this.pan(0.15); break;
        case '0': this.reset(); break;
        case 'f': this.zoomToSelection(); break;
        case 'Escape': this.range = null; this.onRange(null); this.draw(); break;
        default: return;
      }
      if (e.key !== 'f' && e.key !== 'Escape') {
        this.keyAt = e.timeStamp;
        this.keyToDataMs = null;
      }
      this.onHover(null, 0, 0);
      e.preventDefault();
    }, opts);
  }

  /** The item under a point of the canvas (CSS pixels relative to the canvas), if any. */
  itemAt(cx: number, cy: number): { item: Item; track: number } | null {
    const w = this.width();
    const row = this.rowAt(cy);
    if (!row) return null;
    const depth = Math.floor((cy - this.sy(row) - 2) / LANE_H);
    // The item drawn under the cursor wins; only when none covers it does the nearest within 2 px count, so
    // that slivers of a pixel can still be clicked without stealing clicks from their wide neighbours.
    let under: Item | null = null;
    let near: Item | null = null;
    let nearDist = Infinity;
    for (const it of this.items.get(row.track.id) ?? []) {
      if (it[0] !== depth) continue;
      const x0 = this.x(it[1], w);
      const x1 = Math.max(x0 + 1, this.x(it[2], w));
      if (cx >= x0 && cx <= x1) {
        if (!under || it[2] - it[1] < under[2] - under[1]) under = it;
      } else {
        const d = cx < x0 ? x0 - cx : cx - x1;
        if (d <= 2 && d < nearDist) {
          near = it;
          nearDist = d;
        }
      }
    }
    const best = under ?? near;
    return best ? { item: best, track: row.track.id } : null;
  }

  /** What is drawn under a point of the canvas (CSS pixels relative to the canvas): a slice, a tick or a counter. */
  hoverAt(cx: number, cy: number): Hover | null {
    const hit = this.itemAt(cx, cy);
    if (hit) {
      const [, start, end, count, busy, id, name, category] = hit.item;
      return { kind: 'slice', id, name, category, start, dur: end - start, count, busy };
    }
    const tick = this.instantAt(cx, cy);
    if (tick) {
      const it = (this.instants.get(tick.track) ?? []).find((i) => i[2] === tick.id)!;
      const r = this.rowByTrack.get(tick.track)!;
      return { kind: 'instant', id: it[2], name: it[3], category: it[4], ts: it[0], count: it[1], track: r.track.name };
    }
    const row = this.rowAt(cy);
    const c = row ? this.counters.get(row.track.id) : undefined;
    if (row && c) {
      // The step value holding at the cursor: the last sample column at or before it, else the one before the window.
      const t = this.t0 + (cx / this.width()) * (this.t1 - this.t0);
      // A column of several samples gives their count, range and last value, all as the server sent them.
      let at: [number, number, number, number, number] | null = c.before
        ? [c.before[0], c.before[1], 1, c.before[1], c.before[1]] : null;
      for (const p of c.points) {
        if (p[0] > t) break;
        at = [p[0], p[4], p[5], p[2], p[3]];
      }
      if (at) {
        return { kind: 'counter', trackId: row.track.id, track: row.track.name, unit: row.track.unit, ts: at[0],
          value: at[1], count: at[2], min: at[3], max: at[4] };
      }
    }
    return null;
  }

  /** (name, category) of the drawn items of the visible rows with their drawn time, for the legend. */
  visibleNames(): { name: string; category: string; time: number }[] {
    // By category, then name: tens of thousands of items per frame, and a joined key string per item showed.
    const byCategory = new Map<string, Map<string, { name: string; category: string; time: number }>>();
    const t0 = this.t0;
    const t1 = this.t1;
    for (const r of this.visibleRows()) {
      for (const it of this.items.get(r.track.id) ?? []) {
        if (it[2] < t0 || it[1] > t1) continue;
        let names = byCategory.get(it[7]);
        if (names === undefined) {
          names = new Map();
          byCategory.set(it[7], names);
        }
        let e = names.get(it[6]);
        if (e === undefined) {
          e = { name: it[6], category: it[7], time: 0 };
          names.set(it[6], e);
        }
        e.time += Math.min(it[2], t1) - Math.max(it[1], t0);
      }
    }
    const out: { name: string; category: string; time: number }[] = [];
    for (const names of byCategory.values()) for (const e of names.values()) out.push(e);
    return out;
  }

  /** The instant tick nearest a point of the canvas within 3 px, if any. */
  instantAt(cx: number, cy: number): { id: number; track: number } | null {
    const w = this.width();
    const row = this.rowAt(cy);
    if (!row) return null;
    let best: InstantItem | null = null;
    let bestDist = Infinity;
    for (const it of this.instants.get(row.track.id) ?? []) {
      const d = Math.abs(this.x(it[0], w) - cx);
      if (d <= 3 && d < bestDist) {
        best = it;
        bestDist = d;
      }
    }
    return best ? { id: best[2], track: row.track.id } : null;
  }

  private click(e: MouseEvent): void {
    const rect = this.canvas.getBoundingClientRect();
    const hit = this.itemAt(e.clientX - rect.left, e.clientY - rect.top);
    if (this.range) {
      this.range = null;
      this.onRange(null);
    }
    if (!hit) {
      const tick = this.instantAt(e.clientX - rect.left, e.clientY - rect.top);
      if (tick) {
        this.selection = null;
        this.selectedInstant = tick.id;
        this.draw();
        this.onSelectInstant(tick);
        return;
      }
      this.selectedInstant = null;
      this.select(null);
      this.onSelect(null);
      return;
    }
    const [, start, end, count, , id] = hit.item;
    if (count > 1) {
      // A merged run: zoom in until its members can be told apart.
      const pad = (end - start) * 0.1;
      this.setView(start - pad, end + pad);
      return;
    }
    this.select({ id, track: hit.track });
    this.onSelect({ id, track: hit.track });
  }

  /** Page coordinates of a drawn single slice by id: its left and right edge and vertical centre; for tests. */
  screenOf(id: number): { x0: number; x1: number; y: number; w: number } | null {
    const w = this.width();
    const rect = this.canvas.getBoundingClientRect();
    for (const r of this.visibleRows()) {
      for (const it of this.items.get(r.track.id) ?? []) {
        if (it[3] !== 1 || it[5] !== id) continue;
        const y = this.sy(r) + 2 + it[0] * LANE_H + LANE_H / 2;
        return { x0: rect.left + this.x(it[1], w), x1: rect.left + this.x(it[2], w), y: rect.top + y, w };
      }
    }
    return null;
  }

  /** The colour drawn at a page point of the timeline canvas, as "rgb(r, g, b)"; for tests. */
  pixel(px: number, py: number): string {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const d = this.canvas.getContext('2d')!.getImageData(Math.round((px - rect.left) * dpr),
      Math.round((py - rect.top) * dpr), 1, 1).data;
    return `rgb(${d[0]}, ${d[1]}, ${d[2]})`;
  }

  /** Drawn single items of the visible rows, for tests that look for particular neighbours. */
  drawnItems(): { track: number; item: Item }[] {
    const out: { track: number; item: Item }[] = [];
    for (const r of this.visibleRows()) for (const it of this.items.get(r.track.id) ?? []) out.push({ track: r.track.id, item: it });
    return out;
  }

  /** Where a drawn instant tick lies on screen (page coordinates), the first one not overlapping another; for tests. */
  locateInstant(alone = true): { x: number; y: number; id: number; name: string; track: number; t: number } | null {
    const w = this.width();
    const rect = this.canvas.getBoundingClientRect();
    for (const r of this.visibleRows()) {
      if (r.track.slices > 0) continue;
      const ticks = this.instants.get(r.track.id) ?? [];
      for (let i = 0; i < ticks.length; i++) {
        const x = this.x(ticks[i][0], w);
        const apart = (j: number) => j < 0 || j >= ticks.length || Math.abs(this.x(ticks[j][0], w) - x) > 8;
        if (x < (alone ? 5 : 0) || x > w - (alone ? 5 : 0) || (alone && (ticks[i][1] !== 1 || !apart(i - 1) || !apart(i + 1)))) continue;
        const y = this.sy(r) + r.h / 2;
        if (y < 0 || y > this.rowsEl.clientHeight) continue;
        return { x: rect.left + x, y: rect.top + y, id: ticks[i][2], name: ticks[i][3], track: r.track.id, t: ticks[i][0] };
      }
    }
    return null;
  }

  /** Where a drawn single slice of a category lies on screen (page coordinates), widest first; for tests. */
  locate(category: string): { x: number; y: number; id: number; name: string } | null {
    const w = this.width();
    const rect = this.canvas.getBoundingClientRect();
    let best: { x: number; y: number; id: number; name: string; width: number } | null = null;
    for (const r of this.visibleRows()) {
      for (const it of this.items.get(r.track.id) ?? []) {
        if (it[3] !== 1 || it[7] !== category) continue;
        const x0 = Math.max(0, this.x(it[1], w));
        const x1 = Math.min(w, this.x(it[2], w));
        const y = this.sy(r) + 2 + it[0] * LANE_H + LANE_H / 2;
        if (x1 - x0 < 1 || y < 0 || y > this.rowsEl.clientHeight) continue;
        if (!best || x1 - x0 > best.width) {
          best = { x: rect.left + (x0 + x1) / 2, y: rect.top + y, id: it[5], name: it[6], width: x1 - x0 };
        }
      }
    }
    return best;
  }
}
