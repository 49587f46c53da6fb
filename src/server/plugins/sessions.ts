import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_PREFIX } from '../../contracts/integrations.ts';
import type { Principal, PrincipalResolver } from './access.ts';

/**
 * How a session travels (docs/design.md §5): the website holds an HttpOnly cookie; API clients send
 * `Authorization: Bearer <token>`. Either way the token is looked up in the database on every
 * request (the resolver passed to the access plugin), so role, verification and disabling take
 * effect at once. docs/decisions/041-sessions.md explains the lifetimes.
 */
export interface SessionCookieSettings {
  cookieName: string;
  cookieSecure: boolean;
  sameSite: 'lax' | 'strict';
  absoluteMs: number;
}

declare module 'fastify' {
  interface FastifyReply {
    setSessionCookie(token: string): FastifyReply;
    clearSessionCookie(): FastifyReply;
  }
  interface FastifyInstance {
    /** The Set-Cookie header value that starts a session (the sign-in service hands it to the pages' sign-in form). */
    sessionCookieHeader(token: string): string;
  }
}

/** The token this request presents, if any; a bearer header wins over a cookie. */
export function readSessionToken(request: FastifyRequest, cookieName: string): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1]! : null;
  }
  return request.cookies?.[cookieName] ?? null;
}

/** Built assets never depend on who asks; skipping them saves a query per file. */
const ANONYMOUS_PATHS = /^\/(assets\/|favicon\.svg$|noscript\.css$|documents\.css$)/;

export function createSessionResolver(
  resolveToken: (token: string) => Promise<Principal | null>,
  cookieName: string,
): PrincipalResolver {
  return async (request) => {
    if (ANONYMOUS_PATHS.test(request.url)) return null;
    const token = readSessionToken(request, cookieName);
    // A service key (bsk_…) is the access plugin's, never a session.
    return token && !token.startsWith(API_KEY_PREFIX) ? resolveToken(token) : null;
  };
}

/** Pages that carry a one-time token in their address: it must not leak in a Referer (AUTH-07). */
const TOKEN_PAGES = /^\/(verify-email|reset-password|confirm-email|setup)(\?|$)/;

export const sessionsPlugin = fp<SessionCookieSettings>(async function sessions(app: FastifyInstance, options) {
  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

  const cookieOptions = {
    path: '/',
    httpOnly: true,
    secure: options.cookieSecure,
    sameSite: options.sameSite,
  } as const;

  app.decorateReply('setSessionCookie', function setSessionCookie(this: FastifyReply, token: string) {
    return this.setCookie(options.cookieName, token, {
      ...cookieOptions,
      maxAge: Math.floor(options.absoluteMs / 1000),
    });
  });
  app.decorateReply('clearSessionCookie', function clearSessionCookie(this: FastifyReply) {
    return this.clearCookie(options.cookieName, cookieOptions);
  });
  app.decorate('sessionCookieHeader', (token: string) =>
    app.serializeCookie(options.cookieName, token, { ...cookieOptions, maxAge: Math.floor(options.absoluteMs / 1000) }),
  );

  // Runs after the access plugin's preHandler has resolved the principal.
  app.addHook('preHandler', async (request, reply) => {
    // Nothing personal is kept by a browser or proxy cache (SES-09).
    if (request.principal || request.keyCaller || request.url.startsWith('/api/auth/'))
      reply.header('cache-control', 'no-store');
    // same-origin, not no-referrer: the token never goes to another site, and the page's own form
    // still carries its Origin (no-referrer makes a browser send Origin: null, which form actions refuse).
    if (TOKEN_PAGES.test(request.url)) reply.header('referrer-policy', 'same-origin');
  });
});
