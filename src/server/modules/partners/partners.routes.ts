import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { partnerReviewApi, partnersApi } from '../../../contracts/api/partners.ts';
import { COMPANY_LIMITS, COMPANY_MESSAGES, statusLinkCookie } from '../../../contracts/companies.ts';
import { AppError } from '../../errors.ts';
import { sendStoredFile, sendStoredPdfInFrame } from '../../http/stored-file.ts';
import { route } from '../../http/endpoint-route.ts';
import { formParts } from '../../http/form-parts.ts';
import type { PartnersService } from './partners.service.ts';

/**
 * Multipart limits for the registration form (UP-06): nine text fields and one file, so a little
 * headroom and no more. A file is cut one byte past the licence limit, which is how the service
 * tells "exactly 10 MB" from "too large" without reading further.
 */
export const REGISTRATION_MULTIPART_LIMITS = {
  fieldNameSize: 100,
  fieldSize: 10 * 1024,
  fields: 20,
  files: 1,
  parts: 25,
  headerPairs: 20,
  fileSize: COMPANY_LIMITS.licenseMaxBytes + 1,
} as const;

export async function partnersRoutes(app: FastifyInstance, options: { partners: PartnersService }) {
  const { partners } = options;
  // Registered here, so only these routes accept multipart bodies.
  await app.register(fastifyMultipart, { limits: REGISTRATION_MULTIPART_LIMITS, throwFileSizeLimit: false });

  route(app, partnersApi.register, async (request, reply) => {
    if (!request.isMultipart()) throw new AppError('INVALID_ARGUMENT', COMPANY_MESSAGES.notMultipart);
    await partners.requireRegistrationAllowance(request.ip);
    const { result, statusToken } = await partners.register(
      formParts(request, {
        tooManyParts: COMPANY_MESSAGES.tooManyParts,
        invalidForm: COMPANY_MESSAGES.invalidForm,
        unreadableForm: COMPANY_MESSAGES.unreadableForm,
      }),
    );
    // The browser that sent it is shown its status link on /register's page after it.
    return reply
      .status(201)
      .header('cache-control', 'no-store')
      .header('set-cookie', statusLinkCookie(statusToken))
      .send(result);
  });

  // The licence is served only to admins, only as a download (UP-05).
  route(app, partnerReviewApi.license, async (request, reply) => {
    const license = await partners.openLicense(request.params.companyId);
    return sendStoredFile(reply, {
      contentType: license.contentType,
      disposition: `attachment; filename="${license.filename}"`,
      size: license.size,
      body: license.body,
    });
  });

  // A PDF licence in the partner page's preview frame (docs/decisions/130-pdf-licences.md).
  route(app, partnerReviewApi.licensePreview, async (request, reply) => {
    const license = await partners.openLicensePreview(request.params.companyId);
    return sendStoredPdfInFrame(reply, license);
  });
}
