// What the analysis views beside the timeline get from the page: the trace's API, the timeline to link to, and the
// page's own selection and highlight. Views register in views/index.ts; main.ts only creates the host per trace.
import { getJson } from '../api';
import type { Timeline } from '../timeline';

export interface ViewHost {
  /** The trace's API prefix, e.g. api/t/0. */
  base: string;
  trace: number;
  timeline: Timeline;
  /** Cancelled when the page switches trace. */
  signal: AbortSignal;
  /** Selects a slice by id on the timeline and shows its details, as a click on it does. */
  selectSlice(id: number): Promise<void>;
  /** Highlights the slices of one name (null clears), as the statistics tables' rows do. */
  setHighlight(name: string | null): void;
}

/** A view of the bottom panel: built when its tab is first opened, told when the timeline's window changes. */
export interface View {
  id: string;
  title: string;
  /** Whether the trace has what the view shows (a view without data shows no tab). */
  applies(host: ViewHost): Promise<boolean>;
  render(host: ViewHost, body: HTMLElement): Promise<void>;
  /** The timeline's window or data changed (overlays redraw). */
  onTimeline?(host: ViewHost): void;
  /** The trace is being replaced: drop overlays and timers. */
  dispose?(): void;
}

export function get<T>(host: ViewHost, path: string, params: Record<string, string | number> = {}): Promise<T> {
  return getJson<T>(`${host.base}/${path}`, params, host.signal);
}

/** POSTs JSON to the trace's API; the server's error message becomes the thrown Error's message. */
export async function post<T>(host: ViewHost, path: string, body: unknown): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = new URLSearchParams(location.search).get('token');
  if (token) headers['X-Hetscope-Token'] = token;
  const r = await fetch(new URL(`${host.base}/${path}`, location.href).toString(),
    { method: 'POST', headers, body: JSON.stringify(body), signal: host.signal });
  const answer = await r.json();
  if (!r.ok) throw new Error(answer && answer.error ? answer.error : `${r.status} ${r.statusText}`);
  return answer as T;
}

/** Shows a window of [t0, t1] (trace-relative ns) with a margin, so that a short item is visible in context. */
export function showSpan(host: ViewHost, t0: number, t1: number): void {
  const pad = Math.max(1000, (t1 - t0) * 0.15);
  host.timeline.setView(t0 - pad, t1 + pad);
}
