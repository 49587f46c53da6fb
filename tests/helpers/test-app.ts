import type { Clock } from '../../src/server/clock.ts';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DNSResolver } from 'mailauth';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/connection.ts';
import { seedContent } from '../../src/server/db/seed.ts';
import { BUILD_DIR, loadProductionBuild } from '../../src/server/web/web-handler.ts';
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from './postgres.ts';

export const testDatabaseKind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  database: DatabaseHandle;
  /** Set for PostgreSQL: other processes (a second app instance) can connect to it. */
  url?: string;
  close(): Promise<void>;
}

/**
 * For a server or command-line process started on `dataDir` (the embedded database): puts the run's
 * migrated PGlite template in DATA_DIR/db, as every in-process test file starts from it, and
 * returns `dataDir`. It saves the process PGlite's initdb and the migrations, about 4.5 s of CPU
 * (decision 100). Tests of a first start on an empty directory (startup, /setup) do not use it. In a
 * project without the template (postgres) the directory stays empty and the process makes its own.
 */
export function withMigratedDatabase(dataDir: string): string {
  const template = inject('pgliteTemplate');
  if (!template) return dataDir;
  const target = path.join(dataDir, 'db');
  fs.mkdirSync(target, { recursive: true });
  const unpacked = spawnSync('tar', ['-xf', template, '-C', target], { encoding: 'utf8' });
  if (unpacked.status !== 0) throw new Error(`unpacking the PGlite template failed: ${unpacked.stderr}`);
  return dataDir;
}

/** A fresh, migrated database for one test file, of the kind this project runs (PGlite or PostgreSQL). */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'postgres') {
    const name = randomDatabaseName(inject('postgresRunPrefix'));
    const url = await createDatabase(name, inject('postgresTemplate'));
    const database = await openDatabase({ kind: 'postgres', url });
    return {
      database,
      url: databaseUrl(name),
      async close() {
        await database.close();
        await dropDatabase(name);
      },
    };
  }
  const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
  const database = await openDatabase({ kind: 'pglite', loadDataDir: template });
  return { database, close: () => database.close() };
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** PostgreSQL only: the test database's URL, for a second connection of the test's own. */
  databaseUrl?: string;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database, called through `inject`. `web: true` serves the pages from the
 * production build (npm test builds it first).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    web?: boolean;
    seed?: boolean;
    /** false: mail moves only on `app.mailWorker.runOnce()` */ mailWorker?: boolean;
    /** DNS for the inbound mail's DMARC check (tests/helpers/mail-dns.ts). */
    dnsResolver?: DNSResolver;
    /** The clock of time-driven work (service levels, auto-close); a test moves it. */
    clock?: Clock;
    /** false: service-level warnings and the auto-close run only when the test calls them. */
    serviceLevelWorker?: boolean;
    /** The server's logger (none by default); a test that reads the log passes its own stream. */
    logger?: Parameters<typeof buildApp>[0]['logger'];
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...options.env });
  const test = await openTestDatabase();
  if (options.seed ?? true) await seedContent(test.database.db, { companyName: config.companyName, demo: true });
  const app = await buildApp({
    config,
    database: test.database,
    startMailWorker: options.mailWorker ?? true,
    ...(options.dnsResolver ? { dnsResolver: options.dnsResolver } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.serviceLevelWorker !== undefined ? { startServiceLevelWorker: options.serviceLevelWorker } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    web: options.web
      ? { mode: 'production', build: await loadProductionBuild(), clientDir: path.join(BUILD_DIR, 'client') }
      : undefined,
  });
  await app.ready();
  return {
    app,
    database: test.database,
    databaseUrl: test.url,
    config,
    dataDir,
    async close() {
      await app.close();
      await test.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
