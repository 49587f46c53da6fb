/**
 * The few scales the report's charts draw with (charts.tsx): a band scale for bars, a linear one
 * for counts and shares, their ticks, and a line's path. The same arithmetic as d3-scale 4 and
 * d3-shape 3 (which visx wrapped), written out for what the charts use: a chart draws the same
 * marks to the same decimal, and the reports page loads a few hundred bytes instead of visx and
 * d3 (docs/decisions/159-console-pages-in-the-budget.md). scales.test.ts holds them to d3's answers.
 */

/** A band scale: each value its band's start, bands of one width, padded inside and out by `padding` steps. */
export interface BandScale<T> {
  (value: T): number | undefined;
  bandwidth(): number;
  step(): number;
}

/** d3's scaleBand().domain(domain).range(range).padding(padding), align 0.5, not rounded. */
export function scaleBand<T>({
  domain,
  range: [r0, r1],
  padding = 0,
}: {
  domain: readonly T[];
  range: readonly [number, number];
  padding?: number;
}): BandScale<T> {
  const index = new Map<T, number>();
  for (const value of domain) if (!index.has(value)) index.set(value, index.size);
  const n = index.size;
  const inner = Math.min(1, padding);
  const reverse = r1 < r0;
  let start = reverse ? r1 : r0;
  const stop = reverse ? r0 : r1;
  const step = (stop - start) / Math.max(1, n - inner + padding * 2);
  start += (stop - start - step * (n - inner)) * 0.5;
  const bandwidth = step * (1 - inner);
  const scale = (value: T) => {
    const i = index.get(value);
    if (i === undefined) return undefined;
    return start + step * (reverse ? n - 1 - i : i);
  };
  return Object.assign(scale, { bandwidth: () => bandwidth, step: () => step });
}

/** A linear scale from a domain to a range, with its ticks. */
export interface LinearScale {
  (value: number): number;
  ticks(count?: number): number[];
  domain(): [number, number];
}

const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);

/** d3-array's tickIncrement: a step of 1, 2 or 5 times a power of ten (negative: its inverse, below 1). */
function tickIncrement(start: number, stop: number, count: number): number {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log(step) / Math.LN10);
  const error = step / Math.pow(10, power);
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  return power >= 0 ? factor * Math.pow(10, power) : -Math.pow(10, -power) / factor;
}

/** d3-array's ticks(start, stop, count): about `count` round values from start to stop, both included when round. */
export function ticks(start: number, stop: number, count: number): number[] {
  if (start === stop && count > 0) return [start];
  const reverse = stop < start;
  if (reverse) [start, stop] = [stop, start];
  let step = tickIncrement(start, stop, count);
  if (step === 0 || !Number.isFinite(step)) return [];
  const found: number[] = [];
  if (step > 0) {
    let r0 = Math.round(start / step);
    let r1 = Math.round(stop / step);
    if (r0 * step < start) ++r0;
    if (r1 * step > stop) --r1;
    for (let i = 0; i < r1 - r0 + 1; i++) found.push((r0 + i) * step);
  } else {
    step = -step;
    let r0 = Math.round(start * step);
    let r1 = Math.round(stop * step);
    if (r0 / step < start) ++r0;
    if (r1 / step > stop) --r1;
    for (let i = 0; i < r1 - r0 + 1; i++) found.push((r0 + i) / step);
  }
  return reverse ? found.reverse() : found;
}

/** d3-scale's linear.nice(): the domain widened to round ends (10 ticks' steps). */
function nice([d0, d1]: readonly [number, number]): [number, number] {
  const descending = d1 < d0;
  let [start, stop] = descending ? [d1, d0] : [d0, d1];
  let previous: number | undefined;
  for (let tries = 10; tries > 0; tries--) {
    const step = tickIncrement(start, stop, 10);
    if (step === previous) return descending ? [stop, start] : [start, stop];
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else break;
    previous = step;
  }
  return [d0, d1];
}

/** d3's scaleLinear().domain(domain).range(range), made nice when asked; not clamped. */
export function scaleLinear({
  domain,
  range: [r0, r1],
  nice: rounded = false,
}: {
  domain: readonly [number, number];
  range: readonly [number, number];
  nice?: boolean;
}): LinearScale {
  const [d0, d1] = rounded ? nice(domain) : domain;
  const span = d1 - d0;
  const scale = (value: number) => {
    const t = span ? (value - d0) / span : Number.isNaN(span) ? NaN : 0.5;
    return r0 * (1 - t) + r1 * t;
  };
  return Object.assign(scale, {
    ticks: (count = 10) => ticks(d0, d1, count),
    domain: (): [number, number] => [d0, d1],
  });
}

/** A number in a path as d3-shape 3 writes it: at most three decimals. */
const pathNumber = (n: number) => Math.round(n * 1000) / 1000;

/** d3-shape's line() through the points, straight from one to the next: 'M0,1L2,3'; a lone point closed, 'M0,1Z'. */
export function linePath(points: ReadonlyArray<readonly [number, number]>): string {
  const path = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${pathNumber(x)},${pathNumber(y)}`).join('');
  return points.length === 1 ? `${path}Z` : path;
}
