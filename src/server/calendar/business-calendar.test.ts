import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CALENDAR } from '../../contracts/service-levels.ts';
import { type CalendarSettings, CalendarSettingsSchema } from '../../contracts/service-levels.schemas.ts';
import { anniversaryDay, BusinessCalendar, nationalHolidays, newZealandDate } from './business-calendar.ts';

/** An instant at a New Zealand wall-clock time (NZDT is UTC+13, NZST UTC+12). */
const nz = (local: string, offset: '+13:00' | '+12:00') => new Date(`${local}${offset}`);
const HOUR = 60;
const allDay = [{ start: '00:00', end: '24:00' }];
const roundTheClock: CalendarSettings = {
  ...DEFAULT_CALENDAR,
  hours: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
};

describe('the business calendar (Pacific/Auckland, Monday–Friday 09:00–17:00 by default)', () => {
  const calendar = new BusinessCalendar(DEFAULT_CALENDAR);

  it('a ticket opened on the Thursday 16:30 before Matariki (Friday 10 July 2026) with a 2-hour target is due Monday 10:30', () => {
    // 30 minutes on Thursday; Friday is Matariki, then the weekend; 90 minutes from Monday 09:00.
    expect(calendar.day('2026-07-10').holiday).toBe('Matariki');
    expect(calendar.addBusinessMinutes(nz('2026-07-09T16:30:00', '+12:00'), 2 * HOUR)).toEqual(
      nz('2026-07-13T10:30:00', '+12:00'),
    );
    // Opened at 16:30 on the Friday a week before: 30 minutes, then Monday 6 July from 09:00.
    expect(calendar.addBusinessMinutes(nz('2026-07-03T16:30:00', '+12:00'), 8 * HOUR)).toEqual(
      nz('2026-07-06T16:30:00', '+12:00'),
    );
  });

  it('skips a Mondayised holiday: Anzac Day on Saturday 25 April 2026 is observed Monday 27 April', () => {
    expect(calendar.isWorkingDay('2026-04-27')).toBe(false);
    // Friday 16:00: one hour on Friday, Monday is the holiday, one hour on Tuesday.
    expect(calendar.addBusinessMinutes(nz('2026-04-24T16:00:00', '+12:00'), 2 * HOUR)).toEqual(
      nz('2026-04-28T10:00:00', '+12:00'),
    );
    // Christmas on a Friday 2026: Boxing Day (Saturday) is observed Monday 28 December.
    expect(calendar.isWorkingDay('2026-12-28')).toBe(false);
  });

  it('counts the real length of the nights the clocks change (5 April and 27 September 2026)', () => {
    const open = new BusinessCalendar(roundTheClock);
    // Clocks go back at 03:00 NZDT on Sunday 5 April: the night from Saturday 23:00 to Sunday 06:00 is 8 hours.
    expect(open.businessMinutesBetween(nz('2026-04-04T23:00:00', '+13:00'), nz('2026-04-05T06:00:00', '+12:00'))).toBe(
      8 * HOUR,
    );
    // Four business hours from Saturday 23:30 NZDT are four real hours: 02:30 NZST.
    expect(open.addBusinessMinutes(nz('2026-04-04T23:30:00', '+13:00'), 4 * HOUR)).toEqual(
      nz('2026-04-05T02:30:00', '+12:00'),
    );
    // Clocks go forward at 02:00 NZST on Sunday 27 September: midnight to 06:00 is 5 hours.
    expect(open.businessMinutesBetween(nz('2026-09-27T00:00:00', '+12:00'), nz('2026-09-27T06:00:00', '+13:00'))).toBe(
      5 * HOUR,
    );
    expect(open.addBusinessMinutes(nz('2026-09-27T01:30:00', '+12:00'), HOUR)).toEqual(
      nz('2026-09-27T03:30:00', '+13:00'),
    );
  });

  it('keeps dated exceptions: a closed Christmas Eve and extra Saturday hours', () => {
    const withExceptions = new BusinessCalendar({
      ...DEFAULT_CALENDAR,
      overrides: [
        { date: '2026-12-24', spans: [], note: 'Christmas Eve: closed' },
        { date: '2026-11-28', spans: [{ start: '10:00', end: '12:00' }], note: 'Black Friday weekend' },
      ],
    });
    expect(withExceptions.day('2026-12-24')).toMatchObject({ exception: true, holiday: 'Christmas Eve: closed' });
    // Wednesday 23 December 16:00: an hour, then Thursday closed, Christmas, the weekend, Boxing
    // Day's Monday; the second hour on Tuesday 29 December.
    expect(withExceptions.addBusinessMinutes(nz('2026-12-23T16:00:00', '+13:00'), 2 * HOUR)).toEqual(
      nz('2026-12-29T10:00:00', '+13:00'),
    );
    // Friday 27 November 16:00 with 3 hours: an hour on Friday, two on the extra Saturday.
    expect(withExceptions.addBusinessMinutes(nz('2026-11-27T16:00:00', '+13:00'), 3 * HOUR)).toEqual(
      nz('2026-11-28T12:00:00', '+13:00'),
    );
  });

  it('keeps the chosen anniversary day only: Wellington (19 January 2026), not Auckland (26 January)', () => {
    expect(anniversaryDay('WGN', 2026)?.date).toBe('2026-01-19');
    expect(anniversaryDay('AUK', 2026)?.date).toBe('2026-01-26');
    const wellington = new BusinessCalendar({ ...DEFAULT_CALENDAR, anniversary: 'WGN' });
    expect(wellington.isWorkingDay('2026-01-19')).toBe(false);
    expect(wellington.isWorkingDay('2026-01-26')).toBe(true);
    expect(calendar.isWorkingDay('2026-01-19')).toBe(true);
  });

  it('has more than one span a day: a lunch break is not business time', () => {
    const split = new BusinessCalendar({
      ...DEFAULT_CALENDAR,
      hours: {
        ...DEFAULT_CALENDAR.hours,
        mon: [
          { start: '13:00', end: '17:00' },
          { start: '09:00', end: '12:00' },
        ],
      },
    });
    expect(split.addBusinessMinutes(nz('2026-11-30T11:00:00', '+13:00'), 2 * HOUR)).toEqual(
      nz('2026-11-30T14:00:00', '+13:00'),
    );
    expect(split.businessMinutesBetween(nz('2026-11-30T08:00:00', '+13:00'), nz('2026-11-30T18:00:00', '+13:00'))).toBe(
      7 * HOUR,
    );
  });

  it('counts working days for the auto-close, at the same wall time', () => {
    // Thursday 9 July 2026 14:00 + 2 working days: Friday is Matariki, so Monday, then Tuesday.
    expect(calendar.addWorkingDays(nz('2026-07-09T14:00:00', '+12:00'), 2)).toEqual(
      nz('2026-07-14T14:00:00', '+12:00'),
    );
  });

  it('has the Matariki dates the Act fixes, 2022–2030', () => {
    const matariki = [
      '2022-06-24',
      '2023-07-14',
      '2024-06-28',
      '2025-06-20',
      '2026-07-10',
      '2027-06-25',
      '2028-07-14',
      '2029-07-06',
      '2030-06-21',
    ];
    for (const date of matariki) expect(nationalHolidays(Number(date.slice(0, 4))).has(date), date).toBe(true);
  });

  it('validates what an admin sends', () => {
    expect(CalendarSettingsSchema.safeParse(DEFAULT_CALENDAR).success).toBe(true);
    const overlapping = structuredClone(DEFAULT_CALENDAR);
    overlapping.hours.mon = [
      { start: '09:00', end: '13:00' },
      { start: '12:00', end: '17:00' },
    ];
    expect(CalendarSettingsSchema.safeParse(overlapping).error?.issues[0]?.message).toBe(
      'Two spans on one day overlap: join them into one.',
    );
    const closedAllWeek = {
      ...DEFAULT_CALENDAR,
      hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
    };
    expect(CalendarSettingsSchema.safeParse(closedAllWeek).error?.issues[0]?.message).toContain(
      'Open at least one span',
    );
  });
});

describe('due times never fall outside opening hours (property)', () => {
  const calendars: CalendarSettings[] = [
    DEFAULT_CALENDAR,
    { ...DEFAULT_CALENDAR, anniversary: 'CAN', overrides: [{ date: '2026-12-24', spans: [], note: '' }] },
    {
      ...DEFAULT_CALENDAR,
      hours: {
        ...DEFAULT_CALENDAR.hours,
        sat: [{ start: '10:00', end: '14:00' }],
        tue: [
          { start: '07:30', end: '11:00' },
          { start: '12:00', end: '20:15' },
        ],
      },
    },
    roundTheClock,
  ];
  it('lands inside an opening span (or at its close) and exactly the target after the start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: calendars.length - 1 }),
        // 2025–2028, any minute: both daylight-saving changes of each year are inside.
        fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2028, 11, 1) }),
        fc.integer({ min: 1, max: 200 * HOUR }),
        (which, startMs, minutes) => {
          const calendar = new BusinessCalendar(calendars[which]!);
          const start = new Date(startMs);
          const due = calendar.addBusinessMinutes(start, minutes);
          expect(due.getTime()).toBeGreaterThan(start.getTime());
          const inside = calendar
            .intervalsOn(newZealandDate(due))
            .concat(calendar.intervalsOn(newZealandDate(new Date(due.getTime() - 1))))
            .some((i) => i.starts < due && due <= i.ends);
          expect(inside).toBe(true);
          expect(calendar.businessMinutesBetween(start, due)).toBeCloseTo(minutes, 6);
        },
      ),
      { numRuns: 400 },
    );
  });
});
