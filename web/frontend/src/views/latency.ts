// Launch latency: `hetscope gpu --latency-histogram` as bars (the server sends LaunchLatency.histogram(), the CLI's
// buckets: 1-2-5 per decade) and `hetscope gpu`'s launch latency table per API function.
import { escapeHtml, formatDuration, headerCells } from '../format';
import type { TableJson } from '../api';
import type { View } from './host';
import { get } from './host';

interface Answer { flows: boolean; histogram?: TableJson; stats?: TableJson }

let answer: Answer | null = null;

function bucketLabel(lo: number | null, hi: number | null): string {
  if (lo === null) return '< 0 (clocks disagree)';
  if (hi === null) return `≥ ${formatDuration(lo)}`;
  return `${formatDuration(lo)} – ${formatDuration(hi)}`;
}

export const latencyView: View = {
  id: 'latency',
  title: 'Launch latency',
  applies: async (host) => (await get<Answer>(host, 'launch-latency', { probe: 1 })).flows,
  async render(host, body) {
    answer = await get<Answer>(host, 'launch-latency');
    const h = answer.histogram!;
    const rows = h.rows as [number | null, number | null, number][];
    const max = Math.max(1, ...rows.map((r) => r[2]));
    const bars = rows.map((r, i) => `<div class="lat-bar-row" data-bucket="${i}"><span class="lat-label">${escapeHtml(bucketLabel(r[0], r[1]))}</span><span class="lat-track"><span class="lat-bar" style="width:${(r[2] / max) * 100}%"></span></span><span class="lat-count" data-v="${r[2]}">${r[2]}</span></div>`).join('');
    const st = answer.stats!;
    body.innerHTML = `<p class="muted">Start of the GPU activity minus the start of the API call that launched it, over every flow (<code>hetscope gpu --latency-histogram</code>; per function: <code>hetscope gpu</code>).</p>
      <div class="lat-layout"><div id="lat-histogram" class="lat-histogram">${bars || '<p class="muted">No flows.</p>'}</div>
      <div class="lat-stats"><table class="data" id="lat-stats"><thead><tr>${headerCells(st.columns)}</tr></thead><tbody>${
      st.rows.map((r) => `<tr>${r.map((v, j) => `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(String(v))}">${escapeHtml(typeof v === 'number' && /_ns$/.test(st.columns[j]) ? formatDuration(v) : String(v))}</td>`).join('')}</tr>`).join('')}</tbody></table></div></div>`;
  },
  dispose() {
    answer = null;
  },
};

export function latencyTestHooks() {
  return { answer: () => answer };
}
