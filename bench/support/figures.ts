/** Printing and summing the benches' figures. */

export const fmt = (n: number, d = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : String(n);

export const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** Least-squares line through (x, y): its values at the first and last x. */
export function trend(points: Array<[number, number]>): { first: number; last: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = sxx ? sxy / sxx : 0;
  const at = (x: number) => my + slope * (x - mx);
  return { first: at(points[0]![0]), last: at(points.at(-1)![0]) };
}
