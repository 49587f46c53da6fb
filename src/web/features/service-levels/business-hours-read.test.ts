import { describe, expect, it } from 'vitest';
import {
  BUSINESS_HOURS_TEXT,
  CALENDAR_TEXT,
  DEFAULT_CALENDAR,
  TARGETS_TEXT,
} from '../../../contracts/service-levels.ts';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../../contracts/claims.ts';
import {
  checkOf,
  readCalendarForm,
  readClaimPeriodsForm,
  readExceptionForm,
  readTargetsForm,
} from './business-hours-read.ts';

const week = (overrides: Record<string, string> = {}) => ({
  'mon-1-opens': '09:00',
  'mon-1-closes': '17:00',
  ...overrides,
});

describe('the Business hours forms, read into settings', () => {
  it('keeps the spans typed in any pair of fields, in order; a span closing at 00:00 closes at midnight', () => {
    const { read } = readCalendarForm(
      week({
        'mon-1-opens': '',
        'mon-1-closes': '',
        'mon-3-opens': '9:00',
        'mon-3-closes': '00:00',
        anniversary: 'WGN',
      }),
      DEFAULT_CALENDAR,
    );
    expect(read).toEqual({
      ok: true,
      data: {
        hours: { mon: [{ start: '09:00', end: '24:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
        anniversary: 'WGN',
        overrides: [],
      },
    });
  });

  it('puts each message under the field or the day it is about, by the form’s own span numbers', () => {
    const { read } = readCalendarForm(
      week({
        'tue-2-opens': '13:00',
        'tue-3-opens': '12:00',
        'tue-3-closes': '11:00',
        'wed-1-opens': '09:00',
        'wed-1-closes': '13:00',
        'wed-3-opens': '12:00',
        'wed-3-closes': '17:00',
        anniversary: 'XYZ',
      }),
      DEFAULT_CALENDAR,
    );
    expect(read.ok).toBe(false);
    expect(!read.ok && read.fields).toEqual({
      'tue-2-closes': BUSINESS_HOURS_TEXT.spanIncomplete,
      'tue-3-closes': CALENDAR_TEXT.spanOrder,
      wed: CALENDAR_TEXT.spansOverlap,
      anniversary: expect.any(String),
    });
    const closed = readCalendarForm({}, DEFAULT_CALENDAR).read;
    expect(!closed.ok && closed.fields).toEqual({ hours: CALENDAR_TEXT.noOpenHours });
  });

  it('adds an exception closed all day whatever hours are typed, and refuses a second on one date', () => {
    const added = readExceptionForm(
      { 'exception-date': '2026-12-24', 'exception-closed': 'yes', 'exception-1-opens': '09:00' },
      DEFAULT_CALENDAR,
    ).read;
    expect(added.ok && added.data.overrides).toEqual([{ date: '2026-12-24', spans: [], note: '' }]);
    const again = readExceptionForm(
      { 'exception-date': '2026-12-24', 'exception-2-opens': '10:00', 'exception-2-closes': '09:00' },
      added.ok ? added.data : DEFAULT_CALENDAR,
    ).read;
    expect(!again.ok && again.fields).toEqual({
      'exception-2-closes': CALENDAR_TEXT.spanOrder,
    });
    const duplicate = readExceptionForm(
      { 'exception-date': '2026-12-24', 'exception-closed': 'yes' },
      added.ok ? added.data : DEFAULT_CALENDAR,
    ).read;
    expect(!duplicate.ok && duplicate.fields).toEqual({ 'exception-date': CALENDAR_TEXT.overrideDuplicate });
    const blank = readExceptionForm({}, DEFAULT_CALENDAR).read;
    expect(!blank.ok && blank.fields).toEqual({
      'exception-date': BUSINESS_HOURS_TEXT.dateRequired,
      'exception-hours': BUSINESS_HOURS_TEXT.exceptionHoursMissing,
    });
  });

  it('reads targets as H:MM, each bad one under its own field; the browser’s check says the same', () => {
    const values = {
      'General.firstResponse': '8:00',
      'General.nextResponse': '8',
      'General.resolution': '40:00',
      'Incident.firstResponse': '0:00',
      'Incident.nextResponse': '4:00',
      'Incident.resolution': '16:00',
      'Deactivation.firstResponse': '4:00',
      'Deactivation.nextResponse': '8:00',
      'Deactivation.resolution': 'a day',
    };
    const read = readTargetsForm(values);
    expect(!read.ok && read.fields).toEqual({
      'Incident.firstResponse': TARGETS_TEXT.minutesInvalid,
      'Deactivation.resolution': TARGETS_TEXT.minutesInvalid,
    });
    const checked = checkOf(readTargetsForm).safeParse(values);
    expect(checked.success).toBe(false);
    expect(checked.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['Incident.firstResponse', TARGETS_TEXT.minutesInvalid],
      ['Deactivation.resolution', TARGETS_TEXT.minutesInvalid],
    ]);
    const fixed = readTargetsForm({ ...values, 'Incident.firstResponse': '0:30', 'Deactivation.resolution': '24:00' });
    expect(fixed.ok && fixed.data.General.nextResponse).toBe(8 * 60);
  });

  it('reads the claim periods as whole working days, each one out of its range or not a number under its field', () => {
    const typed = Object.fromEntries(Object.entries(CLAIM_PERIODS).map(([name, days]) => [name, String(days)]));
    expect(readClaimPeriodsForm({ ...typed, decisionDays: ' 8 ' })).toEqual({
      ok: true,
      data: { ...CLAIM_PERIODS, decisionDays: 8 },
    });
    const values = {
      ...typed,
      decisionDays: '0',
      travellerAnswerDays: 'abc',
      appealWindowDays: '2.5',
      claimWindowDays: '',
    };
    const read = readClaimPeriodsForm(values);
    expect(read).toEqual({
      ok: false,
      fields: {
        claimWindowDays: CLAIM_TEXT.periodInvalid(60),
        travellerAnswerDays: CLAIM_TEXT.periodInvalid(20),
        decisionDays: CLAIM_TEXT.periodInvalid(30),
        appealWindowDays: CLAIM_TEXT.periodInvalid(60),
      },
    });
    const check = checkOf(readClaimPeriodsForm).safeParse(values);
    expect(check.success).toBe(false);
  });
});
