import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_PERIODS, CLAIM_TEXT } from '../../../src/contracts/claims.ts';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { BusinessCalendar } from '../../../src/server/calendar/business-calendar.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { apiClient, type ApiClient, auditOf } from '../../helpers/admin-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The claim periods as a console setting (docs/decisions/153-claim-life.md): saved through
 * /api/admin/claims/periods into the settings row the database's `claim_period(name)` reads, all
 * five kept, refused in words, audited; a wait that starts after a change takes the new period, one
 * already running keeps its due time.
 */
// Thursday 9 July 2026, 10:00 in Auckland: Matariki is Friday 10 July.
const clock = movableClock(new Date('2026-07-08T22:00:00Z'));
let t: TestApp;
let sender: SupportUser;
let traveller: SupportUser;
let admin: ApiClient;
const calendar = new BusinessCalendar(DEFAULT_CALENDAR);
const PERIODS = '/api/admin/claims/periods';

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, clock, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [sender, traveller, admin] = await Promise.all([supportUser(t), supportUser(t), apiClient(t, { role: 'admin' })]);
});
afterAll(async () => {
  await t.close();
});

const stored = async () =>
  (await queryRows<{ value: unknown }>(t.database.db, sql`select value from settings where key = 'claims/periods'`))[0]
    ?.value;
const periodOf = async (name: string) =>
  Number(
    (await queryRows<{ days: number }>(t.database.db, sql`select claim_period(${name}) as days`))[0]?.days ??
      Number.NaN,
  );

async function newClaim(reference: string) {
  const res = await sender.post('/api/support/tickets', {
    reason: 'Incident',
    message: 'The jacket never came.',
    claimKind: 'lost',
    deliveryReference: reference,
    itemValue: 150,
    deliveredOn: '2026-07-07',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticketId as string;
}
const askTraveller = async (ticketId: string) => {
  const res = await admin.post(`/api/admin/support/tickets/${ticketId}/claim/traveller`, {
    email: traveller.email,
    statement: 'The sender says the jacket never arrived. When did you hand it over?',
    seenVersion: 1,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().claim as { dueAt: string; traveller: { askedAt: string } };
};

describe('the claim periods as a setting', () => {
  it('are the defaults until set; a save keeps all five in the settings row, reads back, and is audited', async () => {
    const first = await admin.get(PERIODS);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ periods: CLAIM_PERIODS });
    expect(await stored()).toBeUndefined();

    const periods = { ...CLAIM_PERIODS, travellerAnswerDays: 4, appealWindowDays: 15 };
    const saved = await admin.put(PERIODS, periods);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ periods });
    expect((await admin.get(PERIODS)).json()).toEqual({ periods });
    expect(await stored()).toEqual(periods);
    // What the database counts with.
    expect(await periodOf('travellerAnswerDays')).toBe(4);
    expect(await periodOf('appealWindowDays')).toBe(15);
    expect(await periodOf('decisionDays')).toBe(CLAIM_PERIODS.decisionDays);

    const [entry] = await auditOf(admin, 'settings', 'claim-periods');
    expect(entry).toMatchObject({
      action: 'claims.periods',
      actorEmail: admin.email,
      details: { before: CLAIM_PERIODS, after: periods },
    });
  });

  it('refuses a period out of its range or not a whole number, in words under its field, and keeps the setting', async () => {
    const before = await stored();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ decisionDays: 0 }, { decisionDays: CLAIM_TEXT.periodInvalid(30) }],
      [{ decisionDays: 'abc' }, { decisionDays: CLAIM_TEXT.periodInvalid(30) }],
      [
        { claimWindowDays: 61, travellerAnswerDays: 2.5 },
        {
          claimWindowDays: CLAIM_TEXT.periodInvalid(60),
          travellerAnswerDays: CLAIM_TEXT.periodInvalid(20),
        },
      ],
    ];
    for (const [change, fields] of cases) {
      const res = await admin.put(PERIODS, { ...CLAIM_PERIODS, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error.fields).toEqual(fields);
    }
    const { appealDecisionDays: _left, ...missing } = CLAIM_PERIODS;
    const short = await admin.put(PERIODS, missing);
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual({ appealDecisionDays: CLAIM_TEXT.periodInvalid(30) });
    expect(await stored()).toEqual(before);
  });

  it('the next traveller asked is due the new period later; one asked before keeps its due time', async () => {
    await admin.put(PERIODS, CLAIM_PERIODS);
    const earlier = await askTraveller(await newClaim('BGS-7501'));
    expect(earlier.dueAt).toBe(calendar.addWorkingDays(new Date(earlier.traveller.askedAt), 2).toISOString());

    const set = await admin.put(PERIODS, { ...CLAIM_PERIODS, travellerAnswerDays: 5 });
    expect(set.statusCode, set.body).toBe(200);
    const later = await askTraveller(await newClaim('BGS-7502'));
    // Thursday 10:00, Matariki on Friday: five working days are Monday to Friday of the next week.
    expect(later.dueAt).toBe(calendar.addWorkingDays(new Date(later.traveller.askedAt), 5).toISOString());
    expect(later.dueAt.slice(0, 13)).toBe('2026-07-16T22'); // Friday 17 July, 10 am in Auckland
    const rows = await queryRows<{ due_at: Date | string }>(
      t.database.db,
      sql`select c.due_at from incident_claims c where c.delivery_reference = 'BGS-7501'`,
    );
    expect(new Date(rows[0]!.due_at).toISOString()).toBe(earlier.dueAt);
  });
});
