import type { FastifyInstance, FastifyReply } from 'fastify';
import { readSessionToken } from '../../plugins/sessions.ts';
import { sessionDevice } from './accounts.device.ts';
import type { OidcService } from './oidc.service.ts';

/**
 * The browser's side of staff sign-in with the identity provider (decision 148). Not API
 * endpoints: the browser is sent to the provider and back, and never gets JSON. The provider's
 * back-channel logout posts a form here, server to server.
 *
 * - GET /auth/oidc/start: a new authorization request; its state is bound to this browser by a
 *   cookie (HttpOnly, SameSite=Lax, ten minutes, only sent to /auth/oidc).
 * - GET /auth/oidc/callback: the provider's answer; a session and back to the console, or the
 *   console's code step (its ticket in a cookie for /admin, five minutes), or the console with why not.
 * - POST /auth/oidc/backchannel-logout: a logout token; 200 when it was valid, 400 otherwise.
 */
export const OIDC_STATE_COOKIE = 'oidc_state';
export const OIDC_CODE_COOKIE = 'oidc_code_step';

export async function oidcRoutes(
  app: FastifyInstance,
  options: { oidc: OidcService; cookieName: string; secure: boolean; publicBaseUrl: string },
) {
  const { oidc } = options;
  const cookie = { httpOnly: true, secure: options.secure, sameSite: 'lax' as const };

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const back = (reply: FastifyReply, to: string) => reply.header('cache-control', 'no-store').redirect(to, 303);

  app.get('/auth/oidc/start', { config: { access: 'public' } }, async (_request, reply) => {
    const { url, state } = await oidc.start('/admin');
    reply.setCookie(OIDC_STATE_COOKIE, state, { ...cookie, path: '/auth/oidc', maxAge: 600 });
    return back(reply, url);
  });

  app.get('/auth/oidc/callback', { config: { access: 'public' } }, async (request, reply) => {
    const outcome = await oidc.callback({
      // The callback's address as registered at the provider: the public one, whatever proxy is in front.
      url: new URL(request.url, options.publicBaseUrl),
      browserState: request.cookies[OIDC_STATE_COOKIE] ?? null,
      ip: request.ip,
      device: sessionDevice(request.headers['user-agent'], request.ip),
      presentedToken: readSessionToken(request, options.cookieName),
    });
    reply.clearCookie(OIDC_STATE_COOKIE, { ...cookie, path: '/auth/oidc' });
    if (outcome.outcome === 'signed-in') {
      reply.setSessionCookie(outcome.token);
      return back(reply, outcome.returnTo);
    }
    if (outcome.outcome === 'code-step') {
      reply.setCookie(OIDC_CODE_COOKIE, `${outcome.ticket}.${Buffer.from(outcome.email).toString('base64url')}`, {
        ...cookie,
        path: '/admin',
        maxAge: 300,
      });
      return back(reply, outcome.returnTo);
    }
    return back(reply, `/admin?signIn=${outcome.reason}`);
  });

  app.post('/auth/oidc/backchannel-logout', { config: { access: 'public' } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const token = (request.body as Record<string, string> | undefined)?.logout_token;
    if (!token) return reply.status(400).send({ error: 'invalid_request' });
    try {
      await oidc.backchannelLogout(token);
      return reply.status(200).send();
    } catch (error) {
      request.log.info({ err: error instanceof Error ? error.message : String(error) }, 'logout token refused');
      return reply.status(400).send({ error: 'invalid_request' });
    }
  });
}
