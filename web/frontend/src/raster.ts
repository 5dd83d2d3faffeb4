// Slices drawn as pixel rows: every lane of the visible tracks is composed as one row of device pixels in memory and
// copied to the canvas stretched to the lane's height, in place of one fillRect per item.
//
// Why: a zoomed-in window at 100 M slices brings 50,000-90,000 items narrower than a pixel, each a fillRect with its
// own colour; Chromium's software canvas spent 25-60 ms on them per frame. A lane's rectangles all span the same
// rows of the canvas, so one row of pixels says everything about them.
//
// The composition follows what the canvas does for axis-aligned rectangles: each covers a pixel column in proportion
// to how much of the column it spans (anti-aliased edges), and blends over what is there with its alpha times that
// coverage, in drawing order, rounded to 8 bits after each one. The page's brute-force path (Timeline's reference
// drawing, one fillRect per item) is kept for the test that compares the two pictures.

/** Parses any CSS colour the page uses into [r, g, b, a] (0-255, alpha 0-1) by letting the canvas normalise it. */
const parsed = new Map<string, [number, number, number, number]>();
let scratch: CanvasRenderingContext2D | null = null;

export function rgba(colour: string): [number, number, number, number] {
  let c = parsed.get(colour);
  if (c !== undefined) return c;
  if (!scratch) scratch = document.createElement('canvas').getContext('2d')!;
  // A colour the canvas rejects leaves fillStyle unchanged: start from a known one, as fillStyle would draw black.
  scratch.fillStyle = '#000000';
  scratch.fillStyle = colour;
  const s = String(scratch.fillStyle);
  if (s.startsWith('#')) {
    c = [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16), 1];
  } else {
    const m = s.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 1];
    c = [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  }
  if (parsed.size > 50_000) parsed.clear();
  parsed.set(colour, c);
  return c;
}

/** Lane rows of one frame: composed in an ImageData, uploaded once, then copied lane by lane. */
export class LaneRaster {
  private image: ImageData | null = null;
  private bytes = new Uint8ClampedArray(0);
  private words = new Uint32Array(0);
  private readonly off = document.createElement('canvas');
  private width = 0;
  private lanes = 0;
  private readonly littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

  /** Starts a frame of rows `width` device pixels wide. */
  begin(width: number): void {
    if (width !== this.width) {
      this.width = width;
      this.image = null;
    }
    this.lanes = 0;
  }

  /** Adds `n` lanes filled with an opaque background colour; returns the index of the first. */
  addLanes(n: number, background: [number, number, number, number]): number {
    const first = this.lanes;
    this.lanes += n;
    const w = this.width;
    if (!this.image || this.image.height < this.lanes) {
      // Room for twice as many lanes: the next frames rarely need more.
      const image = new ImageData(w, Math.max(64, 2 * this.lanes));
      if (this.image) image.data.set(this.bytes.subarray(0, first * w * 4));
      this.image = image;
      this.bytes = image.data;
      this.words = new Uint32Array(image.data.buffer);
    }
    this.words.fill(this.pack(background[0], background[1], background[2]), first * w, this.lanes * w);
    return first;
  }

  private pack(r: number, g: number, b: number): number {
    return this.littleEndian ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
  }

  /**
   * Paints [x0, x1) (device pixels, any order of magnitude: clipped here) of a lane with a colour at an alpha, as a
   * canvas fillRect over the lane's height would.
   */
  fill(lane: number, x0: number, x1: number, colour: [number, number, number, number], alpha: number): void {
    const w = this.width;
    if (x0 < 0) x0 = 0;
    if (x1 > w) x1 = w;
    if (!(x1 > x0)) return;
    const a = alpha * colour[3];
    const row = lane * w;
    const p0 = Math.floor(x0);
    const p1 = Math.ceil(x1) - 1;
    if (p0 === p1) {
      this.blend(row + p0, colour, a * (x1 - x0));
      return;
    }
    this.blend(row + p0, colour, a * (p0 + 1 - x0));
    if (p1 > p0 + 1) {
      if (a >= 1) {
        this.words.fill(this.pack(colour[0], colour[1], colour[2]), row + p0 + 1, row + p1);
      } else {
        for (let p = p0 + 1; p < p1; p++) this.blend(row + p, colour, a);
      }
    }
    this.blend(row + p1, colour, a * (x1 - p1));
  }

  private blend(pixel: number, c: [number, number, number, number], k: number): void {
    if (k <= 0) return;
    const b = this.bytes;
    const i = pixel * 4;
    if (k >= 1) {
      b[i] = c[0];
      b[i + 1] = c[1];
      b[i + 2] = c[2];
      return;
    }
    // The canvas works on 8-bit coverage and channels: the same rounding keeps pictures equal.
    const q = Math.round(k * 255) / 255;
    b[i] = b[i] + (c[0] - b[i]) * q;
    b[i + 1] = b[i + 1] + (c[1] - b[i + 1]) * q;
    b[i + 2] = b[i + 2] + (c[2] - b[i + 2]) * q;
  }

  lanesUsed(): number {
    return this.lanes;
  }

  /** Uploads the frame's rows (after the last addLanes/fill, before the first draw). */
  upload(): void {
    if (this.lanes === 0 || !this.image) return;
    if (this.off.width !== this.width || this.off.height !== this.image.height) {
      this.off.width = this.width;
      this.off.height = this.image.height;
    }
    this.off.getContext('2d')!.putImageData(this.image, 0, 0, 0, 0, this.width, this.lanes);
  }

  /** Copies lane `lane` to device rows [y0, y1) of a context (identity transform, no smoothing, set here). */
  draw(ctx: CanvasRenderingContext2D, lane: number, y0: number, y1: number): void {
    if (y1 <= y0) return;
    ctx.drawImage(this.off, 0, lane, this.width, 1, 0, y0, this.width, y1 - y0);
  }
}
