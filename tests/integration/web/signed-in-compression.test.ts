// One database: compression of a page is the web handler's, after its data is read.
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A signed-in page is the person's own, so it is never kept; it is still sent compressed to a
 * browser that accepts it, when the navigation started on this site or with the person (the
 * address bar), and as is when another site started it (src/server/web/web-handler.ts).
 */
let t: TestApp;
let user: ApiClient;
let ticketPage: string;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  user = await apiClient(t, { role: 'user' });
  const created = await user.post('/api/functions/createSupportTicket', {
    data: { reason: 'Incident', message: 'My bag arrived with a torn strap.' },
  });
  expect(created.statusCode, created.body).toBe(200);
  ticketPage = `/support/ticket/${created.json().result.ticketId as string}`;
});
afterAll(() => t.close());

const navigate = (url: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...user.headers, accept: 'text/html', 'sec-fetch-mode': 'navigate', ...headers },
  });
const nonceOf = (res: LightMyRequestResponse) =>
  /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
/** The page as the browser reads it. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString();
  return res.body;
}
/** …with its nonce and the reply box's fresh client id taken out. */
function pageOf(res: LightMyRequestResponse): string {
  const html = decoded(res);
  const clientId = /clientId\\",\\"([0-9a-f-]{36})/.exec(html)?.[1];
  return (clientId ? html.replaceAll(clientId, 'CLIENT-ID') : html).replaceAll(nonceOf(res), 'NONCE');
}

describe('a signed-in page', () => {
  it('comes compressed, brotli or gzip, to a navigation on this site or from the address bar', async () => {
    const plain = await navigate(ticketPage, { 'sec-fetch-site': 'same-origin' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('My bag arrived with a torn strap.');
    for (const [site, accepted, encoding] of [
      ['same-origin', 'gzip, deflate, br, zstd', 'br'],
      ['none', 'gzip, deflate, br', 'br'],
      ['same-origin', 'gzip, deflate', 'gzip'],
    ] as const) {
      const res = await navigate(ticketPage, { 'sec-fetch-site': site, 'accept-encoding': accepted });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], site).toBe(encoding);
      expect(res.headers.vary).toContain('accept-encoding');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body) / 2);
      const page = pageOf(res);
      expect(page).toBe(pageOf(plain));
      expect(page).toContain('action="/sign-out"');
      // Every script carries this response's own nonce, as on every page.
      const scripts = [...decoded(res).matchAll(/<script(?![^>]*ld\+json)[^>]*>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [tag] of scripts) expect(tag).toContain(`nonce="${nonceOf(res)}"`);
    }
  });

  it('comes as is when another site started the navigation, or the browser does not say', async () => {
    for (const site of ['cross-site', 'same-site', undefined]) {
      const res = await navigate(ticketPage, {
        'accept-encoding': 'gzip, deflate, br',
        ...(site ? { 'sec-fetch-site': site } : {}),
      });
      expect(res.statusCode, site).toBe(200);
      expect(res.headers['content-encoding'], site).toBeUndefined();
      expect(res.body, site).toContain('My bag arrived with a torn strap.');
    }
  });

  it('keeps its status: a page that is not there comes as a 404, compressed', async () => {
    const headers = { 'sec-fetch-site': 'same-origin', 'accept-encoding': 'br' };
    const missing = await navigate('/no-such-page', headers);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBe('br');
    expect(pageOf(missing)).toContain('</html>');
    const plain = await navigate('/no-such-page', { 'sec-fetch-site': 'same-origin' });
    expect(pageOf(missing)).toBe(pageOf(plain));
  });
});
