import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reviewDay } from '../../../contracts/partner-review.ts';
import { DEFAULT_CALENDAR } from '../../../contracts/service-levels.ts';
import { BusinessCalendar } from '../../calendar/business-calendar.ts';
import { isLate, lateBefore, reviewDue } from './review-due.ts';

/** An instant at a New Zealand wall-clock time (NZDT is UTC+13, NZST UTC+12). */
const nz = (local: string, offset: '+13:00' | '+12:00') => new Date(`${local}${offset}`);
const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
const due = (instant: Date, on = calendar) => reviewDue(instant, on).dueDate;

/**
 * The due date is the second working day after the New Zealand date of submission (Monday to
 * Friday, less New Zealand's public holidays, by default). Each example is counted by hand.
 */
describe('a partner application’s review due date', () => {
  it('a weekday morning: Monday 30 November 2026 09:15 counts Tuesday and Wednesday, due Wed 2 Dec', () => {
    expect(due(nz('2026-11-30T09:15:00', '+13:00'))).toBe('2026-12-02');
    expect(reviewDay('2026-12-02')).toBe('Wed 2 Dec');
  });

  it('a Friday afternoon: Friday 4 December 2026 16:00 counts Monday and Tuesday, due Tue 8 Dec', () => {
    expect(due(nz('2026-12-04T16:00:00', '+13:00'))).toBe('2026-12-08');
  });

  it('a Saturday: Saturday 5 December 2026 counts Monday and Tuesday, due Tue 8 Dec', () => {
    expect(due(nz('2026-12-05T10:00:00', '+13:00'))).toBe('2026-12-08');
  });

  it('the New Zealand date counts, not the server’s: 00:30 on Friday 4 December is 11:30 UTC on Thursday', () => {
    expect(due(new Date('2026-12-03T11:30:00Z'))).toBe('2026-12-08');
    // One minute before New Zealand midnight it is still Thursday: Friday and Monday, due Mon 7 Dec.
    expect(due(new Date('2026-12-03T10:59:00Z'))).toBe('2026-12-07');
  });

  it('Matariki (Friday 10 July 2026) does not count', () => {
    // The Friday a week before: Monday 6 and Tuesday 7 July.
    expect(due(nz('2026-07-03T16:00:00', '+12:00'))).toBe('2026-07-07');
    // Thursday 16:00 before Matariki: Friday is the holiday, so Monday 13 and Tuesday 14 July.
    expect(due(nz('2026-07-09T16:00:00', '+12:00'))).toBe('2026-07-14');
    // Sent on Matariki itself: Monday 13 and Tuesday 14 July.
    expect(due(nz('2026-07-10T11:00:00', '+12:00'))).toBe('2026-07-14');
  });

  it('a Mondayised holiday: Waitangi Day on Saturday 6 February 2027 is observed Monday 8 February', () => {
    // Friday 5 February 16:00: Monday is the holiday, so Tuesday 9 and Wednesday 10 February.
    expect(due(nz('2027-02-05T16:00:00', '+13:00'))).toBe('2027-02-10');
  });

  it('Christmas and Boxing Day 2027 on the weekend are observed Monday 27 and Tuesday 28 December', () => {
    // Thursday 23 December: Friday 24, then Wednesday 29.
    expect(due(nz('2027-12-23T10:00:00', '+13:00'))).toBe('2027-12-29');
    // Friday 24 December: Wednesday 29 and Thursday 30.
    expect(due(nz('2027-12-24T10:00:00', '+13:00'))).toBe('2027-12-30');
  });

  it('a day the team closes does not count: closed Monday 7 December 2026', () => {
    const closed = new BusinessCalendar({
      ...DEFAULT_CALENDAR,
      overrides: [{ date: '2026-12-07', spans: [], note: 'Team day' }],
    });
    expect(due(nz('2026-12-04T16:00:00', '+13:00'), closed)).toBe('2026-12-09');
  });

  it('is late from the day after the due date, not on it', () => {
    expect(isLate('2026-12-08', '2026-12-08')).toBe(false);
    expect(isLate('2026-12-08', '2026-12-09')).toBe(true);
  });

  it('late before New Zealand midnight starting the second working day back from yesterday', () => {
    // Wednesday 9 December 2026: Tuesday 8, Monday 7; submitted before Monday, due by Tuesday.
    const before = lateBefore('2026-12-09', calendar);
    expect(before).toEqual(nz('2026-12-07T00:00:00', '+13:00'));
    expect(due(new Date(before.getTime() - 1))).toBe('2026-12-08');
    expect(due(before)).toBe('2026-12-09');
    // Tuesday 14 July 2026 (Matariki on Friday 10): Monday 13, Thursday 9.
    expect(lateBefore('2026-07-14', calendar)).toEqual(nz('2026-07-09T00:00:00', '+12:00'));
  });

  it('the threshold agrees with each due date, whatever the submission and the day', () => {
    const from = nz('2026-01-01T00:00:00', '+13:00').getTime();
    const to = nz('2028-12-31T00:00:00', '+13:00').getTime();
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), fc.integer({ min: 0, max: 20 }), (submitted, daysLater) => {
        const submittedAt = new Date(submitted);
        const today = new Date(submitted + daysLater * 86_400_000).toISOString().slice(0, 10);
        const nzToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(
          new Date(`${today}T12:00:00Z`),
        );
        expect(submittedAt < lateBefore(nzToday, calendar)).toBe(isLate(due(submittedAt), nzToday));
      }),
      { numRuns: 500 },
    );
  });
});
