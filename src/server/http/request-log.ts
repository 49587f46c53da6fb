import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import { type LoggableRequest, serializeRequest } from '../logging.ts';

const { chindingsSym, endSym, lsCacheSym, streamSym, timeSym } = pino.symbols;

const INFO = 30;

/** The `req` of a request line as JSON: what pino's `req` serializer (logging.ts) makes of it. */
export function requestJson(request: LoggableRequest): string {
  return JSON.stringify(serializeRequest(request));
}

/**
 * Writes one request line to `logger`'s destination, the very bytes pino writes for
 * `logger.info({ reqId, req, res: { statusCode }, responseTime }, 'request completed')` (request-log.test.ts
 * compares them byte for byte): the level, time and bindings (pid, host name, and a request logger's
 * id) as pino made them, the request through the same serializer (logging.ts: secrets redacted).
 * Made by concatenation, without pino's generic walk of the object, its serializer lookups and its
 * redaction of paths this line never has (the request's headers): that walk was most of the line's
 * cost, and the line is written for every request (decision 160).
 * `reqId` is given when `logger` is not already bound to the request (a prepared answer's); `request`
 * may be given as `requestJson` made it (a prepared answer's, made once per connection).
 */
export function writeRequestLine(
  logger: FastifyBaseLogger,
  reqId: string | undefined,
  request: LoggableRequest | string,
  statusCode: number,
  responseTime: number,
): void {
  // The parts pino makes a line of, by pino's own names for them (pino.symbols).
  const parts = logger as unknown as Partial<pino.Logger> & Record<symbol, unknown>;
  // Fastify's logger when logging is off has no levels; a logger not made by pino has none of its parts.
  if (parts.isLevelEnabled?.('info') !== true) return;
  const stream = parts[streamSym] as { write(line: string): unknown } | undefined;
  if (stream === undefined) {
    const req = typeof request === 'string' ? (JSON.parse(request) as object) : request;
    const fields = { req, res: { statusCode }, responseTime };
    logger.info(reqId === undefined ? fields : { reqId, ...fields }, 'request completed');
    return;
  }
  const opening = (parts[lsCacheSym] as Record<number, string>)[INFO]!;
  const time = (parts[timeSym] as () => string)();
  stream.write(
    opening +
      time +
      (parts[chindingsSym] as string) +
      (reqId === undefined ? '' : `,"reqId":${JSON.stringify(reqId)}`) +
      `,"req":${typeof request === 'string' ? request : requestJson(request)},"res":{"statusCode":${statusCode}},"responseTime":${Number.isFinite(responseTime) ? responseTime : null},"msg":"request completed"` +
      (parts[endSym] as string),
  );
}

/**
 * The request log: one line per request, written when its response has been sent, with what
 * Fastify's two lines ('incoming request', 'request completed') said between them: the request
 * (method, URL with its secrets redacted by logging.ts's serializer, host, client address), the
 * status, the response time and the request id (`reqId`). At info level the second line doubled
 * the log's lines and their cost for nothing a reader needs. A request that failed is written at
 * error level with its error, as Fastify writes it ('request errored'); a 5xx is also logged with
 * its error by the error handler (plugins/errors.ts). Prepared answers (plugins/prepared.ts),
 * which Fastify never sees, write the same line themselves.
 *
 * A request whose response is never sent (its client went away first) writes no line; a live
 * stream writes its line when it ends.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      writeRequestLine(reply.log, undefined, request, reply.statusCode, reply.elapsedTime);
    }
  }
}
