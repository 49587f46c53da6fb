import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

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
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
