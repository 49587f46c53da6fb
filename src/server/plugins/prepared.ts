import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Prepared answers (docs/decisions/118-prepared-public-answers.md): the public pages and the public
 * JSON are the same bytes for every visitor without a session until an admin edits the content. Once
 * one request has produced such an answer the full way, its owner (the page cache, the content
 * module) hands it here, and the next GET of the same address is answered from the first hook of the
 * request, right after the security headers: no cookie parsing, no session lookup, no access check,
 * no route handler. Only the parts that differ per response are made per response: the CSP nonce
 * (in the header and in the page's scripts), the request id and, for a page, its compression.
 *
 * A request that carries a session cookie or an Authorization header always takes the full way, so
 * a signed-in visitor sees what the full way shows them.
 */
export interface PreparedAnswer {
  /** Headers of the answer itself (content type, vary); the security headers are added per response. */
  headers: ReadonlyArray<readonly [string, string]>;
  /** The body, cut where the nonce it was made with stood (UTF-8, ready to send). */
  parts: readonly Buffer[];
  /** Compressed per response for clients that accept it (pages), or always sent as is (the API). */
  compress: boolean;
}

/** Finds the prepared answer for an exact request address (path and query), if one is held. */
export type PreparedSource = (url: string) => PreparedAnswer | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the owners of prepared answers register how to find them (see prepared.ts). */
    preparedAnswers: { add(source: PreparedSource): void };
  }
}

/** The body joined by this response's nonce: one allocation, no re-encoding. */
export function joinWithNonce(parts: readonly Buffer[], nonce: string): Buffer {
  if (parts.length === 1) return parts[0]!;
  const n = Buffer.from(nonce);
  let length = n.length * (parts.length - 1);
  for (const part of parts) length += part.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  parts.forEach((part, i) => {
    if (i > 0) at += n.copy(out, at);
    at += part.copy(out, at);
  });
  return out;
}

/** Sends a prepared answer with this response's nonce; headers the hooks set (security, request id) stay. */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, answer: PreparedAnswer): FastifyReply {
  for (const [name, value] of answer.headers) reply.header(name, value);
  const body = joinWithNonce(answer.parts, reply.cspNonce);
  if (!answer.compress) return reply.send(body);
  // Compressed per response (the nonce differs each time): brotli at a fast level, else gzip.
  reply.header('vary', 'accept-encoding');
  const accepted = request.headers['accept-encoding'];
  if (accepted === undefined) return reply.send(body);
  if (/\bbr\b/.test(accepted)) {
    reply.header('content-encoding', 'br');
    return reply.send(zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  if (/\bgzip\b/.test(accepted)) {
    reply.header('content-encoding', 'gzip');
    return reply.send(zlib.gzipSync(body, { level: 6 }));
  }
  return reply.send(body);
}

/** A test for the session cookie in a raw Cookie header, without parsing it. */
export function sessionCookieTest(cookieName: string): (header: string | undefined) => boolean {
  const pattern = new RegExp(`(^|;)\\s*${cookieName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`);
  return (header) => header !== undefined && pattern.test(header);
}

/**
 * Register right after the security headers plugin: its hook must run before every other
 * `onRequest` hook (cookie parsing among them), and after the one that sets the headers and nonce.
 */
export const preparedAnswersPlugin = fp<{ cookieName: string }>(async function preparedAnswers(
  app: FastifyInstance,
  options,
) {
  const sources: PreparedSource[] = [];
  const hasSession = sessionCookieTest(options.cookieName);
  app.decorate('preparedAnswers', { add: (source: PreparedSource) => void sources.push(source) });

  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' || request.headers.authorization !== undefined || hasSession(request.headers.cookie)) {
      done();
      return;
    }
    for (const source of sources) {
      const answer = source(request.url);
      if (answer) {
        // Answered here: Fastify runs no further hook before the response (onSend and onResponse still run).
        sendPrepared(request, reply, answer);
        return;
      }
    }
    done();
  });
});
