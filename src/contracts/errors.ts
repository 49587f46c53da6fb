import { z } from './zod.ts';

/**
 * Error codes of the callable protocol (docs/product.md §8) and their HTTP statuses (docs/design.md §4).
 * The same table serves the server (code → status) and the client (status → code).
 */
export const ERROR_STATUS = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  /** A write against a version of the object that is no longer current (a ticket's `seenVersion`). */
  FAILED_PRECONDITION: 412,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorBodySchema = z.object({
  error: z.object({
    status: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** What a client makes of an HTTP status it did not expect (docs/product.md §8 mapping). */
export function codeForHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 412:
      return 'FAILED_PRECONDITION';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return 'INTERNAL';
  }
}

export const GENERIC_MESSAGES = {
  internal: 'Something went wrong on our side. Please try again.',
  notFound: 'We could not find what you were looking for.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  crossSite: 'This request came from another site and was refused.',
} as const;
