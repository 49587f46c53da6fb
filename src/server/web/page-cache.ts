import type { FastifyReply, FastifyRequest } from 'fastify';
import { type PreparedAnswer, preparedBody, sendPrepared, sessionCookieTest } from '../plugins/prepared.ts';

/**
 * Whole server-rendered pages for anonymous visitors, kept in memory until the content they show
 * changes (change 1 in bench/results/changes.json). A public page differs from one visitor to
 * the next only in its CSP nonce, so the page is kept as bytes with the places its nonce stood in (decision 124), and
 * every response gets the fresh nonce of its own CSP header written there: scripts stay
 * nonce-bound per response, as before.
 *
 * Only GET requests without a session (no session cookie, no Authorization header) for the pages
 * that say so (`handle.cacheForAnonymous`, a short query string is part of the key) are served from here, only 200 answers that set no cookie are kept, at most `maxEntries`
 * of them, each for `maxAgeMs` at most. Pages are compressed for clients that accept it.
 */
export interface PageCacheOptions {
  /** The session cookie's name: a request carrying it is never served from here. */
  cookieName: string;
  /** Content changed: every page is dropped. */
  onInvalidate(listener: () => void): void;
  maxEntries?: number;
  maxAgeMs?: number;
}

export interface CachedPage extends PreparedAnswer {
  status: number;
  /** Whether it may be kept (a 200 with no cookie). */
  keep: boolean;
}

const MAX_QUERY = 64;

/** The web handler's catch-all route, which renders every page (the metrics' `page`). */
const PAGE_ROUTE = '/*';

/** Headers of a rendered answer that describe its body as it was, not as it is sent. */
const UNSENT = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

/** A rendered answer's own headers, to send with its body as it is sent (compressed or not). */
export const headersToSend = (response: Response): Array<[string, string]> =>
  [...response.headers.entries()].filter(([name]) => !UNSENT.has(name));

export function createPageCache(options: PageCacheOptions) {
  const maxEntries = options.maxEntries ?? 64;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  let entries = new Map<string, { page: Promise<CachedPage>; at: number; ready?: CachedPage }>();
  options.onInvalidate(() => {
    entries = new Map();
  });
  const hasSession = sessionCookieTest(options.cookieName);

  return {
    /** Whether this request may be answered from here: an anonymous GET of one of `paths` (the pages that say so). */
    accepts(request: FastifyRequest, paths: ReadonlySet<string>): boolean {
      if (request.method !== 'GET' || request.principal !== null || request.headers.authorization !== undefined)
        return false;
      if (hasSession(request.headers.cookie)) return false;
      const q = request.url.indexOf('?');
      const path = q === -1 ? request.url : request.url.slice(0, q);
      return paths.has(path) && (q === -1 || request.url.length - q <= MAX_QUERY);
    },

    /**
     * The kept page for this exact address, if it is rendered, may be kept and is fresh: what the
     * prepared answers (plugins/prepared.ts) send before any per-request work.
     */
    peek(url: string): CachedPage | undefined {
      const hit = entries.get(url);
      return hit?.ready && Date.now() - hit.at < maxAgeMs ? hit.ready : undefined;
    },

    /** The kept page for this URL, or a fresh render (kept when it may be). Concurrent misses render once. */
    async get(request: FastifyRequest, render: () => Promise<CachedPage>): Promise<CachedPage> {
      const key = request.url;
      const hit = entries.get(key);
      if (hit && Date.now() - hit.at < maxAgeMs) {
        const page = await hit.page;
        if (page.keep) return page;
      }
      const map = entries;
      const page = render();
      if (map.size < maxEntries || map.has(key)) {
        const entry: { page: Promise<CachedPage>; at: number; ready?: CachedPage } = { page, at: Date.now() };
        map.set(key, entry);
        page.then(
          (p) => {
            if (p.keep) entry.ready = p;
            else if (map.get(key) === entry) map.delete(key);
          },
          () => {
            if (map.get(key) === entry) map.delete(key);
          },
        );
      }
      return page;
    },

    async fromResponse(response: Response, nonce: string): Promise<CachedPage> {
      const html = Buffer.from(await response.arrayBuffer());
      const headers = headersToSend(response);
      const keep =
        response.status === 200 &&
        !response.headers.has('set-cookie') &&
        (response.headers.get('content-type') ?? '').startsWith('text/html');
      // A kept page is compressed per response for browsers that accept it, as every cached page was.
      return {
        status: response.status,
        headers,
        ...preparedBody(html, nonce),
        keep,
        compress: keep,
        route: PAGE_ROUTE,
      };
    },

    send(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
      reply.status(page.status);
      return sendPrepared(request, reply, page);
    },
  };
}
