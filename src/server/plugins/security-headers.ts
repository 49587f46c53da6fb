import { randomFillSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers on every response (docs/design.md §5, HDR-*): a strict CSP with a fresh nonce per
 * response, no framing except where a route allows its own origin (the legal documents).
 */
export type Framing = 'deny' | 'self';

declare module 'fastify' {
  interface FastifyContextConfig {
    framing?: Framing;
  }
  interface FastifyReply {
    cspNonce: string;
  }
  interface FastifyInstance {
    /** The headers every response carries (see `createSecurityHeaders`). */
    securityHeaders: SecurityHeaders;
  }
}

export function contentSecurityPolicy(nonce: string, options: { framing: Framing; https: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': only nonce'd scripts and what they load run; CSP3 browsers ignore 'self'
    // here (kept for older ones), so no same-origin response can be pulled in as a script.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    // Legal links may point at an https document elsewhere (admins choose them).
    "frame-src 'self' https:",
    `frame-ancestors ${options.framing === 'self' ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const NONCE_BYTES = 16;
const POOL_NONCES = 256;
/** Every nonce's length in characters: 16 bytes in base64 (ASCII). */
export const NONCE_LENGTH = Math.ceil(NONCE_BYTES / 3) * 4;

/**
 * 128-bit nonces from the operating system's CSPRNG, filled 256 at a time: one call to the random
 * source per 256 responses instead of one per response (Node's randomUUID keeps a pool the same way).
 * Each nonce is used once; the pool is refilled before any byte could be handed out twice.
 */
export function createNonceSource(): () => string {
  const pool = Buffer.alloc(NONCE_BYTES * POOL_NONCES);
  let next = POOL_NONCES;
  return () => {
    if (next === POOL_NONCES) {
      randomFillSync(pool);
      next = 0;
    }
    const start = next++ * NONCE_BYTES;
    return pool.toString('base64', start, start + NONCE_BYTES);
  };
}

/**
 * The security headers of a response, described once: the hook below sets them on every reply, and
 * the prepared answers (prepared.ts) write them themselves, so both send the same words.
 */
export interface SecurityHeaders {
  /** A fresh 128-bit nonce for one response. */
  nonce(): string;
  /** The CSP header's name (report-only in development). */
  cspHeader: string;
  /** The policy for this nonce, denying framing, or letting our own origin frame the page. */
  policy(nonce: string, framing: Framing): string;
  /** The headers that are the same on every response, in the order they are sent after the CSP. */
  fixed: ReadonlyArray<readonly [string, string]>;
  /** The ones sent after the request id: HSTS when the site is served over https. */
  last: ReadonlyArray<readonly [string, string]>;
}

export function createSecurityHeaders(options: { https: boolean; reportOnly?: boolean }): SecurityHeaders {
  // The policy is the same words around the nonce every time: built once per framing, joined per response.
  const NONCE_MARK = '\u0000';
  const around = (framing: Framing) =>
    contentSecurityPolicy(NONCE_MARK, { framing, https: options.https }).split(NONCE_MARK) as [string, string];
  const deny = around('deny');
  const self = around('self');
  return {
    nonce: createNonceSource(),
    cspHeader: options.reportOnly ? 'content-security-policy-report-only' : 'content-security-policy',
    policy: (nonce, framing) => {
      const [before, after] = framing === 'self' ? self : deny;
      return before + nonce + after;
    },
    fixed: [
      ['x-content-type-options', 'nosniff'],
      ['referrer-policy', 'strict-origin-when-cross-origin'],
      ['x-frame-options', 'DENY'],
      ['cross-origin-opener-policy', 'same-origin'],
      ['cross-origin-resource-policy', 'same-origin'],
      ['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
    ],
    last: options.https ? [['strict-transport-security', 'max-age=63072000; includeSubDomains']] : [],
  };
}

export const securityHeadersPlugin = fp<{ https: boolean; reportOnly?: boolean }>(async function securityHeaders(
  app: FastifyInstance,
  options,
) {
  const headers = createSecurityHeaders(options);
  const { cspHeader, fixed, last } = headers;
  app.decorate('securityHeaders', headers);
  app.decorateReply('cspNonce', '');
  // A callback hook: nothing here waits, so no promise per request. Every response denies framing;
  // the few routes that allow their own origin to frame them say so, below.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    const fresh = headers.nonce();
    reply.cspNonce = fresh;
    reply.header(cspHeader, headers.policy(fresh, 'deny'));
    for (const [name, value] of fixed) reply.header(name, value);
    reply.header('x-request-id', request.id);
    for (const [name, value] of last) reply.header(name, value);
    done();
  });

  // A route with `config.framing: 'self'` (the legal documents) gets a hook of its own, run after the
  // one above, that lets its own origin frame it: no request has to look its route's config up.
  app.addHook('onRoute', (route) => {
    if ((route.config as { framing?: Framing } | undefined)?.framing !== 'self') return;
    const allowOwnOrigin: onRequestHookHandler = (_request, reply, done) => {
      reply.header(cspHeader, headers.policy(reply.cspNonce, 'self')).header('x-frame-options', 'SAMEORIGIN');
      done();
    };
    const own = route.onRequest;
    route.onRequest = own === undefined ? [allowOwnOrigin] : [allowOwnOrigin, ...(Array.isArray(own) ? own : [own])];
  });
});
