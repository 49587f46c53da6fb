import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../../helpers/figures.ts';
import { postJson } from '../../helpers/accounts.ts';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { waitFor, waitUntil } from '../../helpers/wait.ts';

let t: TestApp;
let base: string;
let alice: SupportUser;
let bob: SupportUser;
let admin: SupportUser;
beforeAll(async () => {
  // Heartbeats every 15 s (the default): a stream that ends sooner was ended by the sessions.ended event.
  t = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '10000', STREAMS_PER_SESSION: '5' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [alice, bob, admin] = await Promise.all([supportUser(t), supportUser(t), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const cookie = (u: SupportUser) => ({ cookie: u.headers.cookie });
const bodies = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'message').map((e) => (e.data as { messageBody: string }).messageBody);

describe('a ticket’s live messages', () => {
  // How fast (p50/p99 under load) is the bench's live section; here: it arrives, on both pages.
  it('delivers an admin answer to the user’s and the admin’s open pages as it is sent', async () => {
    const { ticketId } = await alice.createTicket('General', 'Where is my parcel?');
    const userStream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookie(alice));
    const adminStream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookie(admin));
    expect(userStream.status).toBe(200);
    await userStream.waitFor((e) => bodies(e).length === 1);
    await adminStream.waitFor((e) => bodies(e).length === 1);

    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'It is on its way.' });
    await userStream.waitFor((e) => bodies(e).includes('It is on its way.'));
    await adminStream.waitFor((e) => bodies(e).includes('It is on its way.'));

    const answer = userStream.events.find((e) => e.event === 'message' && bodies([e])[0] === 'It is on its way.')!;
    expect(answer.data).toMatchObject({ admin: true, mine: false });
    expect(answer.id).toBe(String((answer.data as { id: number }).id));
    userStream.close();
    adminStream.close();
  });

  it('resumes after a dropped connection with everything missed, exactly once', async () => {
    const { ticketId } = await alice.createTicket('General', 'Message one');
    const url = `${base}/api/support/tickets/${ticketId}/messages/stream`;
    const first = await openSse(url, cookie(alice));
    await first.waitFor((e) => bodies(e).length === 1);
    await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Message two' });
    await first.waitFor((e) => bodies(e).length === 2);
    const lastId = first.events.filter((e) => e.event === 'message').at(-1)!.id!;
    first.close();

    // While the user is offline, both sides keep writing.
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Message three' });
    await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Message four' });
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Message five' });

    const resumed = await openSse(url, { ...cookie(alice), 'last-event-id': lastId });
    await resumed.waitFor((e) => bodies(e).length === 3);
    await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Message six' });
    await resumed.waitFor((e) => bodies(e).length === 4);
    // A later message closes the count: a duplicate of an earlier one would have come before it.
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Message seven' });
    await resumed.waitFor((e) => bodies(e).includes('Message seven'));
    expect(bodies(resumed.events)).toEqual([
      'Message three',
      'Message four',
      'Message five',
      'Message six',
      'Message seven',
    ]);
    const ids = resumed.events.filter((e) => e.event === 'message').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Number(lastId));
    resumed.close();
  });

  it('delivers a message whose announcement was lost, on the next sweep, exactly once', async () => {
    const { ticketId } = await alice.createTicket('General', 'Announcements can be lost');
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookie(alice));
    await stream.waitFor((e) => bodies(e).length === 1);
    // Stored as a post stores it, but never announced: as if the posting process died after its commit.
    await t.database.db.execute(
      sql`insert into ticket_messages (ticket_id, message_body, user_id, admin) values (${ticketId}, 'Never announced', ${admin.id}, true)`,
    );
    // Time is the subject: nothing announces this message, so nothing may bring it before the sweep.
    await new Promise((r) => setTimeout(r, 200));
    expect(bodies(stream.events)).toEqual(['Announcements can be lost']);
    await t.app.supportLive.sweep();
    await stream.waitFor((e) => bodies(e).length === 2);
    await t.app.supportLive.sweep();
    // A later, announced message closes the count: a second delivery by the sweep would come before it.
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Announced after' });
    await stream.waitFor((e) => bodies(e).includes('Announced after'));
    expect(bodies(stream.events)).toEqual(['Announcements can be lost', 'Never announced', 'Announced after']);
    stream.close();
  });

  it('tells the page live when the ticket closes', async () => {
    const { ticketId } = await alice.createTicket();
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookie(alice));
    await stream.waitFor((e) => e.some((x) => x.event === 'ticket' && (x.data as { open: boolean }).open));
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    await stream.waitFor((e) => e.some((x) => x.event === 'ticket' && !(x.data as { open: boolean }).open));
    stream.close();
  });

  it('refuses other users, anonymous callers and other sites before anything is sent', async () => {
    const { ticketId } = await alice.createTicket();
    const url = `${base}/api/support/tickets/${ticketId}/messages/stream`;
    const other = await openSse(url, cookie(bob));
    expect(other.status).toBe(404);
    expect(other.events).toEqual([]);
    expect((await openSse(url)).status).toBe(401);
    expect((await openSse(url, { ...cookie(alice), origin: 'https://evil.example' })).status).toBe(403);
    expect((await openSse(url, { ...cookie(alice), 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('stops the stream when the session ends', async () => {
    const carol = await supportUser(t);
    const { ticketId } = await carol.createTicket();
    const stream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, cookie(carol));
    await stream.waitFor((e) => bodies(e).length === 1);
    expect((await postJson(t, '/api/auth/logout', {}, carol.headers)).statusCode).toBeLessThan(300);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await waitUntil('the stream to end with the session', () => ended);
    // Ended: nothing more can arrive on it, whatever is written after.
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'After sign-out' });
    expect(bodies(stream.events)).not.toContain('After sign-out');
  });

  it('limits the open streams of one session', async () => {
    const dave = await supportUser(t);
    const { ticketId } = await dave.createTicket();
    const url = `${base}/api/support/tickets/${ticketId}/messages/stream`;
    const open = await Promise.all(Array.from({ length: 5 }, () => openSse(url, cookie(dave))));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    const extra = await openSse(url, cookie(dave));
    expect(extra.status).toBe(429);
    open[0]!.close();
    // The server frees the place once it has seen the close: until then a new stream is refused.
    const again = await waitFor('a place for a new stream once one closed', async () => {
      const stream = await openSse(url, cookie(dave));
      if (stream.status === 200) return stream;
      expect(stream.status).toBe(429);
      stream.close();
      return undefined;
    });
    [...open, again].forEach((s) => s.close());
  });
});

describe('the live ticket list', () => {
  it('updates on a new ticket, a new message and a close, without a reload', async () => {
    const erin = await supportUser(t);
    const stream = await openSse(`${base}/api/support/tickets/stream?open=true`, cookie(erin));
    const latest = () =>
      (
        stream.events.filter((e) => e.event === 'tickets').at(-1)?.data as
          { tickets: Array<{ id: string; open: boolean }> } | undefined
      )?.tickets;
    await stream.waitFor(() => latest()?.length === 0);
    const first = await erin.createTicket('General', 'First');
    await stream.waitFor(() => latest()?.length === 1);
    const second = await erin.createTicket('Incident', 'Second');
    await stream.waitFor(() => latest()?.[0]?.id === second.ticketId);
    await admin.post(`/api/admin/support/tickets/${first.ticketId}/messages`, { messageBody: 'Answer to the first' });
    await stream.waitFor(() => latest()?.[0]?.id === first.ticketId);
    await admin.post(`/api/admin/support/tickets/${first.ticketId}/close`);
    await stream.waitFor(() => latest()?.length === 1 && latest()?.[0]?.id === second.ticketId);
    // Another user's activity never reaches this list.
    const bobs = await bob.createTicket();
    // Erin's next ticket closes the count: a list with Bob's ticket would have come before it.
    const third = await erin.createTicket('General', 'Third');
    await stream.waitFor(() => latest()?.[0]?.id === third.ticketId);
    expect(latest()!.map((x) => x.id)).toEqual([third.ticketId, second.ticketId]);
    const listed = stream.events
      .filter((e) => e.event === 'tickets')
      .flatMap((e) => (e.data as { tickets: Array<{ id: string }> }).tickets.map((x) => x.id));
    expect(listed).not.toContain(bobs.ticketId);
    stream.close();
  });
});

describe('races', () => {
  const figures = {
    ticketCreations: 0,
    distinctNumbers: 0,
    closeReplyRaces: 0,
    repliesStoredAfterClose: 0,
    idempotentSends: 0,
    rowsStored: 0,
  };
  afterAll(() =>
    recordFigure('races-support', {
      checks: ['DATA-03', 'AZ-05', 'DATA-05'],
      label: 'Support races',
      values: figures,
    }),
  );

  it('gives 200 concurrent ticket creations 200 distinct numbers', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => supportUser(t)));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => users[i % 4]!.createTicket('General', `Concurrent ${i}`)),
    );
    figures.ticketCreations = results.length;
    figures.distinctNumbers = new Set(results.map((r) => r.ticketNo)).size;
    expect(new Set(results.map((r) => r.ticketNo)).size).toBe(200);
    expect(new Set(results.map((r) => r.ticketId)).size).toBe(200);
  });

  it('stores a ticket sent 20 times at once with one clientId once, and answers every try with it', async () => {
    const carol = await supportUser(t);
    const send = () =>
      carol.post('/api/functions/createSupportTicket', {
        data: { reason: 'Incident', message: 'Sent on a flaky train', clientId: 'ticket-9d2c41' },
      });
    const responses = await Promise.all(Array.from({ length: 20 }, send));
    expect(responses.map((r) => r.statusCode)).toEqual(Array<number>(20).fill(200));
    expect(new Set(responses.map((r) => r.json().result.ticketId)).size).toBe(1);
    const listed = (await carol.get('/api/support/tickets?open=true')).json().tickets;
    expect(listed).toHaveLength(1);
    const { ticketId } = responses[0]!.json().result;
    expect((await carol.get(`/api/support/tickets/${ticketId}/messages`)).json().messages).toHaveLength(1);
    // The same clientId from another user is theirs alone: it creates their own ticket.
    const dave = await supportUser(t);
    const theirs = await dave.post('/api/functions/createSupportTicket', {
      data: { reason: 'General', message: 'Mine', clientId: 'ticket-9d2c41' },
    });
    expect(theirs.json().result.ticketId).not.toBe(ticketId);
    figures.idempotentSends += 20;
    figures.rowsStored += listed.length;
  });

  it('stores a message sent 20 times at once with one clientId once', async () => {
    const { ticketId } = await alice.createTicket('General', 'Idempotent replies');
    const send = () =>
      alice.post(`/api/support/tickets/${ticketId}/messages`, {
        messageBody: 'Twenty tries',
        clientId: 'reply-5e8f0a7b',
      });
    const responses = await Promise.all(Array.from({ length: 20 }, send));
    expect(responses.map((r) => r.statusCode)).toEqual(Array<number>(20).fill(200));
    expect(new Set(responses.map((r) => r.json().message.id)).size).toBe(1);
    const messages = (await alice.get(`/api/support/tickets/${ticketId}/messages`)).json().messages;
    expect(messages).toHaveLength(2);
    figures.idempotentSends += 20;
    figures.rowsStored += messages.length - 1;
  });

  it('never stores a reply after the close committed (100 close-versus-reply races)', async () => {
    for (let i = 0; i < 100; i++) {
      const { ticketId } = await alice.createTicket('General', `Race ${i}`);
      const [reply] = await Promise.all([
        alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: `Reply ${i}` }),
        admin.post(`/api/admin/support/tickets/${ticketId}/close`),
      ]);
      expect([200, 409]).toContain(reply.statusCode);
      const messages = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().messages;
      // An accepted reply is stored; a refused one is not: never "accepted but lost" or "refused but stored".
      expect(messages).toHaveLength(reply.statusCode === 200 ? 2 : 1);
      figures.closeReplyRaces += 1;
      figures.repliesStoredAfterClose += messages.length - (reply.statusCode === 200 ? 2 : 1);
      const late = await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Too late' });
      expect(late.statusCode).toBe(409);
    }
  });
});
