import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Two-sided status: an open ticket waits for us (the user wrote last) or for the user (we did);
 * users see it in their list and on the ticket, admins filter the inbox by it, and it is live.
 */
let t: TestApp;
let base: string;
let alice: SupportUser;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [alice, admin] = await Promise.all([supportUser(t), supportUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

type Listed = { id: string; waitingOn: string | null };
const waitingOf = async (user: SupportUser, url: string, ticketId: string) =>
  ((await user.get(url)).json().tickets as Listed[]).find((x) => x.id === ticketId)?.waitingOn;
const inboxIds = async (query: string) =>
  ((await admin.get(`/api/admin/support/tickets?${query}`)).json().tickets as Listed[]).map((x) => x.id);

describe('two-sided status', () => {
  it('follows who wrote last, for the user and the admin alike, and closed tickets wait for nobody', async () => {
    const { ticketId } = await alice.createTicket('General', 'Where is my parcel now?');
    expect(await waitingOf(alice, '/api/support/tickets?open=true', ticketId)).toBe('us');
    expect((await alice.get(`/api/support/tickets/${ticketId}`)).json().ticket.waitingOn).toBe('us');
    expect(await waitingOf(admin, '/api/admin/support/tickets?open=true', ticketId)).toBe('us');

    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'It is in Auckland.' });
    expect(await waitingOf(alice, '/api/support/tickets?open=true', ticketId)).toBe('you');
    expect((await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket.waitingOn).toBe('you');

    await alice.post(`/api/support/tickets/${ticketId}/messages`, { messageBody: 'Thanks, when will it come?' });
    expect(await waitingOf(alice, '/api/support/tickets?open=true', ticketId)).toBe('us');

    await admin.post(`/api/admin/support/tickets/${ticketId}/close`);
    expect(await waitingOf(alice, '/api/support/tickets?open=false', ticketId)).toBeNull();
  });

  it('filters the inbox by it: waiting for us, waiting for the user', async () => {
    const ours = await alice.createTicket('General', 'A question for the team');
    const theirs = await alice.createTicket('General', 'Another question here');
    await admin.post(`/api/admin/support/tickets/${theirs.ticketId}/messages`, { messageBody: 'Answered.' });

    const us = await inboxIds('open=true&waiting=us');
    const you = await inboxIds('open=true&waiting=you');
    expect(us).toContain(ours.ticketId);
    expect(us).not.toContain(theirs.ticketId);
    expect(you).toContain(theirs.ticketId);
    expect(you).not.toContain(ours.ticketId);
    // Closed tickets wait for nobody: the filter finds none of them.
    await admin.post(`/api/admin/support/tickets/${ours.ticketId}/close`);
    expect(await inboxIds('open=false&waiting=us')).toEqual([]);
    const wrong = await admin.get('/api/admin/support/tickets?open=true&waiting=later');
    expect(wrong.statusCode).toBe(400);
    expect(JSON.stringify(wrong.json().error)).toContain('waiting must be us or you');
  });

  it('is live: the user’s list and the filtered inbox change when the other side writes', async () => {
    const { ticketId } = await alice.createTicket('General', 'Live status, please');
    const latest = (events: SseEvent[]) =>
      (events.filter((e) => e.event === 'tickets').at(-1)?.data as { tickets: Listed[] } | undefined)?.tickets;
    const userList = await openSse(`${base}/api/support/tickets/stream?open=true`, { cookie: alice.headers.cookie });
    const inboxYou = await openSse(`${base}/api/admin/support/tickets/stream?open=true&waiting=you`, {
      cookie: admin.headers.cookie,
    });
    await userList.waitFor((e) => latest(e)?.find((x) => x.id === ticketId)?.waitingOn === 'us');
    await inboxYou.waitFor((e) => latest(e) !== undefined);
    expect(latest(inboxYou.events)?.map((x) => x.id)).not.toContain(ticketId);

    await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'On its way.' });
    await userList.waitFor((e) => latest(e)?.find((x) => x.id === ticketId)?.waitingOn === 'you');
    await inboxYou.waitFor((e) => latest(e)?.some((x) => x.id === ticketId) === true);
    userList.close();
    inboxYou.close();
  });
});
