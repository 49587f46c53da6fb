import { describe, expect, it } from 'vitest';
import { isWorkingDay, newZealandDate, privacyDueDate, workingDaysLeft } from './privacy-clock.ts';

/** An instant at a New Zealand wall-clock time (NZDT is UTC+13, NZST UTC+12). */
const nz = (local: string, offset: '+13:00' | '+12:00') => new Date(`${local}${offset}`);

describe('the privacy clock (20 working days, as the Privacy Act 2020 counts them)', () => {
  it('counts plain weeks: Monday 23 November 2026 is due Monday 21 December 2026', () => {
    expect(privacyDueDate(nz('2026-11-23T09:00:00', '+13:00'))).toBe('2026-12-21');
  });

  it('skips 25 December to 15 January and a Waitangi Day moved to Monday', () => {
    // Friday 18 December 2026: 21–24 December count 4, the break is skipped, and Saturday
    // 6 February 2027 is observed on Monday 8 February.
    expect(privacyDueDate(nz('2026-12-18T16:30:00', '+13:00'))).toBe('2027-02-09');
    expect(isWorkingDay('2027-02-08')).toBe(false);
    expect(isWorkingDay('2027-02-05')).toBe(true);
    for (const day of ['2026-12-25', '2026-12-31', '2027-01-04', '2027-01-15']) expect(isWorkingDay(day)).toBe(false);
    expect(isWorkingDay('2027-01-18')).toBe(true);
  });

  it('skips Good Friday and Easter Monday: Wednesday 10 March 2027 is due Friday 9 April 2027', () => {
    expect(privacyDueDate(nz('2027-03-10T11:00:00', '+13:00'))).toBe('2027-04-09');
    expect(isWorkingDay('2027-03-26')).toBe(false);
    expect(isWorkingDay('2027-03-29')).toBe(false);
  });

  it('skips Matariki on the dates the Act fixes, and the King’s Birthday and Labour Day', () => {
    for (const day of [
      '2024-06-28',
      '2025-06-20',
      '2026-07-10',
      '2027-06-25',
      '2028-07-14',
      '2029-07-06',
      '2030-06-21',
    ]) {
      expect(isWorkingDay(day), day).toBe(false);
    }
    // The Friday a week before Matariki 2026 is a working day; the King's Birthday 1 June 2026 and
    // Labour Day 26 October 2026 are not.
    expect(isWorkingDay('2026-07-03')).toBe(true);
    expect(isWorkingDay('2026-06-01')).toBe(false);
    expect(isWorkingDay('2026-10-26')).toBe(false);
    // Received Thursday 25 June 2026: 20 working days later, past Matariki (10 July), is 24 July.
    expect(privacyDueDate(nz('2026-06-25T10:00:00', '+12:00'))).toBe('2026-07-24');
  });

  it('moves Anzac Day on a weekend to Monday, and keeps regional anniversary days as working days', () => {
    expect(isWorkingDay('2026-04-27')).toBe(false); // Anzac Day 2026 is a Saturday
    expect(isWorkingDay('2026-01-26')).toBe(true); // Auckland Anniversary Day (regional)
    expect(isWorkingDay('2026-11-13')).toBe(true); // Canterbury Show Day (regional)
  });

  it('counts New Zealand days, whatever the server’s time zone', () => {
    // 23:30 on Sunday 22 November in New Zealand is Sunday morning UTC; 00:30 on Monday 23 November
    // in New Zealand is still Sunday in UTC.
    expect(newZealandDate(nz('2026-11-23T00:30:00', '+13:00'))).toBe('2026-11-23');
    expect(privacyDueDate(nz('2026-11-23T00:30:00', '+13:00'))).toBe('2026-12-21');
    expect(privacyDueDate(nz('2026-11-22T23:30:00', '+13:00'))).toBe('2026-12-18');
  });

  it('says how many working days are left, 0 on the due day, negative when overdue', () => {
    const due = '2026-12-21';
    expect(workingDaysLeft(due, nz('2026-11-23T09:00:00', '+13:00'))).toBe(20);
    expect(workingDaysLeft(due, nz('2026-12-18T09:00:00', '+13:00'))).toBe(1);
    expect(workingDaysLeft(due, nz('2026-12-21T17:00:00', '+13:00'))).toBe(0);
    // 22, 23 and 24 December and 18, 19, 20 January are working days; the break between is not.
    expect(workingDaysLeft(due, nz('2027-01-20T09:00:00', '+13:00'))).toBe(-6);
  });
});
