import { describe, expect, it } from 'vitest';
import { linePath, scaleBand, scaleLinear, ticks } from './scales.ts';

/**
 * The charts' scales give d3's answers (d3-scale 4.0.2, d3-array 3.2.1, d3-shape 3.2.0, which the
 * charts drew with through visx until decision 159): each expected value below is what d3 answered
 * for the same call, recorded when the scales were written.
 */

// [max, nice domain's end, ticks(4), ticks(3), y(max / 3)] of scaleLinear().domain([0, max]).range([200, 0]).nice()
const D3_LINEAR: Array<[number, number, number[], number[], number]> = [
  [1, 1, [0, 0.2, 0.4, 0.6, 0.8, 1], [0, 0.5, 1], 133.33333333333334],
  [2, 2, [0, 0.5, 1, 1.5, 2], [0, 0.5, 1, 1.5, 2], 133.33333333333334],
  [3, 3, [0, 1, 2, 3], [0, 1, 2, 3], 133.33333333333334],
  [4, 4, [0, 1, 2, 3, 4], [0, 1, 2, 3, 4], 133.33333333333334],
  [5, 5, [0, 1, 2, 3, 4, 5], [0, 2, 4], 133.33333333333331],
  [7, 7, [0, 2, 4, 6], [0, 2, 4, 6], 133.33333333333331],
  [9, 9, [0, 2, 4, 6, 8], [0, 2, 4, 6, 8], 133.33333333333334],
  [10, 10, [0, 2, 4, 6, 8, 10], [0, 5, 10], 133.33333333333331],
  [11, 11, [0, 2, 4, 6, 8, 10], [0, 5, 10], 133.33333333333334],
  [17, 18, [0, 5, 10, 15], [0, 5, 10, 15], 137.037037037037],
  [23, 24, [0, 5, 10, 15, 20], [0, 10, 20], 136.11111111111111],
  [37, 40, [0, 10, 20, 30, 40], [0, 10, 20, 30, 40], 138.33333333333334],
  [50, 50, [0, 10, 20, 30, 40, 50], [0, 20, 40], 133.33333333333331],
  [99, 100, [0, 20, 40, 60, 80, 100], [0, 50, 100], 134],
  [101, 110, [0, 20, 40, 60, 80, 100], [0, 50, 100], 138.78787878787878],
  [250, 260, [0, 50, 100, 150, 200, 250], [0, 100, 200], 135.8974358974359],
  [999, 1000, [0, 200, 400, 600, 800, 1000], [0, 500, 1000], 133.4],
  [1234, 1300, [0, 500, 1000], [0, 500, 1000], 136.7179487179487],
  [98765, 100000, [0, 20000, 40000, 60000, 80000, 100000], [0, 50000, 100000], 134.15666666666667],
];

describe("the report charts' scales", () => {
  it.each(D3_LINEAR)(
    'a count axis up to %d: nice end %d, its ticks and positions as d3 has them',
    (max, end, four, three, third) => {
      const y = scaleLinear({ domain: [0, max], range: [200, 0], nice: true });
      expect(y.domain()).toEqual([0, end]);
      expect(y.ticks(4)).toEqual(four);
      expect(y.ticks(3)).toEqual(three);
      expect(y(max / 3)).toBe(third);
      expect(y(0)).toBe(200);
      expect(y(end)).toBe(0);
    },
  );

  it('a share axis, not made nice: 0 to 1', () => {
    const y = scaleLinear({ domain: [0, 1], range: [180, 0] });
    expect(y.ticks(4)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(y(0.5)).toBe(90);
    expect(ticks(5, 5, 4)).toEqual([5]);
    expect(ticks(10, 0, 2)).toEqual([10, 5, 0]);
  });

  it('bands padded by 0.3 and 0.2 of a step, as d3 places them', () => {
    const kinds = scaleBand({ domain: ['a', 'b', 'c', 'd', 'e'], range: [0, 704], padding: 0.3 });
    expect([kinds('a'), kinds('c'), kinds('e'), kinds.bandwidth(), kinds.step()]).toEqual([
      39.84905660377359, 305.50943396226415, 571.1698113207547, 92.98113207547169, 132.83018867924528,
    ]);
    expect(kinds('z')).toBeUndefined();
    const days = scaleBand({ domain: Array.from({ length: 28 }, (_, i) => String(i)), range: [0, 704], padding: 0.2 });
    expect([days('0'), days('13'), days('27'), days.bandwidth(), days.step()]).toEqual([
      4.992907801418426, 329.531914893617, 679.0354609929077, 19.97163120567376, 24.9645390070922,
    ]);
  });

  it('a line through points, to three decimals; a lone point closed; none, empty', () => {
    expect(
      linePath([
        [1.23456, 2],
        [3, 4.00049],
        [5.5, 6],
      ]),
    ).toBe('M1.235,2L3,4L5.5,6');
    expect(linePath([[7, 8]])).toBe('M7,8Z');
    expect(linePath([])).toBe('');
  });
});
