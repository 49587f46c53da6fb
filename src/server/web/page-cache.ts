import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Whole server-rendered pages for anonymous visitors, kept in memory until the content they show
 * changes (docs/performance.md). A public page differs from one visitor to the next only in its
 * CSP nonce, so the page is kept cut where the nonce was and every response gets the fresh nonce
 * of its own CSP header put back in: scripts stay nonce-bound per response, as before.
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

export interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  /** The HTML, cut where the nonce it was rendered with stood (UTF-8, ready to send). */
  parts: Buffer[];
  /** Whether it may be kept (a 200 with no cookie). */
  keep: boolean;
}

const MAX_QUERY = 64;

/** The page's parts joined by this response's nonce: one allocation, no re-encoding. */
function withNonce(parts: Buffer[], nonce: string): Buffer {
  const n = Buffer.from(nonce);
  let length = n.length * (parts.length - 1);
  for (const part of parts) length += part.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  parts.forEach((part, i) => {
    if (i > 0) at += n.copy(out, at);
    at += part.copy(out, at);
  });
  return out;
}

export function createPageCache(options: PageCacheOptions) {
  const maxEntries = options.maxEntries ?? 64;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  let entries = new Map<string, { page: Promise<CachedPage>; at: number }>();
  options.onInvalidate(() => {
    entries = new Map();
  });
  const cookie = new RegExp(`(^|;)\\s*${options.cookieName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`);

  return {
    /** Whether this request may be answered from here: an anonymous GET of one of `paths` (the pages that say so). */
    accepts(request: FastifyRequest, paths: ReadonlySet<string>): boolean {
      if (request.method !== 'GET' || request.principal !== null || request.headers.authorization !== undefined)
        return false;
      if (cookie.test(request.headers.cookie ?? '')) return false;
      const q = request.url.indexOf('?');
      const path = q === -1 ? request.url : request.url.slice(0, q);
      return paths.has(path) && (q === -1 || request.url.length - q <= MAX_QUERY);
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
        map.set(key, { page, at: Date.now() });
        page.then(
          (p) => {
            if (!p.keep && map.get(key)?.page === page) map.delete(key);
          },
          () => {
            if (map.get(key)?.page === page) map.delete(key);
          },
        );
      }
      return page;
    },

    async fromResponse(response: Response, nonce: string): Promise<CachedPage> {
      const html = await response.text();
      const headers = [...response.headers.entries()].filter(
        ([name]) => name !== 'content-length' && name !== 'content-encoding',
      );
      const keep =
        response.status === 200 &&
        !response.headers.has('set-cookie') &&
        (response.headers.get('content-type') ?? '').startsWith('text/html');
      const parts = (nonce ? html.split(nonce) : [html]).map((part) => Buffer.from(part));
      return { status: response.status, headers, parts, keep };
    },

    send(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
      reply.status(page.status);
      for (const [name, value] of page.headers) reply.header(name, value);
      const html = withNonce(page.parts, reply.cspNonce);
      if (!page.keep) return reply.send(html);
      // Compressed per response (the nonce differs each time): brotli at a fast level, else gzip.
      reply.header('vary', 'accept-encoding');
      const accepted = String(request.headers['accept-encoding'] ?? '');
      if (/\bbr\b/.test(accepted)) {
        reply.header('content-encoding', 'br');
        return reply.send(zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
      }
      if (/\bgzip\b/.test(accepted)) {
        reply.header('content-encoding', 'gzip');
        return reply.send(zlib.gzipSync(html, { level: 6 }));
      }
      return reply.send(html);
    },
  };
}
