import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../../db/connection.ts';

/**
 * What the public content pages show (FAQs, legal links, company links) changes only when an admin
 * edits it, so it is read from the database once and kept in memory: the content service keeps the
 * values, the API its serialised answers, the web handler whole anonymous pages (change 1 in
 * bench/results/changes.json).
 *
 * Every admin content edit empties all of them at once, before its response leaves, and tells every
 * other app instance through PostgreSQL NOTIFY on its own channel, so no instance serves old content
 * after an edit it has heard of. A lost notification (a dropped listener connection) can leave an
 * instance stale until the next edit, so entries also expire after `maxAgeMs` at the latest.
 */
export const CONTENT_CHANNEL = 'bagspace_content';

/** Admin routes whose successful writes change public content. */
const CONTENT_EDITS = /^\/api\/admin\/(faqs|settings|documents)(\/|$)/;

export interface ContentCache {
  /** A value kept until the next edit (or `maxAgeMs`); `load` runs once per key and generation. */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** The kept value of `key` if it is loaded and fresh, without waiting: what prepared answers send. */
  peek<T>(key: string): T | undefined;
  /** Empties every cache here now and notifies the other instances. */
  invalidate(): Promise<void>;
  /** Runs `listener` whenever the content may have changed (here or on another instance). */
  onInvalidate(listener: () => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createContentCache(
  database: Pick<DatabaseHandle, 'listen' | 'db'>,
  log: { error(obj: object, msg: string): void },
  options: { maxAgeMs?: number } = {},
): ContentCache {
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  let entries = new Map<string, { value: Promise<unknown>; at: number; loaded?: { value: unknown } }>();
  const listeners = new Set<() => void>();
  let unlisten: (() => Promise<void>) | undefined;

  const clearHere = () => {
    entries = new Map();
    for (const listener of listeners) listener();
  };

  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && Date.now() - hit.at < maxAgeMs) return hit.value as Promise<T>;
      const map = entries;
      const value = load();
      const entry: { value: Promise<unknown>; at: number; loaded?: { value: unknown } } = { value, at: Date.now() };
      map.set(key, entry);
      value.then(
        (loaded) => {
          entry.loaded = { value: loaded };
        },
        // A failed read is not kept: the next request tries again.
        () => {
          if (map.get(key) === entry) map.delete(key);
        },
      );
      return value;
    },
    peek<T>(key: string): T | undefined {
      const hit = entries.get(key);
      return hit?.loaded && Date.now() - hit.at < maxAgeMs ? (hit.loaded.value as T) : undefined;
    },
    async invalidate() {
      clearHere();
      try {
        await database.db.execute(sql`select pg_notify(${CONTENT_CHANNEL}, '')`);
      } catch (error) {
        log.error({ err: error }, 'could not tell other instances that content changed');
      }
    },
    onInvalidate(listener) {
      listeners.add(listener);
    },
    async start() {
      unlisten ??= await database.listen(CONTENT_CHANNEL, clearHere);
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
      listeners.clear();
    },
  };
}

/** Empties the content caches when an admin content edit succeeds, before its answer is sent. */
export const contentCachePlugin = fp<{ cache: ContentCache }>(async function contentCachePlugin(
  app: FastifyInstance,
  options,
) {
  // A callback hook (no promise) on the requests that are not content edits: this runs on every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      reply.statusCode >= 400 ||
      !CONTENT_EDITS.test(request.routeOptions.url ?? '')
    ) {
      done(null, payload);
      return;
    }
    options.cache.invalidate().then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  });
});
