import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { claimsApi as api } from '../../../contracts/api/claims.ts';
import { CLAIM_LIMITS, CLAIM_TEXT } from '../../../contracts/claims.ts';
import { type Claim, TravellerAnswerSchema } from '../../../contracts/claims.schemas.ts';
import { AppError } from '../../errors.ts';
import { principalOf, route } from '../../http/endpoint-route.ts';
import { MESSAGE_MULTIPART_LIMITS, withMessageForm } from '../support/index.ts';
import type { ClaimsService } from './claims.service.ts';

/** Incident claims: the team's (/api/admin/support/tickets/:ticketId/claim…), the traveller's and the sender's, as declared in contracts/api/claims.ts. */
export async function claimsRoutes(app: FastifyInstance, options: { claims: ClaimsService }) {
  const { claims } = options;
  // The traveller's answer may come as a form with files (a claim's limits are set per form).
  await app.register(fastifyMultipart, { limits: MESSAGE_MULTIPART_LIMITS, throwFileSizeLimit: false });
  /** A claim with the form's choices of carrier (read only when there is a claim). */
  const withCarriers = async (claim: Claim | null) => ({ claim, carriers: claim ? await claims.carriers() : [] });
  route(app, api.claim, async (request) => withCarriers(await claims.claim(request.params.ticketId)));
  route(app, api.decide, async (request) =>
    withCarriers(await claims.decide(principalOf(request), request.params.ticketId, request.body)),
  );
  route(app, api.waitForSender, async (request) =>
    withCarriers(await claims.waitForSender(principalOf(request), request.params.ticketId, request.body.seenVersion)),
  );
  route(app, api.askTraveller, async (request) =>
    withCarriers(await claims.askTraveller(principalOf(request), request.params.ticketId, request.body)),
  );
  route(app, api.carrier, async (request) =>
    withCarriers(await claims.setCarrier(principalOf(request), request.params.ticketId, request.body)),
  );

  route(app, api.travellerClaim, async (request) => ({
    claim: await claims.travellerClaim(principalOf(request), request.params.claimId),
  }));
  route(app, api.travellerAnswer, async (request) => {
    const user = principalOf(request);
    const { claimId } = request.params;
    if (!request.isMultipart()) {
      if (!request.body)
        throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.answerRequired, {
          fields: { message: CLAIM_TEXT.answerRequired },
        });
      return { claim: await claims.answer(user, claimId, request.body) };
    }
    const claim = await withMessageForm(
      app,
      request,
      {
        userId: user.userId,
        schema: TravellerAnswerSchema,
        // Asked before the first file is read: a claim that no longer waits for this answer takes none.
        mayAttach: () => claims.mayAnswer(user, claimId),
        most: { files: CLAIM_LIMITS.evidenceFiles, refusal: CLAIM_TEXT.tooManyFiles },
      },
      (values, ids) => claims.answer(user, claimId, { ...values, attachmentIds: ids }),
    );
    return { claim };
  });

  route(app, api.senderClaim, async (request) => ({
    claim: await claims.senderClaim(principalOf(request).userId, request.params.ticketId),
  }));
  route(app, api.appeal, async (request) => ({
    claim: await claims.appeal(principalOf(request).userId, request.params.ticketId, request.body.reason),
  }));
}
