import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportsApi } from '../../../src/contracts/api/reports.ts';
import { pathOf } from '../../../src/contracts/endpoint.ts';
import { CSV_COLUMNS, REPORTS_TEXT } from '../../../src/contracts/reports.ts';
import type { Report, ReportTickets } from '../../../src/contracts/reports.schemas.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { type SupportUser, supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The reports' figures against a set of tickets written straight into the tables with fixed times,
 * whose answers are worked out by hand below. The business calendar is the default one (Monday to
 * Friday, 09:00–17:00 New Zealand time, national holidays closed; none falls in March 2026) and
 * the targets the default ones, in business minutes:
 *   General      first response 480, resolution 2400
 *   Incident     first response 120, resolution  960
 *   Deactivation first response 240, resolution 1440
 * March 2026 is daylight time in New Zealand (NZDT, UTC+13) until Sunday 5 April.
 *
 * The app's clock stands at Wednesday 1 April 2026, 12:00 NZDT ("now"): the report counts a
 * ticket still waiting on us up to then.
 */
const NOW = new Date('2026-04-01T12:00:00+13:00');
const nzdt = (local: string) => `${local}:00+13:00`;

let t: TestApp;
let customer: SupportUser;
let a1: SupportUser;
let a2: SupportUser;
let outsider: SupportUser;
const no: Record<string, number> = {};
const id: Record<string, string> = {};

async function ticket(key: string, reason: string, createdAt: string, assignee: SupportUser | null = null) {
  const [row] = await queryRows<{ id: string; ticket_no: number }>(
    t.database.db,
    sql`insert into support_tickets (user_id, reason, creation_date, last_message, assigned_to)
        values (${customer.id}, ${reason}, ${createdAt}::timestamptz, ${createdAt}::timestamptz, ${assignee?.id ?? null})
        returning id, ticket_no`,
  );
  id[key] = row!.id;
  no[key] = Number(row!.ticket_no);
  // The customer's first message starts the 'first' wait (the trigger of migration 0013).
  await message(key, customer, createdAt);
}

async function message(
  key: string,
  author: SupportUser,
  at: string,
  options: { internal?: boolean; systemEvent?: string } = {},
) {
  await t.database.db.execute(sql`
    insert into ticket_messages (ticket_id, message_body, user_id, admin, internal, system_event, timestamp)
    values (${id[key]!}, 'A message', ${author.id}, ${author.role === 'admin'}, ${options.internal ?? false},
      ${options.systemEvent ?? null}, ${at}::timestamptz)`);
  await t.database.db.execute(
    sql`update support_tickets set last_message = greatest(last_message, ${at}::timestamptz) where id = ${id[key]!}`,
  );
}

/** Closing ends the open wait at closed_at (the trigger of migration 0013). */
const close = (key: string, at: string) =>
  t.database.db.execute(
    sql`update support_tickets set open = false, closed_at = ${at}::timestamptz where id = ${id[key]!}`,
  );

const rate = (key: string, good: boolean, comment: string | null, at: string) =>
  t.database.db.execute(sql`
    insert into ticket_ratings (ticket_id, good, comment, rated_at, updated_at)
    values (${id[key]!}, ${good}, ${comment}, ${at}::timestamptz, ${at}::timestamptz)`);

const HYPERLINK = '=HYPERLINK("https://example.nz","prize")';

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, serviceLevelWorker: false, clock: movableClock(NOW) });
  [customer, a1, a2, outsider] = await Promise.all([
    supportUser(t),
    supportUser(t, { role: 'admin', email: `a1-${Date.now()}@example.nz` }),
    supportUser(t, { role: 'admin', email: `a2-${Date.now()}@example.nz` }),
    supportUser(t),
  ]);

  // T0 General: created before the range (Fri 6 Mar 10:00), never answered, closed Wed 11 Mar 10:00.
  await ticket('T0', 'General', nzdt('2026-03-06T10:00'));
  await close('T0', nzdt('2026-03-11T10:00'));

  // T1 General, assigned to A1: created Mon 9 Mar 10:00; A1 answers 10:30 (first response 0.5 h
  // clock, 30 business minutes); closed 12:00 (resolution 2 h clock, 120 business minutes; waited
  // on us 30 min). Rated Good at 13:00, "Quick, and kind".
  await ticket('T1', 'General', nzdt('2026-03-09T10:00'), a1);
  await message('T1', a1, nzdt('2026-03-09T10:30'));
  await close('T1', nzdt('2026-03-09T12:00'));
  await rate('T1', true, 'Quick, and kind', nzdt('2026-03-09T13:00'));

  // T2 Incident, assigned to A2: created Mon 9 Mar 16:00; A2 answers Tue 10:00 (18 h clock;
  // business Mon 16–17 + Tue 9–10 = 120 min: exactly the target, so within it); the customer
  // writes again Tue 11:00 and A1 answers 15:00 (240 business min); closed Tue 16:00 (24 h clock;
  // business Mon 60 + Tue 9–16 420 = 480 min = 8 h; waited on us 120 + 240 = 360 ≤ 960).
  // Rated Bad Wed 11 Mar 09:00 with a comment a spreadsheet would run as a formula.
  await ticket('T2', 'Incident', nzdt('2026-03-09T16:00'), a2);
  await message('T2', a2, nzdt('2026-03-10T10:00'));
  await message('T2', customer, nzdt('2026-03-10T11:00'));
  await message('T2', a1, nzdt('2026-03-10T15:00'));
  await close('T2', nzdt('2026-03-10T16:00'));
  await rate('T2', false, HYPERLINK, nzdt('2026-03-11T09:00'));

  // T3 General: created Fri 13 Mar 16:30; A1 answers Mon 16 Mar 09:30 (65 h clock; business Fri
  // 30 + Mon 30 = 60 min); still open, waiting on the customer (waited on us 60 ≤ 2400).
  await ticket('T3', 'General', nzdt('2026-03-13T16:30'));
  await message('T3', a1, nzdt('2026-03-16T09:30'));

  // T4 Deactivation, assigned to A1: created Sat 14 Mar 11:00, never answered (A2's internal note
  // is no answer). Waiting on us until now: 12 working days (16–20, 23–27, 30, 31 Mar) × 480 +
  // Wed 1 Apr 9–12 180 = 5,940 business minutes: late for first response (> 240) and resolution (> 1440).
  await ticket('T4', 'Deactivation', nzdt('2026-03-14T11:00'), a1);
  await message('T4', a2, nzdt('2026-03-16T10:00'), { internal: true });

  // T5 Incident: created Tue 17 Mar 09:00; A2 answers 12:00 (3 h, 180 business min > 120: late);
  // closed 13:00 (4 h, 240 min; waited 180 ≤ 960). Rated Good Wed 18 Mar 10:00, no comment.
  await ticket('T5', 'Incident', nzdt('2026-03-17T09:00'));
  await message('T5', a2, nzdt('2026-03-17T12:00'));
  await close('T5', nzdt('2026-03-17T13:00'));
  await rate('T5', true, null, nzdt('2026-03-18T10:00'));

  // T6 General: created Thu 19 Mar 20:00 (after hours); A1 answers Fri 20 Mar 09:15 (13.25 h
  // clock, 15 business min); no reply, so it closed itself Tue 31 Mar 10:00 with the system's
  // line (278 h clock; business Fri 20 480 + 23–27 Mar 2400 + Mon 30 480 + Tue 9–10 60 = 3,420
  // min = 57 h; waited on us 15 min).
  await ticket('T6', 'General', nzdt('2026-03-19T20:00'));
  await message('T6', a1, nzdt('2026-03-20T09:15'));
  await message('T6', customer, nzdt('2026-03-31T10:00'), { systemEvent: 'auto-closed' });
  await close('T6', nzdt('2026-03-31T10:00'));
});
afterAll(() => t.close());

const RANGE = { from: '2026-03-09', to: '2026-03-22' };

async function report(query: Record<string, string> = RANGE, who: SupportUser = a1) {
  const res = await who.get(pathOf(reportsApi.report, { query }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
}
async function figure(query: Record<string, string | number>) {
  const res = await a1.get(pathOf(reportsApi.tickets, { query: { ...RANGE, ...query } }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportTickets;
}
const numbers = (list: ReportTickets) => list.tickets.map((ticket) => ticket.ticketNo);

describe('the report of 9–22 March 2026', () => {
  it('first response: median and 90th percentile in business and clock hours, and the share within target', async () => {
    const r = await report();
    expect(r).toMatchObject({ from: '2026-03-09', to: '2026-03-22', created: 6 });
    // Answered: T1 30, T2 120, T3 60, T5 180, T6 15 business minutes.
    // Sorted 15, 30, 60, 120, 180: the median is 60 min = 1 h; the 90th percentile sits at
    // 0.9 × (5 − 1) = 3.6: 120 + 0.6 × (180 − 120) = 156 min = 2.6 h.
    // Clock hours 0.5, 3, 13.25, 18, 65: median 13.25; 90th 18 + 0.6 × (65 − 18) = 46.2.
    const fr = r.firstResponse;
    expect(fr.count).toBe(5);
    expect(fr.medianBusinessHours).toBeCloseTo(1, 6);
    expect(fr.p90BusinessHours).toBeCloseTo(2.6, 6);
    expect(fr.medianClockHours).toBeCloseTo(13.25, 6);
    expect(fr.p90ClockHours).toBeCloseTo(46.2, 6);
    // Within target: T1, T2 (120 of 120), T3, T6. Late: T5 (answered late), T4 (still waiting, past 240).
    expect(fr).toMatchObject({ withinTarget: 4, late: 2 });
    expect(fr.shareWithinTarget).toBeCloseTo(4 / 6, 6);
  });

  it('resolution: created → closed, and within target by the business time each waited on us', async () => {
    const fr = (await report()).resolution;
    // Closed: T1 2 h, T5 4 h, T2 8 h, T6 57 h business. Median (4 + 8) / 2 = 6; 90th at 0.9 × 3 =
    // 2.7: 8 + 0.7 × (57 − 8) = 42.3. Clock 2, 4, 24, 278: median 14; 90th 24 + 0.7 × 254 = 201.8.
    expect(fr.count).toBe(4);
    expect(fr.medianBusinessHours).toBeCloseTo(6, 6);
    expect(fr.p90BusinessHours).toBeCloseTo(42.3, 6);
    expect(fr.medianClockHours).toBeCloseTo(14, 6);
    expect(fr.p90ClockHours).toBeCloseTo(201.8, 6);
    // Within: all four closed ones (waited 30, 360, 180, 15). Late: T4, open and waiting 5,940 > 1,440.
    expect(fr).toMatchObject({ withinTarget: 4, late: 1 });
    expect(fr.shareWithinTarget).toBeCloseTo(0.8, 6);
  });

  it('the first-response spread in clock hours', async () => {
    // T1 0.5 → under 1 h; T5 3 → 1–4 h; T6 13.25 and T2 18 → 8–24 h; T3 65 → over a day.
    expect((await report()).spread).toEqual([
      { bucket: 'lt1h', count: 1 },
      { bucket: '1-4h', count: 1 },
      { bucket: '4-8h', count: 0 },
      { bucket: '8-24h', count: 2 },
      { bucket: 'gt24h', count: 1 },
    ]);
  });

  it('created and closed per New Zealand day, and the backlog at the end of each', async () => {
    const days = (await report()).days;
    expect(days).toHaveLength(14);
    // Open when the range starts: T0. Mon 9: +T1 +T2 −T1 → 2. Tue 10: −T2 → 1. Wed 11: −T0 → 0.
    // Fri 13: +T3 → 1. Sat 14: +T4 → 2. Tue 17: +T5 −T5 → 2. Thu 19: +T6 → 3 (T6 closed 31 Mar).
    const expected: Record<string, [number, number, number]> = {
      '2026-03-09': [2, 1, 2],
      '2026-03-10': [0, 1, 1],
      '2026-03-11': [0, 1, 0],
      '2026-03-12': [0, 0, 0],
      '2026-03-13': [1, 0, 1],
      '2026-03-14': [1, 0, 2],
      '2026-03-15': [0, 0, 2],
      '2026-03-16': [0, 0, 2],
      '2026-03-17': [1, 1, 2],
      '2026-03-18': [0, 0, 2],
      '2026-03-19': [1, 0, 3],
      '2026-03-20': [0, 0, 3],
      '2026-03-21': [0, 0, 3],
      '2026-03-22': [0, 0, 3],
    };
    expect(days).toEqual(
      Object.entries(expected).map(([day, [created, closed, backlog]]) => ({ day, created, closed, backlog })),
    );
  });

  it('busiest hours: weekday × hour on the New Zealand clock', async () => {
    const cells = (await report()).hours;
    expect(cells).toHaveLength(168);
    const busy = cells.filter((c) => c.count > 0);
    // T1 Mon 10, T2 Mon 16, T5 Tue 09, T6 Thu 20, T3 Fri 16, T4 Sat 11.
    expect(busy).toEqual([
      { weekday: 1, hour: 10, count: 1 },
      { weekday: 1, hour: 16, count: 1 },
      { weekday: 2, hour: 9, count: 1 },
      { weekday: 4, hour: 20, count: 1 },
      { weekday: 5, hour: 16, count: 1 },
      { weekday: 6, hour: 11, count: 1 },
    ]);
  });

  it('ratings: share Good per week, and the comments newest first with ticket numbers', async () => {
    const ratings = (await report()).ratings;
    // Week of Mon 9 Mar: T1 Good, T2 Bad. Week of Mon 16 Mar: T5 Good.
    expect(ratings).toMatchObject({
      good: 2,
      total: 3,
      weeks: [
        { week: '2026-03-09', good: 1, total: 2 },
        { week: '2026-03-16', good: 1, total: 1 },
      ],
    });
    expect(ratings.comments.map((c) => [c.ticketNo, c.good, c.comment])).toEqual([
      [no.T2, false, HYPERLINK],
      [no.T1, true, 'Quick, and kind'],
    ]);
  });

  it('per admin: answered, median first response of their first answers, ratings', async () => {
    const admins = (await report()).admins;
    // A1 answered T1, T2, T3, T6 in the range and answered T1 (30), T3 (60), T6 (15) first: median
    // 30 min = 0.5 h, clock 0.5, 13.25, 65 → 13.25. Ratings on T1 Good, T2 Bad: 1 of 2.
    // A2 answered T2, T5 (the note on T4 is no answer), first on T2 (120) and T5 (180): median
    // 150 min = 2.5 h, clock (18 + 3) / 2 = 10.5. Ratings T2 Bad, T5 Good: 1 of 2.
    expect(admins.map((a) => a.email)).toEqual([a1.email, a2.email]);
    expect(admins[0]).toMatchObject({ userId: a1.id, answered: 4, firstAnswers: 3, good: 1, rated: 2 });
    expect(admins[0]!.medianFirstResponseBusinessHours).toBeCloseTo(0.5, 6);
    expect(admins[0]!.medianFirstResponseClockHours).toBeCloseTo(13.25, 6);
    expect(admins[1]).toMatchObject({ userId: a2.id, answered: 2, firstAnswers: 2, good: 1, rated: 2 });
    expect(admins[1]!.medianFirstResponseBusinessHours).toBeCloseTo(2.5, 6);
    expect(admins[1]!.medianFirstResponseClockHours).toBeCloseTo(10.5, 6);
  });

  it('reads alike when several admins ask at once (PostgreSQL reads side by side, one report at a time)', async () => {
    const reports = await Promise.all([report(), report(), report(), report()]);
    for (const r of reports.slice(1)) expect({ ...r, now: '' }).toEqual({ ...reports[0]!, now: '' });
  });

  it('the last 28 days by the app’s clock when no range is asked for', async () => {
    const r = await report({});
    // Today is Wed 1 Apr 2026 in New Zealand; 27 days before is Thu 5 Mar.
    expect(r).toMatchObject({ from: '2026-03-05', to: '2026-04-01' });
    expect(r.days).toHaveLength(28);
    // T0 to T6 were all created in it.
    expect(r.created).toBe(7);
  });
});

describe('every figure opens its tickets', () => {
  it('lists the tickets behind a figure, oldest first', async () => {
    expect(numbers(await figure({ figure: 'spread', bucket: '8-24h' }))).toEqual([no.T2, no.T6]);
    expect(numbers(await figure({ figure: 'first-response-missed' }))).toEqual([no.T4, no.T5]);
    expect(numbers(await figure({ figure: 'first-response-met' }))).toEqual([no.T1, no.T2, no.T3, no.T6]);
    expect(numbers(await figure({ figure: 'resolution-missed' }))).toEqual([no.T4]);
    expect(numbers(await figure({ figure: 'resolution' }))).toEqual([no.T1, no.T2, no.T5, no.T6]);
    expect(numbers(await figure({ figure: 'created-day', day: '2026-03-09' }))).toEqual([no.T1, no.T2]);
    expect(numbers(await figure({ figure: 'closed-day', day: '2026-03-11' }))).toEqual([no.T0]);
    expect(numbers(await figure({ figure: 'backlog-day', day: '2026-03-19' }))).toEqual([no.T3, no.T4, no.T6]);
    expect(numbers(await figure({ figure: 'hour', weekday: 1, hour: 16 }))).toEqual([no.T2]);
    expect(numbers(await figure({ figure: 'rating-week', day: '2026-03-09' }))).toEqual([no.T1, no.T2]);
    expect(numbers(await figure({ figure: 'admin-first', admin: a1.id }))).toEqual([no.T1, no.T3, no.T6]);
    expect(numbers(await figure({ figure: 'admin-answered', admin: a2.id }))).toEqual([no.T2, no.T5]);
    expect(numbers(await figure({ figure: 'admin-rated', admin: a1.id }))).toEqual([no.T1, no.T2]);
    expect(numbers(await figure({}))).toEqual([no.T1, no.T2, no.T3, no.T4, no.T5, no.T6]);
  });

  it('each ticket with its times, assignee, rating and outcome, and the list titled in words', async () => {
    const list = await figure({ figure: 'admin-first', admin: a1.id });
    expect(list.title).toBe(`First answered by ${a1.email}`);
    const [t1, t3, t6] = list.tickets;
    expect(t1).toMatchObject({
      ticketNo: no.T1,
      reason: 'General',
      createdAt: '2026-03-08T21:00:00.000Z',
      firstResponseAt: '2026-03-08T21:30:00.000Z',
      closedAt: '2026-03-08T23:00:00.000Z',
      assignee: a1.email,
      rating: 'good',
      outcome: 'closed',
    });
    expect(t1!.firstResponseBusinessHours).toBeCloseTo(0.5, 6);
    expect(t1!.resolutionClockHours).toBeCloseTo(2, 6);
    expect(t3).toMatchObject({ closedAt: null, assignee: null, rating: null, outcome: 'open' });
    expect(t6).toMatchObject({ outcome: 'auto-closed' });
    expect(t6!.resolutionBusinessHours).toBeCloseTo(57, 6);
    expect((await figure({ figure: 'spread', bucket: 'gt24h' })).title).toBe(
      'First answer in over a day (clock hours)',
    );
    expect((await figure({ figure: 'hour', weekday: 1, hour: 16 })).title).toBe('Created on Mondays, 16:00–17:00');
  });

  it('refuses a figure without what it needs, a backwards or too long range, and anyone but an admin', async () => {
    const spread = await a1.get(pathOf(reportsApi.tickets, { query: { ...RANGE, figure: 'spread' } }));
    expect(spread.statusCode).toBe(400);
    expect(spread.json().error.fields).toMatchObject({ bucket: 'Choose which part of the spread.' });
    const backwards = await a1.get(pathOf(reportsApi.report, { query: { from: '2026-03-22', to: '2026-03-09' } }));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.message).toBe('Choose a day on or after the From date.');
    const long = await a1.get(pathOf(reportsApi.report, { query: { from: '2025-01-01', to: '2026-03-09' } }));
    expect(long.statusCode).toBe(400);
    // A week from the last days of year 9999 has no YYYY-MM-DD date (found by the fuzz: it was a 500).
    const farOff = await a1.get(
      pathOf(reportsApi.tickets, { query: { ...RANGE, figure: 'rating-week', day: '9999-12-30' } }),
    );
    expect(farOff.statusCode).toBe(400);
    expect(farOff.json().error.fields).toMatchObject({ day: 'Choose a date before 2100.' });
    expect((await outsider.get(pathOf(reportsApi.report, { query: RANGE }))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: pathOf(reportsApi.csv, { query: RANGE }) })).statusCode).toBe(401);
  });
});

describe('the CSV', () => {
  it('is a download with one row per ticket created in the range, times in New Zealand time, safe in a spreadsheet', async () => {
    const res = await a1.get(pathOf(reportsApi.csv, { query: RANGE }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tickets-2026-03-09-to-2026-03-22.csv"');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(1 + 6 + 1);
    // T2: created Mon 9 Mar 16:00, answered Tue 10:00 (2 business h, 18 clock h), closed Tue 16:00
    // (8 and 24 h). The comment is quoted, its quotes doubled, and an apostrophe keeps a
    // spreadsheet from running it.
    expect(lines[2]).toBe(
      `${no.T2},Incident Report,2026-03-09 16:00,2026-03-10 10:00,2.00,18.00,2026-03-10 16:00,8.00,24.00,` +
        `${a2.email},Bad,"'=HYPERLINK(""https://example.nz"",""prize"")",Closed,`,
    );
    expect(lines[1]).toBe(
      `${no.T1},General Enquiry,2026-03-09 10:00,2026-03-09 10:30,0.50,0.50,2026-03-09 12:00,2.00,2.00,` +
        `${a1.email},Good,"Quick, and kind",Closed,`,
    );
    expect(lines[4]).toBe(`${no.T4},Account Deactivation,2026-03-14 11:00,,,,,,,${a1.email},,,Open,`);
    expect(lines[6]).toMatch(
      new RegExp(`^${no.T6},General Enquiry,.*,57\\.00,278\\.00,Unassigned,,,Closed automatically,$`),
    );
  });
});

describe('New Zealand hours across the clock changes', () => {
  it('Sunday 5 April 2026: 02:30 happens twice, both in hour 2; the day has 25 hours', async () => {
    // NZDT ends at 03:00, when clocks go back to 02:00 NZST. 13:30Z is 02:30 NZDT, 14:30Z is
    // 02:30 NZST (a fixed UTC+13 would put it at 03:30, a fixed +12 the first at 01:30). 11:30Z
    // on 5 April is 23:30 NZST, still Sunday 5 April; 10:30Z on 4 April is 23:30 NZDT Saturday.
    await ticket('D0', 'General', '2026-04-04T10:30:00Z');
    await ticket('D1', 'General', '2026-04-04T13:30:00Z');
    await ticket('D2', 'General', '2026-04-04T14:30:00Z');
    await ticket('D3', 'General', '2026-04-05T11:30:00Z');
    const r = await report({ from: '2026-04-05', to: '2026-04-05' });
    expect(r.days).toMatchObject([{ day: '2026-04-05', created: 3 }]);
    expect(r.hours.filter((c) => c.count > 0)).toEqual([
      { weekday: 7, hour: 2, count: 2 },
      { weekday: 7, hour: 23, count: 1 },
    ]);
    const list = await figure({ from: '2026-04-05', to: '2026-04-05', figure: 'hour', weekday: 7, hour: 2 });
    expect(numbers(list)).toEqual([no.D1, no.D2]);
  });

  it('Sunday 27 September 2026: 02:30 does not exist; the day has 23 hours', async () => {
    // NZST ends at 02:00, when clocks go forward to 03:00 NZDT. 13:30Z is 01:30 NZST (hour 1).
    // A ticket written at "02:30" that day is, for PostgreSQL as for any clock, 02:30 NZST =
    // 14:30Z = 03:30 NZDT: hour 3 (a fixed UTC+12 would say 02:30). 10:45Z on 27 September is
    // 23:45 NZDT, still that Sunday (a fixed +12 would say 22:45).
    const [wall] = await queryRows<{ at: string }>(
      t.database.db,
      sql`select to_char(('2026-09-27 02:30'::timestamp at time zone 'Pacific/Auckland') at time zone 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at`,
    );
    expect(wall!.at).toBe('2026-09-26T14:30:00Z');
    await ticket('D4', 'General', '2026-09-26T13:30:00Z');
    await ticket('D5', 'General', wall!.at);
    await ticket('D6', 'General', '2026-09-27T10:45:00Z');
    const r = await report({ from: '2026-09-27', to: '2026-09-27' });
    expect(r.days).toMatchObject([{ day: '2026-09-27', created: 3 }]);
    expect(r.hours.filter((c) => c.count > 0)).toEqual([
      { weekday: 7, hour: 1, count: 1 },
      { weekday: 7, hour: 3, count: 1 },
      { weekday: 7, hour: 23, count: 1 },
    ]);
    const list = await figure({ from: '2026-09-27', to: '2026-09-27', figure: 'hour', weekday: 7, hour: 3 });
    expect(numbers(list)).toEqual([no.D5]);
  });
});

describe('business time', () => {
  it('is counted as the database’s bh_between counts it, for every ticket above', async () => {
    // The report counts bh_cum for all its moments at once (an as-of join); each ticket's figures
    // must be what bh_between says of the same moments.
    const list = await figure({ from: '2026-03-01', to: '2026-09-30' });
    expect(list.tickets.length).toBeGreaterThanOrEqual(12);
    const rows = await queryRows<{ id: string; fr: number | null; res: number | null }>(
      t.database.db,
      sql`select t.id,
            (select bh_between(t.creation_date, w.ended_at) from ticket_waits w
             where w.ticket_id = t.id and w.phase = 'first' and w.ended_by = 'answer') as fr,
            case when not t.open then bh_between(t.creation_date, t.closed_at) end as res
          from support_tickets t`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const ticket of list.tickets) {
      const row = byId.get(ticket.id)!;
      if (row.fr === null) expect(ticket.firstResponseBusinessHours).toBeNull();
      else expect(ticket.firstResponseBusinessHours! * 60).toBeCloseTo(Number(row.fr), 6);
      if (row.res === null) expect(ticket.resolutionBusinessHours).toBeNull();
      else expect(ticket.resolutionBusinessHours! * 60).toBeCloseTo(Number(row.res), 6);
    }
  });
});

describe('split by label', () => {
  // "Lost bag" on T1, T2 and T5; "Refund" on T2 and T4 (a ticket may have both).
  const label: Record<string, string> = {};
  beforeAll(async () => {
    for (const name of ['Lost bag', 'Refund']) {
      const [row] = await queryRows<{ id: string }>(
        t.database.db,
        sql`insert into labels (name) values (${name}) returning id`,
      );
      label[name] = row!.id;
    }
    for (const [key, name] of [
      ['T1', 'Lost bag'],
      ['T2', 'Lost bag'],
      ['T5', 'Lost bag'],
      ['T2', 'Refund'],
      ['T4', 'Refund'],
    ] as const)
      await t.database.db.execute(
        sql`insert into ticket_labels (ticket_id, label_id) values (${id[key]!}, ${label[name]!})`,
      );
  });

  it('splits the tickets created in the range by label, each with its figures', async () => {
    const r = await report();
    expect(r.label).toBeNull();
    expect(r.labels).toEqual([
      {
        labelId: label['Lost bag'],
        name: 'Lost bag',
        created: 3,
        answered: 3,
        // First responses 30, 120 and 180 business minutes (T1, T2, T5); 0.5, 18 and 3 clock hours.
        medianFirstResponseBusinessHours: 2,
        medianFirstResponseClockHours: 3,
        // T1 (30 ≤ 480) and T2 (120 ≤ 120) within target; T5 (180 > 120) late.
        firstResponseWithinTarget: 2,
        closed: 3,
        good: 2,
        rated: 3,
      },
      {
        labelId: label.Refund,
        name: 'Refund',
        created: 2,
        answered: 1,
        medianFirstResponseBusinessHours: 2,
        medianFirstResponseClockHours: 18,
        firstResponseWithinTarget: 1,
        closed: 1,
        good: 0,
        rated: 1,
      },
    ]);
  });

  it('reports on one label alone: every figure, list and the CSV count only its tickets', async () => {
    const r = await report({ ...RANGE, label: label.Refund! });
    expect(r.label).toEqual({ id: label.Refund, name: 'Refund' });
    expect(r.created).toBe(2);
    expect(r.firstResponse.count).toBe(1);
    expect(r.firstResponse.late).toBe(1); // T4, never answered, past its target
    expect(r.ratings).toMatchObject({ good: 0, total: 1 });
    expect(r.days.find((d) => d.day === '2026-03-14')?.created).toBe(1);
    expect(r.days.find((d) => d.day === '2026-03-09')).toMatchObject({ created: 1, closed: 0 });
    expect(r.days.find((d) => d.day === '2026-03-10')?.closed).toBe(1);
    // A1 and A2 both answered T2 in the range; nobody answered T4.
    expect(r.admins.map((a) => [a.email, a.answered]).sort()).toEqual(
      [
        [a1.email, 1],
        [a2.email, 1],
      ].sort(),
    );

    const list = await figure({ figure: 'created', label: label.Refund! });
    expect(numbers(list)).toEqual([no.T2, no.T4]);
    expect(list.label).toEqual({ id: label.Refund, name: 'Refund' });
    expect(list.tickets.map((x) => x.labels)).toEqual([['Lost bag', 'Refund'], ['Refund']]);
    expect(numbers(await figure({ figure: 'ratings', label: label['Lost bag']! }))).toEqual([no.T1, no.T2, no.T5]);

    const csv = await a1.get(pathOf(reportsApi.csv, { query: { ...RANGE, label: label.Refund! } }));
    const lines = csv.body.slice(1).split('\r\n');
    expect(lines).toHaveLength(1 + 2 + 1);
    expect(lines[1]).toMatch(new RegExp(`^${no.T2},.*,Closed,Lost bag; Refund$`));
    expect(lines[2]).toMatch(new RegExp(`^${no.T4},.*,Open,Refund$`));
  });

  it('refuses a label that does not exist, in words', async () => {
    for (const value of ['00000000-0000-4000-8000-000000000000', 'lost-bag']) {
      const res = await a1.get(pathOf(reportsApi.report, { query: { ...RANGE, label: value } }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.label).toBe(REPORTS_TEXT.labelUnknown);
    }
  });
});
