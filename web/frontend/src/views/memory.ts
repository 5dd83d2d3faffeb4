// StarPU memory views as pictures: residency per node, the presence heatmap with its colour scale, and the snapshot
// of every block at the timeline's cursor time (the centre of the visible window), each the SVG that
// `hetscope memory residency|heatmap|snapshot --svg` writes (the server draws them with the same library calls).
// Pictures are shown as images, so nothing in a trace's names can run in the page.
import { formatDuration } from '../format';
import type { View, ViewHost } from './host';
import { get } from './host';

interface Pictures { memory: boolean; t?: number; residency?: string; heatmap?: string; snapshot?: string }

let last: Pictures | null = null;
let timer: number | undefined;
const urls: string[] = [];

function image(svg: string, id: string, title: string): string {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  urls.push(url);
  return `<figure class="mem-figure"><figcaption>${title}</figcaption><img id="${id}" src="${url}" alt="${title}"></figure>`;
}

function release(): void {
  for (const u of urls.splice(0)) URL.revokeObjectURL(u);
}

async function load(host: ViewHost, body: HTMLElement): Promise<void> {
  const tl = host.timeline;
  const t = Math.round((tl.t0 + tl.t1) / 2);
  const p = await get<Pictures>(host, 'memory-pictures', { t });
  release();
  last = p;
  body.innerHTML = `<p class="muted">Pictures of <code>hetscope memory … --svg</code>. The snapshot follows the centre of the timeline's window: <b id="mem-t">+${formatDuration(p.t!)}</b> (${p.t} ns).</p>
    <div class="mem-pictures">${image(p.snapshot!, 'mem-snapshot', 'snapshot at the cursor time')}${image(p.residency!, 'mem-residency', 'residency per node (20 ms bins)')}${image(p.heatmap!, 'mem-heatmap', 'presence heatmap (lifetime)')}</div>`;
}

export const memoryView: View = {
  id: 'memory',
  title: 'Memory',
  applies: async (host) => (await get<Pictures>(host, 'memory-pictures')).memory,
  async render(host, body) {
    await load(host, body);
  },
  onTimeline(host) {
    // The snapshot follows the window once it settles.
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      const body = document.getElementById('view-memory');
      if (body && !body.hidden && last && Math.round((host.timeline.t0 + host.timeline.t1) / 2) !== last.t) void load(host, body).catch(() => {});
    }, 400);
  },
  dispose() {
    clearTimeout(timer);
    release();
    last = null;
  },
};

export function memoryTestHooks() {
  return { last: () => last };
}
