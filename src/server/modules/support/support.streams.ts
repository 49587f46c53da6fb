import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GENERIC_MESSAGES } from '../../../contracts/errors.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { AppError } from '../../errors.ts';
import { can, type Principal, type PrincipalResolver } from '../../plugins/access.ts';
import { isCrossSite } from '../../plugins/cross-site.ts';
import { openEventStream } from '../../realtime/sse.ts';
import type { LiveViewer, SupportLive } from './support.live.ts';

export const me = (request: FastifyRequest): Principal => request.principal!;

/**
 * Opening live streams, for the user's routes and the admin's alike: the cross-site check, at most
 * `streamsPerSession` open streams per session (counted across both sides), heartbeats that
 * re-check the viewer, and the viewer's authorization (still this user, verified, still admin).
 */
export function createSupportStreams(
  app: FastifyInstance,
  options: { live: SupportLive; resolvePrincipal: PrincipalResolver; streamsPerSession: number; heartbeatMs: number },
) {
  const { live } = options;
  const openStreams = new Map<string, number>();

  /** Opens a live stream for this request once its checks pass (SES-10); errors before hijacking are JSON. */
  function startStream(request: FastifyRequest, reply: FastifyReply, viewer: LiveViewer) {
    if (isCrossSite(request, app.allowedOrigins)) throw new AppError('PERMISSION_DENIED', GENERIC_MESSAGES.crossSite);
    const sessionId = me(request).sessionId;
    const count = openStreams.get(sessionId) ?? 0;
    if (count >= options.streamsPerSession) throw new AppError('RESOURCE_EXHAUSTED', SUPPORT_TEXT.tooManyStreams);
    openStreams.set(sessionId, count + 1);
    const stream = openEventStream(request, reply, {
      heartbeatMs: options.heartbeatMs,
      onHeartbeat: () => void live.recheck(viewer, stream),
    });
    stream.onClose(() => {
      const left = (openStreams.get(sessionId) ?? 1) - 1;
      if (left <= 0) openStreams.delete(sessionId);
      else openStreams.set(sessionId, left);
    });
    return stream;
  }

  /** Whether the request's session still belongs to this viewer, with the rights the stream needs. */
  function viewerOf(request: FastifyRequest, admin: boolean): LiveViewer {
    const principal = me(request);
    return {
      userId: principal.userId,
      email: principal.email,
      admin,
      authorize: async () => {
        const now = await options.resolvePrincipal(request);
        return Boolean(
          now && now.userId === principal.userId && now.emailVerified && (!admin || can(now, 'tickets.read')),
        );
      },
    };
  }

  return { startStream, viewerOf };
}

export type SupportStreams = ReturnType<typeof createSupportStreams>;
