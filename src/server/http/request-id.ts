import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The id of a request, sent back as `X-Request-Id` and bound to its log lines. One from a trusted
 * proxy is kept so logs line up across hops; otherwise a fresh one (`randomUUID`, pooled by Node).
 */
export function requestIdFor(trustProxy: boolean): (req: IncomingMessage) => string {
  return (req) => {
    const incoming = req.headers['x-request-id'];
    return trustProxy && typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  };
}
