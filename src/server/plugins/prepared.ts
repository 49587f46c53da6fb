import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerFactory } from 'fastify';
import fp from 'fastify-plugin';
import { requestIdFor } from '../http/request-id.ts';
import { requestJson, writeRequestLine } from '../http/request-log.ts';
import type { LoggableRequest } from '../logging.ts';
import { NONCE_LENGTH } from './security-headers.ts';

/**
 * Prepared answers (docs/decisions/118-prepared-public-answers.md, 123-prepared-answers-before-fastify.md,
 * 124-prepared-bodies-as-bytes.md):
 * the public pages and the public JSON are the same bytes for every visitor without a session until
 * an admin edits the content. Once one request has produced such an answer the full way, its owner
 * (the page cache, the content module) hands it here, and the next GET of the same address is
 * answered by the HTTP server's first look at the request (`answer`, called before Fastify builds a
 * request of its own): no router, no hooks, no cookie parsing, no session lookup, no access check,
 * no route handler. Only the parts that differ per response are made per response: the CSP nonce
 * (in the header and in the page's scripts), the request id and, for a page, its compression. The
 * security headers are the same words as every other response's (security-headers.ts); the metrics
 * count the answer under its route as Fastify's would, and request logging writes the same one line
 * (http/request-log.ts).
 *
 * A request that carries a session cookie or an Authorization header always takes the full way, so
 * a signed-in visitor sees what the full way shows them. So does every request while the server
 * closes (Fastify answers those 503).
 */
export interface PreparedAnswer {
  /** Headers of the answer itself (content type); the security headers are added per response. */
  headers: ReadonlyArray<readonly [string, string]>;
  /**
   * The body as it was made, as bytes: sent as it is when it holds no nonce (the API), else copied
   * per response with the fresh nonce written over the one it was made with (decision 124).
   */
  body: Buffer;
  /** Where in `body` the nonce it was made with stands: byte offsets, each `NONCE_LENGTH` bytes long. */
  nonceAt: readonly number[];
  /** Compressed per response for clients that accept it (pages), or always sent as is (the API). */
  compress: boolean;
  /** The route that answers this address the full way (`/*` for a page): the metrics' route label. */
  route: string;
}

/** Finds the prepared answer for an exact request address (path and query), if one is held. */
export type PreparedSource = (url: string) => PreparedAnswer | undefined;

/** Told of every prepared answer sent, with the seconds it took (the metrics count it). */
export type AnsweredListener = (answer: PreparedAnswer, seconds: number) => void;

declare module 'fastify' {
  interface FastifyInstance {
    preparedAnswers: {
      /** Where the owners of prepared answers register how to find them. */
      add(source: PreparedSource): void;
      onAnswered(listener: AnsweredListener): void;
      /**
       * The HTTP server's first look at a request (app.ts hands it every request before Fastify):
       * answers it and returns true when a prepared answer is held for it, else returns false.
       */
      answer(req: IncomingMessage, res: ServerResponse): boolean;
    };
  }
}

/** Refuses a nonce of another length: a fresh nonce must fit exactly where the made one stood. */
function checkNonce(nonce: string): void {
  if (nonce.length !== NONCE_LENGTH) throw new Error(`a nonce is ${NONCE_LENGTH} characters, not ${nonce.length}`);
}

/**
 * A body to keep as a prepared answer's: its bytes, and where the nonce it was made with stands in
 * them (none when it was made without one). Every nonce is `NONCE_LENGTH` ASCII characters.
 */
export function preparedBody(made: string | Buffer, nonce?: string): Pick<PreparedAnswer, 'body' | 'nonceAt'> {
  const body = typeof made === 'string' ? Buffer.from(made) : made;
  const nonceAt: number[] = [];
  if (nonce) {
    checkNonce(nonce);
    for (let at = body.indexOf(nonce); at !== -1; at = body.indexOf(nonce, at + NONCE_LENGTH)) nonceAt.push(at);
  }
  return { body, nonceAt };
}

/**
 * Room for per-response bodies, cut from one shared slab at a time, as Node's own pool does for
 * buffers under 4 kB: a slab is allocated once per `SLAB_BYTES` sent, not a buffer per response
 * (whose allocation, freeing and sweeping by the collector cost more than the copy; decision 124).
 * A slice is written whole before it is sent and never reused: the slab is freed once no response
 * holds a slice of it. Bodies larger than a quarter of a slab get a buffer of their own.
 */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;
function room(length: number): Buffer {
  if (length > SLAB_BYTES / 4) return Buffer.allocUnsafe(length);
  if (slabUsed + length > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const taken = slab.subarray(slabUsed, slabUsed + length);
  slabUsed += (length + 7) & ~7;
  return taken;
}

/**
 * The body of one response: the kept bytes when they hold no nonce, else a copy with this response's
 * nonce where the made one stood. One copy of the bytes; a text body was joined, flattened and
 * encoded again for every response.
 */
function bodyWith(answer: Pick<PreparedAnswer, 'body' | 'nonceAt'>, nonce: string): Buffer {
  if (answer.nonceAt.length === 0) return answer.body;
  checkNonce(nonce);
  const body = room(answer.body.length);
  answer.body.copy(body);
  for (const at of answer.nonceAt) body.write(nonce, at, NONCE_LENGTH, 'latin1');
  return body;
}

/** The encoding a page is sent in for this Accept-Encoding: brotli, else gzip, else none. */
function encodingFor(accepted: string | undefined): 'br' | 'gzip' | undefined {
  if (accepted === undefined) return undefined;
  if (/\bbr\b/.test(accepted)) return 'br';
  return /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
}

/**
 * What one response of a prepared answer sends: its body with this nonce, compressed when the
 * answer is a page and the client accepts it (brotli at a fast level, or gzip; per response, since
 * the nonce differs each time), and the encoding it is in. Both ways of sending read it.
 */
function toSend(
  answer: Pick<PreparedAnswer, 'body' | 'nonceAt' | 'compress'>,
  nonce: string,
  accepted: string | undefined,
): { body: Buffer; encoding: 'br' | 'gzip' | undefined } {
  const body = bodyWith(answer, nonce);
  const encoding = answer.compress ? encodingFor(accepted) : undefined;
  if (encoding === undefined) return { body, encoding };
  const compressed =
    encoding === 'br'
      ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
      : zlib.gzipSync(body, { level: 6 });
  return { body: compressed, encoding };
}

/** Sends a prepared answer through Fastify with this response's nonce; headers the hooks set (security, request id) stay. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Omit<PreparedAnswer, 'route'>,
): FastifyReply {
  for (const [name, value] of answer.headers) reply.header(name, value);
  const { body, encoding } = toSend(answer, reply.cspNonce, request.headers['accept-encoding']);
  if (answer.compress) reply.header('vary', 'accept-encoding');
  if (encoding !== undefined) reply.header('content-encoding', encoding);
  return reply.send(body);
}

/** A test for the session cookie in a raw Cookie header, without parsing it. */
export function sessionCookieTest(cookieName: string): (header: string | undefined) => boolean {
  const pattern = new RegExp(`(^|;)\\s*${cookieName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`);
  return (header) => header !== undefined && pattern.test(header);
}

/** What the request log line says of a request (logging.ts's serializer reads these fields). */
function loggedRequest(req: IncomingMessage, trustProxy: boolean): LoggableRequest {
  // As Fastify reads them: behind a trusted proxy, the client is the first forwarded address and
  // the host the last forwarded host.
  const forwardedFor = trustProxy ? String(req.headers['x-forwarded-for'] ?? '') : '';
  const forwardedHost = trustProxy ? String(req.headers['x-forwarded-host'] ?? '') : '';
  return {
    method: req.method!,
    url: req.url!,
    host: forwardedHost ? forwardedHost.slice(forwardedHost.lastIndexOf(',') + 1).trim() : req.headers.host,
    ip: forwardedFor ? forwardedFor.split(',')[0]!.trim() : req.socket.remoteAddress,
    socket: req.socket,
  };
}

/** What a connection's last request line said of its request, and what that came from. */
interface SaidOnConnection {
  url: string;
  host: string | undefined;
  forwardedFor: string | string[] | undefined;
  forwardedHost: string | string[] | undefined;
  json: string;
}

/**
 * The `req` of a prepared answer's request line, as JSON: made once per connection while its
 * requests ask the same address of the same host (a client's requests on a kept-alive connection
 * mostly do), else made afresh. Its other fields (method GET, the client's address and port) are
 * the same for every request a prepared answer sends on one connection. Making it (the serializer,
 * the redaction's lookup, JSON.stringify) was a few per cent of a prepared answer's CPU (decision 160).
 */
function requestJsonOf(trustProxy: boolean): (req: IncomingMessage) => string {
  const said = new WeakMap<Socket, SaidOnConnection>();
  return (req) => {
    const { host } = req.headers;
    const forwardedFor = trustProxy ? req.headers['x-forwarded-for'] : undefined;
    const forwardedHost = trustProxy ? req.headers['x-forwarded-host'] : undefined;
    const last = said.get(req.socket);
    if (
      last !== undefined &&
      last.url === req.url &&
      last.host === host &&
      last.forwardedFor === forwardedFor &&
      last.forwardedHost === forwardedHost
    )
      return last.json;
    const json = requestJson(loggedRequest(req, trustProxy));
    said.set(req.socket, { url: req.url!, host, forwardedFor, forwardedHost, json });
    return json;
  };
}

/** Register right after the security headers plugin (its headers and nonces are the ones sent). */
export const preparedAnswersPlugin = fp<{ cookieName: string; trustProxy: boolean }>(
  async function preparedAnswers(app: FastifyInstance, options) {
    const sources: PreparedSource[] = [];
    const listeners: AnsweredListener[] = [];
    const hasSession = sessionCookieTest(options.cookieName);
    const requestId = requestIdFor(options.trustProxy);
    const loggedAs = requestJsonOf(options.trustProxy);
    const security = app.securityHeaders;
    const log = app.log;
    // While the server closes every request takes Fastify's way, which answers 503.
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });

    const find = (req: IncomingMessage): PreparedAnswer | undefined => {
      if (closing || req.method !== 'GET' || req.headers.authorization !== undefined || hasSession(req.headers.cookie))
        return undefined;
      for (const source of sources) {
        const answer = source(req.url!);
        if (answer) return answer;
      }
      return undefined;
    };

    // Each answer's head, in the order Fastify's way sends it (security headers, request id, the
    // answer's own), made once per answer: a response copies it and fills in its policy and id.
    const POLICY_AT = 1;
    const ID_AT = 3 + security.fixed.length * 2;
    const heads = new WeakMap<PreparedAnswer, string[]>();
    const headOf = (answer: PreparedAnswer): string[] => {
      let head = heads.get(answer);
      if (head === undefined) {
        head = [security.cspHeader, ''];
        for (const [name, value] of security.fixed) head.push(name, value);
        head.push('x-request-id', '');
        for (const [name, value] of security.last) head.push(name, value);
        for (const [name, value] of answer.headers) head.push(name, value);
        if (answer.compress) head.push('vary', 'accept-encoding');
        heads.set(answer, head);
      }
      return head;
    };

    const send = (req: IncomingMessage, res: ServerResponse, answer: PreparedAnswer, started: number) => {
      const id = requestId(req);
      const nonce = security.nonce();
      const { body, encoding } = toSend(answer, nonce, req.headers['accept-encoding']);
      const head = headOf(answer).slice();
      head[POLICY_AT] = security.policy(nonce, 'deny');
      head[ID_AT] = id;
      if (encoding !== undefined) head.push('content-encoding', encoding);
      head.push('content-length', String(body.length));
      res.writeHead(200, head);
      res.end(body);
      const seconds = (performance.now() - started) / 1000;
      for (const listener of listeners) listener(answer, seconds);
      writeRequestLine(log, id, loggedAs(req), 200, seconds * 1000);
    };

    app.decorate('preparedAnswers', {
      add: (source: PreparedSource) => void sources.push(source),
      onAnswered: (listener: AnsweredListener) => void listeners.push(listener),
      answer(req: IncomingMessage, res: ServerResponse): boolean {
        const started = performance.now();
        try {
          const answer = find(req);
          if (answer === undefined) return false;
          send(req, res, answer, started);
          return true;
        } catch (error) {
          // Never a crash: before anything is sent the full way answers; after, the response is cut.
          log.error({ err: error, url: req.url }, 'a prepared answer failed');
          if (!res.headersSent) return false;
          res.destroy();
          return true;
        }
      },
    });
  },
  { name: 'prepared-answers' },
);

/**
 * Fastify's HTTP server, made with the settings Fastify gives its own (lib/server.js), with one step
 * in front of Fastify: the prepared answers' look at each request, once their plugin is registered.
 */
export function preparedServerFactory(front: { answers?: FastifyInstance['preparedAnswers'] }): FastifyServerFactory {
  return (handler, options) => {
    // Fastify has filled in its defaults (fastify.js) before it calls a server factory.
    const opts = options as {
      http?: ServerOptions;
      keepAliveTimeout: number;
      requestTimeout: number;
      connectionTimeout: number;
      maxRequestsPerSocket: number;
    };
    const server = createServer(opts.http ?? {}, (req, res) => {
      if (front.answers?.answer(req, res) !== true) handler(req, res);
    });
    server.keepAliveTimeout = opts.keepAliveTimeout;
    server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}
