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

/**
 * A window in the compact form of `window.bin` (WindowBinary.java describes it), as a WindowResponse whose items
 * already carry their name and category. Zoomed in at 100 M slices a window is 50,000-90,000 items: the JSON form
 * is three times the bytes, and decoding and parsing it showed on the page's main thread.
 */
export function decodeWindow(buffer: ArrayBuffer): WindowResponse {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (bytes.length < 8 || String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== 'HSW1') {
    throw new Error('not a window.bin response');
  }
  const headerLength = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as {
    t0: number; t1: number; px: number; names: string[]; categories: string[]; tracks: [number, number][];
  };
  let p = 8 + headerLength;
  // LEB128, exact up to 2^53 as the JSON form read by JSON.parse; zigzag for the signed fields.
  const unsigned = (): number => {
    let b = bytes[p++];
    if (b < 128) return b;
    let v = b & 127;
    let scale = 128;
    do {
      if (p >= bytes.length) throw new Error('window.bin response cut short');
      b = bytes[p++];
      v += (b & 127) * scale;
      scale *= 128;
    } while (b >= 128);
    return v;
  };
  const signed = (): number => {
    const v = unsigned();
    return v % 2 === 1 ? -(v + 1) / 2 : v / 2;
  };
  const { names, categories } = header;
  const tracks: { track: number; items: Item[] }[] = [];
  for (const [track, n] of header.tracks) {
    const items: Item[] = new Array(n);
    let start = 0;
    let id = 0;
    for (let i = 0; i < n; i++) {
      const depth = unsigned();
      start += signed();
      const end = start + signed();
      const count = signed();
      const busy = signed();
      id += signed();
      const name = names[unsigned()];
      const category = categories[unsigned()];
      items[i] = [depth, start, end, count, busy, id, name, category, signed()];
    }
    tracks.push({ track, items });
  }
  if (p !== bytes.length) throw new Error(`window.bin response: ${bytes.length - p} bytes after the last item`);
  return { t0: header.t0, t1: header.t1, px: header.px, tracks, names, categories };
}

/** Fetches a window in the compact form; errors come as JSON, as from every other API path. */
export async function getWindow(path: string, params: Record<string, string | number>,
  signal?: AbortSignal): Promise<WindowResponse> {
  const r = await request(path, params, signal);
  if (!r.ok) {
    const body = await r.json().catch(() => null);
    throw new Error(body && body.error ? body.error : `${r.status} ${r.statusText}`);
  }
  return decodeWindow(await r.arrayBuffer());
}

export interface FlowEnd { slice: number; track: number; ts: number; dur: number; depth: number; }
export interface Flow { id: number; kind: string; rule: string; from: FlowEnd; to: FlowEnd; direction?: string; partner_name?: string; }

export interface CounterResponse {
  track: number; before: [number, number] | null; points: [number, number, number, number, number, number][];
  min: number | null; max: number | null;
}

export interface TableJson { name: string; title: string; columns: string[]; rows: unknown[][]; }

/** Sends a GET to an API path with its query parameters and the page's token, if it was given one. */
function request(path: string, params: Record<string, string | number>, signal?: AbortSignal): Promise<Response> {
  const url = new URL(path, location.href);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  const t = token();
  if (t) headers['X-Hetscope-Token'] = t;
  return fetch(url.toString(), { headers, signal });
}

function token(): string | null {
  return new URLSearchParams(location.search).get('token');
}

/** Fetches a JSON API path; `signal` cancels it when the view that asked is gone (a trace switch). */
export async function getJson<T>(path: string, params: Record<string, string | number> = {},
  signal?: AbortSignal): Promise<T> {
  const r = await request(path, params, signal);
  const body = await r.json();
  if (!r.ok) throw new Error(body && body.error ? body.error : `${r.status} ${r.statusText}`);
  return body as T;
}
