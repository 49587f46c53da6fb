import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GENERIC_MESSAGES } from '../../contracts/errors.ts';
import { AppError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence (CSRF-01..05): a state-changing request is refused when the browser says it came from
 * another site (Fetch Metadata), or when its Origin is not ours. Requests with neither header
 * (curl, the mobile app with a bearer token) carry no ambient browser credentials worth stealing
 * and are let through.
 */
export const crossSitePlugin = fp<{ allowedOrigins: string[] }>(async function crossSite(app: FastifyInstance, options) {
  const allowed = new Set(options.allowedOrigins.map((o) => new URL(o).origin));
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw new AppError('PERMISSION_DENIED', GENERIC_MESSAGES.crossSite);
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const host = request.headers.host;
    const sameHost = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
    if (!sameHost && !allowed.has(origin)) throw new AppError('PERMISSION_DENIED', GENERIC_MESSAGES.crossSite);
  });
});
