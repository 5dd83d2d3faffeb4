// The analysis views (SQL console, advice, launch latency, workers, critical path, memory, run comparison) as tabs
// of the bottom panel (panels.ts). A view is built the first time its tab opens on a trace and kept, with what the
// user typed and what it drew on the timeline, while that trace is shown: hiding and showing the tab moves the same
// element back. main.ts calls resetViews on a trace switch and timelineChanged when the window or its data change.
import { registerPanel } from '../panels';
import type { PanelContext } from '../panels';
import type { View, ViewHost } from './host';
import { sqlTestHooks, sqlView } from './sql';
import { adviceTestHooks, adviceView } from './advice';
import { criticalTestHooks, criticalView } from './critical';
import { memoryTestHooks, memoryView } from './memory';
import { latencyTestHooks, latencyView } from './latency';
import { compareTestHooks, compareView } from './compare';
import { workersTestHooks, workersView } from './workers';
import { countersTestHooks, countersView } from './counters';

const VIEWS: View[] = [sqlView, adviceView, latencyView, countersView, workersView, criticalView, memoryView, compareView];

/** What a view built for the shown trace: its element and the host it links back through. */
interface Built { view: View; el: HTMLElement; host: ViewHost; ready: Promise<void> }
const built = new Map<string, Built>();
/** Aborted on a trace switch: requests of the views built for the previous trace stop with it. */
let traceLife = new AbortController();

function hostFor(ctx: PanelContext): ViewHost {
  return {
    base: ctx.base, trace: ctx.trace, timeline: ctx.timeline, signal: traceLife.signal,
    selectSlice: async (id) => ctx.selectSlice(id),
    setHighlight: (name) => ctx.timeline.setHighlight(name),
  };
}

async function open(view: View, panel: HTMLElement, ctx: PanelContext): Promise<void> {
  let b = built.get(view.id);
  if (b && b.host.timeline !== ctx.timeline) {
    // Built for another trace (the switch raced the reset): start again.
    b.view.dispose?.();
    built.delete(view.id);
    b = undefined;
  }
  if (!b) {
    const el = document.createElement('div');
    el.className = 'view';
    el.id = `view-${view.id}`;
    const host = hostFor(ctx);
    panel.append(el);
    const ready = (async () => {
      if (!(await view.applies(host))) {
        el.innerHTML = `<p class="muted" id="view-${view.id}-none">${escape(view.title)}: this trace has nothing to show here.</p>`;
        return;
      }
      el.innerHTML = '<p class="muted">Loading…</p>';
      await view.render(host, el);
    })();
    b = { view, el, host, ready };
    built.set(view.id, b);
    try {
      await ready;
    } catch (e) {
      built.delete(view.id);
      throw e;
    }
    return;
  }
  panel.append(b.el);
  await b.ready;
  view.onTimeline?.(b.host);
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

VIEWS.forEach((view, i) => registerPanel({
  id: view.id,
  title: view.title,
  order: 60 + i,
  open: async (panel, ctx) => {
    await open(view, panel, ctx);
    return { view: () => view.onTimeline?.(built.get(view.id)!.host) };
  },
}));

/** Drops every view built for the previous trace (its requests, overlays and state). */
export function resetViews(): void {
  traceLife.abort();
  traceLife = new AbortController();
  for (const b of built.values()) b.view.dispose?.();
  built.clear();
}

/** The timeline's window or data changed: views built for this trace redraw what they put on it. */
export function timelineChanged(): void {
  for (const b of built.values()) b.view.onTimeline?.(b.host);
}

/** What the browser tests read of the views. */
export function viewTestHooks() {
  return { sql: sqlTestHooks(), advice: adviceTestHooks(), critical: criticalTestHooks(), memory: memoryTestHooks(),
    latency: latencyTestHooks(), compare: compareTestHooks(), workers: workersTestHooks(), counters: countersTestHooks() };
}
