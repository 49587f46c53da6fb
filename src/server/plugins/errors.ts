import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { codeForHttpStatus, type ErrorBody, GENERIC_MESSAGES } from '../../contracts/errors.ts';
import { AppError } from '../errors.ts';

function body(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: { status: code, message, ...(fields ? { fields } : {}) } };
}

/** The DESIGN §4 error shape for every failure; 5xx bodies never carry internals. */
export const errorsPlugin = fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.httpStatus).send(body(error.code, error.message, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[key] ??= issue.message ?? 'Invalid value';
      }
      return reply.status(400).send(body('INVALID_ARGUMENT', 'Some fields are not valid.', fields));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(body('INTERNAL', GENERIC_MESSAGES.internal));
    }
    if (status === 429) {
      return reply.status(429).send(body('RESOURCE_EXHAUSTED', GENERIC_MESSAGES.rateLimited));
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): readable, no internals.
    return reply.status(status).send(body(codeForHttpStatus(status), error.message));
  });
});
