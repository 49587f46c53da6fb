import type { FastifyInstance } from 'fastify';
import { secondFactorApi as api } from '../../../contracts/api/second-factor.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import type { SecondFactorService } from './second-factor.service.ts';

/** WebAuthn options are plain JSON (the standard's shape), answered as they are. */
const json = (options: object) => options as Record<string, unknown>;

/**
 * The admin's second factor; each endpoint as declared in contracts/api/second-factor.ts. A passkey
 * sign-in's challenge (/api/auth/passkey/options) is the sign-in service's (accounts.routes.ts).
 */
export async function secondFactorRoutes(app: FastifyInstance, options: { secondFactor: SecondFactorService }) {
  const { secondFactor } = options;
  // JSON only: a form or text/plain body (what another site can send without a preflight) gets 415 (CSRF-03).
  app.removeContentTypeParser('text/plain');

  route(app, api.status, async (request) => secondFactor.status(principalOf(request)));

  route(app, api.beginTotp, async (request) => secondFactor.beginTotp(principalOf(request)));

  route(app, api.confirmTotp, async (request) =>
    secondFactor.confirmTotp(principalOf(request), { ...request.body, ip: request.ip }),
  );

  route(app, api.passkeyRegistrationOptions, async (request) => ({
    options: json(await secondFactor.passkeyRegistrationOptions(principalOf(request))),
  }));

  route(app, api.registerPasskey, async (request) => secondFactor.registerPasskey(principalOf(request), request.body));

  route(app, api.removeFactor, async (request) =>
    secondFactor.removeFactor(principalOf(request), request.params.factorId),
  );

  route(app, api.renewRecoveryCodes, async (request) => secondFactor.renewRecoveryCodes(principalOf(request)));
}
