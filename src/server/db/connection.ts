import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { StatementCachingPGlite } from './pglite-statements.ts';
import * as schema from './schema.ts';

export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;

type TransactionConfig = Parameters<AppDatabase['transaction']>[1];

/**
 * Runs `work` in one transaction and hands it the transaction as an AppDatabase, so repositories
 * take either without a cast: drizzle types a transaction apart from the database it came from,
 * though it answers the same queries.
 */
export function inTransaction<T>(db: AppDatabase, work: (tx: AppDatabase) => Promise<T>, config?: TransactionConfig) {
  return db.transaction((tx) => work(tx as unknown as AppDatabase), config);
}

/** Delivers a NOTIFY payload; returns a function that stops listening. */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: AppDatabase;
  listen: Listen;
  ping(): Promise<void>;
  /** Connections of this process: PostgreSQL's pool, or the embedded database's one connection. */
  poolStats(): { total: number; idle: number; waiting: number };
  /** The embedded database itself (PGlite only): the local socket serves it to the command line and psql. */
  embedded?: PGlite;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any number of processes may start at once against one PostgreSQL: only one migrates at a time. */
const MIGRATION_LOCK_ID = 7_241_009;

export type DatabaseTarget =
  | { kind: 'pglite'; dir?: string; loadDataDir?: Blob }
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** False: the schema is known to be current (a running server's embedded database, over its socket). */
      migrate?: boolean;
    };

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  return target.kind === 'pglite' ? openPglite(target) : openPostgres(target);
}

async function openPglite(target: { dir?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  // Each statement parsed once per session, not on every call (decision 103).
  const client = new StatementCachingPGlite({ dataDir: target.dir, loadDataDir: target.loadDataDir });
  await client.waitReady;
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    kind: 'pglite',
    db: db as unknown as AppDatabase,
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return unsubscribe;
    },
    async ping() {
      await client.query('select 1');
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    embedded: client,
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(target: { url: string; poolSize?: number; migrate?: boolean }): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  if (target.migrate ?? true) {
    const migrationClient = await pool.connect();
    try {
      await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migratePg(drizzlePg({ client: migrationClient, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await migrationClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
      migrationClient.release();
    }
  }
  const db = drizzlePg({ client: pool, schema });
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  return {
    kind: 'postgres',
    db: db as unknown as AppDatabase,
    async listen(channel, onPayload) {
      // One dedicated connection per process carries every LISTEN (docs/design.md §1).
      if (!listener) {
        listener = new pg.Client({ connectionString: target.url });
        listener.on('error', () => {});
        listener.on('notification', (msg) => {
          for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
        });
        await listener.connect();
      }
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await listener.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}
