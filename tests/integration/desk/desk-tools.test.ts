import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_TEXT } from '../../../src/contracts/desk.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/** The desk's tools: internal notes, assignment, the owner's rating, and the inbox's figures. */
let t: TestApp;
let base: string;
let alice: SupportUser;
let bob: SupportUser;
let admin: SupportUser;
let colleague: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [alice, bob, admin, colleague] = await Promise.all([
    supportUser(t),
    supportUser(t),
    supportUser(t, { role: 'admin' }),
    supportUser(t, { role: 'admin' }),
  ]);
});
afterAll(() => t.close());

const page = (url: string, who: SupportUser) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...who.headers } });
// inject's requests come to host localhost:80: a form of this site says so in its Origin.
const postForm = (url: string, fields: Record<string, string>, who: SupportUser) =>
  postPageForm(t, url, fields, { origin: 'http://localhost:80', ...who.headers });

const bodiesOf = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'message').map((e) => (e.data as { messageBody: string }).messageBody);

describe('internal notes', () => {
  it('are seen by admins, marked internal, and never reach the owner by API, page, stream or mail', async () => {
    const { ticketId } = await alice.createTicket('Incident', 'The box arrived crushed.');
    const userStream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, {
      cookie: alice.headers.cookie,
    });
    const adminStream = await openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, {
      cookie: admin.headers.cookie,
    });
    await userStream.waitFor((e) => bodiesOf(e).length === 1);

    const secret = `Courier is Fastway, claim ref ${Date.now()}`;
    const note = await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: secret });
    expect(note.statusCode).toBe(200);
    expect(note.json().message).toMatchObject({ messageBody: secret, admin: true, internal: true });
    // Then an answer, so the owner's stream has something after the note to prove it read past it.
    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'We are on it.' });

    await adminStream.waitFor((e) => bodiesOf(e).includes('We are on it.'));
    expect(bodiesOf(adminStream.events)).toContain(secret);
    await userStream.waitFor((e) => bodiesOf(e).includes('We are on it.'));
    expect(bodiesOf(userStream.events)).not.toContain(secret);
    userStream.close();
    adminStream.close();

    const asOwner = [
      (await alice.get(`/api/support/tickets/${ticketId}`)).body,
      (await alice.get(`/api/support/tickets/${ticketId}/messages`)).body,
      (await alice.get('/api/support/tickets?open=true')).body,
      (await page(`/support/ticket/${ticketId}`, alice)).body,
    ];
    for (const body of asOwner) expect(body).not.toContain(secret);
    expect((await page(`/support/ticket/${ticketId}`, alice)).body).toContain('We are on it.');

    const adminView = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json();
    expect(adminView.messages.map((m: { messageBody: string }) => m.messageBody)).toContain(secret);
    expect((await page(`/admin/support/${ticketId}`, admin)).body).toContain(secret);
    // The answer after the note makes the ticket wait for the user; the note alone would not have.
    expect(adminView.ticket.waitingOn).toBe('you');
  });

  it('do not change the ticket’s status or last-message time, and make no mail', async () => {
    const { ticketId } = await alice.createTicket('General', 'Quick question please');
    const before = (await alice.get(`/api/support/tickets/${ticketId}`)).json().ticket;
    await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'Checking with the courier.' });
    const after = (await alice.get(`/api/support/tickets/${ticketId}`)).json().ticket;
    expect(after.lastMessage).toBe(before.lastMessage);
    expect(after.waitingOn).toBe('us');
    const [events] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from notification_events where ticket_id = ${ticketId} and kind = 'ticket-reply'`,
    );
    expect(events?.n).toBe(0);
  });

  it('are refused to the owner, and a user reusing a note’s clientId gets their own message, not the note', async () => {
    const { ticketId } = await alice.createTicket('General', 'Another thing to ask');
    expect(
      (await alice.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'sneaky' })).statusCode,
    ).toBe(403);
    const clientId = 'shared-client-id-0001';
    await admin.post(`/api/admin/support/tickets/${ticketId}/notes`, { messageBody: 'private words', clientId });
    const reply = await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'my words', clientId });
    expect(reply.body).not.toContain('private words');
  });
});

describe('assignment', () => {
  it('assigns to me, to a colleague, or nobody; the inbox filters Mine and Unassigned', async () => {
    const { ticketId } = await bob.createTicket('General', 'Who handles this one?');
    const ids = async (who: SupportUser, query: string) =>
      ((await who.get(`/api/admin/support/tickets?open=true&${query}`)).json().tickets as Array<{ id: string }>).map(
        (x) => x.id,
      );
    expect(await ids(admin, 'assigned=none')).toContain(ticketId);

    const mine = await admin.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' });
    expect(mine.json().ticket.assignee).toEqual({ id: expect.any(String), email: admin.email });
    expect(await ids(admin, 'assigned=me')).toContain(ticketId);
    expect(await ids(colleague, 'assigned=me')).not.toContain(ticketId);
    expect(await ids(admin, 'assigned=none')).not.toContain(ticketId);

    const agents = (await admin.get('/api/admin/support/agents')).json().agents as Array<{ id: string; email: string }>;
    const other = agents.find((a) => a.email === colleague.email)!;
    await admin.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: other.id });
    expect(await ids(colleague, 'assigned=me')).toContain(ticketId);

    // Only admins can be assigned; a user's id is refused and changes nothing.
    const [bobRow] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from users where email = ${bob.email}`,
    );
    const refused = await admin.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: bobRow!.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(DESK_TEXT.assigneeMissing);
    expect(await ids(colleague, 'assigned=me')).toContain(ticketId);

    await admin.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: null });
    expect(await ids(admin, 'assigned=none')).toContain(ticketId);
    // The user never sees who handles it.
    expect((await bob.get(`/api/support/tickets/${ticketId}`)).body).not.toContain(colleague.email);
  });

  it('is live in another admin’s inbox', async () => {
    const { ticketId } = await bob.createTicket('General', 'Live assignment, please');
    const stream = await openSse(`${base}/api/admin/support/tickets/stream?open=true&assigned=none`, {
      cookie: colleague.headers.cookie,
    });
    const latest = (events: SseEvent[]) =>
      (events.filter((e) => e.event === 'tickets').at(-1)?.data as { tickets: Array<{ id: string }> } | undefined)
        ?.tickets;
    await stream.waitFor((e) => latest(e)?.some((x) => x.id === ticketId) === true);
    await admin.post(`/api/admin/support/tickets/${ticketId}/assign`, { assignee: 'me' });
    await stream.waitFor((e) => latest(e)?.some((x) => x.id === ticketId) === false);
    stream.close();
  });
});

describe('who else is viewing', () => {
  it('tells an admin on a ticket which other admins have it open, and when they leave; users are never told', async () => {
    const { ticketId } = await bob.createTicket('General', 'Two admins, one ticket');
    const url = `${base}/api/support/tickets/${ticketId}/messages/stream`;
    const viewersOf = (events: SseEvent[]) =>
      (events.filter((e) => e.event === 'viewers').at(-1)?.data as { viewers: string[] } | undefined)?.viewers;
    const first = await openSse(url, { cookie: admin.headers.cookie });
    const owner = await openSse(url, { cookie: bob.headers.cookie });
    await first.waitFor((e) => viewersOf(e)?.length === 0);

    const second = await openSse(url, { cookie: colleague.headers.cookie });
    await first.waitFor((e) => viewersOf(e)?.includes(colleague.email) === true);
    await second.waitFor((e) => viewersOf(e)?.includes(admin.email) === true);

    second.close();
    await first.waitFor((e) => viewersOf(e)?.length === 0);
    await owner.waitFor((e) => e.some((x) => x.event === 'message'));
    expect(owner.events.some((e) => e.event === 'viewers')).toBe(false);
    first.close();
    owner.close();
  });
});

describe('satisfaction rating', () => {
  it('is taken once the ticket is closed, from its owner only, changeable for 7 days, and shown to admins', async () => {
    const { ticketId } = await alice.createTicket('General', 'Please rate me later');
    const rate = (who: SupportUser, body: unknown) => who.post(`/api/support/tickets/${ticketId}/rating`, body);

    const early = await rate(alice, { good: true });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(DESK_TEXT.rateOnlyClosed);

    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'Sorted, closing.' });
    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    expect((await rate(bob, { good: false })).statusCode).toBe(404);
    expect((await rate(alice, {})).statusCode).toBe(400);

    const first = await rate(alice, { good: false, comment: '  Slow  ' });
    expect(first.statusCode).toBe(200);
    expect(first.json().ticket.rating).toMatchObject({ good: false, comment: 'Slow' });
    const changed = await rate(alice, { good: true, comment: 'Actually fine' });
    expect(changed.json().ticket.rating).toMatchObject({ good: true, comment: 'Actually fine' });
    const adminView = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket;
    expect(adminView.rating).toMatchObject({ good: true, comment: 'Actually fine' });
    expect(adminView.closedAt).not.toBeNull();
    expect(adminView.firstResponseAt).not.toBeNull();

    // Eight days later it can no longer be changed.
    await t.database.db.execute(
      sql`update ticket_ratings set rated_at = now() - interval '8 days' where ticket_id = ${ticketId}`,
    );
    const late = await rate(alice, { good: false });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(DESK_TEXT.ratingLocked);
    expect((await alice.get(`/api/support/tickets/${ticketId}`)).json().ticket.rating.good).toBe(true);
  });

  it('feeds the inbox’s figures: share of good ratings, first response and resolution medians', async () => {
    const figures = (await admin.get('/api/admin/support/figures')).json();
    expect(figures.rated30).toBeGreaterThanOrEqual(1);
    expect(figures.good30).toBeLessThanOrEqual(figures.rated30);
    expect(figures.firstResponseMedianMinutes).toEqual(expect.any(Number));
    expect(figures.resolutionMedianMinutes).toEqual(expect.any(Number));
    expect((await alice.get('/api/admin/support/figures')).statusCode).toBe(403);
  });
});

describe('the forms without JavaScript', () => {
  it('take a note, an assignment, a close and a rating as plain form posts, each answered with the page', async () => {
    const { ticketId } = await alice.createTicket('General', 'Forms without scripts');
    const adminPage = `/admin/support/${ticketId}`;
    const noted = await postForm(
      adminPage,
      { intent: 'note', messageBody: 'Form note here', clientId: 'form-note-0001' },
      admin,
    );
    expect(noted.statusCode).toBe(303);
    const assigned = await postForm(adminPage, { intent: 'assign', assignee: 'me' }, admin);
    expect(assigned.statusCode).toBe(303);
    const closed = await postForm(adminPage, { intent: 'close' }, admin);
    expect(closed.statusCode).toBe(303);
    const shown = (await page(adminPage, admin)).body;
    expect(shown).toContain('Form note here');
    expect(shown).toContain(DESK_TEXT.unassign);
    const ticket = (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket;
    expect(ticket).toMatchObject({ open: false, assignee: { email: admin.email } });

    const userPage = `/support/ticket/${ticketId}`;
    expect((await page(userPage, alice)).body).toContain(DESK_TEXT.rateTitle);
    const unchosen = await postForm(userPage, { intent: 'rate', comment: 'no choice' }, alice);
    expect(unchosen.statusCode).toBe(400);
    expect(unchosen.body).toContain(DESK_TEXT.chooseRating);
    const rated = await postForm(userPage, { intent: 'rate', good: 'true', comment: 'Quick and kind' }, alice);
    expect(rated.statusCode).toBe(303);
    expect((await page(userPage, alice)).body).toContain(DESK_TEXT.ratedGood);
    expect((await page(adminPage, admin)).body).toContain('Quick and kind');
  });
});
