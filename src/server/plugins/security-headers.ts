import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

export const securityHeadersPlugin = fp<{ https: boolean; reportOnly?: boolean }>(async function securityHeaders(
  app: FastifyInstance,
  options,
) {
  app.decorateReply('cspNonce', '');
  app.addHook('onRequest', async (request, reply: FastifyReply) => {
    const framing = request.routeOptions.config.framing ?? 'deny';
    const nonce = randomBytes(16).toString('base64');
    reply.cspNonce = nonce;
    const csp = contentSecurityPolicy(nonce, { framing, https: options.https });
    reply.headers({
      [options.reportOnly ? 'content-security-policy-report-only' : 'content-security-policy']: csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': framing === 'self' ? 'SAMEORIGIN' : 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
      'x-request-id': request.id,
      ...(options.https ? { 'strict-transport-security': 'max-age=63072000; includeSubDomains' } : {}),
    });
  });
});
