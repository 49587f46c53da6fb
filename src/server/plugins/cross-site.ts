import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { GENERIC_MESSAGES } from '../../contracts/errors.ts';
import { AppError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when the browser says the request came from another site (Fetch Metadata), or its Origin
 * is not ours. Requests with neither header (curl, the mobile app with a bearer token) carry no
 * ambient browser credentials worth stealing and count as same-site.
 */
export function isCrossSite(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  // The browser vouches for the origin (scripts cannot forge Sec-* headers): believed even when
  // Origin is "null", as some privacy settings send it.
  if (site === 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const host = request.headers.host;
  const sameHost = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
  return !sameHost && !allowedOrigins.has(origin);
}

/**
 * CSRF defence (CSRF-01..05): every state-changing request from another site is refused. Live
 * streams (GET) apply the same check themselves (SES-10).
 */
export const crossSitePlugin = fp<{ allowedOrigins: string[] }>(async function crossSite(
  app: FastifyInstance,
  options,
) {
  const allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  app.decorate('allowedOrigins', allowed);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (isCrossSite(request, allowed)) throw new AppError('PERMISSION_DENIED', GENERIC_MESSAGES.crossSite);
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    allowedOrigins: ReadonlySet<string>;
  }
}
