// The tabbed panel under the timeline. Views register here (one file each, e.g. the event table, area aggregates,
// flame graph, and other views of the analysis library) and get the open trace, its timeline and the page's events;
// the page keeps only which tab is open (in the URL) and the panel's height.
import { getJson } from './api';
import type { Timeline } from './timeline';

/** What a panel gets when it is shown: the trace it shows and a way to ask the server within that trace. */
export interface PanelContext {
  /** API base of the open trace, e.g. "api/t/0". */
  base: string;
  /** Index of the open trace. */
  trace: number;
  timeline: Timeline;
  /** Aborted when the trace is switched or the panel is hidden: stop requests and drop late answers. */
  signal: AbortSignal;
  /** GET a path of the API within this context's lifetime. */
  get<T>(path: string, params?: Record<string, string | number>): Promise<T>;
  /** Selects a slice as a click on the timeline would (details pane, URL), scrolling it into view. */
  selectSlice(id: number): void;
  /** Shows a window of the timeline (ns from the trace start). */
  showWindow(t0: number, t1: number): void;
  /** The shift-drag range selected now (ns from the trace start, with the tracks it covers), or null. */
  range(): { t0: number; t1: number; tracks: number[] } | null;
}

/** Page events a panel can follow while it is shown. */
export interface PanelEvents {
  /** The visible window changed (after zoom/pan settles). */
  view?(t0: number, t1: number): void;
  /** A slice was selected (null: selection cleared). */
  select?(id: number | null): void;
  /** A shift-drag range was selected (null: cleared). */
  range?(r: { t0: number; t1: number; tracks: number[] } | null): void;
}

export interface PanelSpec {
  /** Short id used in the URL (panels=...&tab=id) and as the tab's data-panel. */
  id: string;
  title: string;
  /** Tab order: lower first. */
  order?: number;
  /**
   * Fills `host` for the current trace. Called when the tab is shown and again after a trace switch while shown;
   * `host` is emptied before each call. Returns the events it wants while shown.
   */
  open(host: HTMLElement, ctx: PanelContext): PanelEvents | void | Promise<PanelEvents | void>;
}

const specs: PanelSpec[] = [];
let active: string | null = null;
let events: PanelEvents = {};
let lifetime = new AbortController();
let contextFactory: ((signal: AbortSignal) => PanelContext | null) | null = null;
let onChange: () => void = () => {};

/** Adds a view as a tab of the bottom panel; call at module load. */
export function registerPanel(spec: PanelSpec): void {
  if (specs.some((s) => s.id === spec.id)) throw new Error(`panel ${spec.id} registered twice`);
  specs.push(spec);
  specs.sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
  renderTabs();
}

export function panelIds(): string[] {
  return specs.map((s) => s.id);
}

export function activePanel(): string | null {
  return active;
}

/** Wires the panel to the page: how to build a context for the open trace, and what to do when the tab changes. */
export function initPanels(factory: (signal: AbortSignal) => PanelContext | null, changed: () => void): void {
  contextFactory = factory;
  onChange = changed;
  const handle = document.getElementById('bottom-resize');
  const bottom = document.getElementById('bottom')!;
  handle?.addEventListener('mousedown', (e) => {
    const startY = e.clientY;
    const startH = bottom.offsetHeight;
    const move = (m: MouseEvent) => {
      bottom.style.height = `${Math.max(60, Math.min(window.innerHeight - 160, startH - (m.clientY - startY)))}px`;
    };
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
    e.preventDefault();
  });
  renderTabs();
}

function renderTabs(): void {
  const tabs = document.getElementById('bottom-tabs');
  if (!tabs) return;
  tabs.replaceChildren(...specs.map((s) => {
    const b = document.createElement('button');
    b.textContent = s.title;
    b.dataset.panel = s.id;
    b.classList.toggle('active', s.id === active);
    b.addEventListener('click', () => showPanel(active === s.id ? null : s.id));
    return b;
  }));
  document.getElementById('bottom')?.classList.toggle('collapsed', active === null);
}

/** Shows a tab (null: collapse the panel), filling it for the open trace. */
export function showPanel(id: string | null): void {
  if (id !== null && !specs.some((s) => s.id === id)) id = null;
  active = id;
  renderTabs();
  void reopen();
  onChange();
}

/** Refills the open tab: after a trace switch, or when it is shown. */
export async function reopen(): Promise<void> {
  lifetime.abort();
  lifetime = new AbortController();
  events = {};
  const host = document.getElementById('bottom-body');
  if (!host) return;
  host.replaceChildren();
  const spec = specs.find((s) => s.id === active);
  const ctx = contextFactory?.(lifetime.signal) ?? null;
  if (!spec || !ctx) return;
  host.dataset.panel = spec.id;
  const signal = lifetime.signal;
  try {
    const ev = await spec.open(host, ctx);
    if (!signal.aborted) events = ev ?? {};
  } catch (e) {
    if ((e as Error).name === 'AbortError' || signal.aborted) return;
    host.innerHTML = '';
    const p = document.createElement('p');
    p.className = 'panel-error';
    p.textContent = `Could not show ${spec.title}: ${(e as Error).message}`;
    host.append(p);
  }
}

/** Forwards page events to the open tab. */
export const panelEvents: Required<PanelEvents> = {
  view: (t0, t1) => events.view?.(t0, t1),
  select: (id) => events.select?.(id),
  range: (r) => events.range?.(r),
};

/** A context helper: GET within a signal. */
export function contextGet(signal: AbortSignal) {
  return <T>(path: string, params: Record<string, string | number> = {}) => getJson<T>(path, params, signal);
}
