import { sql } from 'drizzle-orm';
import { type DatabaseHandle } from './connection.ts';
import { queryRows } from './sql.ts';

/**
 * DATA-01: a production server only acknowledges writes that survive a crash, so it refuses to run
 * on a PostgreSQL whose settings would lose committed transactions. PGlite is not checked here: it
 * never fsyncs, which the README states plainly (production uses PostgreSQL).
 */
export class UnsafeDurabilityError extends Error {
  override name = 'UnsafeDurabilityError';
}

const REQUIRED = { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' } as const;

export async function findDurabilityProblems(database: DatabaseHandle): Promise<string[]> {
  if (database.kind !== 'postgres') return [];
  // The three settings in one round trip (a start waits for it).
  const [row] = await queryRows<Record<keyof typeof REQUIRED, string>>(
    database.db,
    sql`select current_setting('fsync') as fsync, current_setting('synchronous_commit') as synchronous_commit,
        current_setting('full_page_writes') as full_page_writes`,
  );
  const problems: string[] = [];
  for (const [name, wanted] of Object.entries(REQUIRED) as Array<[keyof typeof REQUIRED, string]>) {
    const setting = row?.[name];
    // synchronous_commit also accepts the stricter remote_write / remote_apply.
    const ok =
      setting === wanted || (name === 'synchronous_commit' && ['remote_write', 'remote_apply'].includes(setting ?? ''));
    if (!ok) problems.push(`${name} is ${setting ?? 'unknown'} (needs ${wanted})`);
  }
  return problems;
}

export async function assertDurable(database: DatabaseHandle): Promise<void> {
  const problems = await findDurabilityProblems(database);
  if (problems.length > 0) {
    throw new UnsafeDurabilityError(
      `PostgreSQL could lose acknowledged writes: ${problems.join('; ')}. ` +
        'Fix the server settings, or set ALLOW_UNSAFE_DURABILITY=true to start anyway (never in production).',
    );
  }
}
