import zlib from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type PreparedAnswer, preparedAnswersPlugin } from './prepared.ts';
import { createNonceSource, securityHeadersPlugin } from './security-headers.ts';

const PLACE = '\u0000';

/** A server with the two plugins in app.ts's order and one route that counts the requests it handles. */
async function appWith(answers: Record<string, PreparedAnswer>) {
  const app = Fastify();
  await app.register(securityHeadersPlugin, { https: false });
  await app.register(preparedAnswersPlugin, { cookieName: 'sid' });
  app.preparedAnswers.add((url) => answers[url]);
  // A later hook, as the cookie parser and the session lookup are: a prepared answer skips them.
  const seen = { hooks: 0, handler: 0 };
  app.addHook('onRequest', async () => {
    seen.hooks += 1;
  });
  app.route({
    method: ['GET', 'HEAD', 'POST'],
    url: '/*',
    handler: async (_request, reply) => {
      seen.handler += 1;
      return reply.type('text/plain').send('the full way');
    },
  });
  await app.ready();
  return { app, seen };
}

const page = (body: string): PreparedAnswer => ({
  headers: [['content-type', 'text/html; charset=utf-8']],
  parts: body.split(PLACE).map((part) => Buffer.from(part)),
  compress: true,
});
const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];

describe('prepared answers', () => {
  it('answers an anonymous GET of a prepared address before any later hook, with the fresh nonce in the page', async () => {
    const { app, seen } = await appWith({ '/faqs': page(`<script nonce="${PLACE}">go()</script>`) });
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/faqs' });
      const nonce = nonceOf(res.headers['content-security-policy']);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(`<script nonce="${nonce}">go()</script>`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toBeTruthy();
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
    expect(seen).toEqual({ hooks: 0, handler: 0 });
  });

  it('sends every request with a session cookie or a bearer token, and every other method or address, the full way', async () => {
    const { app, seen } = await appWith({ '/faqs': page('kept') });
    const full = [
      { method: 'GET', url: '/faqs', headers: { cookie: 'theme=dark; sid=abc' } },
      { method: 'GET', url: '/faqs', headers: { cookie: 'sid=abc' } },
      { method: 'GET', url: '/faqs', headers: { authorization: 'Bearer abc' } },
      { method: 'POST', url: '/faqs' },
      { method: 'HEAD', url: '/faqs' },
      { method: 'GET', url: '/faqs?type=sender' },
      { method: 'GET', url: '/about' },
    ] as const;
    for (const request of full) {
      const res = await app.inject(request);
      if (request.method !== 'HEAD') expect(res.body, JSON.stringify(request)).toBe('the full way');
    }
    expect(seen).toEqual({ hooks: full.length, handler: full.length });
    // Another cookie of the same site is no session: still prepared.
    expect((await app.inject({ method: 'GET', url: '/faqs', headers: { cookie: 'xsid=1; theme=dark' } })).body).toBe(
      'kept',
    );
  });

  it('compresses a page for a client that accepts it, and never an API answer', async () => {
    const json: PreparedAnswer = {
      headers: [['content-type', 'application/json; charset=utf-8']],
      parts: [Buffer.from('{"faqs":[]}')],
      compress: false,
    };
    const { app } = await appWith({ '/faqs': page(`<p>${'words '.repeat(200)}</p>`), '/api/faqs?type=general': json });
    const br = await app.inject({ method: 'GET', url: '/faqs', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(`<p>${'words '.repeat(200)}</p>`);
    const gzip = await app.inject({ method: 'GET', url: '/faqs', headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(`<p>${'words '.repeat(200)}</p>`);
    const api = await app.inject({
      method: 'GET',
      url: '/api/faqs?type=general',
      headers: { 'accept-encoding': 'br' },
    });
    expect(api.headers['content-encoding']).toBeUndefined();
    expect(api.body).toBe('{"faqs":[]}');
  });
});

describe('nonces', () => {
  it('are 128-bit, base64 and never repeat across many refills of the pool', () => {
    const next = createNonceSource();
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const nonce = next();
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
      seen.add(nonce);
    }
    expect(seen.size).toBe(5000);
  });
});
