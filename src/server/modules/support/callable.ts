import type { FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC_MESSAGES } from '../../../contracts/errors.ts';

/**
 * The Firebase callable protocol on top of the app's own replies, for `/api/functions/*` routes, so
 * the official SDK (`httpsCallable`, `httpsCallableFromURL`) is fully served (docs/design.md §4.2):
 *
 * - Errors keep the app's body (`{ error: { status, message, fields } }`, docs/design.md §4) and also carry
 *   `details: { fields }`, keyed by the fields of `data` (`reason`, not `data.reason`): the SDK
 *   exposes only `code`, `message` and `details` of an error. `status` is already one of the
 *   protocol's names (INVALID_ARGUMENT, UNAUTHENTICATED, …), which the SDK maps to `functions/...`.
 * - A call that asks for a stream (`Accept: text/event-stream`, what the SDK's `.stream()` sends)
 *   is answered `text/event-stream` with one `data: {"result": …}` event, or one
 *   `data: {"error": …}` event, and the response ends. Without it the SDK, which reads only the
 *   `data:` lines of a stream and never its HTTP status, waits forever for a JSON body's result.
 *   The HTTP status stays the true one (the SDK ignores it; logs, proxies and other clients do not).
 *
 * It works as an `onSend` hook, on the reply every other part of the app already made: the
 * app-wide error handler (sign-in, validation, rate limits, 5xx masking) stays the only one.
 */

/** Whether the caller asked for the streaming form of the call. */
export function wantsEventStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return accept.split(',').some((range) => range.split(';')[0]!.trim().toLowerCase() === 'text/event-stream');
}

interface ErrorLike {
  error: { fields?: unknown; details?: unknown } & Record<string, unknown>;
}

function isErrorBody(body: unknown): body is ErrorLike {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { error?: unknown }).error === 'object' &&
    (body as { error?: unknown }).error !== null
  );
}

/** `data.reason` → `reason`; a problem with `data` as a whole → `_` (as the app names a body-level one). */
export function callableFieldName(key: string): string {
  if (key === 'data') return '_';
  return key.startsWith('data.') ? key.slice('data.'.length) : key;
}

/** The error body with `details.fields` added, when it names fields. */
export function withCallableDetails(body: ErrorLike): ErrorLike {
  const fields = body.error.fields;
  if (!fields || typeof fields !== 'object' || body.error.details !== undefined) return body;
  const details: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields as Record<string, string>))
    details[callableFieldName(key)] ??= message;
  return { error: { ...body.error, details: { fields: details } } };
}

/** One Server-Sent Event carrying a callable message: what the SDK's stream reader parses. */
export function callableEvent(body: unknown): string {
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** The `onSend` hook of a callable route (see above). */
export async function callableProtocolOnSend(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const stream = wantsEventStream(request);
  if (!stream && reply.statusCode < 400) return payload;
  let body: unknown = undefined;
  if (typeof payload === 'string' && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
    try {
      body = JSON.parse(payload);
    } catch {
      // Not ours to reshape.
    }
  }
  if (body === undefined) {
    if (!stream) return payload;
    // Every reply of a callable route is JSON; should one not be, the stream still ends with an error, never silence.
    body = { error: { status: 'INTERNAL', message: GENERIC_MESSAGES.internal } };
  }
  if (isErrorBody(body)) body = withCallableDetails(body);
  if (!stream) return JSON.stringify(body);
  reply.header('content-type', 'text/event-stream; charset=utf-8');
  reply.header('cache-control', 'no-store');
  return callableEvent(body);
}
