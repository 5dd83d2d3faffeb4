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

export function colourFor(name: string, category: string, mode: 'name' | 'category'): string {
  if (mode === 'category') return CATEGORY[category] ?? '#a0a0a0';
  const h = hash(name);
  return `hsl(${h % 360}, ${45 + (h >> 9) % 25}%, ${45 + (h >> 17) % 15}%)`;
}
