// Marks slices on the timeline without changing how it draws: a canvas laid over the timeline's canvas (no pointer
// events) outlines given slice ids where the timeline draws them (Timeline.screenOf) and joins them in order.
import type { Timeline } from '../timeline';

export class SliceOverlay {
  private readonly canvas: HTMLCanvasElement;
  /** How many of the ids were on screen at the last draw (the others are off-window or merged at this zoom). */
  shown = 0;

  constructor(private readonly timeline: Timeline, private readonly ids: number[], private readonly colour: string) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'slice-overlay';
    document.body.append(this.canvas);
    // The rows scroll vertically without a new window: follow them.
    document.getElementById('rows')!.addEventListener('scroll', this.redraw);
    this.draw();
  }

  draw(): void {
    const base = document.getElementById('timeline') as HTMLCanvasElement;
    const rows = document.getElementById('rows')!.getBoundingClientRect();
    const r = base.getBoundingClientRect();
    const top = Math.max(r.top, rows.top);
    const bottom = Math.min(r.bottom, rows.bottom);
    const dpr = window.devicePixelRatio || 1;
    Object.assign(this.canvas.style, { left: `${r.left}px`, top: `${top}px`, width: `${r.width}px`, height: `${Math.max(0, bottom - top)}px` });
    this.canvas.width = Math.round(r.width * dpr);
    this.canvas.height = Math.round(Math.max(0, bottom - top) * dpr);
    const ctx = this.canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, r.width, bottom - top);
    let prev: { x: number; y: number } | null = null;
    this.shown = 0;
    ctx.strokeStyle = this.colour;
    for (const id of this.ids) {
      const s = this.timeline.screenOf(id);
      if (!s) {
        prev = null;
        continue;
      }
      this.shown++;
      const x0 = s.x0 - r.left;
      const x1 = s.x1 - r.left;
      const y = s.y - top;
      ctx.lineWidth = 3;
      ctx.strokeRect(x0 - 1, y - 8, Math.max(3, x1 - x0 + 2), 16);
      if (prev) {
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(prev.x, prev.y);
        ctx.lineTo(x0, y);
        ctx.stroke();
      }
      prev = { x: x1, y };
    }
  }

  private readonly redraw = () => this.draw();

  remove(): void {
    document.getElementById('rows')!.removeEventListener('scroll', this.redraw);
    this.canvas.remove();
  }
}
