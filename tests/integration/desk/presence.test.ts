import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketPresence } from '../../../src/contracts/support.schemas.ts';
import { movableClock } from '../../../src/server/clock.ts';
import { openSse, type SseEvent } from '../../helpers/sse-client.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * Presence (docs/decisions/142-presence.md): who has a ticket open and who is typing on it, told to
 * the other staff on the ticket and to every admin inbox, never to a customer; gone when the page's
 * stream closes, or PRESENCE_SECONDS after its last beat when the connection is lost without a close.
 * Presence reads the app's clock, which stands still here unless a test moves it: no page in these
 * tests beats, and on a slow machine 5 s of real time between two steps once expired an agent.
 */
let t: TestApp;
let base: string;
let owner: SupportUser;
let sam: SupportUser;
let kiri: SupportUser;
const clock = movableClock();
beforeAll(async () => {
  t = await createTestApp({ env: { TICKETS_PER_USER_PER_HOUR: '1000', PRESENCE_SECONDS: '5' }, clock });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, sam, kiri] = await Promise.all([
    supportUser(t),
    supportUser(t, { role: 'admin' }),
    supportUser(t, { role: 'admin' }),
  ]);
});
afterAll(() => t.close());

const ticketStream = (ticketId: string, who: SupportUser) =>
  openSse(`${base}/api/support/tickets/${ticketId}/messages/stream`, { cookie: who.headers.cookie });
const inboxStream = (who: SupportUser) =>
  openSse(`${base}/api/admin/support/tickets/stream`, { cookie: who.headers.cookie });
const beat = (ticketId: string, who: SupportUser, typing: boolean) =>
  who.post(`/api/admin/support/tickets/${ticketId}/presence`, { typing });

/** What an inbox stream says about one ticket now: its last word on it, whole or not. */
function rowOf(events: SseEvent[], ticketId: string): TicketPresence | undefined {
  for (const event of events.toReversed()) {
    if (event.event !== 'presence') continue;
    const data = event.data as { tickets: Record<string, TicketPresence>; whole: boolean };
    if (data.tickets[ticketId]) return data.tickets[ticketId];
    if (data.whole) return undefined;
  }
  return undefined;
}
const onTicket = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'viewers').at(-1)?.data as TicketPresence | undefined;

describe('presence on the ticket and on the inbox row', () => {
  it('shows who opened the ticket and who types, then takes them off when the page closes; customers are never told', async () => {
    const { ticketId } = await owner.createTicket('General', 'Where is my parcel?');
    const inbox = await inboxStream(kiri);
    const customer = await ticketStream(ticketId, owner);
    const kiriOnTicket = await ticketStream(ticketId, kiri);
    await kiriOnTicket.waitFor((e) => onTicket(e)?.viewers.length === 0);

    const samOnTicket = await ticketStream(ticketId, sam);
    await inbox.waitFor((e) => rowOf(e, ticketId)?.viewers.includes(sam.email) === true);
    await kiriOnTicket.waitFor((e) => onTicket(e)?.viewers.includes(sam.email) === true);
    expect(rowOf(inbox.events, ticketId)?.typing).toEqual([]);

    const typing = await beat(ticketId, sam, true);
    expect(typing.statusCode).toBe(200);
    // The beat answers who else is there: Kiri, not typing.
    expect(typing.json()).toEqual({ viewers: [kiri.email], typing: [] });
    await inbox.waitFor((e) => rowOf(e, ticketId)?.typing.includes(sam.email) === true);
    await kiriOnTicket.waitFor((e) => onTicket(e)?.typing.includes(sam.email) === true);

    await beat(ticketId, sam, false);
    await inbox.waitFor((e) => rowOf(e, ticketId)?.typing.length === 0 && rowOf(e, ticketId)?.viewers.length === 1);

    samOnTicket.close();
    await inbox.waitFor((e) => !rowOf(e, ticketId)?.viewers.includes(sam.email));
    await kiriOnTicket.waitFor((e) => onTicket(e)?.viewers.length === 0);

    // The customer's page heard its ticket's messages, and nothing of who was on it.
    await customer.waitFor((e) => e.some((x) => x.event === 'message'));
    expect(customer.events.some((e) => e.event === 'viewers' || e.event === 'presence')).toBe(false);
    for (const stream of [inbox, customer, kiriOnTicket]) stream.close();
  });

  it('shows a newly opened inbox everyone already on a ticket, leaving out its own agent', async () => {
    const { ticketId } = await owner.createTicket('General', 'Two agents on one ticket');
    const samOnTicket = await ticketStream(ticketId, sam);
    const kiriOnTicket = await ticketStream(ticketId, kiri);
    await samOnTicket.waitFor((e) => onTicket(e)?.viewers.includes(kiri.email) === true);

    const inbox = await inboxStream(kiri);
    await inbox.waitFor((e) => rowOf(e, ticketId)?.viewers.includes(sam.email) === true);
    expect(rowOf(inbox.events, ticketId)?.viewers).toEqual([sam.email]);
    for (const stream of [inbox, samOnTicket, kiriOnTicket]) stream.close();
  });

  it('keeps an agent with the ticket open in a second tab when the first closes', async () => {
    const { ticketId } = await owner.createTicket('General', 'Two tabs, one agent');
    const inbox = await inboxStream(kiri);
    const firstTab = await ticketStream(ticketId, sam);
    const secondTab = await ticketStream(ticketId, sam);
    // A stream hears the ticket once it is one of the ticket's (its headers come first): only then
    // does the server know Sam has it open twice.
    await secondTab.waitFor((e) => e.some((x) => x.event === 'ticket'));
    await inbox.waitFor((e) => rowOf(e, ticketId)?.viewers.includes(sam.email) === true);
    firstTab.close();
    // Sam's typing is the next thing the inbox hears: no "left" in between.
    await beat(ticketId, sam, true);
    await inbox.waitFor((e) => rowOf(e, ticketId)?.typing.includes(sam.email) === true);
    const told = inbox.events.filter((e) => e.event === 'presence').map((e) => rowOf([e], ticketId));
    expect(told.some((presence) => presence?.viewers.length === 0)).toBe(false);
    secondTab.close();
    await inbox.waitFor((e) => rowOf(e, ticketId)?.viewers.length === 0);
    inbox.close();
  });

  it('forgets a page whose beats stopped though its connection never closed, and typing before that', async () => {
    const { ticketId } = await owner.createTicket('General', 'A laptop shut mid-answer');
    const inbox = await inboxStream(kiri);
    // No stream: a page whose connection went away without a close is one that only beat.
    await beat(ticketId, sam, true);
    await inbox.waitFor((e) => rowOf(e, ticketId)?.typing.includes(sam.email) === true);
    // Presence lasts PRESENCE_SECONDS (5 s here) after the last beat, typing 6 s: 4 s on, both stay.
    clock.advance(4000);
    expect((await beat(ticketId, kiri, false)).json()).toEqual({ viewers: [sam.email], typing: [sam.email] });
    clock.advance(2500);
    // The next sweep (every second) takes Sam off, typing and all.
    await inbox.waitFor((e) => rowOf(e, ticketId) === undefined || rowOf(e, ticketId)?.viewers.length === 0);
    expect(rowOf(inbox.events, ticketId)?.typing ?? []).toEqual([]);
    inbox.close();
  });

  it('answers 404 for a ticket that does not exist, and refuses a beat without its typing flag', async () => {
    const missing = await beat('00000000-0000-4000-8000-000000000000', sam, false);
    expect(missing.statusCode).toBe(404);
    const { ticketId } = await owner.createTicket('General', 'A malformed beat');
    const bad = await sam.post(`/api/admin/support/tickets/${ticketId}/presence`, { typing: 'yes' });
    expect(bad.statusCode).toBe(400);
  });
});
