import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import tar from 'tar-stream';
import { type AppDatabase, type DatabaseHandle, inTransaction } from './db/connection.ts';
import * as schema from './db/schema.ts';
import { queryRows } from './db/sql.ts';
import type { FileStorage } from './storage/storage.ts';

/**
 * Backups (docs/operations.md#backups): one gzip'd tar of the database and the stored files.
 *
 * - `manifest.json`: format version, when, the source database kind, the migrations applied, and
 *   per table its row count; the files and any that were referenced but missing.
 * - `db/<table>.jsonl`: every row of every table, one `row_to_json` per line, read in one
 *   REPEATABLE READ, READ ONLY transaction: one consistent moment of the whole database, whatever
 *   the server does meanwhile.
 * - `files/<key>`: every stored file a row of that moment refers to (licences), read after the
 *   snapshot. Files are written before the row that names them commits and are never changed
 *   afterwards, so each one the snapshot names is complete; one deleted since is listed as missing.
 *
 * Restoring migrates an empty target to this code's schema, inserts the rows table by table in
 * foreign-key order with `json_populate_recordset` (PostgreSQL turns the JSON back into each
 * column's type, on PGlite and PostgreSQL alike), moves the sequences past the restored ids, and
 * puts the files back through the storage adapter. A target that holds any row or file is refused.
 */
export const BACKUP_FORMAT = 1;

export interface BackupManifest {
  format: number;
  createdAt: string;
  source: 'pglite' | 'postgres';
  migrations: number;
  tables: Record<string, number>;
  files: string[];
  missingFiles: string[];
}

export class BackupError extends Error {
  override name = 'BackupError';
}

/** Every table of the schema, parents before children (foreign keys), by SQL name. */
export function tablesInRestoreOrder(): string[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable);
  const byName = new Map(tables.map((table) => [getTableConfig(table).name, table]));
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const fk of getTableConfig(byName.get(name)!).foreignKeys) {
      const parent = getTableConfig(fk.reference().foreignTable).name;
      if (parent !== name) visit(parent, path);
    }
    ordered.push(name);
  };
  for (const name of [...byName.keys()].sort()) visit(name, new Set());
  return ordered;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The storage keys a snapshot's rows refer to. */
async function referencedFiles(tx: AppDatabase): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(
    tx,
    sql`select commercial_license_key as key from companies where commercial_license_key is not null
        union all select storage_key from ticket_attachments where message_id is not null
        union all select thumbnail_key from ticket_attachments where message_id is not null and thumbnail_key is not null
        order by 1`,
  );
  return rows.map((row) => row.key);
}

async function migrationsApplied(db: AppDatabase): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(db, sql`select count(*) as n from drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0);
}

function addEntry(pack: tar.Pack, name: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: body.length, mode: 0o600 }, body, (error) => (error ? reject(error) : resolve()));
  });
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Writes a backup of `database` and `storage` to the file `out` (created; never overwritten). */
export async function createBackup(options: {
  database: DatabaseHandle;
  storage: FileStorage;
  out: string;
}): Promise<BackupManifest> {
  const { database, storage, out } = options;
  const handle = await fs.promises.open(out, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(
      error.code === 'EEXIST'
        ? `${out} already exists: choose a new file name.`
        : `Cannot write ${out}: ${error.message}`,
    );
  });
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), handle.createWriteStream());
  try {
    const tables: Record<string, number> = {};
    const snapshot = await inTransaction(
      database.db,
      async (txDb) => {
        const dumps: Array<[string, Buffer]> = [];
        for (const table of tablesInRestoreOrder()) {
          const rows = await queryRows<{ j: string }>(
            txDb,
            sql.raw(`select row_to_json(t)::text as j from ${quoted(table)} t`),
          );
          tables[table] = rows.length;
          dumps.push([table, Buffer.from(rows.map((row) => `${row.j}\n`).join(''))]);
        }
        return { dumps, files: await referencedFiles(txDb), migrations: await migrationsApplied(txDb) };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    for (const [table, body] of snapshot.dumps) await addEntry(pack, `db/${table}.jsonl`, body);

    const files: string[] = [];
    const missingFiles: string[] = [];
    for (const key of snapshot.files) {
      const object = await storage.get(key);
      if (!object) {
        missingFiles.push(key);
        continue;
      }
      await addEntry(pack, `files/${key}`, await toBuffer(object.body));
      files.push(key);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      source: database.kind,
      migrations: snapshot.migrations,
      tables,
      files,
      missingFiles,
    };
    await addEntry(pack, 'manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
    pack.finalize();
    await written;
    return manifest;
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => {});
    await fs.promises.rm(out, { force: true });
    throw error;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  pdf: 'application/pdf',
};
const contentTypeOf = (key: string) =>
  CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** Reads every entry of a backup file into memory (table dumps and files), checking its manifest. */
async function readBackup(from: string) {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) entries.set(entry.header.name, await toBuffer(entry as unknown as Readable));
  })();
  await pipeline(fs.createReadStream(from), createGunzip(), extract).catch((error: Error) => {
    throw new BackupError(`${from} is not a backup this program can read (${error.message}).`);
  });
  await done;
  const manifestBody = entries.get('manifest.json');
  if (!manifestBody) throw new BackupError(`${from} is not a backup: it has no manifest.json.`);
  const manifest = JSON.parse(manifestBody.toString('utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`${from} has backup format ${manifest.format}; this program reads ${BACKUP_FORMAT}.`);
  return { manifest, entries };
}

/** Whether the target holds anything: a row in any table, or any stored file. */
/**
 * Tables a new database has rows in before anyone uses it: the default service targets (a
 * migration's), the business calendar and its intervals (made at the server's first start). A
 * restore replaces them with the backup's.
 */
const MADE_BY_THE_SYSTEM = new Set(['service_targets', 'business_calendar', 'business_intervals']);

export async function findContent(database: DatabaseHandle, storage: FileStorage): Promise<string | null> {
  for (const table of tablesInRestoreOrder()) {
    if (MADE_BY_THE_SYSTEM.has(table)) continue;
    const [row] = await queryRows<{ found: unknown }>(
      database.db,
      sql.raw(`select exists (select 1 from ${quoted(table)}) as found`),
    );
    if (row?.found === true) return `the table ${table} has rows`;
  }
  const page = await storage.list('', { pageSize: 1 });
  if (page.keys.length > 0) return `the file storage holds files (${page.keys[0]})`;
  return null;
}

/** Restores a backup into an empty database and storage (migrated to this code's schema). */
export async function restoreBackup(options: {
  database: DatabaseHandle;
  storage: FileStorage;
  from: string;
}): Promise<BackupManifest> {
  const { database, storage, from } = options;
  const { manifest, entries } = await readBackup(from);
  const present = await migrationsApplied(database.db);
  if (manifest.migrations > present) {
    throw new BackupError(
      `This backup was made by a newer version (${manifest.migrations} migrations; this one has ${present}). Restore it with that version.`,
    );
  }
  const content = await findContent(database, storage);
  if (content)
    throw new BackupError(`The target is not empty: ${content}. Restore into an empty DATA_DIR or database.`);

  await inTransaction(database.db, async (txDb) => {
    // The rows are copied as they were: the triggers that keep ticket waits (migration 0013) stand
    // aside, and what migrations put in an empty database (the default service targets) gives way.
    await txDb.execute(sql`select set_config('bagspace.restoring', 'on', true)`);
    for (const table of [...tablesInRestoreOrder()].reverse())
      await txDb.execute(sql.raw(`delete from ${quoted(table)}`));
    for (const table of tablesInRestoreOrder()) {
      const lines = (entries.get(`db/${table}.jsonl`)?.toString('utf8') ?? '').split('\n').filter(Boolean);
      if (lines.length !== (manifest.tables[table] ?? 0)) {
        throw new BackupError(
          `The backup is damaged: ${table} holds ${lines.length} rows, its manifest says ${manifest.tables[table] ?? 0}.`,
        );
      }
      // Generated columns (the messages' search words) are computed again, never written.
      const columns = (
        await queryRows<{ name: string }>(
          txDb,
          sql`select column_name as name from information_schema.columns
              where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
              order by ordinal_position`,
        )
      )
        .map((c) => quoted(c.name))
        .join(', ');
      for (let i = 0; i < lines.length; i += 500) {
        const batch = `[${lines.slice(i, i + 500).join(',')}]`;
        await txDb.execute(
          sql`insert into ${sql.raw(quoted(table))} (${sql.raw(columns)}) select ${sql.raw(columns)} from json_populate_recordset(null::${sql.raw(quoted(table))}, ${batch}::json)`,
        );
      }
    }
    // Serial and identity columns continue after the restored ids.
    const serials = await queryRows<{ table_name: string; column_name: string }>(
      txDb,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and (column_default like 'nextval(%' or is_identity = 'YES')`,
    );
    for (const { table_name: table, column_name: column } of serials) {
      await txDb.execute(
        sql.raw(
          `select setval(pg_get_serial_sequence('${quoted(table)}', '${column}'), coalesce(max(${quoted(column)}), 1), max(${quoted(column)}) is not null) from ${quoted(table)}`,
        ),
      );
    }
  });

  for (const key of manifest.files) {
    const body = entries.get(`files/${key}`);
    if (!body) throw new BackupError(`The backup is damaged: the file ${key} is listed but missing.`);
    await storage.put(key, Readable.from(body), { contentType: contentTypeOf(key) });
  }
  return manifest;
}
