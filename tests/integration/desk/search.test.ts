import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetParts } from '../../../src/contracts/desk.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** The inbox's search: ticket numbers, user emails and message text, best first, with a snippet. */
let t: TestApp;
let admin: SupportUser;
let alice: SupportUser;
let bob: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [admin, alice, bob] = await Promise.all([supportUser(t, { role: 'admin' }), supportUser(t), supportUser(t)]);
});
afterAll(() => t.close());

type Result = { ticket: { id: string; ticketNo: number; userEmail: string; open: boolean }; snippet: string | null };
const search = async (q: string) => {
  const res = await admin.get(`/api/admin/support/search?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as Result[];
};

describe('searching the inbox', () => {
  it('finds message text with English stemming, open and closed, best match first, with the words marked', async () => {
    await alice.createTicket('General', 'My <b>surfboard</b> question <script>alert(1)</script>');
    const surfboard = await alice.createTicket('Incident', 'My surfboard arrived with a cracked fin.');
    const other = await bob.createTicket('General', 'Can a traveller carry a surfboard bag? Also other sports gear.');
    await alice.post(`/api/support/tickets/${surfboard.ticketId}/messages`, {
      messageBody: 'The cracked surfboards fin needs repair, the surfboard is unusable.',
    });
    await admin.post(`/api/admin/support/tickets/${surfboard.ticketId}/close`);

    const results = await search('cracked surfboard');
    expect(results[0]!.ticket.id).toBe(surfboard.ticketId);
    expect(results[0]!.ticket.open).toBe(false);
    const marked = snippetParts(results[0]!.snippet!)
      .filter((p) => p.match)
      .map((p) => p.text.toLowerCase());
    expect(marked).toEqual(expect.arrayContaining(['cracked']));
    expect(marked.some((word) => word.startsWith('surfboard'))).toBe(true);
    // Both words are needed: the other ticket has only one.
    expect(results.map((r) => r.ticket.id)).not.toContain(other.ticketId);
    expect((await search('surfboards')).map((r) => r.ticket.id)).toEqual(
      expect.arrayContaining([surfboard.ticketId, other.ticketId]),
    );

    // The inbox page answers a search by itself (no script needed), the words marked as text, never HTML.
    const page = await t.app.inject({
      method: 'GET',
      url: '/admin/support?q=cracked+surfboard',
      headers: { accept: 'text/html', ...admin.headers },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<mark>cracked</mark>');
    expect(page.body).toMatch(new RegExp(`#(<!-- -->)?${surfboard.ticketNo}<`));
    const markup = await t.app.inject({
      method: 'GET',
      url: '/admin/support?q=surfboard+question',
      headers: { accept: 'text/html', ...admin.headers },
    });
    expect(markup.body).toContain('<mark>question</mark>');
    expect(markup.body).not.toContain('<script>alert(1)');
  });

  it('finds a ticket by its number (with or without #) and by part of the user’s email, first', async () => {
    const { ticketId, ticketNo } = await bob.createTicket('General', 'Nothing special in the words here.');
    expect((await search(String(ticketNo)))[0]!.ticket.id).toBe(ticketId);
    expect((await search(`#${ticketNo}`))[0]!.ticket.id).toBe(ticketId);
    const byEmail = await search(bob.email.slice(0, 14));
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((r) => r.ticket.userEmail === bob.email)).toBe(true);
  });

  it('answers nothing for words nobody wrote, refuses an empty search, and is the team’s only', async () => {
    expect(await search('xylophonequartz')).toEqual([]);
    // Search syntax that is not words is just words: no error.
    expect(await search('"unclosed quote -minus OR')).toEqual(expect.any(Array));
    // A long run of dashes (nested negations: PostgreSQL 15 refuses them as 'tsquery stack too
    // small'; found by the fuzz) is no error either, and a dash before a word still excludes it.
    expect(await search(`\t${'- '.repeat(60)}-`)).toEqual([]);
    expect(await search(`${'-'.repeat(80)}surfboard`)).toEqual(expect.any(Array));
    expect((await admin.get('/api/admin/support/search?q=')).statusCode).toBe(400);
    expect((await alice.get('/api/admin/support/search?q=surfboard')).statusCode).toBe(403);
  });
});
