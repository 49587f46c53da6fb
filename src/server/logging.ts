import type { FastifyLoggerOptions, FastifyServerOptions } from 'fastify';

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
 * Addresses whose logged form is the address itself (no secret in them), remembered so that the
 * request log's line for the same few hot addresses (the public pages, the public API) is a Set
 * lookup, not a parse of the address: the redaction was a fifth of the line's cost. An address with
 * a secret is never remembered (no token is kept in memory by this); long ones neither, and the
 * set starts afresh when full, so any number of distinct addresses costs at most the parse.
 */
const CLEAN_URLS_HELD = 1000;
const CLEAN_URL_LENGTH = 256;
const cleanUrls = new Set<string>();

/** redactUrl, answered from `cleanUrls` for an address seen before. */
function loggedUrl(raw: string): string {
  if (cleanUrls.has(raw)) return raw;
  const url = redactUrl(raw);
  if (url === raw && raw.length <= CLEAN_URL_LENGTH) {
    if (cleanUrls.size >= CLEAN_URLS_HELD) cleanUrls.clear();
    cleanUrls.add(raw);
  }
  return url;
}

/** What a request log line says of the request: a Fastify request, or a prepared answer's (plugins/prepared.ts). */
export interface LoggableRequest {
  method: string;
  url: string;
  host?: string | undefined;
  ip?: string | undefined;
  socket?: { remotePort?: number | undefined } | undefined;
}

/** The `req` of a log line: method, address with its secrets redacted, host and client (pino's `req` serializer). */
export function serializeRequest(request: LoggableRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** What pino writes its lines to: a test's stream, or the server's buffered destination below. */
type LogStream = NonNullable<FastifyLoggerOptions['stream']>;

/**
 * Pino options for the server: structured JSON lines (pino escapes CR/LF, LOG-03), UTC epoch times,
 * no credentials (cookies, Authorization, Set-Cookie) and no email-link tokens in URLs (LOG-02).
 * Written to `stream` when given (the server's destination, a test's capture), else to stdout.
 */
export function loggerOptions(
  level: string,
  stream?: LogStream,
): Exclude<NonNullable<FastifyServerOptions['logger']>, boolean> {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: { req: serializeRequest },
  };
}

/** Buffered lines are written at least this often, so a quiet server's log is never older than this. */
const LOG_FLUSH_MS = 500;
/** A write is made once this many bytes are waiting (about 200 request lines), or at the flush above. */
const LOG_WRITE_BYTES = 64 * 1024;
/** Lines are gathered as text and handed to the destination as bytes once this many characters wait (about 60 lines). */
const HAND_OVER_CHARACTERS = 16 * 1024;

/** The server's log destination and how to empty its buffer. */
export interface ServerLogDestination {
  /** Where pino writes each line. */
  stream: { write(line: string): unknown };
  /** Writes every buffered line (a write in flight first, waited for up to `timeoutMs`); never throws. */
  flush(timeoutMs?: number): Promise<void>;
  /** Writes every buffered line at once, without the event loop (process exit); never throws. */
  flushSync(): void;
}

/**
 * Where the server writes its log: stdout through pino's own buffered, asynchronous destination
 * (SonicBoom): lines are gathered until 64 kB and written by one asynchronous write, not a
 * synchronous write per line, and a quiet server's lines within LOG_FLUSH_MS. SonicBoom is given
 * bytes (its buffer mode): given text, it measured its whole growing buffer again for every line
 * and encoded it twice more per write, which cost more than making the line (decision 160). The
 * lines are joined as text first and handed over about 60 at a time, one encoding and one Buffer
 * for all of them: a Buffer per line, and SonicBoom's bookkeeping per line, were half of a request
 * line's cost. Every LOG_FLUSH_MS the waiting text is handed over and SonicBoom writes what it
 * holds. What is still waiting is written on close and at exit (serve.ts calls `flush` and
 * `flushSync`, also on the process's 'exit'). Pino is loaded here, not with this file: serve.ts
 * loads this file before the database opens, and pino with the app (Fastify brings it), after.
 */
export async function serverLogDestination(): Promise<ServerLogDestination> {
  const { default: pino } = await import('pino');
  const destination = pino.destination({
    dest: 1,
    sync: false,
    contentMode: 'buffer',
    minLength: LOG_WRITE_BYTES,
    maxWrite: 4 * LOG_WRITE_BYTES,
  });
  // In buffer mode SonicBoom takes bytes (its types know only text).
  const bytes = destination as unknown as { write(chunk: Buffer): boolean };
  let waiting = '';
  const handOver = () => {
    if (waiting.length === 0) return;
    const text = waiting;
    waiting = '';
    bytes.write(Buffer.from(text));
  };
  // The periodic write (SonicBoom's own `periodicFlush`, with the waiting text handed over first).
  // Unreferenced: a waiting line never keeps the process alive (close and exit write it).
  setInterval(() => {
    try {
      handOver();
      destination.flush();
    } catch {
      // Closed: what could still be written was written by flushSync.
    }
  }, LOG_FLUSH_MS).unref();
  const flushSync = () => {
    try {
      handOver();
      destination.flushSync();
    } catch {
      // Nothing more can be written (stdout closed): the lines are lost either way.
    }
  };
  return {
    stream: {
      write(line: string) {
        waiting += line;
        if (waiting.length >= HAND_OVER_CHARACTERS) handOver();
      },
    },
    flushSync,
    async flush(timeoutMs = 2000) {
      handOver();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        try {
          // Resolves once the write in flight and what was buffered are written (an fsync error on
          // a pipe or terminal means nothing here).
          destination.flush(() => {
            clearTimeout(timer);
            resolve();
          });
        } catch {
          clearTimeout(timer);
          resolve();
        }
      });
      flushSync();
    },
  };
}
