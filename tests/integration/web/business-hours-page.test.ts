// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TEXT } from '../../../src/contracts/admin.ts';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../../src/contracts/claims.ts';
import {
  BUSINESS_HOURS_TEXT,
  CALENDAR_TEXT,
  DEFAULT_CALENDAR,
  DEFAULT_TARGETS,
  TARGETS_TEXT,
} from '../../../src/contracts/service-levels.ts';
import type { ServiceLevelSettings } from '../../../src/contracts/service-levels.schemas.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The Business hours page without JavaScript: the forms posted as a browser sends them, each
 * answered with the page (its message in a status region, or the messages under the fields with
 * what was typed kept), and what was saved read back through the page and the API.
 */
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  // Monday 1 June 2026 in New Zealand (King's Birthday): the year ahead holds Matariki on 10 July.
  t = await createTestApp({ web: true, clock: movableClock(new Date('2026-06-01T00:00:00+12:00')) });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

const PAGE = '/admin/business-hours';
const page = async (headers = admin.headers) => {
  const res = await t.app.inject({ method: 'GET', url: PAGE, headers: { accept: 'text/html', ...headers } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.body;
};
const post = (fields: Record<string, string>, headers = admin.headers) =>
  postPageForm(t, PAGE, fields, { origin: 'http://localhost:80', ...headers });
const settings = async () => {
  const res = await admin.get('/api/admin/service-levels');
  expect(res.statusCode).toBe(200);
  return res.json() as ServiceLevelSettings;
};

/** What a person reads of a page: its text without scripts or tags. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/<!-- -->/g, '')
    .replace(/\s+/g, ' ');
/** The opening tag of the control named `name`. */
const control = (html: string, name: string) => {
  const tag = new RegExp(`<(?:input|select)[^>]*name="${name.replace('.', '\\.')}"[^>]*>`).exec(html)?.[0];
  expect(tag, `a field named ${name}`).toBeDefined();
  return tag!;
};
const valueOf = (html: string, name: string) => /\svalue="([^"]*)"/.exec(control(html, name))?.[1] ?? '';
const invalid = (html: string, name: string) => control(html, name).includes('aria-invalid="true"');
/** The message under a field (or a day: `mon`). */
const errorOf = (html: string, field: string) =>
  new RegExp(`id="${field.replace('.', '\\.')}-error"[^>]*>([^<]*)<`).exec(html)?.[1]?.replace(/&#x27;/g, "'");
/** The status region's sentence (a success is announced, not just shown). */
const status = (html: string) => /role="status"[^>]*>\s*<p>([^<]*)<\/p>/.exec(html)?.[1];

/** The calendar form as the page sends it: every weekday's three spans, the anniversary day. */
function calendarFields(hours: Partial<Record<string, Array<[string, string]>>>, anniversary = '') {
  const fields: Record<string, string> = { intent: 'calendar', anniversary };
  for (const day of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']) {
    const spans = hours[day] ?? (['sat', 'sun'].includes(day) ? [] : [['09:00', '17:00']]);
    for (let n = 1; n <= 3; n++) {
      fields[`${day}-${n}-opens`] = spans[n - 1]?.[0] ?? '';
      fields[`${day}-${n}-closes`] = spans[n - 1]?.[1] ?? '';
    }
  }
  return fields;
}
const targetFields = (overrides: Record<string, string> = {}) => ({
  intent: 'targets',
  'General.firstResponse': '8:00',
  'General.nextResponse': '8:00',
  'General.resolution': '40:00',
  'Incident.firstResponse': '2:00',
  'Incident.nextResponse': '4:00',
  'Incident.resolution': '16:00',
  'Deactivation.firstResponse': '4:00',
  'Deactivation.nextResponse': '8:00',
  'Deactivation.resolution': '24:00',
  ...overrides,
});

describe('the Business hours page without JavaScript', () => {
  it('shows the week, the holidays of the year ahead and the targets, every input labelled', async () => {
    const html = await page();
    expect(html).toContain('<title>Business hours | Admin console');
    expect(valueOf(html, 'mon-1-opens')).toBe('09:00');
    expect(valueOf(html, 'mon-1-closes')).toBe('17:00');
    expect(valueOf(html, 'mon-2-opens')).toBe('');
    expect(html).toMatch(/<label[^>]*for="mon-1-opens"[^>]*>Monday, span 1 opens<\/label>/);
    expect(html).toMatch(/<label[^>]*for="sun-3-closes"[^>]*>Sunday, span 3 closes<\/label>/);
    const text = textOf(html);
    expect(text).toContain('Monday Open 8 h');
    expect(text).toContain('Saturday Closed');
    expect(text).toContain('Sunday Closed');
    expect(text).toContain(BUSINESS_HOURS_TEXT.exceptionsEmpty);
    // The days the calendar keeps closed, in New Zealand words.
    expect(text).toContain("Monday 1 Jun 2026 King's Birthday Closed");
    expect(text).toContain('Friday 10 Jul 2026 Matariki Closed');
    expect(text).toContain('Monday 28 Dec 2026 Boxing Day (substitute day) Closed');
    expect(text).toContain('Monday 26 Apr 2027 ANZAC Day (substitute day) Closed');
    // Targets per reason, as business hours and minutes.
    expect(html).toMatch(/<label[^>]*for="Incident.firstResponse"[^>]*>Incident Report, first response<\/label>/);
    expect(valueOf(html, 'Incident.firstResponse')).toBe('2:00');
    expect(valueOf(html, 'General.resolution')).toBe('40:00');
    expect(html).toContain('id="targets"');
  });

  it('saves the opening hours and the anniversary day; a span to midnight is typed and shown as 00:00', async () => {
    const res = await post(
      calendarFields(
        {
          mon: [
            ['08:30', '12:00'],
            ['13:00', '17:30'],
          ],
          fri: [['09:00', '00:00']],
          sat: [['10:00', '14:00']],
        },
        'CAN',
      ),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(status(res.body)).toBe(CALENDAR_TEXT.saved);

    const saved = await settings();
    expect(saved.calendar.hours.mon).toEqual([
      { start: '08:30', end: '12:00' },
      { start: '13:00', end: '17:30' },
    ]);
    expect(saved.calendar.hours.fri).toEqual([{ start: '09:00', end: '24:00' }]);
    expect(saved.calendar.hours.sat).toEqual([{ start: '10:00', end: '14:00' }]);
    expect(saved.calendar.anniversary).toBe('CAN');

    const html = await page();
    expect(valueOf(html, 'mon-2-opens')).toBe('13:00');
    expect(valueOf(html, 'fri-1-closes')).toBe('00:00');
    expect(html).toMatch(/<option value="CAN" selected="">Canterbury/);
    const text = textOf(html);
    expect(text).toContain('Monday Open 8 h');
    expect(text).toContain('Friday Open 15 h');
    expect(text).toContain('Saturday Open 4 h');
    expect(text).toContain('Friday 13 Nov 2026 Christchurch Show Day Closed');

    expect((await post(calendarFields({}))).statusCode).toBe(200);
    expect((await settings()).calendar).toEqual(DEFAULT_CALENDAR);
  });

  it('refuses overlapping spans, a half-typed span and a week with no hours, in words, keeping what was typed', async () => {
    const res = await post(
      calendarFields({
        mon: [
          ['09:00', '13:00'],
          ['12:00', '17:00'],
        ],
        tue: [
          ['09:00', '12:00'],
          ['13:00', ''],
        ],
        wed: [['17:00', '09:00']],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(errorOf(res.body, 'mon')).toBe(CALENDAR_TEXT.spansOverlap);
    expect(errorOf(res.body, 'tue-2-closes')).toBe(BUSINESS_HOURS_TEXT.spanIncomplete);
    expect(errorOf(res.body, 'wed-1-closes')).toBe(CALENDAR_TEXT.spanOrder);
    expect(valueOf(res.body, 'mon-2-opens')).toBe('12:00');
    expect(valueOf(res.body, 'tue-2-opens')).toBe('13:00');
    expect(valueOf(res.body, 'wed-1-opens')).toBe('17:00');
    expect(invalid(res.body, 'mon-1-opens')).toBe(true);
    expect(invalid(res.body, 'tue-2-closes')).toBe(true);
    expect(invalid(res.body, 'thu-1-opens')).toBe(false);
    expect(control(res.body, 'mon-2-opens')).toMatch(/aria-describedby="mon-error"/);
    expect(status(res.body)).toBeUndefined();

    const closedWeek = await post(calendarFields({ mon: [], tue: [], wed: [], thu: [], fri: [] }));
    expect(closedWeek.statusCode).toBe(400);
    expect(closedWeek.body).toContain(CALENDAR_TEXT.noOpenHours);
    expect(textOf(closedWeek.body)).toContain('Monday Closed');
    expect((await settings()).calendar).toEqual(DEFAULT_CALENDAR);
  });

  it('adds exceptions (some hours, or closed all day), refuses a second one on a date, and removes them', async () => {
    const eve = await post({
      intent: 'add-exception',
      'exception-date': '2026-12-24',
      'exception-1-opens': '09:00',
      'exception-1-closes': '12:00',
      'exception-2-opens': '',
      'exception-2-closes': '',
      'exception-note': 'Christmas Eve',
    });
    expect(eve.statusCode).toBe(200);
    expect(status(eve.body)).toBe(CALENDAR_TEXT.saved);
    const training = await post({
      intent: 'add-exception',
      'exception-date': '2026-07-03',
      'exception-closed': 'yes',
      'exception-1-opens': '10:00',
      'exception-1-closes': '',
      'exception-note': 'Staff training',
    });
    expect(training.statusCode).toBe(200);
    expect((await settings()).calendar.overrides).toEqual([
      { date: '2026-07-03', spans: [], note: 'Staff training' },
      { date: '2026-12-24', spans: [{ start: '09:00', end: '12:00' }], note: 'Christmas Eve' },
    ]);
    let text = textOf(await page());
    expect(text).toContain('Friday 3 Jul 2026 Closed Staff training Remove the exception on Friday 3 Jul 2026');
    expect(text).toContain('Thursday 24 Dec 2026 09:00–12:00 Christmas Eve Remove');
    // The year ahead shows them among the holidays.
    expect(text).toContain('Thursday 24 Dec 2026 Christmas Eve Exception 09:00–12:00');

    const again = await post({
      intent: 'add-exception',
      'exception-date': '2026-12-24',
      'exception-closed': 'yes',
      'exception-note': 'Closed after all',
    });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again.body, 'exception-date')).toBe(CALENDAR_TEXT.overrideDuplicate);
    expect(valueOf(again.body, 'exception-date')).toBe('2026-12-24');
    expect(again.body).toContain('Closed after all</textarea>');
    expect(control(again.body, 'exception-closed')).toContain('checked');

    const noHours = await post({ intent: 'add-exception', 'exception-date': '2026-12-31', 'exception-note': '' });
    expect(noHours.statusCode).toBe(400);
    expect(noHours.body).toContain(BUSINESS_HOURS_TEXT.exceptionHoursMissing);
    expect(invalid(noHours.body, 'exception-1-opens')).toBe(true);
    const noDay = await post({ intent: 'add-exception', 'exception-date': '2026-02-30', 'exception-closed': 'yes' });
    expect(errorOf(noDay.body, 'exception-date')).toBe(CALENDAR_TEXT.dateInvalid);
    expect((await settings()).calendar.overrides).toHaveLength(2);

    const removed = await post({ intent: 'remove-exception', date: '2026-12-24' });
    expect(removed.statusCode).toBe(200);
    expect(status(removed.body)).toBe(CALENDAR_TEXT.saved);
    expect((await settings()).calendar.overrides.map((o) => o.date)).toEqual(['2026-07-03']);
    text = textOf(await page());
    expect(text).not.toContain('24 Dec 2026');
    const twice = await post({ intent: 'remove-exception', date: '2026-12-24' });
    expect(status(twice.body)).toBe(BUSINESS_HOURS_TEXT.exceptionGone);
    expect((await post({ intent: 'remove-exception', date: '2026-07-03' })).statusCode).toBe(200);
    expect(textOf(await page())).toContain(BUSINESS_HOURS_TEXT.exceptionsEmpty);
  });

  it('saves the targets typed as hours and minutes, and refuses one that is not, under its field', async () => {
    const res = await post(targetFields({ 'Incident.firstResponse': '1:30', 'General.resolution': '30' }));
    expect(res.statusCode).toBe(200);
    expect(status(res.body)).toBe(TARGETS_TEXT.saved);
    const saved = await settings();
    expect(saved.targets.Incident.firstResponse).toBe(90);
    expect(saved.targets.General.resolution).toBe(30 * 60);
    const html = await page();
    expect(valueOf(html, 'Incident.firstResponse')).toBe('1:30');
    expect(valueOf(html, 'General.resolution')).toBe('30:00');

    const bad = await post(targetFields({ 'Incident.nextResponse': '2h', 'Deactivation.resolution': '500:00' }));
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body, 'Incident.nextResponse')).toBe(TARGETS_TEXT.minutesInvalid);
    expect(errorOf(bad.body, 'Deactivation.resolution')).toBe(TARGETS_TEXT.minutesInvalid);
    expect(valueOf(bad.body, 'Incident.nextResponse')).toBe('2h');
    expect(valueOf(bad.body, 'Deactivation.resolution')).toBe('500:00');
    expect(invalid(bad.body, 'Incident.nextResponse')).toBe(true);
    expect(invalid(bad.body, 'General.firstResponse')).toBe(false);
    expect((await settings()).targets).toEqual(saved.targets);

    expect((await post(targetFields())).statusCode).toBe(200);
    expect((await settings()).targets).toEqual(DEFAULT_TARGETS);
  });

  it('changes nothing for a signed-in customer who posts the form', async () => {
    const customer = await supportUser(t);
    const res = await post(targetFields({ 'General.firstResponse': '0:10' }), customer.headers);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).not.toContain(TARGETS_TEXT.saved);
    expect(res.body).not.toContain('name="General.firstResponse"');
    expect(res.body).toContain(ADMIN_TEXT.notAllowedTitle);
    expect((await settings()).targets).toEqual(DEFAULT_TARGETS);
  });
});

describe('the claim periods without JavaScript', () => {
  const periodFields = (overrides: Record<string, string> = {}) => ({
    intent: 'claim-periods',
    claimWindowDays: '7',
    travellerAnswerDays: '2',
    decisionDays: '5',
    appealWindowDays: '10',
    appealDecisionDays: '5',
    ...overrides,
  });
  const periods = async () => {
    const res = await admin.get('/api/admin/claims/periods');
    expect(res.statusCode).toBe(200);
    return res.json().periods;
  };

  it('shows the defaults with the note, saves what is typed, and refuses 0 and "abc" in words under their fields', async () => {
    const html = await page();
    const form = /<form[^>]*aria-labelledby="claim-periods-title"[^>]*>/.exec(html)?.[0];
    expect(form).toContain('method="post"');
    expect(html).toContain('id="claim-periods"');
    const text = textOf(html);
    expect(text).toContain(CLAIM_TEXT.periodsTitle);
    expect(text).toContain(CLAIM_TEXT.periodsNote);
    expect(html).toMatch(/<label[^>]*for="decisionDays"[^>]*>Decision \(working days\)<\/label>/);
    for (const [name, days] of Object.entries(CLAIM_PERIODS)) expect(valueOf(html, name)).toBe(String(days));

    const res = await post(periodFields({ decisionDays: '8', appealWindowDays: ' 15 ' }));
    expect(res.statusCode).toBe(200);
    expect(status(res.body)).toBe(CLAIM_TEXT.periodsSaved);
    expect(await periods()).toEqual({ ...CLAIM_PERIODS, decisionDays: 8, appealWindowDays: 15 });
    const shown = await page();
    expect(valueOf(shown, 'decisionDays')).toBe('8');
    expect(valueOf(shown, 'appealWindowDays')).toBe('15');

    const bad = await post(periodFields({ decisionDays: '0', travellerAnswerDays: 'abc' }));
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body, 'decisionDays')).toBe(CLAIM_TEXT.periodInvalid(30));
    expect(errorOf(bad.body, 'travellerAnswerDays')).toBe(CLAIM_TEXT.periodInvalid(20));
    expect(valueOf(bad.body, 'travellerAnswerDays')).toBe('abc');
    expect(invalid(bad.body, 'decisionDays')).toBe(true);
    expect(invalid(bad.body, 'claimWindowDays')).toBe(false);
    expect(await periods()).toEqual({ ...CLAIM_PERIODS, decisionDays: 8, appealWindowDays: 15 });

    expect((await post(periodFields())).statusCode).toBe(200);
    expect(await periods()).toEqual(CLAIM_PERIODS);
  });
});
