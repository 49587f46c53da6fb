// One database: what the server adds to a rendered page does not depend on where its data lives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * What the server adds to a rendered page (src/web/page-stream.ts): a page that shows dates carries
 * the texts its server wrote for them, so the browser hydrates it without building a formatter
 * (each page carries its own and no other); the app's script preloads come at low priority, after
 * the stylesheets.
 */
let t: TestApp;
let alice: ApiClient;
let bob: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  alice = await apiClient(t, { role: 'user' });
  bob = await apiClient(t, { role: 'user' });
});
afterAll(() => t.close());

async function ticketWith(user: ApiClient, messages: string[]): Promise<{ page: string; times: string[] }> {
  const created = await user.post('/api/functions/createSupportTicket', {
    data: { reason: 'Incident', message: messages[0] },
  });
  expect(created.statusCode, created.body).toBe(200);
  const ticketId = created.json().result.ticketId as string;
  for (const messageBody of messages.slice(1)) {
    const sent = await user.post(`/api/support/tickets/${ticketId}/messages`, { messageBody });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  const listed = await user.get(`/api/support/tickets/${ticketId}/messages`);
  expect(listed.statusCode, listed.body).toBe(200);
  const times = (listed.json().messages as Array<{ timestamp: string }>).map((m) => m.timestamp);
  return { page: `/support/ticket/${ticketId}`, times };
}

const navigate = (user: ApiClient, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { ...user.headers, accept: 'text/html', 'sec-fetch-mode': 'navigate' } });

const ELEMENT = /<script type="application\/json" id="date-texts"( nonce="[^"]+")?>([^<]*)<\/script>/;

/** The page's date texts, and the page's own `<time>` elements (instant → text shown). */
function datesOf(html: string) {
  const element = ELEMENT.exec(html);
  const shown = new Map([...html.matchAll(/<time dateTime="([^"]+)">([^<]*)<\/time>/g)].map((m) => [m[1]!, m[2]!]));
  return { element, texts: element ? (JSON.parse(element[2]!) as Record<string, string>) : null, shown };
}

describe('the dates that come with a page', () => {
  it('a ticket’s page carries the text of each time it shows, as it shows it, before the body ends', async () => {
    const { page, times } = await ticketWith(alice, ['Where is my parcel?', 'It was due on Monday.', 'Any news?']);
    const res = await navigate(alice, page);
    expect(res.statusCode).toBe(200);
    const { element, texts, shown } = datesOf(res.body);
    expect(element, 'the page has no date texts').not.toBeNull();
    expect(res.body.endsWith(`${element![0]}</body></html>`)).toBe(true);
    // It carries this response's nonce, as every script of the page does.
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(element![1]).toBe(` nonce="${nonce}"`);
    for (const time of times) {
      expect(shown.get(time), `no <time> for ${time}`).toBeDefined();
      expect(texts![`dateTime ${time}`]).toBe(shown.get(time));
    }
  });

  it('each page carries its own dates only, however many are drawn at once', async () => {
    const mine = await ticketWith(alice, ['My suitcase is lost.', 'It is blue.']);
    const theirs = await ticketWith(bob, ['My parcel is late.']);
    const pages = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? navigate(bob, theirs.page) : navigate(alice, mine.page))),
    );
    pages.forEach((res, i) => {
      expect(res.statusCode).toBe(200);
      const { times } = i % 2 ? theirs : mine;
      const keys = Object.keys(datesOf(res.body).texts ?? {}).filter((key) => key.startsWith('dateTime '));
      expect(keys.sort()).toEqual(times.map((time) => `dateTime ${time}`).sort());
    });
  });

  it('a page that shows no date carries none', async () => {
    const res = await navigate(alice, '/account/password');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('</body></html>');
    expect(datesOf(res.body).element).toBeNull();
  });
});

describe('the scripts of a page', () => {
  it('are preloaded at low priority, and its stylesheets are not', async () => {
    const { page } = await ticketWith(alice, ['Where is my parcel?']);
    const res = await navigate(alice, page);
    expect(res.statusCode).toBe(200);
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    const preloads = [...head.matchAll(/<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
    expect(preloads.length).toBeGreaterThan(3);
    for (const link of preloads) expect(link).toContain(' fetchpriority="low"');
    const stylesheets = [...head.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
    expect(stylesheets.length).toBeGreaterThan(0);
    for (const link of stylesheets) expect(link).not.toContain('fetchpriority');
  });
});
