import { describe, expect, it } from 'vitest';
import { backoffSeconds } from './notifications.worker.ts';

describe('backoffSeconds', () => {
  it('doubles from the first wait, stays within ±20 %, and never passes an hour', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => backoffSeconds(n, 30, middle))).toEqual([30, 60, 120, 240, 480]);
    expect(backoffSeconds(20, 30, middle)).toBe(3600);
    expect(backoffSeconds(1, 30, () => 0)).toBe(24);
    expect(backoffSeconds(1, 30, () => 0.999999)).toBe(36);
    expect(backoffSeconds(1, 1, () => 0)).toBe(1);
  });
});
