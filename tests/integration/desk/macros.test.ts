import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_TEXT } from '../../../src/contracts/bulk.ts';
import type { BulkResult } from '../../../src/contracts/bulk.schemas.ts';
import { DESK_TEXT } from '../../../src/contracts/desk.ts';
import { MACRO_TEXT } from '../../../src/contracts/macros.ts';
import { MACRO_ACTION_TEXT } from '../../../src/contracts/macro-actions.ts';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Macros (docs/decisions/145-macro-actions.md): a saved reply with actions, applied to a ticket as one
 * change (its reply, a note, labels, an assignee, a status), audited once, and taken back by the bulk
 * actions' undo; in bulk, its actions without the reply.
 */
let t: TestApp;
let customer: SupportUser;
let sam: SupportUser;
let kiri: SupportUser;
let parcelLabel: string;
beforeAll(async () => {
  t = await createTestApp({ mailWorker: false, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [customer, sam, kiri] = await Promise.all([
    supportUser(t),
    supportUser(t, { role: 'admin' }),
    supportUser(t, { role: 'admin' }),
  ]);
  const label = await sam.post('/api/admin/labels', { name: `Parcel ${Date.now()}` });
  expect(label.statusCode, label.body).toBe(200);
  parcelLabel = label.json().label.id;
});
afterAll(() => t.close());

let macroCount = 0;
async function macro(actions: object, body = 'Kia ora {{customer.name}}, your parcel is {{ask:Where}}.') {
  const res = await sam.post('/api/admin/support/saved-replies', {
    title: `Macro ${++macroCount} ${Date.now()}`,
    body,
    actions,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().savedReply as { id: string; title: string; actions: object };
}
const ticketOf = async (id: string) => (await sam.get(`/api/admin/support/tickets/${id}`)).json().ticket;
const threadOf = async (id: string) =>
  (await sam.get(`/api/admin/support/tickets/${id}`)).json().messages as Array<{
    messageBody: string;
    internal: boolean;
  }>;
const applyMacro = (who: SupportUser, ticketId: string, body: object) =>
  who.post(`/api/admin/support/tickets/${ticketId}/macro`, body);

describe('a macro on one ticket', () => {
  it('sends the reply, writes the note, labels, assigns and closes as one change, audited once; Undo takes back all but the reply', async () => {
    const saved = await macro({
      status: 'close',
      assignee: 'me',
      labelIds: [parcelLabel],
      note: 'Told #{{ticket.number}} it is on its way',
    });
    expect(saved.actions).toEqual({
      status: 'close',
      assignee: 'me',
      labelIds: [parcelLabel],
      note: 'Told #{{ticket.number}} it is on its way',
    });
    const { ticketId, ticketNo } = await customer.createTicket('General', 'Where is my parcel?');
    const before = await ticketOf(ticketId);

    const res = await applyMacro(sam, ticketId, {
      savedReplyId: saved.id,
      messageBody: 'It is in Auckland.',
      seenVersion: before.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result.message).toMatchObject({ messageBody: 'It is in Auckland.', internal: false });
    expect(result.ticket).toMatchObject({ open: false, assignee: { email: sam.email } });
    expect(result.ticket.labels.map((label: { id: string }) => label.id)).toEqual([parcelLabel]);
    const thread = await threadOf(ticketId);
    expect(thread.filter((m) => m.internal).map((m) => m.messageBody)).toEqual([`Told #${ticketNo} it is on its way`]);
    // The customer reads the reply, never the note.
    const theirs = (await customer.get(`/api/support/tickets/${ticketId}/messages`)).json().messages;
    expect(theirs.map((m: { messageBody: string }) => m.messageBody)).toEqual([
      'Where is my parcel?',
      'It is in Auckland.',
    ]);

    const audited = await queryRows<{ action: string; details: { title: string; did: string[] } }>(
      t.database.db,
      sql`select action, details from audit_log where target_id = ${ticketId} order by id`,
    );
    expect(audited.map((row) => row.action)).toEqual(['ticket.macro']);
    expect(audited[0]!.details.title).toBe(saved.title);
    expect(audited[0]!.details.did).toContain(MACRO_ACTION_TEXT.close);

    const undone = await sam.post(`/api/admin/support/bulk/${result.undoId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().results).toEqual([{ ticketId, ticketNo, outcome: 'done' }]);
    const after = await ticketOf(ticketId);
    expect(after).toMatchObject({ open: true, assignee: null, labels: [] });
    const thread2 = await threadOf(ticketId);
    expect(thread2.some((m) => m.internal)).toBe(false);
    expect(thread2.map((m) => m.messageBody)).toContain('It is in Auckland.');
    const undoAudit = await queryRows<{ n: unknown }>(
      t.database.db,
      sql`select count(*) as n from audit_log where target_id = ${ticketId} and action = 'ticket.macro-undo'`,
    );
    expect(Number(undoAudit[0]!.n)).toBe(1);
  });

  it('is stopped as a whole when the ticket changed since the agent looked, and changes nothing', async () => {
    const saved = await macro({ status: 'close', labelIds: [parcelLabel] });
    const { ticketId } = await customer.createTicket('General', 'Lost bag');
    const seen = (await ticketOf(ticketId)).version;
    await customer.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Actually it was a suitcase' });
    const res = await applyMacro(sam, ticketId, {
      savedReplyId: saved.id,
      messageBody: 'Found it.',
      seenVersion: seen,
    });
    expect(res.statusCode).toBe(412);
    expect(res.json().error.message).toBe(DESK_TEXT.staleAction);
    expect(await ticketOf(ticketId)).toMatchObject({ open: true, labels: [] });
    expect((await threadOf(ticketId)).map((m) => m.messageBody)).not.toContain('Found it.');
  });

  it('refuses a reply with a question left in it, and a reply on a closed ticket, with nothing done', async () => {
    const saved = await macro({ labelIds: [parcelLabel] });
    const { ticketId } = await customer.createTicket('General', 'Refund?');
    const left = await applyMacro(sam, ticketId, { savedReplyId: saved.id, messageBody: 'It is {{ask:Where}}.' });
    expect(left.statusCode).toBe(400);
    expect(left.json().error.fields.messageBody).toBe(MACRO_TEXT.unfilled('{{ask:Where}}'));

    await kiri.post(`/api/admin/support/tickets/${ticketId}/close`);
    const closed = await applyMacro(sam, ticketId, { savedReplyId: saved.id, messageBody: 'Refunded.' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.message).toBe(SUPPORT_TEXT.replyRejected);
    expect((await ticketOf(ticketId)).labels).toEqual([]);

    // A macro that reopens may answer a closed ticket: reopened first, then the reply.
    const reopen = await macro({ status: 'reopen' });
    const res = await applyMacro(sam, ticketId, { savedReplyId: reopen.id, messageBody: 'Reopened to refund you.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ticket.open).toBe(true);
  });

  it('answers a macro that would change nothing, or that is gone, in words', async () => {
    const saved = await macro({});
    const { ticketId } = await customer.createTicket('General', 'Hello');
    const nothing = await applyMacro(sam, ticketId, { savedReplyId: saved.id });
    expect(nothing.statusCode).toBe(409);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/support/saved-replies/${saved.id}`, headers: sam.headers });
    const gone = await applyMacro(sam, ticketId, { savedReplyId: saved.id, messageBody: 'Hi' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.fields.savedReplyId).toBeTruthy();
    expect((await threadOf(ticketId)).length).toBe(1);
  });

  it('refuses a note that asks the agent a question, and a name the desk cannot fill', async () => {
    const asks = await sam.post('/api/admin/support/saved-replies', {
      title: `Asks ${Date.now()}`,
      body: 'Hello',
      actions: { note: 'Check {{ask:Courier}}' },
    });
    expect(asks.statusCode).toBe(400);
    expect(JSON.stringify(asks.json().error)).toContain(MACRO_ACTION_TEXT.noteAsks);
    const unknown = await sam.post('/api/admin/support/saved-replies', {
      title: `Unknown ${Date.now()}`,
      body: 'Hello',
      actions: { note: 'For {{agent.name}}' },
    });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('a macro in bulk', () => {
  it('applies its actions, never its reply, to each ticket as seen; a changed one is left; Undo takes it back', async () => {
    const saved = await macro({ status: 'close', labelIds: [parcelLabel], note: 'Bulk: spam' });
    const made = [];
    for (const words of ['Spam 1', 'Spam 2', 'Spam 3'])
      made.push(await ticketOf((await customer.createTicket('General', words)).ticketId));
    const [a, b, c] = made;
    await customer.post(`/api/support/tickets/${b.id}/messages`, { messageBody: 'Not spam, really' });
    const res = await sam.post('/api/admin/support/bulk', {
      action: 'macro',
      savedReplyId: saved.id,
      tickets: made.map(({ id, version }) => ({ id, version })),
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as BulkResult;
    expect(Object.fromEntries(result.results.map((r) => [r.ticketId, r.outcome]))).toEqual({
      [a.id]: 'done',
      [b.id]: 'changed',
      [c.id]: 'done',
    });
    for (const done of [a, c]) {
      const now = await ticketOf(done.id);
      expect(now.open).toBe(false);
      const thread = await threadOf(done.id);
      // No reply went to the customer: only their words and the note.
      expect(thread.filter((m) => !m.internal).length).toBe(1);
      expect(thread.filter((m) => m.internal).map((m) => m.messageBody)).toEqual(['Bulk: spam']);
    }
    expect((await ticketOf(b.id)).open).toBe(true);

    const undone = await sam.post(`/api/admin/support/bulk/${result.bulkId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    for (const done of [a, c]) {
      expect(await ticketOf(done.id)).toMatchObject({ open: true, labels: [] });
      expect((await threadOf(done.id)).some((m) => m.internal)).toBe(false);
    }
    expect((await sam.post(`/api/admin/support/bulk/${result.bulkId}/undo`)).json().error.message).toBe(
      BULK_TEXT.undoGone,
    );
  });

  it('asks for the macro when none is chosen', async () => {
    const ticket = await ticketOf((await customer.createTicket('General', 'Which macro?')).ticketId);
    const res = await sam.post('/api/admin/support/bulk', {
      action: 'macro',
      tickets: [{ id: ticket.id, version: ticket.version }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.savedReplyId).toBe(BULK_TEXT.macroMissing);
  });
});
