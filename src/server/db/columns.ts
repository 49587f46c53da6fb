import { timestamp } from 'drizzle-orm/pg-core';

/**
 * The column helpers every schema file shares (schema.ts and its companions): one definition, so a
 * timestamp column means the same thing in every table.
 */

/** A `timestamp with time zone` column, read as a Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
