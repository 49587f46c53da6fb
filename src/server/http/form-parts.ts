import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** One part of a multipart form, whatever parsed it. */
export type FormPart =
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated: boolean; fieldnameTruncated: boolean }
  | { type: 'file'; fieldname: string; filename: string; file: Readable };

const PARSER_LIMIT_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * A multipart request's parts (parsed by @fastify/multipart in the route's scope), in the services'
 * terms; the parser's own failures become 400s in the error shape, in the form's words: too many
 * parts, a protocol violation, or a body that was cut off or malformed.
 */
export async function* formParts(
  request: FastifyRequest,
  messages: { tooManyParts: string; invalidForm: string; unreadableForm: string },
  /** This request's own limits, over the scope's (a new ticket's claim takes more files). */
  limits?: Record<string, number>,
): AsyncGenerator<FormPart> {
  try {
    for await (const part of request.parts(limits ? { limits } : undefined)) {
      if (part.type === 'file') {
        // An empty `filename=""` comes through as no name at all.
        yield { type: 'file', fieldname: part.fieldname, filename: part.filename ?? '', file: part.file };
      } else {
        yield {
          type: 'field',
          fieldname: part.fieldname,
          value: part.value,
          valueTruncated: part.valueTruncated,
          fieldnameTruncated: part.fieldnameTruncated,
        };
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && PARSER_LIMIT_CODES.has(code)) {
      throw new AppError('INVALID_ARGUMENT', messages.tooManyParts);
    }
    if (code === 'FST_PROTO_VIOLATION') throw new AppError('INVALID_ARGUMENT', messages.invalidForm);
    throw new AppError('INVALID_ARGUMENT', messages.unreadableForm);
  }
}
