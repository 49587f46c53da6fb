// One database: prepared answers are made and sent before any query.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * The public pages and JSON are prepared once and then answered before Fastify sees the request
 * (src/server/plugins/prepared.ts): what a visitor receives must not change for it, an admin's edit
 * must show on the very next request, and a signed-in visitor still gets their own page. Requests
 * go over a real socket, as a browser's do: the prepared answers are the HTTP server's first step.
 */
let t: TestApp;
let admin: ApiClient;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  admin = await apiClient(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  // What the metrics are told: each prepared answer sent, by the route that answers it the full way.
  t.app.preparedAnswers.onAnswered((answer) => answered.push(answer.route));
});
const answered: string[] = [];
afterAll(() => t.close());

interface Received {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  /** The header names in the order they came. */
  names: string[];
  body: string;
  json(): { faqs: Array<{ title: string }> } & Record<string, unknown>;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<Received>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: url, headers: { accept: 'text/html', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          const names = res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
          resolve({ statusCode: res.statusCode!, headers: res.headers, names, body, json: () => JSON.parse(body) });
        });
      },
    );
    req.on('error', reject);
  });
const nonceOf = (res: Received) => /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
/** A response with its per-response parts (nonce, request id, date) taken out. */
function comparable(res: Received) {
  const nonce = nonceOf(res);
  const headers = { ...res.headers };
  delete headers['x-request-id'];
  delete headers.date;
  return {
    status: res.statusCode,
    names: res.names,
    headers: JSON.parse(JSON.stringify(headers).replaceAll(nonce, 'NONCE')) as Record<string, unknown>,
    body: res.body.replaceAll(nonce, 'NONCE'),
  };
}

const PUBLIC = ['/', '/about', '/faqs', '/faqs?type=traveller', '/legal', '/api/faqs?type=general', '/api/legal/links'];

describe('prepared public answers', () => {
  it('are what the full way answered, with a fresh nonce and request id each time', async () => {
    for (const url of PUBLIC) {
      answered.length = 0;
      const responses = [await get(url), await get(url), await get(url)];
      // The first took the full way and prepared the answer; the two after it were the prepared one.
      expect(answered, url).toEqual(url.startsWith('/api/') ? [url.split('?')[0], url.split('?')[0]] : ['/*', '/*']);
      const [first, ...later] = responses.map(comparable);
      expect(first!.status, url).toBe(200);
      for (const res of later) expect(res, url).toEqual(first);
      expect(new Set(responses.map(nonceOf)).size, url).toBe(3);
      expect(new Set(responses.map((res) => res.headers['x-request-id'])).size, url).toBe(3);
      if (url.startsWith('/api/')) continue;
      // Every script of the page carries that response's own nonce.
      for (const res of responses) {
        const scripts = [...res.body.matchAll(/<script(?![^>]*application\/ld\+json)[^>]*>/g)].map((m) => m[0]);
        expect(scripts.length, url).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, url).toContain(`nonce="${nonceOf(res)}"`);
      }
    }
  });

  it('keep validating every other spelling of a public API address', async () => {
    await get('/api/faqs?type=general');
    expect((await get('/api/faqs?type=nope')).statusCode).toBe(400);
    expect((await get('/api/faqs')).statusCode).toBe(400);
    const extra = await get('/api/faqs?type=general&x=1');
    expect(extra.statusCode).toBe(200);
    expect(extra.body).toBe((await get('/api/faqs?type=general')).body);
  });

  it("show an admin's FAQ edit on the very next request, page and API", async () => {
    for (let i = 0; i < 2; i++) {
      await get('/faqs');
      await get('/api/faqs?type=general');
    }
    const created = await admin.post('/api/admin/faqs', {
      type: 'general',
      title: 'Can I send a surfboard?',
      content: 'Yes, when it fits.',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await get('/faqs')).body).toContain('Can I send a surfboard?');
    expect((await get('/api/faqs?type=general')).json().faqs.at(-1)?.title).toBe('Can I send a surfboard?');

    const id = created.json().faq.id as number;
    await get('/faqs');
    const edited = await admin.put(`/api/admin/faqs/${id}`, {
      type: 'general',
      title: 'Can I send a longboard?',
      content: 'Yes, when it fits.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const page = (await get('/faqs')).body;
    expect(page).toContain('Can I send a longboard?');
    expect(page).not.toContain('Can I send a surfboard?');
  });

  it("show an admin's legal links edit on the very next request, page and API", async () => {
    for (let i = 0; i < 2; i++) {
      await get('/legal');
      await get('/api/legal/links');
    }
    const links = { terms: 'https://legal.example.nz/terms', privacy: 'https://legal.example.nz/privacy' };
    const saved = await admin.put('/api/admin/settings/legal-links', links);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get('/api/legal/links')).json()).toEqual(links);
    expect((await get('/legal')).body).toContain('src="https://legal.example.nz/terms"');
  });

  it('are never what a signed-in visitor gets: their page is their own and not kept by caches', async () => {
    const anonymous = async () => {
      const res = await get('/');
      expect(res.body).not.toContain('action="/sign-out"');
      expect(res.headers['cache-control']).toBeUndefined();
    };
    await anonymous();
    await anonymous();
    for (const url of ['/', '/faqs', '/about', '/legal']) {
      const res = await get(url, admin.headers);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('action="/sign-out"');
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const api = await get('/api/faqs?type=general', admin.headers);
    expect(api.headers['cache-control']).toBe('no-store');
    await anonymous();
  });
});
