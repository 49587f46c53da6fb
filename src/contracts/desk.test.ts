import { describe, expect, it } from 'vitest';
import { formatMinutes } from './desk.ts';

describe('formatMinutes', () => {
  it('says "under a minute" rather than "0 min"', () => {
    expect(formatMinutes(0)).toBe('under a minute');
    expect(formatMinutes(0.4)).toBe('under a minute');
    expect(formatMinutes(0.99)).toBe('under a minute');
  });

  it('counts minutes, then hours, then days', () => {
    expect(formatMinutes(1)).toBe('1 min');
    expect(formatMinutes(12.4)).toBe('12 min');
    expect(formatMinutes(59.7)).toBe('1 h');
    expect(formatMinutes(210)).toBe('3.5 h');
    expect(formatMinutes(3 * 1440)).toBe('3 days');
    expect(formatMinutes(null)).toBe('–');
  });
});
