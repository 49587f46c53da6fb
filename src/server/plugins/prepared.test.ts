import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLog } from '../http/request-log.ts';
import { loggerOptions } from '../logging.ts';
import { type PreparedAnswer, preparedAnswersPlugin, preparedBody, preparedServerFactory } from './prepared.ts';
import { createNonceSource, securityHeadersPlugin } from './security-headers.ts';

/** The nonce a page was made with: the same length as every nonce, replaced in each response. */
const PLACE = 'MadeWithThisNonce0123A==';

const open: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
});

/**
 * A server made as app.ts makes it (the prepared answers in front of Fastify, the two plugins in its
 * order) and one route that counts the requests it handles; requests go over a real socket.
 */
async function appWith(answers: Record<string, PreparedAnswer>) {
  const front: { answers?: FastifyInstance['preparedAnswers'] } = {};
  const app = Fastify({ serverFactory: preparedServerFactory(front) });
  open.push(app);
  await app.register(securityHeadersPlugin, { https: false });
  await app.register(preparedAnswersPlugin, { cookieName: 'sid', trustProxy: false });
  front.answers = app.preparedAnswers;
  app.preparedAnswers.add((url) => answers[url]);
  const answered: string[] = [];
  app.preparedAnswers.onAnswered((answer) => answered.push(answer.route));
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
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const send = (options: { method?: string; url: string; headers?: Record<string, string> }) =>
    new Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; rawPayload: Buffer; body: string }>(
      (resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.url, headers: options.headers },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const rawPayload = Buffer.concat(chunks);
              resolve({ statusCode: res.statusCode!, headers: res.headers, rawPayload, body: rawPayload.toString() });
            });
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
  return { app, seen, send, answered };
}

const page = (body: string): PreparedAnswer => ({
  headers: [['content-type', 'text/html; charset=utf-8']],
  ...preparedBody(body, PLACE),
  compress: true,
  route: '/*',
});
const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1];

describe('prepared answers', () => {
  it('answers an anonymous GET of a prepared address before any later hook, with the fresh nonce in the page', async () => {
    // Words of more than one byte before the nonces: they are put back where the made one stood.
    const made = (nonce: string) =>
      `<p>Kia ora — café</p><script nonce="${nonce}">go()</script><link nonce="${nonce}">`;
    const { send, seen, answered } = await appWith({ '/faqs': page(made(PLACE)) });
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await send({ method: 'GET', url: '/faqs' });
      const nonce = nonceOf(res.headers['content-security-policy']);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(made(nonce!));
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(made(nonce!))));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toBeTruthy();
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
    expect(seen).toEqual({ hooks: 0, handler: 0 });
    // Each is told to the metrics, under the route that answers it the full way.
    expect(answered).toEqual(['/*', '/*', '/*']);
  });

  it('sends every request with a session cookie or a bearer token, and every other method or address, the full way', async () => {
    const { send, seen, answered } = await appWith({ '/faqs': page('kept') });
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
      const res = await send(request);
      if (request.method !== 'HEAD') expect(res.body, JSON.stringify(request)).toBe('the full way');
    }
    expect(seen).toEqual({ hooks: full.length, handler: full.length });
    expect(answered).toEqual([]);
    // Another cookie of the same site is no session: still prepared.
    expect((await send({ method: 'GET', url: '/faqs', headers: { cookie: 'xsid=1; theme=dark' } })).body).toBe('kept');
  });

  it('gives each of many responses at once its own nonce in its own body, small pages and large alike', async () => {
    // Small pages share room cut from one slab; one over 64 kB gets a buffer of its own. Sixty
    // requests sent at once on one connection: Node holds each answer's body until the ones before
    // it are written, so a body whose room was taken again would show a later response's nonce.
    const made = (nonce: string, words: number) =>
      `<script nonce="${nonce}">go()</script><p>${'kia ora '.repeat(words)}</p>`;
    const { app } = await appWith({ '/small': page(made(PLACE, 100)), '/large': page(made(PLACE, 10_000)) });
    const { port } = app.server.address() as AddressInfo;
    const urls = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? '/large' : '/small'));
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(urls.map((url) => `GET ${url} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join('')),
      );
      const chunks: Buffer[] = [];
      let answers = 0;
      socket.on('data', (chunk) => {
        chunks.push(chunk);
        answers = Buffer.concat(chunks).toString('latin1').split('HTTP/1.1 200').length - 1;
        if (answers === urls.length && Buffer.concat(chunks).toString().endsWith('</p>')) socket.end();
      });
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
    });
    const nonces = new Set<string>();
    let at = 0;
    for (const url of urls) {
      const headEnd = raw.indexOf('\r\n\r\n', at);
      const head = raw.subarray(at, headEnd).toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(head)![1]);
      const body = raw.subarray(headEnd + 4, headEnd + 4 + length).toString();
      const nonce = nonceOf(/content-security-policy: (.*)/i.exec(head)![1])!;
      expect(body).toBe(made(nonce, url === '/large' ? 10_000 : 100));
      nonces.add(nonce);
      at = headEnd + 4 + length;
    }
    expect(nonces.size).toBe(urls.length);
  });

  it('compresses a page for a client that accepts it, and never an API answer', async () => {
    const json: PreparedAnswer = {
      headers: [['content-type', 'application/json; charset=utf-8']],
      ...preparedBody('{"faqs":[]}'),
      compress: false,
      route: '/api/faqs',
    };
    const { send } = await appWith({ '/faqs': page(`<p>${'words '.repeat(200)}</p>`), '/api/faqs?type=general': json });
    const br = await send({ method: 'GET', url: '/faqs', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(`<p>${'words '.repeat(200)}</p>`);
    const gzip = await send({ method: 'GET', url: '/faqs', headers: { 'accept-encoding': 'gzip' } });
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(`<p>${'words '.repeat(200)}</p>`);
    const api = await send({
      method: 'GET',
      url: '/api/faqs?type=general',
      headers: { 'accept-encoding': 'br' },
    });
    expect(api.headers['content-encoding']).toBeUndefined();
    expect(api.body).toBe('{"faqs":[]}');
  });

  it('answers the full way when finding an answer fails, and keeps serving', async () => {
    const { app, send, seen } = await appWith({ '/faqs': page('kept') });
    app.preparedAnswers.add((url) => {
      if (url === '/broken') throw new Error('a source that breaks');
      return undefined;
    });
    // Sources are asked in order: the first one answers /faqs before the broken one is asked.
    expect((await send({ url: '/broken' })).body).toBe('the full way');
    expect((await send({ url: '/faqs' })).body).toBe('kept');
    expect(seen.handler).toBe(1);
  });

  it('writes the same one request log line as the full way, under the id the answer carries', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const front: { answers?: FastifyInstance['preparedAnswers'] } = {};
    const app = Fastify({
      logger: loggerOptions('info', stream),
      logController: new RequestLog(),
      serverFactory: preparedServerFactory(front),
    });
    open.push(app);
    await app.register(securityHeadersPlugin, { https: false });
    await app.register(preparedAnswersPlugin, { cookieName: 'sid', trustProxy: false });
    front.answers = app.preparedAnswers;
    app.preparedAnswers.add((url) => (url === '/faqs' ? page('kept') : undefined));
    app.get('/*', async () => 'the full way');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const full = await fetch(`http://127.0.0.1:${port}/about`);
    const kept = await fetch(`http://127.0.0.1:${port}/faqs`);
    expect(await kept.text()).toBe('kept');
    const shape = (id: string | null) =>
      lines
        .filter((line) => line.reqId === id)
        .map(({ msg, req, res, responseTime }) => ({
          msg,
          req: req && { ...(req as object), url: undefined, remotePort: undefined },
          res,
          responseTime: typeof responseTime,
        }));
    expect(shape(kept.headers.get('x-request-id'))).toEqual(shape(full.headers.get('x-request-id')));
    expect(shape(kept.headers.get('x-request-id')).map((line) => line.msg)).toEqual(['request completed']);
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
