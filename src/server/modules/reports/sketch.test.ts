import { describe, expect, it } from 'vitest';
import {
  addValue,
  bucketOf,
  bucketValue,
  type Histogram,
  mergeInto,
  quantile,
  SKETCH_RELATIVE_ERROR,
} from './sketch.ts';

/** PostgreSQL's percentile_cont: between the two nearest ranks, in proportion. */
function exactQuantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = p * (sorted.length - 1);
  const lower = Math.floor(position);
  return sorted[lower]! + (position - lower) * (sorted[Math.ceil(position)]! - sorted[lower]!);
}

/** A repeatable stream of numbers in [0, 1). */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

describe('the reports’ histogram', () => {
  it('reads every value back within its bound, 0 as 0', () => {
    expect(SKETCH_RELATIVE_ERROR).toBeLessThan(0.0075);
    for (const value of [0.0011, 0.5, 1, 59.99, 60, 480, 2_400, 123_456.7]) {
      const back = bucketValue(bucketOf(value));
      expect(Math.abs(back - value) / value, String(value)).toBeLessThanOrEqual(SKETCH_RELATIVE_ERROR + 1e-12);
    }
    expect(bucketValue(bucketOf(0))).toBe(0);
  });

  it('gives the median and 90th percentile of merged days within the bound of the exact figures', () => {
    const next = random(7);
    const all: number[] = [];
    const merged: Histogram = {};
    for (let day = 0; day < 365; day++) {
      const histogram: Histogram = {};
      for (let i = 0; i < 40; i++) {
        // Business minutes: many zeros (answered before opening), the rest spread over weeks.
        const value = next() < 0.1 ? 0 : Math.exp(next() * 10);
        all.push(value);
        addValue(histogram, value);
      }
      mergeInto(merged, histogram);
    }
    for (const p of [0.5, 0.9]) {
      const exact = exactQuantile(all, p);
      expect(Math.abs(quantile(merged, p)! - exact) / exact, `p${p * 100}`).toBeLessThanOrEqual(SKETCH_RELATIVE_ERROR);
    }
  });

  it('has no quantile without values, and one value is its own', () => {
    expect(quantile({}, 0.5)).toBeNull();
    const one: Histogram = {};
    addValue(one, 90);
    expect(quantile(one, 0.9)! / 90).toBeCloseTo(1, 2);
  });
});
