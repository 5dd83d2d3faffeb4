// Stable colours: the same name (or category) always gets the same hue.

const CATEGORY: Record<string, string> = {
  kernel: '#2f7ed8', api: '#e69f00', memcpy: '#009e73', memset: '#56b4e9', sync: '#d55e00', cpu_op: '#8e6bbf',
  annotation: '#999999', task: '#cc79a7', state: '#7f7f7f', alloc: '#b8860b', marker: '#444444', other: '#a0a0a0',
};

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/**
 * Thread states as Trace Compass paints them (running green, waiting for a CPU orange, blocked yellow, in a system
 * call blue), a little muted; a hashed colour could make a blocked thread the loudest thing on screen.
 */
export const THREAD_STATE: Record<string, string> = {
  running: 'rgb(46, 160, 67)', runnable: 'rgb(214, 120, 30)', blocked: 'rgb(222, 200, 90)',
  syscall: 'rgb(60, 100, 200)',
};

/** Colours the trace declares for its own values (Paje's entity values), by name; set per trace. */
let declared: Record<string, string> = {};

export function setDeclaredColours(c: Record<string, string>): void {
  declared = c;
  clearMemo();
}

/**
 * Colours already worked out: a zoomed-out frame asks for tens of thousands of items, and hashing the name and
 * building (then having the canvas parse) an hsl() string each time showed in its cost; so did building a combined
 * (mode, category, name) key string per item. By category the name plays no part; by name only whether the
 * category is a task, a thread state or anything else does.
 */
const byCategory = new Map<string, string>();
const byName = [new Map<string, string>(), new Map<string, string>(), new Map<string, string>()];

function clearMemo(): void {
  byCategory.clear();
  for (const m of byName) m.clear();
}

export function colourFor(name: string, category: string, mode: 'name' | 'category'): string {
  const memo = mode === 'category' ? byCategory : byName[category === 'task' ? 1 : category === 'state' ? 2 : 0];
  const key = mode === 'category' ? category : name;
  let c = memo.get(key);
  if (c === undefined) {
    c = computeColour(name, category, mode);
    if (memo.size > 50_000) memo.clear();
    memo.set(key, c);
  }
  return c;
}

function computeColour(name: string, category: string, mode: 'name' | 'category'): string {
  if (mode === 'category') return CATEGORY[category] ?? '#a0a0a0';
  // Tasks keep a colour per codelet: StarPU declares every codelet in one colour, which hides which ran where.
  const own = category === 'task' ? undefined : declared[name];
  if (own !== undefined) return own;
  if (category === 'state' && THREAD_STATE[name] !== undefined) return THREAD_STATE[name];
  const h = hash(name);
  return `hsl(${h % 360}, ${45 + (h >> 9) % 25}%, ${45 + (h >> 17) % 15}%)`;
}

export interface LegendSection { title: string; kind: string; entries: { name: string; colour: string }[]; }

/**
 * The legend of the colouring in use for what is drawn: by category, the drawn categories; by name, thread states
 * (all four, Trace Compass style) when any is drawn, the trace's own declared colours, codelets (tasks) and the other
 * names that take the most drawn time.
 */
export function legendFor(drawn: { name: string; category: string; time: number }[], mode: 'name' | 'category',
  topNames = 10): LegendSection[] {
  const byTime = [...drawn].sort((a, b) => b.time - a.time || a.name.localeCompare(b.name));
  if (mode === 'category') {
    const cats = [...new Set(byTime.map((d) => d.category))];
    return cats.length ? [{ title: 'categories', kind: 'category',
      entries: cats.map((c) => ({ name: c, colour: colourFor('', c, 'category') })) }] : [];
  }
  const states: LegendSection = { title: 'thread states', kind: 'thread-state', entries: [] };
  const own: LegendSection = { title: "trace's colours", kind: 'declared', entries: [] };
  const tasks: LegendSection = { title: 'codelets (tasks)', kind: 'codelet', entries: [] };
  const names: LegendSection = { title: 'names (most drawn time)', kind: 'name', entries: [] };
  const seen = new Set<string>();
  let otherNames = 0;
  for (const d of byTime) {
    const colour = colourFor(d.name, d.category, 'name');
    const key = `${d.name}\u0000${colour}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (d.category === 'task') tasks.entries.push({ name: d.name, colour });
    else if (declared[d.name] !== undefined) own.entries.push({ name: d.name, colour });
    else if (d.category === 'state' && THREAD_STATE[d.name] !== undefined) {
      if (!states.entries.length) {
        for (const [n, c] of Object.entries(THREAD_STATE)) states.entries.push({ name: n, colour: c });
      }
    } else if (names.entries.length < topNames) names.entries.push({ name: d.name, colour });
    else otherNames++;
  }
  if (otherNames) names.title = `names (top ${topNames} by drawn time; ${otherNames} more)`;
  return [states, own, tasks, names].filter((s) => s.entries.length);
}
