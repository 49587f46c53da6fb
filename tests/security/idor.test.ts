// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, sessions, supportTickets, ticketMessages, users } from '../../src/server/db/schema.ts';
import { encodeForm, validCompany } from '../helpers/registration.ts';
import { postJson, strongPassword, uniqueEmail } from '../helpers/accounts.ts';
import { supportUser, type SupportUser } from '../helpers/support.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * AZ-04 (mass assignment) and IDOR through the body: a caller may name another user's id, another
 * ticket's id, a role, a verified flag or a ticket number in any body; none of it may reach a
 * stored row. Either the body is refused (400) or the row keeps what the server decides: the
 * caller as owner, server defaults for flags, numbers and dates. The path-level IDOR property
 * (AZ-03: a foreign ticket id in the URL) is in authz/foreign-tickets.test.ts.
 */

let t: TestApp;
let caller: SupportUser;
let victim: SupportUser;
let victimTicket: { ticketId: string; ticketNo: number };
let ownTicket: { ticketId: string; ticketNo: number };

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  [caller, victim] = [await supportUser(t), await supportUser(t)];
  victimTicket = await victim.createTicket('General', 'Victim: a private question');
  ownTicket = await caller.createTicket('General', 'Caller: my own ticket');
});
afterAll(() => t?.close());

const INJECTED_TICKET_NO = 9_000_001;
const INJECTED_DATE = '2001-02-03T04:05:06.000Z';
const INJECTED_ID = '11111111-1111-4111-8111-111111111111';

/** Keys a client must never be able to set, with values chosen to do the most damage if obeyed. */
const EXTRA_KEYS = [
  'verified',
  'role',
  'isAdmin',
  'admin',
  'userId',
  'user_id',
  'ownerId',
  'companyId',
  'ticketNo',
  'ticketId',
  'id',
  'open',
  'createdAt',
  'creationDate',
  'timestamp',
  'emailVerified',
  'email_verified',
  'emailVerifiedAt',
  'disabled',
  'mine',
  '__proto__',
  'constructor',
] as const;

const valueArb = () =>
  fc.oneof(
    fc.constant(true),
    fc.constant(1),
    fc.constant(false),
    fc.constant('admin'),
    fc.constant(INJECTED_ID),
    fc.constant(INJECTED_TICKET_NO),
    fc.constant(INJECTED_DATE),
    fc.constant({ isAdmin: true, role: 'admin' }),
    fc.constant({ prototype: { isAdmin: true } }),
    // Another user's real ids: the IDOR-through-the-body case.
    fc
      .constantFrom('victim-user', 'victim-ticket')
      .map((which) => (which === 'victim-user' ? victim.id : victimTicket.ticketId)),
    fc.jsonValue({ maxDepth: 2 }),
  );

const extrasArb = fc
  .uniqueArray(fc.constantFrom(...EXTRA_KEYS), { minLength: 1, maxLength: 6 })
  .chain((keys) =>
    fc
      .tuple(...keys.map(() => valueArb()))
      .map((values) => keys.map((key, i) => [key, values[i]] as [string, unknown])),
  );

/** A body with extra own properties, `__proto__` included (an object literal would set the prototype instead). */
function withExtras(base: Record<string, unknown>, extras: Array<[string, unknown]>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...base };
  for (const [key, value] of extras)
    Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
  return body;
}

const sendJson = (url: string, body: Record<string, unknown>, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { ...headers, 'content-type': 'application/json' },
  });

const recent = (date: Date) => Math.abs(Date.now() - date.getTime()) < 5 * 60_000;

const ticketCount = async (userId: string) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(supportTickets)
      .where(eq(supportTickets.userId, userId))
  )[0]!.n;
const messagesOf = (ticketId: string) =>
  t.database.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId));

function prototypeIsClean() {
  const probe = {} as Record<string, unknown>;
  expect(probe.isAdmin).toBeUndefined();
  expect(probe.role).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'isAdmin')).toBe(false);
}

describe('AZ-04: extra keys in a ticket creation', () => {
  it('are refused or ignored: the ticket is the caller’s, open, numbered and dated by the server', async () => {
    const victimTickets = await ticketCount(victim.id);
    const victimMessages = (await messagesOf(victimTicket.ticketId)).length;
    const outcomes = { stored: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(extrasArb, extrasArb, async (top, inner) => {
        const before = await ticketCount(caller.id);
        const body = withExtras(
          { data: withExtras({ reason: 'Incident', message: 'Mass assignment probe' }, inner) },
          top,
        );
        const res = await sendJson('/api/functions/createSupportTicket', body, caller.headers);
        expect([200, 400], res.body).toContain(res.statusCode);
        if (res.statusCode === 400) {
          outcomes.refused++;
          expect(await ticketCount(caller.id)).toBe(before);
          return;
        }
        outcomes.stored++;
        const { ticketId, ticketNo } = res.json().result as { ticketId: string; ticketNo: number };
        expect(ticketId).not.toBe(INJECTED_ID);
        const [row] = await t.database.db.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
        expect(row).toMatchObject({ userId: caller.id, open: true, reason: 'Incident', ticketNo });
        expect(row!.ticketNo).toBeLessThan(INJECTED_TICKET_NO);
        expect(recent(row!.creationDate)).toBe(true);
        const messages = await messagesOf(ticketId);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ userId: caller.id, admin: false, messageBody: 'Mass assignment probe' });
        expect(recent(messages[0]!.timestamp)).toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(outcomes.stored, 'some bodies were accepted, so the stored rows were checked').toBeGreaterThan(0);
    expect(await ticketCount(victim.id)).toBe(victimTickets);
    expect(await messagesOf(victimTicket.ticketId)).toHaveLength(victimMessages);
    prototypeIsClean();
  });
});

describe('AZ-04: extra keys in a reply', () => {
  it('are refused or ignored: the message is the caller’s, on the ticket in the path, never an admin’s', async () => {
    const victimMessages = (await messagesOf(victimTicket.ticketId)).length;
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(extrasArb, fc.boolean(), async (extras, withClientId) => {
        const base: Record<string, unknown> = { messageBody: 'Reply probe' };
        if (withClientId) base.clientId = `probe-${Math.random().toString(36).slice(2, 12)}`;
        const res = await sendJson(
          `/api/support/tickets/${ownTicket.ticketId}/messages`,
          withExtras(base, extras),
          caller.headers,
        );
        expect([200, 400], res.body).toContain(res.statusCode);
        if (res.statusCode !== 200) return;
        stored++;
        const message = res.json().message as { id: number; admin: boolean; mine: boolean };
        expect(message).toMatchObject({ admin: false, mine: true, messageBody: 'Reply probe' });
        const [row] = await t.database.db.select().from(ticketMessages).where(eq(ticketMessages.id, message.id));
        expect(row).toMatchObject({ ticketId: ownTicket.ticketId, userId: caller.id, admin: false });
        expect(recent(row!.timestamp)).toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(stored).toBeGreaterThan(0);
    expect(await messagesOf(victimTicket.ticketId)).toHaveLength(victimMessages);
    prototypeIsClean();
  });

  it('CVE-2026-115725 / FOSSBilling CVE-2025-64105 pattern: a foreign ticketId or userId in the body reaches nothing', async () => {
    const before = (await messagesOf(victimTicket.ticketId)).length;
    const res = await sendJson(
      `/api/support/tickets/${ownTicket.ticketId}/messages`,
      { messageBody: 'Body names the victim', ticketId: victimTicket.ticketId, userId: victim.id },
      caller.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(await messagesOf(victimTicket.ticketId)).toHaveLength(before);
    const created = await sendJson(
      '/api/functions/createSupportTicket',
      { data: { reason: 'General', message: 'Body names the victim', userId: victim.id } },
      caller.headers,
    );
    expect(created.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.id, created.json().result.ticketId));
    expect(row!.userId).toBe(caller.id);
  });
});

describe('AZ-04: extra keys in a sign-up', () => {
  it('are refused or ignored: the account is a plain, unverified, enabled user with a server id', async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(extrasArb, async (extras) => {
        const email = uniqueEmail('mass-signup');
        const res = await sendJson('/api/auth/signup', withExtras({ email, password: strongPassword() }, extras), {});
        expect([202, 400], res.body).toContain(res.statusCode);
        const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
        if (res.statusCode === 400) {
          expect(row).toBeUndefined();
          return;
        }
        created++;
        expect(row).toMatchObject({ role: 'user', emailVerifiedAt: null, disabledAt: null });
        expect([INJECTED_ID, victim.id]).not.toContain(row!.id);
        expect(recent(row!.createdAt)).toBe(true);
        // And no session came with it (an unverified account gets none).
        expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, row!.id))).toEqual([]);
      }),
      { numRuns: 20 },
    );
    expect(created).toBeGreaterThan(0);
    prototypeIsClean();
  });

  it('a body cannot change another account’s password (userId in change-password)', async () => {
    const [before] = await t.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, victim.id));
    const res = await postJson(
      t,
      '/api/auth/change-password',
      { currentPassword: caller.password, newPassword: strongPassword(), userId: victim.id, email: victim.email },
      caller.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await t.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, victim.id));
    expect(after!.hash).toBe(before!.hash);
  });
});

describe('AZ-04: extra fields in a partner registration', () => {
  const COMPANY_EXTRAS = [
    'verified',
    'isBanned',
    'isEmailSend',
    'commercialLicenseUrl',
    'commercialLicenseKey',
    'id',
    'companyId',
    'createdAt',
    'lastUpdated',
    'rejectionReason',
    'role',
    '__proto__',
    'constructor',
  ] as const;

  it('are refused (400) or ignored: the application is pending, not banned, with a server id and no licence', async () => {
    const fieldsArb = fc
      .uniqueArray(fc.constantFrom(...COMPANY_EXTRAS), { minLength: 1, maxLength: 5 })
      .chain((keys) =>
        fc
          .tuple(
            ...keys.map(() =>
              fc.constantFrom('1', 'true', INJECTED_ID, INJECTED_DATE, 'commercialLicenses/victim.png', 'admin'),
            ),
          )
          .map((values) => keys.map((key, i) => [key, values[i]!] as [string, string])),
      );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fieldsArb, async (extra) => {
        const company = validCompany();
        const { payload, headers } = await encodeForm(company, undefined, extra);
        const res = await t.app.inject({ method: 'POST', url: '/api/companies', payload, headers });
        expect([201, 400], res.body).toContain(res.statusCode);
        const rows = await t.database.db.select().from(companies).where(eq(companies.companyName, company.companyName));
        if (res.statusCode === 400) {
          refused++;
          expect(rows).toEqual([]);
          return;
        }
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          verified: 0,
          isBanned: false,
          isEmailSend: false,
          commercialLicenseKey: null,
          commercialLicenseUrl: null,
          rejectionReason: null,
        });
        expect(rows[0]!.id).not.toBe(INJECTED_ID);
      }),
      { numRuns: 25 },
    );
    // Today every unknown field is refused outright; keep knowing it.
    expect(refused).toBe(25);
    prototypeIsClean();
  });
});
