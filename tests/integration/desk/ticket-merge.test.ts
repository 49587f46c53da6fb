import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { MERGE_MESSAGES, MERGE_TEXT } from '../../../src/contracts/ticket-merge.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { openSse, type SseConnection, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Merging tickets (docs/decisions/116-ticket-merge.md): an admin merges a customer's ticket into
 * another of theirs; the messages, notes and files of both make one thread in the target, ordered by
 * time, with a line in each thread; the merged ticket closes, and everything addressed to it (its
 * API, the owner's replies, a reply by mail) reaches the target. Another customer's ticket is refused.
 */
let t: TestApp;
let admin: SupportUser;
let other: SupportUser;

beforeAll(async () => {
  t = await createTestApp({ web: true, mailWorker: false, serviceLevelWorker: false });
  admin = await supportUser(t, { role: 'admin' });
  other = await supportUser(t);
});
afterAll(() => t?.close());

interface Thread {
  ticket: { id: string; ticketNo: number; open: boolean };
  messages: Array<{ id: number; messageBody: string; internal?: boolean; systemEvent?: string | null }>;
}
const adminThread = async (ticketId: string): Promise<Thread> => {
  const res = await admin.get(`/api/admin/support/tickets/${ticketId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Thread;
};
const merge = (sourceId: string, targetTicketId: string) =>
  admin.post(`/api/admin/support/tickets/${sourceId}/merge`, { targetTicketId });

describe('merging two tickets of one customer', () => {
  let user: SupportUser;
  let first: { ticketId: string; ticketNo: number };
  let second: { ticketId: string; ticketNo: number };

  beforeAll(async () => {
    user = await supportUser(t);
    first = await user.createTicket('General', 'My parcel to Napier has not arrived.');
    second = await user.createTicket('Incident', 'About the Napier parcel again: the box was torn.');
    expect(
      (await admin.post(`/api/admin/support/tickets/${first.ticketId}/messages`, { messageBody: 'Looking into it.' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await admin.post(`/api/admin/support/tickets/${first.ticketId}/notes`, { messageBody: 'Courier is Kea.' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await user.post(`/api/support/tickets/${second.ticketId}/messages`, { messageBody: 'Photos to follow.' }))
        .statusCode,
    ).toBe(200);
  });

  it("offers the customer's other tickets only", async () => {
    const theirs = await other.createTicket('General', 'Someone else entirely.');
    const res = await admin.get(`/api/admin/support/tickets/${first.ticketId}/merge-targets`);
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().tickets.map((x: { id: string }) => x.id);
    expect(ids).toContain(second.ticketId);
    expect(ids).not.toContain(first.ticketId);
    expect(ids).not.toContain(theirs.ticketId);
    // Another customer's ticket, and the ticket itself, are refused in words; nothing moves.
    const refused = await merge(first.ticketId, theirs.ticketId);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.targetTicketId).toBe(MERGE_MESSAGES.otherCustomer);
    const self = await merge(first.ticketId, first.ticketId);
    expect(self.json().error.fields.targetTicketId).toBe(MERGE_MESSAGES.sameTicket);
    expect((await adminThread(first.ticketId)).messages).toHaveLength(3);
    // Only admins merge.
    expect(
      (
        await user.post(`/api/admin/support/tickets/${first.ticketId}/merge`, {
          targetTicketId: second.ticketId,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('moves every message, note and file into the target in time order, with a line in both threads', async () => {
    const before = await adminThread(first.ticketId);
    const target = await adminThread(second.ticketId);
    const res = await merge(first.ticketId, second.ticketId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      targetTicketId: second.ticketId,
      targetTicketNo: second.ticketNo,
      sourceTicketNo: first.ticketNo,
    });
    const merged = await adminThread(second.ticketId);
    const bodies = merged.messages.map((m) => m.messageBody);
    const expected = [...before.messages, ...target.messages].sort((a, b) => a.id - b.id).map((m) => m.messageBody);
    expect(bodies.slice(0, expected.length)).toEqual(expected);
    expect(bodies.at(-1)).toBe(MERGE_TEXT.targetLine(first.ticketNo));
    expect(merged.messages.find((m) => m.messageBody === 'Courier is Kea.')?.internal).toBe(true);
    expect(merged.ticket.open).toBe(true);

    // The merged ticket: closed, holding only its line.
    const [source] = await queryRows<{ open: boolean; merged_into_id: string | null; n: number; body: string }>(
      t.database.db,
      sql`select t.open, t.merged_into_id, count(m.id)::int as n, max(m.message_body) as body
          from support_tickets t left join ticket_messages m on m.ticket_id = t.id
          where t.id = ${first.ticketId}::uuid group by t.id`,
    );
    expect(source).toEqual({
      open: false,
      merged_into_id: second.ticketId,
      n: 1,
      body: MERGE_TEXT.sourceLine(second.ticketNo),
    });
  });

  it('sends everything addressed to the merged ticket to the target: reads, replies, the customer and mail', async () => {
    // The customer's read of the old address is the target, without the notes.
    const read = await user.get(`/api/support/tickets/${first.ticketId}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().ticket.id).toBe(second.ticketId);
    expect(read.json().messages.map((m: { messageBody: string }) => m.messageBody)).not.toContain('Courier is Kea.');
    // A reply to the old address lands on the target, from either side.
    const reply = await user.post(`/api/support/tickets/${first.ticketId}/messages`, {
      messageBody: 'Any news on the torn box?',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const answer = await admin.post(`/api/admin/support/tickets/${first.ticketId}/messages`, {
      messageBody: 'Yes: a new one is on its way.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const bodies = (await adminThread(second.ticketId)).messages.map((m) => m.messageBody);
    expect(bodies.slice(-2)).toEqual(['Any news on the torn box?', 'Yes: a new one is on its way.']);
    // A mail answering an old mail of the merged ticket finds the target (the inbound module's lookup).
    expect((await t.app.supportRecords.findTicket(t.database.db, first.ticketId))?.id).toBe(second.ticketId);
    // Merging it again is refused; the merge is in the audit log.
    const again = await merge(first.ticketId, second.ticketId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MERGE_MESSAGES.alreadyMerged);
    const [audit] = await queryRows<{ action: string; source: string }>(
      t.database.db,
      sql`select action, details->>'sourceTicketNo' as source from audit_log
          where action = 'ticket.merge' and target_id = ${second.ticketId}`,
    );
    expect(audit).toEqual({ action: 'ticket.merge', source: String(first.ticketNo) });
  });

  it('a reply racing the merge is stored once, on the target', async () => {
    const a = await user.createTicket('General', 'Race: first ticket.');
    const b = await user.createTicket('General', 'Race: second ticket.');
    const [merged, replied] = await Promise.all([
      merge(a.ticketId, b.ticketId),
      user.post(`/api/support/tickets/${a.ticketId}/messages`, { messageBody: 'Race: a reply on the way.' }),
    ]);
    expect(merged.statusCode, merged.body).toBe(200);
    expect(replied.statusCode, replied.body).toBe(200);
    const bodies = (await adminThread(b.ticketId)).messages.map((m) => m.messageBody);
    expect(bodies.filter((body) => body === 'Race: a reply on the way.')).toHaveLength(1);
    expect(bodies).toContain('Race: first ticket.');
  });

  it('works from the console without JavaScript, and the old pages lead to the target', async () => {
    const a = await user.createTicket('General', 'Pages: the first ticket.');
    const b = await user.createTicket('General', 'Pages: the second ticket.');
    const page = (url: string, who: SupportUser) =>
      t.app.inject({ method: 'GET', url, headers: { ...who.headers, accept: 'text/html' } });
    const console = await page(`/admin/support/${a.ticketId}`, admin);
    expect(console.statusCode).toBe(200);
    expect(console.body).toContain(MERGE_TEXT.option(b.ticketNo, 'General Enquiry', true, 'Pages: the second ticket.'));
    const posted = await t.app.inject({
      method: 'POST',
      url: `/admin/support/${a.ticketId}`,
      payload: new URLSearchParams({ intent: 'merge', targetTicketId: b.ticketId }).toString(),
      headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(posted.statusCode, posted.body).toBe(303);
    expect(posted.headers.location).toBe(`/admin/support/${b.ticketId}`);
    const old = await page(`/admin/support/${a.ticketId}`, admin);
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(`/admin/support/${b.ticketId}`);
    const theirs = await page(`/support/ticket/${a.ticketId}`, user);
    expect(theirs.statusCode).toBe(302);
    expect(theirs.headers.location).toBe(`/support/ticket/${b.ticketId}`);
    const target = await page(`/support/ticket/${b.ticketId}`, user);
    expect(target.body).toContain('Pages: the first ticket.');
    expect(target.body).toContain(MERGE_TEXT.targetLine(a.ticketNo));
  });
});

describe('undoing a merge', () => {
  let user: SupportUser;
  beforeAll(async () => {
    user = await supportUser(t);
  });

  /** The customer's data export, without the two things that change by themselves: when it was made and the session's last use. */
  const exported = async () => {
    const res = await user.get('/api/account/export');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json() as { exportedAt: string; sessions: unknown[] };
    return JSON.stringify({ ...data, exportedAt: null, sessions: data.sessions.length });
  };

  it('gives both tickets back exactly: the export after merge then undo equals the export before', async () => {
    const a = await user.createTicket('General', 'Undo: my first ticket.');
    const b = await user.createTicket('Incident', 'Undo: my second ticket.');
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/messages`, {
      messageBody: 'Undo: an answer on the first.',
    });
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/notes`, { messageBody: 'Undo: a note.' });
    await user.post(`/api/support/tickets/${a.ticketId}/messages`, { messageBody: 'Undo: thanks.' });
    await admin.post(`/api/admin/support/tickets/${b.ticketId}/close`);
    const before = await exported();

    expect((await merge(a.ticketId, b.ticketId)).statusCode).toBe(200);
    expect(await exported()).not.toBe(before);
    const listed = await admin.get(`/api/admin/support/tickets/${b.ticketId}/merges`);
    expect(listed.statusCode, listed.body).toBe(200);
    const [entry] = listed.json().merges as Array<{ id: number; sourceTicketNo: number }>;
    expect(entry!.sourceTicketNo).toBe(a.ticketNo);

    const undone = await admin.post(`/api/admin/support/merges/${entry!.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ sourceTicketId: a.ticketId, targetTicketId: b.ticketId });
    expect(await exported()).toBe(before);
    expect((await adminThread(a.ticketId)).ticket).toMatchObject({ id: a.ticketId, open: true });
    expect((await adminThread(a.ticketId)).messages.map((m) => m.messageBody)).toContain('Undo: a note.');
    // Once only; the list no longer offers it.
    const again = await admin.post(`/api/admin/support/merges/${entry!.id}/undo`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MERGE_MESSAGES.undoneAlready);
    expect((await admin.get(`/api/admin/support/tickets/${b.ticketId}/merges`)).json().merges).toEqual([]);
  });

  it('leaves the messages written since in the ticket they were written to', async () => {
    const c = await user.createTicket('General', 'Since: the first.');
    const d = await user.createTicket('General', 'Since: the second.');
    expect((await merge(c.ticketId, d.ticketId)).statusCode).toBe(200);
    // Written to the merged ticket's address after the merge: it went to the target, and stays there.
    expect(
      (await user.post(`/api/support/tickets/${c.ticketId}/messages`, { messageBody: 'Since: written after.' }))
        .statusCode,
    ).toBe(200);
    const [entry] = (await admin.get(`/api/admin/support/tickets/${d.ticketId}/merges`)).json().merges as Array<{
      id: number;
    }>;
    expect((await admin.post(`/api/admin/support/merges/${entry!.id}/undo`)).statusCode).toBe(200);
    const first = (await adminThread(c.ticketId)).messages.map((m) => m.messageBody);
    const second = (await adminThread(d.ticketId)).messages.map((m) => m.messageBody);
    expect(first).toEqual(['Since: the first.']);
    expect(second).toEqual(['Since: the second.', 'Since: written after.']);
    // The old address is the merged ticket's own again.
    expect((await user.get(`/api/support/tickets/${c.ticketId}`)).json().ticket.id).toBe(c.ticketId);
  });
});

describe('splitting a ticket', () => {
  let user: SupportUser;
  beforeAll(async () => {
    user = await supportUser(t);
  });
  const exported = async () => {
    const data = (await user.get('/api/account/export')).json() as { exportedAt: string; sessions: unknown[] };
    return JSON.stringify({ ...data, exportedAt: null, sessions: data.sessions.length });
  };
  const split = (ticketId: string, body: unknown) => admin.post(`/api/admin/support/tickets/${ticketId}/split`, body);

  it("moves a customer's message and everything after it into a new ticket of theirs; undone, the export is as before", async () => {
    const a = await user.createTicket('General', 'Split: my bag is lost.');
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/messages`, { messageBody: 'Split: we are looking.' });
    const later = (
      await user.post(`/api/support/tickets/${a.ticketId}/messages`, {
        messageBody: 'Split: also, a different question about my refund.',
      })
    ).json().message as { id: number };
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/notes`, { messageBody: 'Split: refund note.' });
    const first = (await adminThread(a.ticketId)).messages[0]!;
    const before = await exported();

    // The first message, an answer, and another customer's message are refused in words.
    expect((await split(a.ticketId, { messageId: first.id, reason: 'General' })).json().error.fields.messageId).toBe(
      MERGE_MESSAGES.firstMessage,
    );
    const answerId = (await adminThread(a.ticketId)).messages[1]!.id;
    expect((await split(a.ticketId, { messageId: answerId, reason: 'General' })).json().error.fields.messageId).toBe(
      MERGE_MESSAGES.notCustomers,
    );

    const res = await split(a.ticketId, { messageId: later.id, reason: 'Incident' });
    expect(res.statusCode, res.body).toBe(200);
    const { newTicketId, newTicketNo } = res.json() as { newTicketId: string; newTicketNo: number };
    const source = (await adminThread(a.ticketId)).messages.map((m) => m.messageBody);
    const fresh = await adminThread(newTicketId);
    expect(source).toEqual([
      'Split: my bag is lost.',
      'Split: we are looking.',
      MERGE_TEXT.splitSourceLine(newTicketNo),
    ]);
    expect(fresh.messages.map((m) => m.messageBody)).toEqual([
      'Split: also, a different question about my refund.',
      'Split: refund note.',
      MERGE_TEXT.splitTargetLine(a.ticketNo),
    ]);
    expect(fresh.ticket).toMatchObject({ open: true });
    // The customer sees the new ticket as theirs.
    expect((await user.get(`/api/support/tickets/${newTicketId}`)).statusCode).toBe(200);

    // Offered for undo on both tickets; undone, both are as before.
    const offered = (await admin.get(`/api/admin/support/tickets/${a.ticketId}/merges`)).json().merges as Array<{
      id: number;
      kind: string;
    }>;
    expect(offered.map((m) => m.kind)).toEqual(['split']);
    const undone = await admin.post(`/api/admin/support/merges/${offered[0]!.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await exported()).toBe(before);
    expect((await admin.get(`/api/admin/support/tickets/${newTicketId}`)).statusCode).toBe(404);
  });
});

describe('two admins at once', () => {
  it('merging a pair both ways while the customer replies: one merge wins, nothing lost or shown twice', async () => {
    const user = await supportUser(t);
    const colleague = await supportUser(t, { role: 'admin' });
    const a = await user.createTicket('General', 'Both ways: first.');
    const b = await user.createTicket('General', 'Both ways: second.');
    const [one, two, reply] = await Promise.all([
      merge(a.ticketId, b.ticketId),
      colleague.post(`/api/admin/support/tickets/${b.ticketId}/merge`, { targetTicketId: a.ticketId }),
      user.post(`/api/support/tickets/${a.ticketId}/messages`, { messageBody: 'Both ways: a reply.' }),
    ]);
    expect(reply.statusCode, reply.body).toBe(200);
    const outcomes = [one.statusCode, two.statusCode].sort();
    expect(outcomes).toEqual([200, 409]);
    const winner = one.statusCode === 200 ? b.ticketId : a.ticketId;
    const bodies = (await adminThread(winner)).messages.map((m) => m.messageBody);
    for (const text of ['Both ways: first.', 'Both ways: second.', 'Both ways: a reply.'])
      expect(
        bodies.filter((body) => body === text),
        text,
      ).toHaveLength(1);
  });
});

/**
 * What open pages see. A stream sends messages after the last id it sent, which cannot say "older
 * messages moved in" or "these moved out": after a merge, a split or an undo each stream on the
 * tickets is sent the whole thread (`thread`), or the ticket the merged one goes on in (`moved`).
 * A page's view is what the page makes of the events: a thread replaces what it shows, a message is
 * added by id. That view must equal the ticket as the API reads it: nothing lost, nothing twice.
 */
describe('live pages during a merge, a split and an undo', () => {
  let base: string;
  let user: SupportUser;
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    user = await supportUser(t);
  });
  const stream = async (who: SupportUser, ticketId: string) => {
    const s = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, { cookie: who.headers.cookie });
    expect(s.status).toBe(200);
    await s.waitFor((events) => events.some((e) => e.event === 'ticket'));
    return s;
  };
  /** The thread as a page built from the stream's events shows it: ids in order. */
  const view = (events: SseEvent[]) => {
    const shown = new Map<number, string>();
    for (const e of events) {
      if (e.event === 'thread') {
        shown.clear();
        for (const m of (e.data as { messages: Array<{ id: number; messageBody: string }> }).messages)
          shown.set(m.id, m.messageBody);
      }
      if (e.event === 'message') {
        const m = e.data as { id: number; messageBody: string };
        shown.set(m.id, m.messageBody);
      }
    }
    return [...shown.keys()].sort((x, y) => x - y);
  };
  const userIds = async (ticketId: string) =>
    ((await user.get(`/api/support/tickets/${ticketId}`)).json().messages as Array<{ id: number }>).map((m) => m.id);
  const adminIds = async (ticketId: string) => (await adminThread(ticketId)).messages.map((m) => m.id);
  const settlesOn = async (s: SseConnection, expected: number[]) => {
    await s.waitFor((events) => JSON.stringify(view(events)) === JSON.stringify(expected), 10_000).catch(() => {});
    expect(view(s.events)).toEqual(expected);
  };

  it('a merge sends the target’s pages the whole thread, the merged ticket’s pages to the target, and the inbox its list', async () => {
    const a = await user.createTicket('General', 'Live merge: where is my parcel?');
    const b = await user.createTicket('General', 'Live merge: the same parcel, second ask.');
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/messages`, { messageBody: 'Live merge: checking.' });
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/notes`, { messageBody: 'Live merge: staff only.' });
    const onSource = await stream(user, a.ticketId);
    const onTarget = await stream(user, b.ticketId);
    const adminOnTarget = await stream(admin, b.ticketId);
    const listed = (events: SseEvent[]) =>
      (events.filter((e) => e.event === 'tickets').at(-1)?.data as { tickets: Array<{ id: string }> } | undefined)
        ?.tickets;
    const inbox = await openSse(`${base}/api/admin/support/tickets/stream?open=true`, { cookie: admin.headers.cookie });
    await inbox.waitFor((events) => listed(events)?.some((x) => x.id === a.ticketId) === true);
    try {
      expect((await merge(a.ticketId, b.ticketId)).statusCode).toBe(200);
      // The merged ticket's page is told where its thread goes on.
      const moved = await onSource.waitFor((events) => events.some((e) => e.event === 'moved'));
      expect(moved.find((e) => e.event === 'moved')!.data).toEqual({ ticketId: b.ticketId });
      // The target's pages show the moved (older) messages: the customer without the note, the admin with it.
      await settlesOn(onTarget, await userIds(b.ticketId));
      await settlesOn(adminOnTarget, await adminIds(b.ticketId));
      const customerSees = (
        onTarget.events.filter((e) => e.event === 'thread').at(-1)!.data as {
          messages: Array<{ messageBody: string }>;
        }
      ).messages.map((m) => m.messageBody);
      expect(customerSees).toContain('Live merge: checking.');
      expect(customerSees).not.toContain('Live merge: staff only.');
      expect(customerSees).toContain(MERGE_TEXT.targetLine(a.ticketNo));
      // The inbox's open list no longer holds the merged ticket.
      await inbox.waitFor((events) => listed(events)?.some((x) => x.id === a.ticketId) === false);

      // A page opened at the merged ticket's address watches the target; a reply there reaches both.
      const late = await stream(user, a.ticketId);
      try {
        expect((late.events.find((e) => e.event === 'ticket')!.data as { id: string }).id).toBe(b.ticketId);
        await settlesOn(late, await userIds(b.ticketId));
        const reply = await user.post(`/api/support/tickets/${a.ticketId}/messages`, {
          messageBody: 'Live merge: a reply at the old address.',
        });
        expect(reply.statusCode, reply.body).toBe(200);
        const expected = await userIds(b.ticketId);
        expect(expected).toContain((reply.json().message as { id: number }).id);
        await settlesOn(late, expected);
        await settlesOn(onTarget, expected);
      } finally {
        late.close();
      }
    } finally {
      for (const s of [onSource, onTarget, adminOnTarget, inbox]) s.close();
    }
  });

  it('a split and its undo send the open page the thread as it now is', async () => {
    const a = await user.createTicket('General', 'Live split: my bag is lost.');
    await admin.post(`/api/admin/support/tickets/${a.ticketId}/messages`, { messageBody: 'Live split: looking.' });
    const later = (
      await user.post(`/api/support/tickets/${a.ticketId}/messages`, { messageBody: 'Live split: another question.' })
    ).json().message as { id: number };
    const page = await stream(user, a.ticketId);
    try {
      const before = await userIds(a.ticketId);
      await settlesOn(page, before);
      const res = await admin.post(`/api/admin/support/tickets/${a.ticketId}/split`, {
        messageId: later.id,
        reason: 'General',
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await userIds(a.ticketId);
      expect(after).not.toContain(later.id);
      await settlesOn(page, after);
      const [entry] = (await admin.get(`/api/admin/support/tickets/${a.ticketId}/merges`)).json().merges as Array<{
        id: number;
      }>;
      // The split's ticket, open on a page of its own, is sent back to the ticket it came from.
      const splitPage = await stream(user, res.json().newTicketId as string);
      try {
        expect((await admin.post(`/api/admin/support/merges/${entry!.id}/undo`)).statusCode).toBe(200);
        await settlesOn(page, before);
        const moved = await splitPage.waitFor((events) => events.some((e) => e.event === 'moved'));
        expect(moved.find((e) => e.event === 'moved')!.data).toEqual({ ticketId: a.ticketId });
      } finally {
        splitPage.close();
      }
    } finally {
      page.close();
    }
  });

  it('two admins merging both ways while the customer replies: every open page ends with the thread, once', async () => {
    const colleague = await supportUser(t, { role: 'admin' });
    const a = await user.createTicket('General', 'Live race: first.');
    const b = await user.createTicket('General', 'Live race: second.');
    const onA = await stream(user, a.ticketId);
    const onB = await stream(user, b.ticketId);
    try {
      const [one, two, reply] = await Promise.all([
        merge(a.ticketId, b.ticketId),
        colleague.post(`/api/admin/support/tickets/${b.ticketId}/merge`, { targetTicketId: a.ticketId }),
        user.post(`/api/support/tickets/${a.ticketId}/messages`, { messageBody: 'Live race: a reply.' }),
      ]);
      expect(reply.statusCode, reply.body).toBe(200);
      expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
      const [winner, loser] = one.statusCode === 200 ? [onB, onA] : [onA, onB];
      const winnerId = one.statusCode === 200 ? b.ticketId : a.ticketId;
      const expected = await userIds(winnerId);
      // Both first messages, the reply and the merge's line, each once.
      const bodies = (
        (await user.get(`/api/support/tickets/${winnerId}`)).json().messages as Array<{
          messageBody: string;
        }>
      ).map((m) => m.messageBody);
      for (const text of ['Live race: first.', 'Live race: second.', 'Live race: a reply.'])
        expect(
          bodies.filter((body) => body === text),
          text,
        ).toHaveLength(1);
      expect(expected).toHaveLength(4);
      await settlesOn(winner, expected);
      await loser.waitFor((events) => events.some((e) => e.event === 'moved'));
    } finally {
      onA.close();
      onB.close();
    }
  });
});

/**
 * Due times and the reports' first responses follow the questions (docs/decisions/116-ticket-merge.md):
 * a split's new ticket has the waits its messages tell (its first response is the answer its first
 * question got), and the ticket it came from stops waiting for a question that moved; a merge carries
 * an unanswered question's wait into a target that waits for nothing. Undone, each is as before.
 */
describe('due times and first responses after a merge or a split', () => {
  let user: SupportUser;
  beforeAll(async () => {
    user = await supportUser(t);
  });
  const due = async (ticketId: string) =>
    ((await adminThread(ticketId)) as unknown as { ticket: { due: { target: string; at: string } | null } }).ticket.due;
  const facts = async (ticketId: string) => {
    const [row] = await queryRows<{ first_answer_at: Date | string | null; waits: string }>(
      t.database.db,
      sql`select first_answer_at,
            (select string_agg(phase || ':' || coalesce(ended_by, 'open'), ',' order by started_at, id)
             from ticket_waits where ticket_id = t.id) as waits
          from support_tickets t where id = ${ticketId}::uuid`,
    );
    return {
      firstAnswerAt: row!.first_answer_at ? new Date(row!.first_answer_at).toISOString() : null,
      waits: row!.waits,
    };
  };
  const say = async (who: SupportUser, ticketId: string, messageBody: string) => {
    const path =
      who === admin ? `/api/admin/support/tickets/${ticketId}/messages` : `/api/support/tickets/${ticketId}/messages`;
    const res = await who.post(path, { messageBody });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().message as { id: number; timestamp: string };
  };

  it('a split: the new ticket waits as its messages tell, the old one no longer waits for what moved; undone, as before', async () => {
    const a = await user.createTicket('General', 'Waits: where is my bag?');
    await say(admin, a.ticketId, 'Waits: on the way.');
    const q1 = await say(user, a.ticketId, 'Waits: another thing, my refund?');
    const a1 = await say(admin, a.ticketId, 'Waits: refund sent.');
    await say(user, a.ticketId, 'Waits: not arrived yet.');
    const before = { due: await due(a.ticketId), facts: await facts(a.ticketId) };
    expect(before.due).not.toBeNull();

    const res = await admin.post(`/api/admin/support/tickets/${a.ticketId}/split`, {
      messageId: q1.id,
      reason: 'General',
    });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().newTicketId as string;
    // The question still open moved: the old ticket waits for nothing, its first response unchanged.
    expect(await due(a.ticketId)).toBeNull();
    expect((await facts(a.ticketId)).firstAnswerAt).toBe(before.facts.firstAnswerAt);
    // The new ticket: first response the refund answer; waiting again since the last question.
    expect(await facts(fresh)).toEqual({
      firstAnswerAt: new Date(a1.timestamp).toISOString(),
      waits: 'first:answer,next:open',
    });
    expect(await due(fresh)).toMatchObject({ target: 'nextResponse' });

    const [entry] = (await admin.get(`/api/admin/support/tickets/${a.ticketId}/merges`)).json().merges as Array<{
      id: number;
    }>;
    expect((await admin.post(`/api/admin/support/merges/${entry!.id}/undo`)).statusCode).toBe(200);
    expect({ due: await due(a.ticketId), facts: await facts(a.ticketId) }).toEqual(before);
  });

  it('a split: both tickets wait on whom their last message says (not on the line the split wrote), in the inbox too', async () => {
    const waiting = async (ticketId: string) => {
      const { ticket } = (await adminThread(ticketId)) as unknown as {
        ticket: { waitingOn: string | null; due: { target: string } | null };
      };
      const listed = (await admin.get('/api/admin/support/tickets?open=true')).json().tickets as Array<{
        id: string;
        waitingOn: string | null;
        due: { target: string } | null;
      }>;
      const row = listed.find((x) => x.id === ticketId);
      expect(row, 'listed in the inbox').toBeDefined();
      expect({ waitingOn: row!.waitingOn, due: row!.due?.target ?? null }).toEqual({
        waitingOn: ticket.waitingOn,
        due: ticket.due?.target ?? null,
      });
      // The ticket's pages, the console's and the customer's, say the same in their header.
      const header = async (url: string, who: SupportUser) => {
        const html = (await t.app.inject({ method: 'GET', url, headers: { ...who.headers, accept: 'text/html' } }))
          .body;
        return /<p class="ticket__reason">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
      };
      const staff = { us: SUPPORT_TEXT.waitingOnUs, you: SUPPORT_TEXT.waitingOnCustomer };
      const customer = { us: SUPPORT_TEXT.waitingForUs, you: SUPPORT_TEXT.waitingForYou };
      const side = ticket.waitingOn as 'us' | 'you';
      expect(await header(`/admin/support/${ticketId}`, admin)).toContain(staff[side]);
      expect(await header(`/support/ticket/${ticketId}`, user)).toContain(customer[side]);
      return { waitingOn: ticket.waitingOn, due: ticket.due?.target ?? null };
    };
    // Answered before the split point; the moved part ends with a question still open.
    const a = await user.createTicket('General', 'Status: where is my bag?');
    await say(admin, a.ticketId, 'Status: on the way.');
    const q1 = await say(user, a.ticketId, 'Status: and my refund?');
    await say(admin, a.ticketId, 'Status: refund sent.');
    await say(user, a.ticketId, 'Status: not arrived yet.');
    const res = await admin.post(`/api/admin/support/tickets/${a.ticketId}/split`, {
      messageId: q1.id,
      reason: 'General',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await waiting(a.ticketId)).toEqual({ waitingOn: 'you', due: null });
    expect(await waiting(res.json().newTicketId as string)).toEqual({ waitingOn: 'us', due: 'nextResponse' });

    // The moved part ends with our answer: the new ticket waits on the customer; the old one, whose
    // question is still unanswered, on us with its first response due.
    const b = await user.createTicket('General', 'Status: my parcel to Nelson?');
    const q2 = await say(user, b.ticketId, 'Status: a second question, about pick-up.');
    await say(admin, b.ticketId, 'Status: pick-up is at 9.');
    const beforeB = { due: await due(b.ticketId), facts: await facts(b.ticketId) };
    const split = await admin.post(`/api/admin/support/tickets/${b.ticketId}/split`, {
      messageId: q2.id,
      reason: 'General',
    });
    expect(split.statusCode, split.body).toBe(200);
    expect(await waiting(split.json().newTicketId as string)).toEqual({ waitingOn: 'you', due: null });
    expect(await waiting(b.ticketId)).toEqual({ waitingOn: 'us', due: 'firstResponse' });
    // Its answer moved away: the old ticket has had no first response.
    expect((await facts(b.ticketId)).firstAnswerAt).toBeNull();
    // Undone, the old ticket is answered again, exactly as before.
    const [entry] = (await admin.get(`/api/admin/support/tickets/${b.ticketId}/merges`)).json().merges as Array<{
      id: number;
    }>;
    expect((await admin.post(`/api/admin/support/merges/${entry!.id}/undo`)).statusCode).toBe(200);
    expect({ due: await due(b.ticketId), facts: await facts(b.ticketId) }).toEqual(beforeB);
    expect(await waiting(b.ticketId)).toEqual({ waitingOn: 'you', due: null });
  });

  it('a merge: an unanswered question keeps its wait in a target that waits for nothing; undone, as before', async () => {
    const target = await user.createTicket('General', 'Carry: my parcel to Taupō.');
    await say(admin, target.ticketId, 'Carry: delivered yesterday.');
    const source = await user.createTicket('Incident', 'Carry: but the box was crushed!');
    const asked = (await adminThread(source.ticketId)).messages[0]!;
    expect(await due(target.ticketId)).toBeNull();
    const sourceDue = await due(source.ticketId);
    expect(sourceDue).not.toBeNull();
    const beforeTarget = await facts(target.ticketId);

    expect((await merge(source.ticketId, target.ticketId)).statusCode).toBe(200);
    // Waiting on us in the target since the question was asked (a 'next' wait by General's targets).
    expect(await due(target.ticketId)).toMatchObject({ target: 'nextResponse' });
    const [carried] = await queryRows<{ started_at: Date | string }>(
      t.database.db,
      sql`select started_at from ticket_waits where ticket_id = ${target.ticketId}::uuid and ended_at is null`,
    );
    expect(new Date(carried!.started_at).toISOString()).toBe(
      new Date((asked as unknown as { timestamp: string }).timestamp).toISOString(),
    );

    const [entry] = (await admin.get(`/api/admin/support/tickets/${target.ticketId}/merges`)).json().merges as Array<{
      id: number;
    }>;
    expect((await admin.post(`/api/admin/support/merges/${entry!.id}/undo`)).statusCode).toBe(200);
    expect(await due(target.ticketId)).toBeNull();
    expect(await facts(target.ticketId)).toEqual(beforeTarget);
    expect(await due(source.ticketId)).toEqual(sourceDue);
  });
});
