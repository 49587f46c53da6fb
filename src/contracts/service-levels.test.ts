import { describe, expect, it } from 'vitest';
import { dueWords } from './due-times.ts';

describe('dueWords', () => {
  const due = new Date('2026-12-02T03:00:00Z');
  const at = (ms: number) => new Date(due.getTime() + ms);

  it('says "late" the moment a due time has passed, however little', () => {
    expect(dueWords(due, at(1))).toBe('late by under a minute');
    expect(dueWords(due, at(20_000))).toBe('late by under a minute');
    expect(dueWords(due, at(35 * 60_000))).toBe('late by 35 min');
  });

  it('says "due in" up to the due time itself', () => {
    expect(dueWords(due, at(0))).toBe('due in under a minute');
    expect(dueWords(due, at(-20_000))).toBe('due in under a minute');
    expect(dueWords(due, at(-2 * 3_600_000))).toBe('due in 2 h');
    expect(dueWords(due, at(-(2 * 60 + 15) * 60_000))).toBe('due in 2 h 15 min');
  });
});
