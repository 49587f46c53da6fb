// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TEXT } from '../../../src/contracts/support.ts';
import { postPageForm } from '../../helpers/page-forms.ts';
import { openSse } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * 'Still need help?': a new ticket that follows one of the user's own closed tickets is linked to
 * it, and both show the link to the user and in the console ('Follows ticket #N', 'Continued in
 * ticket #M'); another user's ticket is never linked. With and without JavaScript.
 */
let t: TestApp;
let base: string;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t.close());

type Link = { id: string; ticketNo: number };
type Linked = { follows: Link | null; continuedIn: Link[] };

/** A ticket of `user`, answered, closed and rated Good. */
async function closedTicket(user: SupportUser) {
  const ticket = await user.createTicket('Incident', 'My bag came back with a torn strap.');
  await admin.post(`/api/admin/support/tickets/${ticket.ticketId}/messages`, { messageBody: 'Repaired for free.' });
  expect((await admin.post(`/api/admin/support/tickets/${ticket.ticketId}/close`)).statusCode).toBe(200);
  expect((await user.post(`/api/support/tickets/${ticket.ticketId}/rating`, { good: true })).statusCode).toBe(200);
  return ticket;
}

const createFollowing = (user: SupportUser, follows: string, message = 'The strap tore again, same place.') =>
  user.post('/api/functions/createSupportTicket', { data: { reason: 'Incident', message, follows } });

const ownView = async (user: SupportUser, ticketId: string) =>
  (await user.get(`/api/support/tickets/${ticketId}`)).json().ticket as Linked;
const deskView = async (ticketId: string) =>
  (await admin.get(`/api/admin/support/tickets/${ticketId}`)).json().ticket as Linked;

const getPage = (url: string, who: { headers: Record<string, string> }) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...who.headers } });
/** The page's text without its tags, so 'Follows <a>ticket #N</a>' reads as a person reads it. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '');

describe('a ticket that follows a closed one', () => {
  it('is linked both ways, for the user and in the console', async () => {
    const user = await supportUser(t);
    const old = await closedTicket(user);
    const res = await createFollowing(user, old.ticketId);
    expect(res.statusCode).toBe(200);
    const next = res.json().result as { ticketId: string; ticketNo: number };

    const oldLink = { id: old.ticketId, ticketNo: old.ticketNo };
    const nextLink = { id: next.ticketId, ticketNo: next.ticketNo };
    expect(await ownView(user, next.ticketId)).toMatchObject({ follows: oldLink, continuedIn: [] });
    expect(await ownView(user, old.ticketId)).toMatchObject({ follows: null, continuedIn: [nextLink] });
    expect(await deskView(next.ticketId)).toMatchObject({ follows: oldLink, continuedIn: [] });
    expect(await deskView(old.ticketId)).toMatchObject({ follows: null, continuedIn: [nextLink] });
    // The lists carry them too.
    const closed = (await user.get('/api/support/tickets?open=false')).json().tickets as (Linked & { id: string })[];
    expect(closed.find((x) => x.id === old.ticketId)?.continuedIn).toEqual([nextLink]);

    // A second follow-up of the same ticket is listed beside the first.
    const third = (await createFollowing(user, old.ticketId, 'And the other strap now.')).json().result as Link & {
      ticketId: string;
    };
    expect((await ownView(user, old.ticketId)).continuedIn).toEqual([
      nextLink,
      { id: third.ticketId, ticketNo: third.ticketNo },
    ]);
  });

  it("is never linked to another user's ticket (created, but unlinked), nor to a ticket that does not exist", async () => {
    const owner = await supportUser(t);
    const stranger = await supportUser(t);
    const theirs = await closedTicket(owner);
    const res = await createFollowing(stranger, theirs.ticketId);
    expect(res.statusCode).toBe(200);
    const created = res.json().result as { ticketId: string };
    expect(await ownView(stranger, created.ticketId)).toMatchObject({ follows: null, continuedIn: [] });
    expect(await deskView(created.ticketId)).toMatchObject({ follows: null });
    expect(await ownView(owner, theirs.ticketId)).toMatchObject({ continuedIn: [] });
    expect(await deskView(theirs.ticketId)).toMatchObject({ continuedIn: [] });

    const nowhere = await createFollowing(stranger, '00000000-0000-4000-8000-000000000000');
    expect(nowhere.statusCode).toBe(200);
    expect((await ownView(stranger, nowhere.json().result.ticketId)).follows).toBeNull();
    // Not a ticket id at all: refused as a bad field.
    const bad = await createFollowing(stranger, 'ticket-12');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields.follows).toBe('follows must be a ticket id');
  });

  it('tells pages watching the closed ticket at once', async () => {
    const user = await supportUser(t);
    const old = await closedTicket(user);
    const url = `${base}/api/support/tickets/${old.ticketId}/messages/stream`;
    const own = await openSse(url, { cookie: user.headers.cookie! });
    const desk = await openSse(url, { cookie: admin.headers.cookie! });
    const continued = (events: { event: string; data: unknown }[]) =>
      events.some((e) => e.event === 'ticket' && (e.data as Linked).continuedIn.length === 1);
    const next = (await createFollowing(user, old.ticketId)).json().result as { ticketNo: number };
    const [ownEvents, deskEvents] = await Promise.all([own.waitFor(continued), desk.waitFor(continued)]);
    for (const events of [ownEvents, deskEvents]) {
      const last = events.filter((e) => e.event === 'ticket').at(-1)!.data as Linked;
      expect(last.continuedIn[0]?.ticketNo).toBe(next.ticketNo);
    }
    own.close();
    desk.close();
  });
});

describe('Still need help? on the pages, without JavaScript', () => {
  it('opens the form for a following ticket, which is created linked; both pages show the links', async () => {
    const user = await supportUser(t);
    const old = await closedTicket(user);

    const oldPage = await getPage(`/support/ticket/${old.ticketId}`, user);
    expect(oldPage.statusCode).toBe(200);
    const href = `/support/create-ticket?follows=${old.ticketId}`;
    expect(oldPage.body).toContain(`href="${href}"`);
    expect(oldPage.body).toContain(SUPPORT_TEXT.stillNeedHelp);

    const form = await getPage(href, user);
    expect(form.statusCode).toBe(200);
    expect(textOf(form.body)).toContain(`Follows ticket #${old.ticketNo}`);
    expect(form.body).toMatch(new RegExp(`<input type="hidden" name="follows" value="${old.ticketId}"`));
    const clientId = /name="clientId" value="([^"]+)"/.exec(form.body)![1]!;

    const sent = await postPageForm(
      t,
      href,
      { reason: 'Incident', message: 'The strap tore again.', clientId, follows: old.ticketId },
      { 'sec-fetch-site': 'same-origin', ...user.headers },
    );
    expect(sent.statusCode).toBe(303);
    const nextId = /^\/support\/ticket\/([0-9a-f-]{36})$/.exec(String(sent.headers.location))![1]!;
    const next = await ownView(user, nextId);
    expect(next.follows).toEqual({ id: old.ticketId, ticketNo: old.ticketNo });
    const nextNo = (await user.get(`/api/support/tickets/${nextId}`)).json().ticket.ticketNo as number;

    const nextPage = textOf((await getPage(`/support/ticket/${nextId}`, user)).body);
    expect(nextPage).toContain(`Follows ticket #${old.ticketNo}`);
    const oldAgain = await getPage(`/support/ticket/${old.ticketId}`, user);
    expect(textOf(oldAgain.body)).toContain(`Continued in ticket #${nextNo}`);
    expect(oldAgain.body).toContain(`href="/support/ticket/${nextId}"`);

    // The console shows the same links, to its own pages.
    const deskNext = await getPage(`/admin/support/${nextId}`, admin);
    expect(textOf(deskNext.body)).toContain(`Follows ticket #${old.ticketNo}`);
    expect(deskNext.body).toContain(`href="/admin/support/${old.ticketId}"`);
    const deskOld = await getPage(`/admin/support/${old.ticketId}`, admin);
    expect(textOf(deskOld.body)).toContain(`Continued in ticket #${nextNo}`);
    expect(deskOld.body).toContain(`href="/admin/support/${nextId}"`);
  });

  it("says nothing of another user's ticket on the form", async () => {
    const owner = await supportUser(t);
    const stranger = await supportUser(t);
    const theirs = await closedTicket(owner);
    const form = await getPage(`/support/create-ticket?follows=${theirs.ticketId}`, stranger);
    expect(form.statusCode).toBe(200);
    expect(textOf(form.body)).not.toContain(`ticket #${theirs.ticketNo}`);
    expect(form.body).not.toContain('name="follows"');
  });
});
