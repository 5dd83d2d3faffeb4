// `hetscope advise` in the page: the findings as the CLI prints them (AdviceEvidence.java sends Advisor's rows
// unchanged) with a link to their evidence: a click shows the window of the slices the finding speaks of (an idle
// device: its longest idle gap) and selects the longest of them.
import { escapeHtml, formatNumber } from '../format';
import type { View, ViewHost } from './host';
import { get, showSpan } from './host';

export interface Finding {
  rule: string; severity: string; subject: string; advice: string; evidence: string;
  slices: number[]; slice_count: number; window?: [number, number]; window_is?: string;
}

let shown: Finding[] = [];
let followed: { index: number; selected: number | null } | null = null;

export const adviceView: View = {
  id: 'advice',
  title: 'Advice',
  applies: async () => true,
  async render(host, body) {
    shown = await get<Finding[]>(host, 'advice');
    followed = null;
    if (!shown.length) {
      body.innerHTML = '<p class="muted" id="advice-none">No advice for this trace: none of the rules of <code>hetscope advise</code> applies.</p>';
      return;
    }
    body.innerHTML = `<p class="muted">What <code>hetscope advise</code> finds, with its evidence. Click a finding to see its evidence on the timeline.</p>
      <table class="data" id="advice-table"><thead><tr><th>rule</th><th>severity</th><th>subject</th><th>advice</th><th>evidence</th><th>on the timeline</th></tr></thead><tbody>${
      shown.map((f, i) => `<tr class="clickable advice-row" data-index="${i}"><td>${escapeHtml(f.rule)}</td><td class="sev-${escapeHtml(f.severity)}">${escapeHtml(f.severity)}</td><td>${escapeHtml(f.subject)}</td><td class="wrap">${escapeHtml(f.advice)}</td><td class="wrap">${escapeHtml(f.evidence)}</td><td>${
        f.window ? `<span class="flow-link">${f.window_is ? escapeHtml(f.window_is) : `${formatNumber(f.slice_count)} slices`}</span>` : '<span class="muted">—</span>'}</td></tr>`).join('')
    }</tbody></table>`;
    body.querySelectorAll<HTMLElement>('tr.advice-row').forEach((tr) => tr.addEventListener('click', () => void follow(host, Number(tr.dataset.index))));
  },
  dispose() {
    shown = [];
    followed = null;
  },
};

async function follow(host: ViewHost, index: number): Promise<void> {
  const f = shown[index];
  document.querySelectorAll<HTMLElement>('#advice-table tr.advice-row').forEach((tr) => tr.classList.toggle('active', Number(tr.dataset.index) === index));
  followed = { index, selected: null };
  if (!f.window) return;
  showSpan(host, f.window[0], f.window[1]);
  // The kernel-name rules: the name's slices light up wherever they are.
  if (f.rule === 'workgroup-size' || f.rule === 'low-valu-utilisation') host.setHighlight(f.subject);
  if (f.slices.length && !f.window_is) {
    await host.selectSlice(f.slices[0]);
    followed = { index, selected: f.slices[0] };
  }
}

export function adviceTestHooks() {
  return { findings: () => shown, followed: () => followed };
}
