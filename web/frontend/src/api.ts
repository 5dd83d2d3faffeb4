// The JSON API of `hetscope serve`. Times are nanoseconds relative to the trace origin.

export interface TraceSummary { index: number; name: string; origin: string; span: number; tracks: number; }

export interface TrackInfo {
  id: number; parentId: number | null; kind: string; name: string; sortIndex: number; unit: string | null;
  deviceId: number | null; processId: number | null; threadId: number | null; stream: number | null;
  slices: number; lanes: number; counterSamples: number; instants: number;
}

/** [ts, count, id, name, category]: the first instant of a pixel column and how many share the column. */
export type InstantItem = [number, number, number, string, string];
export interface InstantResponse { t0: number; t1: number; px: number; tracks: { track: number; items: InstantItem[] }[]; }

/** [depth, start, end, count, busy, id, name, category, matches] */
export type Item = [number, number, number, number, number, number, string, string, number];

export interface WindowResponse {
  t0: number; t1: number; px: number; tracks: { track: number; items: Item[] }[];
  /** Items carry indexes into these lists in place of name and category (see resolveNames). */
  names: string[]; categories: string[];
}

/** Replaces the name and category indexes of a window response's items by the strings. */
export function resolveNames(w: WindowResponse): WindowResponse {
  for (const t of w.tracks) {
    for (const it of t.items) {
      it[6] = w.names[it[6] as unknown as number];
      it[7] = w.categories[it[7] as unknown as number];
    }
  }
  return w;
}

export interface FlowEnd { slice: number; track: number; ts: number; dur: number; depth: number; }
export interface Flow { id: number; kind: string; rule: string; from: FlowEnd; to: FlowEnd; direction?: string; partner_name?: string; }

export interface CounterResponse {
  track: number; before: [number, number] | null; points: [number, number, number, number, number, number][];
  min: number | null; max: number | null;
}

export interface TableJson { name: string; title: string; columns: string[]; rows: unknown[][]; }

function token(): string | null {
  return new URLSearchParams(location.search).get('token');
}

/** Fetches a JSON API path; `signal` cancels it when the view that asked is gone (a trace switch). */
export async function getJson<T>(path: string, params: Record<string, string | number> = {},
  signal?: AbortSignal): Promise<T> {
  const url = new URL(path, location.href);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  const t = token();
  if (t) headers['X-Hetscope-Token'] = t;
  const r = await fetch(url.toString(), { headers, signal });
  const body = await r.json();
  if (!r.ok) throw new Error(body && body.error ? body.error : `${r.status} ${r.statusText}`);
  return body as T;
}
