import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { codeForHttpStatus, type ErrorBody, GENERIC_MESSAGES } from '../../contracts/errors.ts';
import { AppError } from '../errors.ts';

function body(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: { status: code, message, ...(fields ? { fields } : {}) } };
}

/**
 * Text PostgreSQL cannot store: U+0000 in a text column (22021) or in jsonb (22P05). Only a client
 * sends that, so it is that client's error (400), never a 500 (IN-01; found by the fuzz).
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);
export const UNSTORABLE_TEXT_MESSAGE = 'Some text contains characters that cannot be stored (such as NUL).';

function isUnstorableText(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (UNSTORABLE_TEXT.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}

/** The docs/design.md §4 error shape for every failure; 5xx bodies never carry internals. */
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
    if (isUnstorableText(error)) return reply.status(400).send(body('INVALID_ARGUMENT', UNSTORABLE_TEXT_MESSAGE));
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(body('INTERNAL', GENERIC_MESSAGES.internal));
    }
    if (status === 429) {
      return reply.status(429).send(body('RESOURCE_EXHAUSTED', GENERIC_MESSAGES.rateLimited));
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): readable, no internals.
    // A client error is never labelled INTERNAL (413 and 415 have no code of their own).
    const code = codeForHttpStatus(status);
    return reply.status(status).send(body(code === 'INTERNAL' ? 'INVALID_ARGUMENT' : code, error.message));
  });
});
