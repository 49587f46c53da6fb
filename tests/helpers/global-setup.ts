import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { ensureBuild } from '../../scripts/ensure-build.js';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/connection.ts';
import { createServiceLevelsRepository } from '../../src/server/modules/service-levels/service-levels.repository.ts';
import {
  createDatabase,
  dropDatabase,
  isPostgresReachable,
  POSTGRES_ADMIN_URL,
  randomDatabaseName,
  withAdminClient,
} from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
    postgresRunPrefix: string;
  }
}

/**
 * Migrates one template database per run; every test file then starts from a copy of it
 * (a PGlite data-dir dump, or PostgreSQL's CREATE DATABASE … TEMPLATE). The template holds the
 * business calendar's open intervals too, as an app makes them at its first start (about 2,500
 * rows, 0.1 to 0.4 s of CPU for each app and server the tests start on a copy).
 */
export default async function setup(project: TestProject) {
  // The servers the tests start run the server's bundle, as `npm start` does (server-process.ts):
  // built here when missing or older than its sources, before any test runs (a build replaces the
  // bundle whole, under any server running from it). Nothing to do after npm test's own check.
  ensureBuild();
  if (project.name === 'pglite') {
    const database = await openDatabase({ kind: 'pglite' });
    await withIntervals(database);
    const client = (database.db as unknown as { $client: PGlite }).$client;
    // Uncompressed: every test file loads it, and unpacking a gzip cost 0.3 s of CPU more each time.
    const dump = await client.dumpDataDir('none');
    await database.close();
    const file = path.resolve('.tmp', `pglite-template-${process.pid}.tar`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    return () => fs.rmSync(file, { force: true });
  }

  if (!(await isPostgresReachable())) {
    throw new Error(
      `The PostgreSQL suite needs a server at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL to use another).`,
    );
  }
  const prefix = randomDatabaseName('bagspace_test');
  const template = `${prefix}_tpl`;
  const database = await openDatabase({ kind: 'postgres', url: await createDatabase(template) });
  await withIntervals(database);
  await database.close();
  project.provide('postgresTemplate', template);
  project.provide('postgresRunPrefix', prefix);
  return async () => {
    const names = await withAdminClient(
      async (c) =>
        (await c.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]))
          .rows,
    );
    for (const { datname } of names) await dropDatabase(datname);
  };
}

async function withIntervals(database: DatabaseHandle) {
  await createServiceLevelsRepository(database.db).ensureIntervals(new Date());
}
