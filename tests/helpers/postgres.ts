import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { waitUntil } from './wait.ts';

/** The PostgreSQL server the suites use (docs/design.md §7); a fresh database per run, never a shared one. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function randomDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function isPostgresReachable(): Promise<boolean> {
  try {
    await withAdminClient((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

export async function createDatabase(name: string, template?: string): Promise<string> {
  await withAdminClient((c) =>
    c.query(
      `create database ${pg.escapeIdentifier(name)}${template ? ` template ${pg.escapeIdentifier(template)}` : ''}`,
    ),
  );
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((c) => c.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`));
}

/**
 * Until a statement of another connection to the same database waits for a lock (a row the test's
 * connection holds): the moment a race test lets its held transaction go. Checked, never slept.
 */
export async function untilWaitingOnALock(client: pg.Client, what: string): Promise<void> {
  await waitUntil(
    what,
    async () =>
      Boolean(
        (
          await client.query(
            `select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
          )
        ).rowCount,
      ),
    { intervalMs: 20 },
  );
}
