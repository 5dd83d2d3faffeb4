// The bottom panel's analysis views: one tab per view that applies to the trace; a view is built when its tab is
// first opened and kept while the trace is shown. main.ts calls installViews on each trace and timelineChanged when
// the timeline's window or data changes.
import type { View, ViewHost } from './host';
import { sqlTestHooks, sqlView } from './sql';
import { adviceTestHooks, adviceView } from './advice';
import { criticalTestHooks, criticalView } from './critical';
import { memoryTestHooks, memoryView } from './memory';
import { latencyTestHooks, latencyView } from './latency';
import { compareTestHooks, compareView } from './compare';
import { workersTestHooks, workersView } from './workers';

const VIEWS: View[] = [sqlView, adviceView, latencyView, workersView, criticalView, memoryView, compareView];

interface Installed { host: ViewHost; views: View[]; bodies: Map<string, HTMLElement>; built: Set<string>; open: string | null }
let installed: Installed | null = null;

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** Replaces the previous trace's views by those that apply to this one; `open` reopens a tab (URL state). */
export async function installViews(host: ViewHost, open: string | null = null): Promise<void> {
  disposeViews();
  const tabs = $('view-tabs');
  const body = $('view-body');
  const mine: Installed = { host, views: [], bodies: new Map(), built: new Set(), open: null };
  installed = mine;
  const applies = await Promise.all(VIEWS.map((v) => v.applies(host).catch(() => false)));
  if (installed !== mine || host.signal.aborted) return;
  mine.views = VIEWS.filter((_, i) => applies[i]);
  tabs.replaceChildren(...mine.views.map((v) => {
    const b = document.createElement('button');
    b.textContent = v.title;
    b.dataset.view = v.id;
    b.addEventListener('click', () => void openView(mine.open === v.id ? null : v.id));
    return b;
  }));
  body.replaceChildren(...mine.views.map((v) => {
    const el = document.createElement('div');
    el.className = 'view';
    el.id = `view-${v.id}`;
    el.hidden = true;
    mine.bodies.set(v.id, el);
    return el;
  }));
  if (open) await openView(open);
}

/** Opens a view's tab (null closes the panel); builds the view the first time. */
export async function openView(id: string | null): Promise<void> {
  const st = installed;
  if (!st) return;
  const view = st.views.find((v) => v.id === id) ?? null;
  st.open = view ? view.id : null;
  $('views-panel').classList.toggle('collapsed', !view);
  $('view-tabs').querySelectorAll<HTMLElement>('button').forEach((b) => b.classList.toggle('active', b.dataset.view === st.open));
  for (const [vid, el] of st.bodies) el.hidden = vid !== st.open;
  if (view && !st.built.has(view.id)) {
    st.built.add(view.id);
    const el = st.bodies.get(view.id)!;
    el.innerHTML = '<p class="muted">Loading…</p>';
    try {
      await view.render(st.host, el);
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
      el.innerHTML = '';
      const p = document.createElement('p');
      p.className = 'view-error';
      p.textContent = `Could not load this view: ${(e as Error).message}`;
      el.append(p);
    }
  }
}

/** The view whose tab is open, for the URL state. */
export function openViewId(): string | null {
  return installed?.open ?? null;
}

export function timelineChanged(): void {
  const st = installed;
  if (!st) return;
  for (const v of st.views) if (st.built.has(v.id)) v.onTimeline?.(st.host);
}

function disposeViews(): void {
  if (installed) for (const v of installed.views) v.dispose?.();
  installed = null;
  $('view-tabs').replaceChildren();
  $('view-body').replaceChildren();
  $('views-panel').classList.add('collapsed');
}

/** What the browser tests read of the views. */
export function viewTestHooks() {
  return { open: openView, openId: openViewId, sql: sqlTestHooks(), advice: adviceTestHooks(), critical: criticalTestHooks(), memory: memoryTestHooks(), latency: latencyTestHooks(), compare: compareTestHooks(), workers: workersTestHooks() };
}
