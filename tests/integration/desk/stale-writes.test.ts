import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '../../../src/contracts/desk.ts';
import { png, postFiles } from '../../helpers/attachment-files.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Stale writes stopped (docs/decisions/140-stale-writes-stopped.md): every message and every change
 * of state, assignee or merge gives a ticket a new version; a staff answer or note names the version
 * it was written against and is stopped (412, nothing stored) when the ticket has moved on since.
 */
let t: TestApp;
let admins: SupportUser[];

beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  admins = [];
  for (let i = 0; i < 4; i++) admins.push(await supportUser(t, { role: 'admin' }));
});
afterAll(() => t.close());

interface Seen {
  version: number;
  messages: Array<{ id: number; messageBody: string; admin: boolean; internal: boolean; ticketVersion: number }>;
}

const look = async (agent: SupportUser, ticketId: string): Promise<Seen> => {
  const res = await agent.get(`/api/admin/support/tickets/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  return { version: res.json().ticket.version, messages: res.json().messages };
};
const answer = (agent: SupportUser, ticketId: string, messageBody: string, seenVersion?: number) =>
  agent.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody, seenVersion });
const note = (agent: SupportUser, ticketId: string, messageBody: string, seenVersion?: number) =>
  agent.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody, seenVersion });

describe('a ticket’s version', () => {
  it('moves with every message, note, close, reopen, assignment and merge, and not with a look', async () => {
    const customer = await supportUser(t);
    const [a] = admins as [SupportUser];
    const { ticketId } = await customer.createTicket('General', 'Where is my parcel?');
    const versions = [(await look(a, ticketId)).version];
    const moved = async (what: string) => {
      const now = (await look(a, ticketId)).version;
      expect(now, what).toBeGreaterThan(versions.at(-1)!);
      versions.push(now);
    };
    expect((await look(a, ticketId)).version, 'a look').toBe(versions[0]);
    expect(
      (await customer.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Hello?' })).statusCode,
    ).toBe(200);
    await moved('the customer’s message');
    expect((await answer(a, ticketId, 'On its way.')).statusCode).toBe(200);
    await moved('an answer');
    expect((await note(a, ticketId, 'Courier says Tuesday.')).statusCode).toBe(200);
    await moved('a note');
    expect((await a.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' })).statusCode).toBe(200);
    await moved('an assignment');
    expect((await a.post(`/api/admin/support/tickets/${ticketId}/close`)).statusCode).toBe(200);
    await moved('a close');
    expect((await a.post(`/api/admin/support/tickets/${ticketId}/reopen`)).statusCode).toBe(200);
    await moved('a reopen');
    const other = await customer.createTicket('General', 'And another thing.');
    const merged = await a.post(`/api/admin/support/tickets/${other.ticketId}/merge`, { targetTicketId: ticketId });
    expect(merged.statusCode, merged.body).toBe(200);
    await moved('a merge into it');
    // Each message carries the version it made: what changed since a version is the messages above it.
    const { messages, version } = await look(a, ticketId);
    expect(Math.max(...messages.map((m) => m.ticketVersion))).toBeLessThanOrEqual(version);
    expect(messages.filter((m) => m.ticketVersion > versions[1]!).map((m) => m.messageBody)).toEqual(
      expect.arrayContaining(['On its way.', 'Courier says Tuesday.']),
    );
  });
});

describe('a staff write against an older version', () => {
  it('is stopped with 412 and its words, and nothing is stored; sent again against the new version it goes', async () => {
    const customer = await supportUser(t);
    const [a, b] = admins as [SupportUser, SupportUser];
    const { ticketId } = await customer.createTicket('General', 'Can I change the address?');
    const seenByA = await look(a, ticketId);
    const seenByB = await look(b, ticketId);
    expect((await answer(a, ticketId, 'Yes: reply with the new one.', seenByA.version)).statusCode).toBe(200);
    for (const refused of [
      await answer(b, ticketId, 'Yes, you can.', seenByB.version),
      await note(b, ticketId, 'I will handle this.', seenByB.version),
    ]) {
      expect(refused.statusCode, refused.body).toBe(412);
      expect(refused.json().error).toMatchObject({ status: 'FAILED_PRECONDITION', message: DESK_TEXT.stale });
    }
    const after = await look(b, ticketId);
    expect(after.messages.map((m) => m.messageBody)).toEqual([
      'Can I change the address?',
      'Yes: reply with the new one.',
    ]);
    // What B is shown as changed: the messages above the version B saw.
    expect(after.messages.filter((m) => m.ticketVersion > seenByB.version).map((m) => m.messageBody)).toEqual([
      'Yes: reply with the new one.',
    ]);
    // Send anyway: the same words against the version now seen.
    const anyway = await answer(b, ticketId, 'Yes, you can.', after.version);
    expect(anyway.statusCode, anyway.body).toBe(200);
    // Without a version nothing is checked (API clients that do not ask).
    expect((await answer(b, ticketId, 'One more thing.')).statusCode).toBe(200);
  });

  it('with files: stopped too, and the files are not kept', async () => {
    const customer = await supportUser(t);
    const [a, b] = admins as [SupportUser, SupportUser];
    const { ticketId } = await customer.createTicket('Incident', 'The zip broke.');
    const seen = await look(b, ticketId);
    expect((await note(a, ticketId, 'Asked the courier.')).statusCode).toBe(200);
    const res = await postFiles(
      t,
      `/api/admin/support/tickets/${ticketId}/messages`,
      b.headers,
      { messageBody: 'Here is our label.', seenVersion: String(seen.version) },
      [{ name: 'label.png', data: await png() }],
    );
    expect(res.statusCode, res.body).toBe(412);
    const after = await look(b, ticketId);
    expect(after.messages.map((m) => m.messageBody)).toEqual(['The zip broke.', 'Asked the courier.']);
  });

  it('close, reopen, assign and merge are stopped too, and change nothing; against the version now seen they go', async () => {
    const customer = await supportUser(t);
    const [a, b] = admins as [SupportUser, SupportUser];
    const { ticketId } = await customer.createTicket('General', 'Two questions, one ticket.');
    const other = await customer.createTicket('General', 'The second question.');
    const old = (await look(b, ticketId)).version;
    expect(
      (await customer.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Hello?' })).statusCode,
    ).toBe(200);
    const stopped = [
      await b.post(`/api/admin/support/tickets/${ticketId}/close?seenVersion=${old}`),
      await b.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me', seenVersion: old }),
      await b.post(`/api/admin/support/tickets/${ticketId}/merge`, {
        targetTicketId: other.ticketId,
        seenVersion: old,
      }),
    ];
    for (const res of stopped) {
      expect(res.statusCode, res.body).toBe(412);
      expect(res.json().error.message).toBe(DESK_TEXT.staleAction);
    }
    const ticket = (await a.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket;
    expect(ticket).toMatchObject({ open: true, assignee: null });
    // Not merged: the other ticket has only its own message.
    expect((await look(a, other.ticketId)).messages.map((m) => m.messageBody)).toEqual(['The second question.']);
    const now = ticket.version as number;
    const closed = await b.post(`/api/admin/support/tickets/${ticketId}/close?seenVersion=${now}`);
    expect(closed.statusCode, closed.body).toBe(200);
    const reopenedStale = await b.post(`/api/admin/support/tickets/${ticketId}/reopen?seenVersion=${now}`);
    expect(reopenedStale.statusCode).toBe(412);
    const reopened = await b.post(
      `/api/admin/support/tickets/${ticketId}/reopen?seenVersion=${closed.json().ticket.version}`,
    );
    expect(reopened.statusCode, reopened.body).toBe(200);
    const assigned = await b.post(`/api/admin/support/tickets/${ticketId}/assign`, {
      assignee: 'me',
      seenVersion: reopened.json().ticket.version,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().ticket.assignee.email).toBe(b.email);
  });

  it('a retried send (the same clientId) that was stored answers with that message, not with 412', async () => {
    const customer = await supportUser(t);
    const [a] = admins as [SupportUser];
    const { ticketId } = await customer.createTicket('General', 'Is my bag insured?');
    const seen = await look(a, ticketId);
    const body = { messageBody: 'Yes, up to $500.', clientId: 'c-retry-0001', seenVersion: seen.version };
    const first = await a.post(`/api/admin/support/tickets/${ticketId}/messages`, body);
    expect(first.statusCode).toBe(200);
    const again = await a.post(`/api/admin/support/tickets/${ticketId}/messages`, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message.id).toBe(first.json().message.id);
  });
});

/**
 * Two to four agents and a customer in any order: each agent looks at the ticket (its version) and
 * later answers against what it saw. An answer is stored exactly when nothing changed between the
 * look and the answer; so the customer never gets two answers written against the same state.
 */
describe('any interleaving of agents and a customer (property)', () => {
  type Step = { kind: 'look'; agent: number } | { kind: 'answer'; agent: number } | { kind: 'customer' };
  const step = (agents: number) =>
    fc.oneof(
      fc.record({ kind: fc.constant('look' as const), agent: fc.integer({ min: 0, max: agents - 1 }) }),
      fc.record({ kind: fc.constant('answer' as const), agent: fc.integer({ min: 0, max: agents - 1 }) }),
      fc.record({ kind: fc.constant('customer' as const) }),
    );

  it('every stale answer is stopped, and no two answers are written against the same state', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 2, max: 4 })
          .chain((agents) => fc.tuple(fc.constant(agents), fc.array(step(agents), { minLength: 4, maxLength: 14 }))),
        async ([agents, steps]: [number, Step[]]) => {
          const customer = await supportUser(t);
          const { ticketId } = await customer.createTicket('General', 'Where is my parcel?');
          const seen = new Map<number, number>();
          let current = (await look(admins[0]!, ticketId)).version;
          const applied: number[] = [];
          for (const [i, s] of steps.entries()) {
            if (s.kind === 'customer') {
              const res = await customer.post(`/api/support/tickets/${ticketId}/messages`, {
                messageBody: `Any news? ${i}`,
              });
              expect(res.statusCode).toBe(200);
              current = (await look(admins[0]!, ticketId)).version;
            } else if (s.kind === 'look') {
              seen.set(s.agent, (await look(admins[s.agent]!, ticketId)).version);
            } else {
              const against = seen.get(s.agent);
              if (against === undefined) continue;
              const res = await answer(admins[s.agent]!, ticketId, `Answer ${i} from agent ${s.agent}`, against);
              expect(res.statusCode, `agent ${s.agent} against ${against}, ticket at ${current}`).toBe(
                against === current ? 200 : 412,
              );
              if (res.statusCode === 200) {
                applied.push(against);
                current = (await look(admins[0]!, ticketId)).version;
              }
            }
          }
          // Never two answers written against the same state of the ticket.
          expect(new Set(applied).size).toBe(applied.length);
          void agents;
        },
      ),
      { numRuns: 25 },
    );
  });

  it('two agents answering at the same moment against the same version: one answer is stored', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = await supportUser(t);
      const { ticketId } = await customer.createTicket('General', `Round ${round}: where is my parcel?`);
      const { version } = await look(admins[0]!, ticketId);
      const results = await Promise.all(
        admins.map((agent, i) => answer(agent, ticketId, `Agent ${i} answers`, version)),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412, 412, 412]);
      const { messages } = await look(admins[0]!, ticketId);
      expect(messages.filter((m) => m.admin)).toHaveLength(1);
    }
  });
});
