import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceLevelsApi } from '../../../src/contracts/api/service-levels.ts';
import { DEFAULT_CALENDAR, DEFAULT_TARGETS } from '../../../src/contracts/service-levels.ts';
import type { CalendarSettings, ServiceLevelSettings } from '../../../src/contracts/service-levels.schemas.ts';
import { BusinessCalendar, newZealandDate } from '../../../src/server/calendar/business-calendar.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { type SupportUser, supportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Waits and due times as the database keeps them (triggers on messages and on closing), against
 * the business calendar's own arithmetic; and the settings that move them.
 */
interface Wait {
  id: number;
  phase: 'first' | 'next';
  started_at: string;
  ended_at: string | null;
  ended_by: string | null;
  response_due: string | null;
  resolution_due: string | null;
  due_at: string | null;
}

let t: TestApp;
let user: SupportUser;
let admin: SupportUser;

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, serviceLevelWorker: false });
  user = await supportUser(t);
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const waitsOf = (ticketId: string) =>
  queryRows<Wait>(
    t.database.db,
    sql`select id, phase, started_at::text, ended_at::text, ended_by, response_due::text, resolution_due::text,
          due_at::text
        from ticket_waits where ticket_id = ${ticketId} order by id`,
  );
const at = (text: string | null) => new Date(text!).getTime();
/** Due times match the calendar's own arithmetic to the millisecond (the database keeps microseconds). */
const expectSameInstant = (actual: string | null, expected: Date) =>
  expect(Math.abs(at(actual) - expected.getTime())).toBeLessThanOrEqual(1);

const put = (path: string, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: path,
    headers: { ...admin.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const pathOf = (e: { path: string }) => e.path;

describe('the database counts business time as the calendar does', () => {
  it('bh_add and bh_cum agree with BusinessCalendar for any instant and target (property)', async () => {
    const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2028, 0, 1) }),
        fc.integer({ min: 1, max: 120 * 60 }),
        async (startMs, minutes) => {
          const start = new Date(startMs);
          const [row] = await queryRows<{ due: string; between: number }>(
            t.database.db,
            sql`select bh_add(${start.toISOString()}::timestamptz, ${minutes})::text as due,
                       bh_between(${start.toISOString()}::timestamptz, bh_add(${start.toISOString()}::timestamptz, ${minutes})) as between`,
          );
          expectSameInstant(row!.due, calendar.addBusinessMinutes(start, minutes));
          expect(Number(row!.between)).toBeCloseTo(minutes, 4);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a ticket’s waits', () => {
  it('first response from the first message; the answer stops it; a reply starts a next response; notes change nothing', async () => {
    const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
    const { ticketId } = await user.createTicket('Incident', 'My bag arrived torn at the seams.');
    let waits = await waitsOf(ticketId);
    expect(waits).toHaveLength(1);
    const first = waits[0]!;
    expect(first).toMatchObject({ phase: 'first', ended_at: null });
    expectSameInstant(
      first.response_due,
      calendar.addBusinessMinutes(new Date(first.started_at), DEFAULT_TARGETS.Incident.firstResponse),
    );
    expectSameInstant(
      first.resolution_due,
      calendar.addBusinessMinutes(new Date(first.started_at), DEFAULT_TARGETS.Incident.resolution),
    );
    expect(first.due_at).toBe(first.response_due);

    // A second message from the customer before any answer: the same wait.
    expect(
      (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Photos to follow.' })).statusCode,
    ).toBe(200);
    // An internal note is no answer.
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Ask the courier.' }))
        .statusCode,
    ).toBe(200);
    expect(await waitsOf(ticketId)).toHaveLength(1);
    expect((await waitsOf(ticketId))[0]!.ended_at).toBeNull();

    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Sorry! Send us a photo.' }))
        .statusCode,
    ).toBe(200);
    waits = await waitsOf(ticketId);
    expect(waits[0]).toMatchObject({ ended_by: 'answer' });

    expect(
      (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Here it is.' })).statusCode,
    ).toBe(200);
    waits = await waitsOf(ticketId);
    expect(waits).toHaveLength(2);
    const next = waits[1]!;
    expect(next).toMatchObject({ phase: 'next', ended_at: null });
    expectSameInstant(
      next.response_due,
      calendar.addBusinessMinutes(new Date(next.started_at), DEFAULT_TARGETS.Incident.nextResponse),
    );
    // The resolution clock is what is left of the target after the first wait's business time.
    const used = calendar.businessMinutesBetween(new Date(waits[0]!.started_at), new Date(waits[0]!.ended_at!));
    expectSameInstant(
      next.resolution_due,
      calendar.addBusinessMinutes(new Date(next.started_at), DEFAULT_TARGETS.Incident.resolution - used),
    );
  });

  it('a ticket whose earlier waits used all its resolution time is late from the next wait’s start, at any hour', async () => {
    const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
    const { ticketId } = await user.createTicket('General', 'Where is my parcel?');
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Looking now.' })).statusCode,
    ).toBe(200);
    // The first wait took 30 days: far more than the 40 business hours of a General resolution.
    await t.database.db.execute(
      sql`update ticket_waits set started_at = started_at - interval '30 days' where ticket_id = ${ticketId}`,
    );
    // At 4 am on a Thursday in New Zealand (closed), and at 11 am (open), a next wait is due at once
    // for resolution; its answer is due the calendar's next-response target after its start.
    for (const started of ['2026-12-03T04:02:00+13:00', '2026-12-03T11:00:00+13:00']) {
      const [due] = await queryRows<{ response_due: string; resolution_due: string }>(
        t.database.db,
        sql`select response_due::text, resolution_due::text from wait_dues(${ticketId}, 'next', ${started}::timestamptz)`,
      );
      expectSameInstant(due!.resolution_due, new Date(started));
      expectSameInstant(
        due!.response_due,
        calendar.addBusinessMinutes(new Date(started), DEFAULT_TARGETS.General.nextResponse),
      );
    }
    // And the same through the trigger, when the customer writes now.
    expect(
      (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Any news?' })).statusCode,
    ).toBe(200);
    const next = (await waitsOf(ticketId))[1]!;
    expect(next.phase).toBe('next');
    expect(next.resolution_due).toBe(next.started_at);
    expect(next.due_at).toBe(next.started_at);
  });

  it('closing stops the clock; reopening starts a next-response clock', async () => {
    const { ticketId } = await user.createTicket('General', 'Where do I find my receipt?');
    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    let waits = await waitsOf(ticketId);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ ended_by: 'close' });
    expect(waits[0]!.ended_at).not.toBeNull();
    // A closed ticket takes no message, so no wait starts.
    expect(
      (await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Hello?' })).statusCode,
    ).not.toBe(200);
    expect(await waitsOf(ticketId)).toHaveLength(1);

    expect((await admin.post(`/api/admin/support/tickets/${ticketId}/reopen`)).statusCode).toBe(200);
    waits = await waitsOf(ticketId);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toMatchObject({ phase: 'next', ended_at: null });
  });
});

describe('the first response, kept on the ticket', () => {
  const firstAnswerOf = async (ticketId: string) =>
    (
      await queryRows<{ at: string | null; by: string | null }>(
        t.database.db,
        sql`select first_answer_at::text as at, first_answer_by::text as by from support_tickets where id = ${ticketId}`,
      )
    )[0]!;

  it('is the answer that ended the first wait, and whose it was; later answers and a close change nothing', async () => {
    const other = await supportUser(t, { role: 'admin' });
    const { ticketId } = await user.createTicket('General', 'Can I send a surfboard?');
    expect(await firstAnswerOf(ticketId)).toEqual({ at: null, by: null });
    await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Check the size rules.' });
    expect(await firstAnswerOf(ticketId)).toEqual({ at: null, by: null });

    await other.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Yes, up to 2 m.' });
    const [first] = await waitsOf(ticketId);
    expect(await firstAnswerOf(ticketId)).toEqual({ at: first!.ended_at, by: other.id });

    await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'And a kayak?' });
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Not a kayak, sorry.' });
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    expect(await firstAnswerOf(ticketId)).toEqual({ at: first!.ended_at, by: other.id });
  });

  it('a ticket closed before any answer has none, even when answered after reopening', async () => {
    const { ticketId } = await user.createTicket('General', 'Wrong ticket, sorry.');
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    await admin.post(`/api/admin/support/tickets/${ticketId}/reopen`);
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Reopened: how can we help?' });
    expect(await firstAnswerOf(ticketId)).toEqual({ at: null, by: null });
  });

  it('derive_ticket_waits (tickets written without the triggers) gives what the triggers gave', async () => {
    // A few conversations through the API: the triggers keep their waits and first answers.
    const tickets: string[] = [];
    for (const [reason, turns] of [
      ['General', ['u', 'u', 'a', 'u', 'a']],
      ['Incident', ['u', 'a', 'a', 'u']],
      ['Deactivation', ['u']],
    ] as const) {
      const { ticketId } = await user.createTicket(reason, 'First words.');
      for (const [i, who] of turns.slice(1).entries()) {
        const by = who === 'u' ? user : admin;
        const path = who === 'u' ? 'support' : 'admin/support';
        expect(
          (await by.post(`/api/${path}/tickets/${ticketId}/messages`, { messageBody: `Turn ${i}` })).statusCode,
        ).toBe(200);
      }
      tickets.push(ticketId);
    }
    await admin.post(`/api/admin/support/tickets/${tickets[1]}/close`);
    const snapshot = async () =>
      Promise.all(
        tickets.map(async (id) => ({
          waits: (await waitsOf(id)).map(({ phase, started_at, ended_at, ended_by }) => ({
            phase,
            started_at,
            ended_at,
            ended_by,
          })),
          first: await firstAnswerOf(id),
        })),
      );
    const byTriggers = await snapshot();
    expect(byTriggers.map((s) => s.waits.length)).toEqual([2, 2, 1]);

    // As a bulk load leaves them: no waits, no first answers; then derived from the messages.
    await t.database.db.execute(
      sql`delete from ticket_waits where ticket_id in (${sql.join(
        tickets.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    await t.database.db.execute(
      sql`update support_tickets set first_answer_at = null, first_answer_by = null
          where id in (${sql.join(
            tickets.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
    await t.database.db.execute(sql`select derive_ticket_waits()`);
    expect(await snapshot()).toEqual(byTriggers);
  });
});

describe('changing the calendar or the targets moves the due times of waiting tickets', () => {
  it('a shorter target moves the due time earlier; a closed exception on the due day moves it on', async () => {
    const settings = (await admin.get(pathOf(serviceLevelsApi.settings))).json() as ServiceLevelSettings;
    expect(settings.targets).toEqual(DEFAULT_TARGETS);
    expect(settings.calendar).toEqual(DEFAULT_CALENDAR);

    const { ticketId } = await user.createTicket('General', 'Can I send a surfboard?');
    const before = (await waitsOf(ticketId))[0]!;

    const shorter = structuredClone(DEFAULT_TARGETS);
    shorter.General.firstResponse = 60;
    const saved = await put(pathOf(serviceLevelsApi.saveTargets), shorter);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as ServiceLevelSettings).targets.General.firstResponse).toBe(60);
    const moved = (await waitsOf(ticketId))[0]!;
    const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
    expectSameInstant(moved.response_due, calendar.addBusinessMinutes(new Date(before.started_at), 60));

    // Close the day the answer is due on: it is due that much later.
    const dueDay = newZealandDate(new Date(moved.response_due!));
    const closed: CalendarSettings = {
      ...DEFAULT_CALENDAR,
      overrides: [{ date: dueDay, spans: [], note: 'Team day out' }],
    };
    const savedCalendar = await put(pathOf(serviceLevelsApi.saveCalendar), closed);
    expect(savedCalendar.statusCode, savedCalendar.body).toBe(200);
    expect((savedCalendar.json() as ServiceLevelSettings).specialDays).toContainEqual({
      date: dueDay,
      name: 'Team day out',
      spans: [],
      exception: true,
    });
    const later = (await waitsOf(ticketId))[0]!;
    expect(at(later.response_due)).toBeGreaterThan(at(moved.response_due));
    expectSameInstant(
      later.response_due,
      new BusinessCalendar(closed).addBusinessMinutes(new Date(before.started_at), 60),
    );
    expect(newZealandDate(new Date(later.response_due!))).not.toBe(dueDay);

    // Both changes are in the audit log.
    const audit = (await admin.get('/api/admin/audit?action=service-levels.calendar')).json() as { entries: unknown[] };
    expect(audit.entries).toHaveLength(1);

    // Back to the defaults for the other tests.
    expect((await put(pathOf(serviceLevelsApi.saveTargets), DEFAULT_TARGETS)).statusCode).toBe(200);
    expect((await put(pathOf(serviceLevelsApi.saveCalendar), DEFAULT_CALENDAR)).statusCode).toBe(200);
  });

  it('refuses a calendar that cannot be kept, in words, and changes nothing', async () => {
    const overlapping = structuredClone(DEFAULT_CALENDAR);
    overlapping.hours.tue = [
      { start: '09:00', end: '13:00' },
      { start: '12:30', end: '17:00' },
    ];
    const res = await put(pathOf(serviceLevelsApi.saveCalendar), overlapping);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Two spans on one day overlap: join them into one.');
    const none = { ...DEFAULT_CALENDAR, hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } };
    const closedWeek = await put(pathOf(serviceLevelsApi.saveCalendar), none);
    expect(closedWeek.statusCode).toBe(400);
    expect(closedWeek.body).toContain('Open at least one span in the week');
    expect(((await admin.get(pathOf(serviceLevelsApi.settings))).json() as ServiceLevelSettings).calendar).toEqual(
      DEFAULT_CALENDAR,
    );
    // Only admins.
    expect((await user.get(pathOf(serviceLevelsApi.settings))).statusCode).toBe(403);
  });
});
