import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_TEXT } from '../../../src/contracts/bulk.ts';
import type { BulkResult, BulkUndoResult } from '../../../src/contracts/bulk.schemas.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Bulk actions on the inbox (docs/decisions/143-bulk-actions.md): one result per ticket, a ticket
 * changed since the agent looked left alone and reported, each change audited, and the last bulk
 * action undone for 30 minutes on the tickets no one has changed since.
 */
const clock = movableClock(new Date());
let t: TestApp;
let customer: SupportUser;
let sam: SupportUser;
let kiri: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ clock, mailWorker: false, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [customer, sam, kiri] = await Promise.all([
    supportUser(t),
    supportUser(t, { role: 'admin' }),
    supportUser(t, { role: 'admin' }),
  ]);
});
afterAll(() => t.close());

interface Seen {
  id: string;
  version: number;
  ticketNo: number;
}
async function seen(ticketId: string): Promise<Seen> {
  const ticket = (await sam.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket;
  return { id: ticket.id, version: ticket.version, ticketNo: ticket.ticketNo };
}
async function tickets(n: number): Promise<Seen[]> {
  const made: Seen[] = [];
  for (let i = 0; i < n; i++) made.push(await seen((await customer.createTicket('General', `Parcel ${i}`)).ticketId));
  return made;
}
const apply = async (who: SupportUser, body: object) => {
  const res = await who.post('/api/admin/support/bulk', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BulkResult;
};
const undo = (who: SupportUser, bulkId: string) => who.post(`/api/admin/support/bulk/${bulkId}/undo`);
const refs = (list: Seen[]) => list.map(({ id, version }) => ({ id, version }));
const outcomes = (result: BulkResult | BulkUndoResult) =>
  Object.fromEntries(result.results.map((r) => [r.ticketId, r.outcome]));
const ticketOf = async (id: string) => (await sam.get(`/api/admin/support/tickets/${id}`)).json().ticket;

describe('bulk close and its undo', () => {
  it('closes the tickets as seen, leaves one the customer wrote on meanwhile, and undoes the rest', async () => {
    const [a, b, c, d] = await tickets(4);
    // b: the customer wrote again after Sam's inbox showed it. d: already closed by Kiri, as seen.
    await customer.post(`/api/support/tickets/${b!.id}/messages`, { messageBody: 'Any news?' });
    await kiri.post(`/api/admin/support/tickets/${d!.id}/close`);
    const dSeen = await seen(d!.id);

    const result = await apply(sam, { action: 'close', tickets: refs([a!, b!, c!, dSeen]) });
    expect(outcomes(result)).toEqual({ [a!.id]: 'done', [b!.id]: 'changed', [c!.id]: 'done', [d!.id]: 'unchanged' });
    expect(result.results.find((r) => r.ticketId === b!.id)?.ticketNo).toBe(b!.ticketNo);
    expect((await ticketOf(a!.id)).open).toBe(false);
    expect((await ticketOf(b!.id)).open).toBe(true);
    // Each ticket closed is audited as its own close.
    const audited = await queryRows<{ target_id: string }>(
      t.database.db,
      sql`select target_id from audit_log where action = 'ticket.close' and actor_id = ${sam.id}::uuid`,
    );
    expect(audited.map((row) => row.target_id).sort()).toEqual([a!.id, c!.id].sort());

    // Kiri answers c after the bulk: the undo leaves c closed and reports it.
    await kiri.post(`/api/admin/support/tickets/${c!.id}/notes`, {
      messageBody: 'Closed for good: courier confirmed.',
    });
    const undone = await undo(sam, result.bulkId!);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(outcomes(undone.json())).toEqual({ [a!.id]: 'done', [c!.id]: 'changed' });
    expect((await ticketOf(a!.id)).open).toBe(true);
    expect((await ticketOf(c!.id)).open).toBe(false);

    // Once only.
    const again = await undo(sam, result.bulkId!);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(BULK_TEXT.undoGone);
  });

  it('undoes only the last bulk action of its own agent, and only for 30 minutes', async () => {
    const [a, b] = await tickets(2);
    const first = await apply(sam, { action: 'close', tickets: refs([a!]) });
    const second = await apply(sam, { action: 'close', tickets: refs([b!]) });
    expect((await undo(sam, first.bulkId!)).statusCode).toBe(409);
    expect((await undo(kiri, second.bulkId!)).statusCode).toBe(409);
    clock.advance(31 * 60_000);
    expect((await undo(sam, second.bulkId!)).statusCode).toBe(409);
    expect((await ticketOf(b!.id)).open).toBe(false);
  });
});

describe('bulk assign and label', () => {
  it('assigns to me and adds a label, each undone again', async () => {
    const [a, b] = await tickets(2);
    const assigned = await apply(sam, { action: 'assign', assignee: 'me', tickets: refs([a!, b!]) });
    expect(assigned.results.map((r) => r.outcome)).toEqual(['done', 'done']);
    expect((await ticketOf(a!.id)).assignee.email).toBe(sam.email);
    expect((await undo(sam, assigned.bulkId!)).statusCode).toBe(200);
    expect((await ticketOf(a!.id)).assignee).toBeNull();

    const label = (await sam.post('/api/admin/labels', { name: `Spam ${Date.now()}` })).json().label;
    const labelled = await apply(sam, {
      action: 'label',
      labelId: label.id,
      tickets: refs(await Promise.all([a!, b!].map((x) => seen(x.id)))),
    });
    expect(labelled.results.map((r) => r.outcome)).toEqual(['done', 'done']);
    expect((await ticketOf(b!.id)).labels.map((l: { name: string }) => l.name)).toEqual([label.name]);
    expect((await undo(sam, labelled.bulkId!)).json().results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'done',
      'done',
    ]);
    expect((await ticketOf(b!.id)).labels).toEqual([]);
  });

  it('refuses a bulk action without tickets, without an assignee, or with too many tickets, in words', async () => {
    const [a] = await tickets(1);
    const none = await sam.post('/api/admin/support/bulk', { action: 'close', tickets: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields.tickets).toBe(BULK_TEXT.noneTicked);
    const noAssignee = await sam.post('/api/admin/support/bulk', { action: 'assign', tickets: refs([a!]) });
    expect(noAssignee.statusCode).toBe(400);
    expect(noAssignee.json().error.message).toBe(BULK_TEXT.assigneeMissing);
    const many = Array.from({ length: 501 }, () => ({ id: a!.id, version: a!.version }));
    const tooMany = await sam.post('/api/admin/support/bulk', { action: 'close', tickets: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.fields.tickets).toBe(BULK_TEXT.tooMany);
    expect((await ticketOf(a!.id)).open).toBe(true);
  });
});

describe('a bulk action is one change for all its tickets', () => {
  /** The mails waiting for the tickets' owners (the team's own notices aside). */
  const notices = async (ids: string[]) =>
    queryRows<{ ticket_id: string; kind: string; message_id: number | null }>(
      t.database.db,
      sql`select ticket_id, kind, message_id::int as message_id from notification_events
          where ticket_id = any(${`{${ids.join(',')}}`}::uuid[]) and kind like 'ticket-%'
          order by ticket_id, kind`,
    );

  it('tells each owner of their own ticket: a close takes that ticket’s waiting answer, its undo gives it back', async () => {
    const [a, b] = await tickets(2);
    // Sam answers a: its owner's answer notice waits (a minute), and b has none.
    const answer = (
      await sam.post(`/api/admin/support/tickets/${a!.id}/messages`, { messageBody: 'It is on the ferry.' })
    ).json();
    const answerId = Number(answer.message?.id ?? answer.id);
    const closed = await apply(sam, { action: 'close', tickets: refs([await seen(a!.id), await seen(b!.id)]) });
    expect(closed.results.map((r) => r.outcome)).toEqual(['done', 'done']);
    // a's close quotes the answer (one mail for both); b's close is told alone.
    expect(await notices([a!.id, b!.id])).toEqual(
      [
        { ticket_id: a!.id, kind: 'ticket-closed', message_id: answerId },
        { ticket_id: b!.id, kind: 'ticket-closed', message_id: null },
      ].sort((x, y) => x.ticket_id.localeCompare(y.ticket_id)),
    );
    // The undo withdraws both closes; a's answer is told again, as an answer.
    expect((await undo(sam, closed.bulkId!)).json().results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'done',
      'done',
    ]);
    expect(await notices([a!.id, b!.id])).toEqual([{ ticket_id: a!.id, kind: 'ticket-reply', message_id: answerId }]);
  });

  it('audits each ticket as its page would, with the assignee and the labels named', async () => {
    const [a, b] = await tickets(2);
    const assigned = await apply(sam, { action: 'assign', assignee: kiri.id, tickets: refs([a!, b!]) });
    const label = (await sam.post('/api/admin/labels', { name: `Courier ${Date.now()}` })).json().label;
    await apply(sam, { action: 'label', labelId: label.id, tickets: refs([await seen(a!.id)]) });
    const entries = await queryRows<{ action: string; target_id: string; details: Record<string, unknown> }>(
      t.database.db,
      sql`select action, target_id, details from audit_log
          where actor_id = ${sam.id}::uuid and target_id in (${a!.id}, ${b!.id}) order by id`,
    );
    expect(entries).toEqual([
      { action: 'ticket.assign', target_id: a!.id, details: { ticketNo: a!.ticketNo, assignee: kiri.email } },
      { action: 'ticket.assign', target_id: b!.id, details: { ticketNo: b!.ticketNo, assignee: kiri.email } },
      { action: 'ticket.labels', target_id: a!.id, details: { ticketNo: a!.ticketNo, labels: [label.name] } },
    ]);
    expect(assigned.results.map((r) => r.outcome)).toEqual(['done', 'done']);
  });

  it('refuses an assignee who is no admin, changing nothing; an id that is no ticket is reported missing', async () => {
    const [a] = await tickets(1);
    const refused = await sam.post('/api/admin/support/bulk', {
      action: 'assign',
      assignee: customer.id,
      tickets: refs([a!]),
    });
    expect(refused.statusCode).toBe(400);
    expect((await ticketOf(a!.id)).assignee).toBeNull();
    const result = await apply(sam, {
      action: 'close',
      tickets: [...refs([a!]), { id: '00000000-0000-4000-8000-000000000000', version: 1 }],
    });
    expect(result.results.map((r) => r.outcome)).toEqual(['done', 'missing']);
  });

  it('two agents’ bulk actions on the same tickets at once: each ticket changed by one, reported changed to the other', async () => {
    const list = await tickets(6);
    const [closing, assigning] = await Promise.all([
      apply(sam, { action: 'close', tickets: refs(list) }),
      apply(kiri, { action: 'assign', assignee: 'me', tickets: refs([...list].reverse()) }),
    ]);
    for (const ticket of list) {
      const byClose = closing.results.find((r) => r.ticketId === ticket.id)!.outcome;
      const byAssign = assigning.results.find((r) => r.ticketId === ticket.id)!.outcome;
      expect([byClose, byAssign].sort()).toEqual(['changed', 'done']);
      const now = await ticketOf(ticket.id);
      expect([now.open === false, now.assignee?.email === kiri.email]).toEqual([
        byClose === 'done',
        byAssign === 'done',
      ]);
    }
  });
});
