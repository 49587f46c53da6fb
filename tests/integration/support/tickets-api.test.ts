import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { postJson } from '../../helpers/accounts.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let alice: SupportUser;
let bob: SupportUser;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [alice, bob, admin] = await Promise.all([supportUser(t), supportUser(t), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

describe('creating a ticket (callable protocol)', () => {
  it('answers { result: { ticketId, ticketNo } }; the ticket is open and its text is the first message', async () => {
    const before = Date.now();
    const { ticketId, ticketNo } = await alice.createTicket(
      'Incident',
      'The traveller marked it delivered but nothing came.',
    );
    expect(ticketId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ticketNo).toBeGreaterThanOrEqual(1000);
    const res = await alice.get(`/api/support/tickets/${ticketId}`);
    expect(res.statusCode).toBe(200);
    const { ticket, messages } = res.json();
    expect(ticket).toMatchObject({ id: ticketId, ticketNo, reason: 'Incident', open: true });
    expect(new Date(ticket.creationDate).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(ticket.lastMessage).toBe(ticket.creationDate);
    expect(messages).toEqual([
      {
        id: expect.any(Number),
        messageBody: 'The traveller marked it delivered but nothing came.',
        timestamp: ticket.creationDate,
        admin: false,
        mine: true,
        attachments: [],
      },
    ]);
  });

  it('gives consecutive tickets increasing numbers', async () => {
    const a = await alice.createTicket();
    const b = await bob.createTicket();
    expect(b.ticketNo).toBeGreaterThan(a.ticketNo);
  });

  it('refuses a missing reason or message with Field Required, and an unknown reason', async () => {
    for (const data of [
      { message: 'Hello there, I need help' },
      { reason: 'General', message: '   ' },
      { reason: 'Refund', message: 'Hello there, I need help' },
    ]) {
      const res = await alice.post('/api/functions/createSupportTicket', { data });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.status).toBe('INVALID_ARGUMENT');
    }
    const res = await alice.post('/api/functions/createSupportTicket', { data: { reason: 'General', message: '' } });
    expect(res.json().error.fields['data.message']).toBe(SUPPORT_TEXT.fieldRequired);
  });

  it('accepts a short message (the 10 characters are a hint only)', async () => {
    expect((await alice.createTicket('General', 'Help')).ticketNo).toBeGreaterThan(0);
  });

  it('is for signed-in users with a verified email only', async () => {
    expect(
      (
        await postJson(t, '/api/functions/createSupportTicket', {
          data: { reason: 'General', message: 'Hello there friend' },
        })
      ).statusCode,
    ).toBe(401);
    const unverified = await supportUser(t, { verified: false }).catch((e: Error) => e);
    // An unverified account cannot even keep a session (docs/decisions/041-sessions.md); either way no ticket is created.
    if (!(unverified instanceof Error)) {
      expect(
        (
          await unverified.post('/api/functions/createSupportTicket', {
            data: { reason: 'General', message: 'Hello there friend' },
          })
        ).statusCode,
      ).toBe(403);
    }
  });

  it('is rate limited per user', async () => {
    const limited = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '2' } });
    try {
      const user = await supportUser(limited);
      await user.createTicket();
      await user.createTicket();
      const res = await user.post('/api/functions/createSupportTicket', {
        data: { reason: 'General', message: 'Third one today' },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toMatchObject({ status: 'RESOURCE_EXHAUSTED', message: SUPPORT_TEXT.tooManyTickets });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('listing own tickets', () => {
  it('shows only the caller’s tickets, filtered by open, newest last message first', async () => {
    const carol = await supportUser(t);
    const first = await carol.createTicket('General', 'First question here');
    const second = await carol.createTicket('Deactivation', 'Please close my account');
    await bob.createTicket();
    let list = (await carol.get('/api/support/tickets?open=true')).json().tickets;
    expect(list.map((x: { id: string }) => x.id)).toEqual([second.ticketId, first.ticketId]);
    // A reply moves a ticket to the top.
    expect(
      (await carol.post(`/api/support/tickets/${first.ticketId}/messages`, { messageBody: 'Any news?' })).statusCode,
    ).toBe(200);
    list = (await carol.get('/api/support/tickets?open=true')).json().tickets;
    expect(list.map((x: { id: string }) => x.id)).toEqual([first.ticketId, second.ticketId]);
    expect((await carol.get('/api/support/tickets?open=false')).json().tickets).toEqual([]);
    await admin.post(`/api/admin/support/tickets/${second.ticketId}/close`);
    expect(
      (await carol.get('/api/support/tickets?open=false')).json().tickets.map((x: { id: string }) => x.id),
    ).toEqual([second.ticketId]);
  });
});

describe('replying', () => {
  it('stores a reply on an open ticket and moves its last-message time', async () => {
    const { ticketId } = await alice.createTicket();
    const res = await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: '  Still waiting.  ' });
    expect(res.statusCode).toBe(200);
    const { message } = res.json();
    expect(message).toMatchObject({ messageBody: 'Still waiting.', admin: false, mine: true });
    const { ticket } = (await alice.get(`/api/support/tickets/${ticketId}`)).json();
    expect(ticket.lastMessage).toBe(message.timestamp);
  });

  it('never stores an empty reply', async () => {
    const { ticketId } = await alice.createTicket();
    const res = await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: ' \n ' });
    expect(res.statusCode).toBe(400);
    expect((await alice.get(`/api/support/tickets/${ticketId}/messages`)).json().messages).toHaveLength(1);
  });

  it('refuses a reply once the ticket is closed, with the spec message', async () => {
    const { ticketId } = await alice.createTicket();
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    const res = await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'One more thing' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ status: 'ABORTED', message: SUPPORT_TEXT.replyRejected });
    expect((await alice.get(`/api/support/tickets/${ticketId}/messages`)).json().messages).toHaveLength(1);
  });

  it('stores a retried message once when it carries the same clientId', async () => {
    const { ticketId } = await alice.createTicket();
    const send = () =>
      alice.post(`/api/support/tickets/${ticketId}/messages`, {
        messageBody: 'Sent twice by a flaky network',
        clientId: 'c-7f3a9e21',
      });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 200]);
    expect(new Set([a.json().message.id, b.json().message.id, c.json().message.id]).size).toBe(1);
    expect((await alice.get(`/api/support/tickets/${ticketId}/messages`)).json().messages).toHaveLength(2);
  });
});

describe('another user', () => {
  it('gets not-found on every route of a ticket that is not theirs, and changes nothing', async () => {
    const { ticketId } = await alice.createTicket('General', 'Private question');
    for (const url of [`/api/support/tickets/${ticketId}`, `/api/support/tickets/${ticketId}/messages`]) {
      const res = await bob.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(SUPPORT_TEXT.ticketMissing);
    }
    const reply = await bob.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'I should not be here' });
    expect(reply.statusCode).toBe(404);
    expect((await alice.get(`/api/support/tickets/${ticketId}/messages`)).json().messages).toHaveLength(1);
    expect(
      (await bob.get('/api/support/tickets?open=true')).json().tickets.some((x: { id: string }) => x.id === ticketId),
    ).toBe(false);
  });

  it('gets the same not-found for ids that do not exist or are not ids at all', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '1234']) {
      expect((await alice.get(`/api/support/tickets/${id}`)).statusCode).toBe(404);
    }
  });
});

describe('the admin side', () => {
  it('lists every user’s tickets with the user’s email, marks unanswered ones, and searches', async () => {
    const { ticketId, ticketNo } = await bob.createTicket('Incident', 'Broken vase on arrival');
    let inbox = (await admin.get('/api/admin/support/tickets?open=true')).json().tickets;
    const row = inbox.find((x: { id: string }) => x.id === ticketId);
    expect(row).toMatchObject({ ticketNo, userEmail: bob.email, unanswered: true });

    const answer = await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, {
      messageBody: 'Sorry to hear that. We are on it.',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toMatchObject({ admin: true, mine: true, authorEmail: admin.email });
    inbox = (await admin.get('/api/admin/support/tickets?open=true')).json().tickets;
    expect(inbox.find((x: { id: string }) => x.id === ticketId).unanswered).toBe(false);

    expect(
      (await admin.get(`/api/admin/support/tickets?open=true&q=${ticketNo}`))
        .json()
        .tickets.map((x: { id: string }) => x.id),
    ).toEqual([ticketId]);
    expect(
      (await admin.get(`/api/admin/support/tickets?open=true&q=%23${ticketNo}`))
        .json()
        .tickets.map((x: { id: string }) => x.id),
    ).toEqual([ticketId]);
    const byEmail = (
      await admin.get(`/api/admin/support/tickets?open=true&q=${encodeURIComponent(bob.email.slice(0, 12))}`)
    ).json().tickets;
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((x: { userEmail: string }) => x.userEmail === bob.email)).toBe(true);
    expect((await admin.get('/api/admin/support/tickets?open=true&q=%25')).json().tickets).toEqual([]);

    // The user sees the answer labelled as Admin, not as theirs.
    const thread = (await bob.get(`/api/support/tickets/${ticketId}/messages`)).json().messages;
    expect(thread.at(-1)).toMatchObject({ messageBody: 'Sorry to hear that. We are on it.', admin: true, mine: false });
    expect(Object.keys(thread.at(-1)).sort()).toEqual([
      'admin',
      'attachments',
      'id',
      'messageBody',
      'mine',
      'timestamp',
    ]);
  });

  it('closes and reopens; replies follow the state', async () => {
    const { ticketId } = await bob.createTicket();
    const closed = await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    expect(closed.json().ticket.open).toBe(false);
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Closed, sorry' }))
        .statusCode,
    ).toBe(409);
    const reopened = await admin.post(`/api/admin/support/tickets/${ticketId}/reopen`);
    expect(reopened.json().ticket.open).toBe(true);
    expect(
      (await bob.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Thanks for reopening' })).statusCode,
    ).toBe(200);
    expect((await admin.post('/api/admin/support/tickets/00000000-0000-4000-8000-000000000000/close')).statusCode).toBe(
      404,
    );
  });

  it('is refused to plain users and anonymous callers', async () => {
    const { ticketId } = await bob.createTicket();
    const routes: Array<[string, string]> = [
      ['GET', '/api/admin/support/tickets?open=true'],
      ['GET', `/api/admin/support/tickets/${ticketId}`],
      ['POST', `/api/admin/support/tickets/${ticketId}/messages`],
      ['POST', `/api/admin/support/tickets/${ticketId}/close`],
      ['POST', `/api/admin/support/tickets/${ticketId}/reopen`],
    ];
    for (const [method, url] of routes) {
      const payload = method === 'POST' ? { messageBody: 'Pretending to be staff' } : undefined;
      const asUser = await t.app.inject({ method: method as 'GET', url, headers: bob.headers, payload });
      expect(asUser.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await t.app.inject({ method: method as 'GET', url, payload });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    const { ticket } = (await bob.get(`/api/support/tickets/${ticketId}`)).json();
    expect(ticket.open).toBe(true);
    expect((await bob.get(`/api/support/tickets/${ticketId}/messages`)).json().messages).toHaveLength(1);
  });
});
