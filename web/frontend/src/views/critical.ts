// `hetscope tasks critical-path` in the page: its two tables (the same rows, from CriticalPath) and the path drawn
// on the timeline, each task outlined and joined to the next; a row click shows and selects that task.
import { escapeHtml, formatDuration, formatNumber, headerCells } from '../format';
import type { TableJson } from '../api';
import type { View, ViewHost } from './host';
import { get, showSpan } from './host';
import { SliceOverlay } from './overlay';

interface Answer { tasks: number; summary?: TableJson; path?: TableJson; slices?: (number | null)[]; origin?: string }

let answer: Answer | null = null;
let overlay: SliceOverlay | null = null;

function table(t: TableJson, id: string, rowAttr: (i: number) => string = () => ''): string {
  return `<table class="data" id="${id}"><thead><tr>${headerCells(t.columns)}</tr></thead><tbody>${
    t.rows.map((r, i) => `<tr${rowAttr(i)}>${r.map((v, j) => {
      const col = t.columns[j];
      const text = v === null ? '' : typeof v === 'number' && /_ns$/.test(col) ? `${v} (${formatDuration(v)})`
        : typeof v === 'number' && /percent/.test(col) ? `${v.toFixed(2)} %` : String(v);
      return `<td class="${typeof v === 'number' ? 'num' : ''}" data-v="${escapeHtml(v === null ? '' : String(v))}">${escapeHtml(text)}</td>`;
    }).join('')}</tr>`).join('')}</tbody></table>`;
}

export const criticalView: View = {
  id: 'critical',
  title: 'Critical path',
  // Only for stores with tasks (StarPU); the first answer is kept for render.
  applies: async (host) => {
    answer = await get<Answer>(host, 'critical-path');
    return answer.tasks > 0;
  },
  async render(host, body) {
    const a = answer!;
    const ids = (a.slices ?? []).filter((x): x is number => x !== null);
    body.innerHTML = `<p class="muted">The chain of dependent tasks with the largest total duration (<code>hetscope tasks critical-path</code>), outlined on the timeline. <label><input type="checkbox" id="cp-show" checked> outline on the timeline</label> <span id="cp-onscreen"></span></p>`
      + table(a.summary!, 'cp-summary') + '<h4>Tasks on the path</h4>'
      + table(a.path!, 'cp-path', (i) => ` class="clickable" data-step="${i}"`);
    overlay?.remove();
    overlay = new SliceOverlay(host.timeline, ids, '#f97316');
    // Show the path's span: from its first task's start to its last task's end.
    const cols = a.path!.columns;
    const origin = BigInt(a.origin ?? '0');
    const rel = (v: unknown) => Number(BigInt(String(v)) - origin);
    if (a.path!.rows.length) {
      showSpan(host, rel(a.path!.rows[0][cols.indexOf('start_ts')]), rel(a.path!.rows[a.path!.rows.length - 1][cols.indexOf('end_ts')]));
    }
    onScreen();
    body.querySelector<HTMLInputElement>('#cp-show')!.addEventListener('change', (e) => {
      overlay?.remove();
      overlay = (e.target as HTMLInputElement).checked ? new SliceOverlay(host.timeline, ids, '#f97316') : null;
      onScreen();
    });
    body.querySelectorAll<HTMLElement>('#cp-path tr[data-step]').forEach((tr) => tr.addEventListener('click', () => void step(host, Number(tr.dataset.step))));
  },
  onTimeline() {
    overlay?.draw();
    onScreen();
  },
  dispose() {
    overlay?.remove();
    overlay = null;
    answer = null;
  },
};

function onScreen(): void {
  const el = document.getElementById('cp-onscreen');
  if (el && answer?.slices) {
    el.textContent = overlay ? `${formatNumber(overlay.shown)} of ${formatNumber(answer.slices.length)} path tasks outlined in this window` : '';
  }
}

async function step(host: ViewHost, i: number): Promise<void> {
  const a = answer;
  if (!a?.path || !a.slices) return;
  document.querySelectorAll<HTMLElement>('#cp-path tr[data-step]').forEach((tr) => tr.classList.toggle('active', Number(tr.dataset.step) === i));
  const cols = a.path.columns;
  const row = a.path.rows[i];
  const origin = BigInt(a.origin ?? '0');
  // Path times are the store's absolute ns; the timeline's are from the trace origin.
  const rel = (v: unknown) => Number(BigInt(String(v)) - origin);
  showSpan(host, rel(row[cols.indexOf('start_ts')]), rel(row[cols.indexOf('end_ts')]));
  const id = a.slices[i];
  if (id !== null) await host.selectSlice(id);
}

export function criticalTestHooks() {
  return { answer: () => answer, outlined: () => overlay?.shown ?? 0 };
}
