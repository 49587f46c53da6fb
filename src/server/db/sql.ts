import { type SQL, sql } from 'drizzle-orm';
import type { AppDatabase } from './connection.ts';

/**
 * The SQL helpers every repository shares, in one place. Repositories use the drizzle builder by
 * default; `queryRows` is for the statements that must be raw, each with a `// Raw SQL:` comment
 * above it that says why (docs/design.md §2.2, repository style).
 */

/** Runs raw SQL and returns its rows, whichever driver is underneath (both answer `{ rows }`). */
export async function queryRows<T>(db: AppDatabase, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A LIKE pattern that finds `text` anywhere: wildcards the user typed (%, _, \\) are literal. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` can be compared with a uuid column (PostgreSQL refuses the query otherwise). */
export const isUuid = (text: string) => UUID.test(text);

/**
 * A PostgreSQL array literal of uuids or numbers, for `= any(${pgArray(ids)}::uuid[])`: one
 * parameter whatever the list's length. Only for values without commas, braces or quotes (check a
 * uuid with isUuid first).
 */
export const pgArray = (values: ReadonlyArray<number | string>) => `{${values.join(',')}}`;

/** A timestamp as the API writes it (ISO 8601, UTC), from a row's Date or timestamp text. */
export const iso = (value: Date | string | unknown): string => new Date(value as string).toISOString();

/**
 * The instant a New Zealand calendar day ('YYYY-MM-DD'), or the one `later` days after it, starts,
 * whatever the database's own time zone: a day there is 23 or 25 hours long across a clock change.
 */
export const nzDayStart = (day: string, later = 0) =>
  later === 0
    ? sql`(${day}::date::timestamp at time zone 'Pacific/Auckland')`
    : sql`((${day}::date + ${later}::int)::timestamp at time zone 'Pacific/Auckland')`;
