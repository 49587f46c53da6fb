import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Client as PgClient } from 'pg';
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

/**
 * When the newest migration of this build was made (its `when` in the journal drizzle-kit writes,
 * which drizzle's migrator records as `created_at`).
 */
function newestMigrationMillis(): number {
  const journal = JSON.parse(fs.readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
    entries: Array<{ when: number }>;
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether the database has every migration of this build, in one query: drizzle's migrator applies
 * exactly the migrations made after the newest `created_at` it has recorded, so when that is not
 * older than this build's newest migration it would apply none. Reading and hashing every migration
 * file, and the migrator's own statements, are then skipped: a restart's usual case. A database
 * without the table (new, or not ours) answers false, and the migrator runs as before.
 */
async function migrationsCurrent(
  query: (text: string) => Promise<{ rows: Array<{ created_at: unknown }> }>,
): Promise<boolean> {
  try {
    const { rows } = await query(
      'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
    );
    return rows.length > 0 && Number(rows[0]!.created_at) >= newestMigrationMillis();
  } catch {
    return false;
  }
}

/**
 * The embedded database's buffer cache (PostgreSQL's shared_buffers; PGlite's own default is 128 MB).
 * PGlite zeroes its shared memory as it starts, byte by byte in its WebAssembly (about 5 ms a MB):
 * 128 MB cost a restart about 0.35 s, and 32 MB (42 MB of shared memory) still 0.1 s more than this
 * (24 MB; decisions 157 and 158). The demo's whole database (11 MB) fits in it; pages past it are
 * read from the data directory through the system's file cache; production runs on PostgreSQL.
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

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

// Each kind loads its own driver when opened: a server on PostgreSQL never loads the embedded
// database's engine, nor one on the embedded database the `pg` driver; and the migrator only loads
// when there is something to migrate.

async function openPglite(target: { dir?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  const [{ StatementCachingPGlite }, { drizzle: drizzlePglite }] = await Promise.all([
    import('./pglite-statements.ts'),
    import('drizzle-orm/pglite'),
  ]);
  // Each statement parsed once per session, not on every call (decision 103).
  const client = new StatementCachingPGlite({
    dataDir: target.dir,
    loadDataDir: target.loadDataDir,
    startParams: [...StatementCachingPGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
  await client.waitReady;
  performance.mark('start-up: embedded database open');
  const db = drizzlePglite({ client, schema });
  if (!(await migrationsCurrent((text) => client.query<{ created_at: unknown }>(text)))) {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  }
  performance.mark('start-up: migrations checked');
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
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  if (target.migrate ?? true) {
    const migrationClient = await pool.connect();
    performance.mark('start-up: database connected');
    try {
      // Current already (one query, no lock): nothing for this process to do. Otherwise the migrator
      // runs under the lock, and reads again what is applied once it holds it.
      if (!(await migrationsCurrent((text) => migrationClient.query<{ created_at: unknown }>(text)))) {
        await migrationClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          const { migrate } = await import('drizzle-orm/node-postgres/migrator');
          await migrate(drizzlePg({ client: migrationClient, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await migrationClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        }
      }
    } finally {
      migrationClient.release();
    }
    performance.mark('start-up: migrations checked');
  }
  const db = drizzlePg({ client: pool, schema });
  let listener: PgClient | undefined;
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
