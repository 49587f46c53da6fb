import { describe, expect, it } from 'vitest';
import {
  formatNzDate,
  formatNzDateTime,
  formatNzDay,
  formatNzDueTime,
  formatNzShortDateTime,
  keepDateTexts,
  longDate,
} from './dates.ts';
import { shortDay } from './reports.ts';

/** Dates as people read them, in New Zealand time, summer (NZDT, +13) and winter (NZST, +12). */
describe('dates in en-NZ, New Zealand time', () => {
  const summer = '2026-12-25T03:30:00Z';
  const winter = '2027-06-01T00:05:00Z';

  it('writes each kind of date the way the pages and mail show it', () => {
    expect(formatNzDateTime(summer)).toBe('25 Dec 2026, 4:30 pm');
    expect(formatNzDateTime(winter)).toBe('1 Jun 2027, 12:05 pm');
    expect(longDate(summer)).toBe('Friday 25 December 2026');
    expect(formatNzDay('2026-12-12')).toBe('12 Dec 2026');
    expect(formatNzShortDateTime(summer)).toBe('25 Dec 2026, 4:30 pm');
    expect(formatNzDate(winter)).toBe('1 June 2027');
    expect(formatNzDueTime(summer)).toBe('Fri 25 Dec, 16:30');
    expect(shortDay('2027-04-03')).toBe('3 Apr');
  });

  it('gives the same answer on every call (each formatter is built once and kept)', () => {
    const times = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 11, 24, i)).toISOString());
    const first = times.map(formatNzDateTime);
    expect(times.map(formatNzDateTime)).toEqual(first);
    // NZDT: midnight UTC on 24 December is 1 pm there; 11 hours later the day turns.
    expect(first[0]).toBe('24 Dec 2026, 1:00 pm');
    expect(first[11]).toBe('25 Dec 2026, 12:00 am');
  });
});

/**
 * A page's dates come with it (keepDateTexts): a browser that starts from the texts the server
 * wrote answers from them, and formats only what they do not hold.
 */
describe('the dates a page was drawn with', () => {
  it('answers from the kept texts, keeps what it formats, and formats afresh once nothing is kept', () => {
    const iso = '2026-12-25T03:30:00Z';
    const kept = new Map([[`dateTime ${iso}`, 'as the server wrote it']]);
    keepDateTexts(() => kept);
    try {
      expect(formatNzDateTime(iso)).toBe('as the server wrote it');
      expect(formatNzDueTime(iso)).toBe('Fri 25 Dec, 16:30');
      expect(kept.get(`dueTime ${iso}`)).toBe('Fri 25 Dec, 16:30');
      expect(longDate(new Date(iso))).toBe('Friday 25 December 2026');
      expect(kept.get(`longDay ${Date.parse(iso)}`)).toBe('Friday 25 December 2026');
    } finally {
      keepDateTexts(() => undefined);
    }
    expect(formatNzDateTime(iso)).toBe('25 Dec 2026, 4:30 pm');
  });
});
