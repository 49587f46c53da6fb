import type { FastifyServerOptions } from 'fastify';

/**
 * What a service or worker logs through: the app's logger (pino) fits it, and a test can hand in
 * its own. Details first, then the message, as pino takes them.
 */
export interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Query parameters whose values are secrets (email-link tokens); their values never reach a log (LOG-02). */
const SECRET_QUERY_PARAMS = /^(token|code|password|secret|key|sig|signature)$/i;

/**
 * Paths whose next segment is a secret: the one-click unsubscribe links of notification mail, and a
 * partner applicant's status page and its API (docs/decisions/112-application-status-page.md).
 * Matched on the path as a router may read it (any letter case, percent-encoded letters, doubled
 * slashes), since a request spelled `/Partners/Status/<token>` is logged as it was sent.
 */
const SECRET_PATHS = [['unsubscribe'], ['partners', 'status'], ['api', 'partners', 'status']];

function segmentName(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** The path with the secret segment after a SECRET_PATHS prefix replaced by `[redacted]`. */
function redactPath(path: string): string {
  const segments = path.split('/');
  const named = segments.flatMap((segment, index) => (segment === '' ? [] : [{ index, name: segmentName(segment) }]));
  for (const prefix of SECRET_PATHS) {
    const secret = named[prefix.length];
    if (secret && prefix.every((name, k) => named[k]!.name === name)) {
      segments[secret.index] = '[redacted]';
      return segments.join('/');
    }
  }
  return path;
}

/** The URL as logged: secret query values and path tokens replaced, everything else kept for tracing. */
export function redactUrl(raw: string): string {
  const pathEnd = raw.search(/[?#]/);
  const url = pathEnd < 0 ? redactPath(raw) : `${redactPath(raw.slice(0, pathEnd))}${raw.slice(pathEnd)}`;
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent.
      }
      return eq >= 0 && SECRET_QUERY_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * Pino options for the server: structured JSON lines (pino escapes CR/LF, LOG-03), UTC epoch times,
 * no credentials (cookies, Authorization, Set-Cookie) and no email-link tokens in URLs (LOG-02).
 */
export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      req(request: {
        method: string;
        url: string;
        host?: string;
        ip?: string;
        socket?: { remotePort?: number };
        id?: string;
      }) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
