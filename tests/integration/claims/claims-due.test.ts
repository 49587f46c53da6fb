import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNzDueTime } from '../../../src/contracts/dates.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A claim's due time as the team lives with it (modules/claims-due, docs/decisions/152-incident-claims.md):
 * a claim waiting on the team (or on the traveller the team chases) shows in the inbox's Late and
 * Due today filters by its own due time, even when the ticket itself waits on nobody; the team is
 * warned once per due time, SLA_WARNING_MINUTES (30) before it; a decided claim closes once its
 * appeal window has passed, once. The test moves the app's clock and runs the worker's rounds.
 */
// Wednesday 2 December 2026, 10:00 in Auckland.
const clock = movableClock(new Date('2026-12-01T21:00:00Z'));
const MINUTE = 60_000;
let t: TestApp;
let sender: SupportUser;
let agent: SupportUser;
let other: SupportUser;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    mailWorker: false,
    serviceLevelWorker: false,
    // The clock walks weeks: the sessions made at its start must last.
    env: { TICKETS_PER_USER_PER_HOUR: '1000', SESSION_IDLE_MINUTES: '100000', SESSION_ABSOLUTE_HOURS: '10000' },
  });
  [sender, agent, other] = await Promise.all([
    supportUser(t),
    supportUser(t, { role: 'admin' }),
    supportUser(t, { role: 'admin' }),
  ]);
});
afterAll(() => t?.close());

const claimPath = (ticketId: string) => `/api/admin/support/tickets/${ticketId}/claim`;

interface Claim {
  id: string;
  state: string;
  version: number;
  dueAt: string | null;
}
const claimOf = async (ticketId: string): Promise<Claim> => {
  const res = await agent.get(claimPath(ticketId));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().claim;
};

/** A claim about a lost item, made now; the team answers the ticket, so only the claim waits on the team. */
async function newClaim(reference: string, options: { answer?: boolean } = {}) {
  const res = await sender.post('/api/support/tickets', {
    reason: 'Incident',
    message: 'The parcel never came.',
    claimKind: 'lost',
    deliveryReference: reference,
    itemValue: 150,
    deliveredOn: '2026-12-01',
  });
  expect(res.statusCode, res.body).toBe(201);
  const { ticketId, ticketNo } = res.json() as { ticketId: string; ticketNo: number };
  if (options.answer ?? true) {
    const answer = await agent.post(`/api/admin/support/tickets/${ticketId}/messages`, {
      messageBody: 'We are looking into it.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }
  return { ticketId, ticketNo };
}

const inboxIds = async (query: string): Promise<string[]> => {
  const res = await agent.get(`/api/admin/support/tickets?open=true&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().tickets.map((ticket: { id: string }) => ticket.id);
};

/** The claims' warnings recorded about one ticket, oldest first. */
async function warningsAbout(ticketNo: number) {
  return queryRows<{ recipient: string; subject: string; text_body: string }>(
    t.database.db,
    sql`select recipient, subject, text_body from mail_outbox
        where kind = 'claim-due' and subject like ${`Claim on ticket #${ticketNo} %`} order by id`,
  );
}

async function assign(ticketId: string, to: SupportUser) {
  const res = await to.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' });
  expect(res.statusCode, res.body).toBe(200);
}

const round = () => t.app.claimsDueWorker.run();

describe('late claims in the inbox', () => {
  it('a claim waiting on the team is Due today on its day and Late once its due time passes, with nothing else due', async () => {
    clock.set(new Date('2026-12-01T21:00:00Z'));
    const { ticketId } = await newClaim('BGS-8001');
    // Answered: the ticket waits on the customer, so no service-level wait makes it due.
    const [open] = await queryRows<{ count: number }>(
      t.database.db,
      sql`select count(*)::int from ticket_waits where ticket_id = ${ticketId} and ended_at is null and due_at is not null`,
    );
    expect(open?.count).toBe(0);
    const dueAt = new Date((await claimOf(ticketId)).dueAt!);
    // Five working days later: Wednesday 9 December, 10:00 (the clock runs on from where it is set).
    expect(dueAt.toISOString().slice(0, 16)).toBe('2026-12-08T21:00');

    for (const sort of ['', '&sort=due']) {
      expect(await inboxIds(`due=late${sort}`)).not.toContain(ticketId);
      expect(await inboxIds(`due=today${sort}`)).not.toContain(ticketId);
    }

    clock.set(new Date(dueAt.getTime() - 60 * MINUTE));
    for (const sort of ['', '&sort=due']) {
      expect(await inboxIds(`due=today${sort}`)).toContain(ticketId);
      expect(await inboxIds(`due=late${sort}`)).not.toContain(ticketId);
    }

    clock.set(new Date(dueAt.getTime() + 1000));
    for (const sort of ['', '&sort=due']) {
      expect(await inboxIds(`due=late${sort}`)).toContain(ticketId);
      expect(await inboxIds(`due=today${sort}`)).not.toContain(ticketId);
    }
  });

  it('a decided claim is not late for the team when its appeal window ends', async () => {
    clock.set(new Date('2026-12-01T21:00:00Z'));
    const { ticketId } = await newClaim('BGS-8002');
    const decided = await agent.post(`${claimPath(ticketId)}/decision`, {
      outcome: 'declined',
      reason: 'The traveller handed it over whole.',
      seenVersion: 1,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const dueAt = new Date((await claimOf(ticketId)).dueAt!);
    clock.set(new Date(dueAt.getTime() + 1000));
    expect(await inboxIds('due=late')).not.toContain(ticketId);
    expect(await inboxIds('due=late&sort=due')).not.toContain(ticketId);
  });
});

describe('warnings', () => {
  it('tells the assignee once per due time: a round again tells nothing, a new due time is told again', async () => {
    clock.set(new Date('2026-12-01T21:00:00Z'));
    const { ticketId, ticketNo } = await newClaim('BGS-8101');
    await assign(ticketId, agent);
    const first = await claimOf(ticketId);
    const dueAt = new Date(first.dueAt!);

    clock.set(new Date(dueAt.getTime() - 31 * MINUTE));
    await round();
    expect(await warningsAbout(ticketNo)).toEqual([]);

    clock.set(new Date(dueAt.getTime() - 30 * MINUTE));
    await round();
    await round();
    let mails = await warningsAbout(ticketNo);
    expect(mails.map((m) => [m.recipient, m.subject])).toEqual([
      [agent.email.toLowerCase(), `Claim on ticket #${ticketNo} (Lost): a decision is due ${formatNzDueTime(dueAt)}`],
    ]);
    expect(mails[0]!.text_body).toContain('delivery BGS-8101');
    expect(mails[0]!.text_body).toContain(`${t.config.publicBaseUrl}/admin/support/${ticketId}`);
    expect(mails[0]!.text_body).toContain(`ticket #${ticketNo} is assigned to you`);

    // Past the due time: told already (once per due time), however many rounds.
    clock.set(new Date(dueAt.getTime() + MINUTE));
    await round();
    await round();
    expect(await warningsAbout(ticketNo)).toHaveLength(1);

    // Asking the traveller sets a new due time: their answer, told again once it is near.
    const asked = await agent.post(`${claimPath(ticketId)}/traveller`, {
      email: `traveller-${ticketNo}@example.com`,
      statement: 'The sender says the parcel never came. When did you hand it over?',
      seenVersion: first.version,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const travellerDue = new Date((await claimOf(ticketId)).dueAt!);
    expect(travellerDue.getTime()).toBeGreaterThan(dueAt.getTime());
    await round();
    expect(await warningsAbout(ticketNo)).toHaveLength(1);

    clock.set(new Date(travellerDue.getTime() + MINUTE));
    await round();
    await round();
    mails = await warningsAbout(ticketNo);
    expect(mails.map((m) => m.subject)).toEqual([
      `Claim on ticket #${ticketNo} (Lost): a decision is due ${formatNzDueTime(dueAt)}`,
      `Claim on ticket #${ticketNo} (Lost) is late: the traveller’s answer was due ${formatNzDueTime(travellerDue)}`,
    ]);
    expect(mails[1]!.recipient).toBe(agent.email.toLowerCase());
  });

  it('tells every admin while the claim is nobody’s, and nothing about a decided claim', async () => {
    clock.set(new Date('2026-12-01T21:00:00Z'));
    const open = await newClaim('BGS-8102');
    const decided = await newClaim('BGS-8103');
    const decision = await agent.post(`${claimPath(decided.ticketId)}/decision`, { outcome: 'upheld', seenVersion: 1 });
    expect(decision.statusCode, decision.body).toBe(200);
    const appealEnds = new Date((await claimOf(decided.ticketId)).dueAt!);
    clock.set(new Date(appealEnds.getTime() - 10 * MINUTE));
    await round();
    const recipients = (await warningsAbout(open.ticketNo)).map((m) => m.recipient);
    expect(recipients).toEqual(expect.arrayContaining([agent.email.toLowerCase(), other.email.toLowerCase()]));
    expect(new Set(recipients).size).toBe(recipients.length);
    expect((await warningsAbout(open.ticketNo))[0]!.text_body).toContain('you are on the');
    expect(await warningsAbout(decided.ticketNo)).toEqual([]);
  });
});

describe('closing after the appeal window', () => {
  it('closes a decided claim once its appeal window has passed, in one round; a second round changes nothing', async () => {
    clock.set(new Date('2026-12-01T21:00:00Z'));
    const { ticketId } = await newClaim('BGS-8201');
    const decided = await agent.post(`${claimPath(ticketId)}/decision`, {
      outcome: 'part',
      amount: 40,
      seenVersion: 1,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const before = await claimOf(ticketId);
    expect(before.state).toBe('decided');
    const appealEnds = new Date(before.dueAt!);

    clock.set(new Date(appealEnds.getTime() - 1000));
    await round();
    expect(await claimOf(ticketId)).toMatchObject({ state: 'decided', version: before.version });

    const set = new Date(appealEnds.getTime() + 5 * MINUTE);
    clock.set(set);
    await round();
    const after = clock.now();
    const closed = await claimOf(ticketId);
    expect(closed).toMatchObject({ state: 'closed', version: before.version + 1, dueAt: null });
    const [row] = await queryRows<{ closed_at: unknown; state_since: unknown }>(
      t.database.db,
      sql`select closed_at, state_since from incident_claims where id = ${closed.id}`,
    );
    // At the app's clock's time of the round, not the machine's.
    const closedAt = new Date(row!.closed_at as string);
    expect(closedAt.getTime()).toBeGreaterThanOrEqual(set.getTime());
    expect(closedAt.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(new Date(row!.state_since as string).toISOString()).toBe(closedAt.toISOString());

    clock.set(new Date(set.getTime() + 60 * MINUTE));
    await round();
    expect(await claimOf(ticketId)).toMatchObject({ state: 'closed', version: before.version + 1, dueAt: null });
    const [again] = await queryRows<{ closed_at: unknown }>(
      t.database.db,
      sql`select closed_at from incident_claims where id = ${closed.id}`,
    );
    expect(new Date(again!.closed_at as string).toISOString()).toBe(closedAt.toISOString());
  });
});
