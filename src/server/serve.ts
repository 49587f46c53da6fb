import type { Server } from 'node:http';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import { assertDurable, findDurabilityProblems, UnsafeDurabilityError } from './db/durability.ts';
import { seedContent } from './db/seed.ts';
import { serveLocalSocket } from './db/local-socket.ts';
import { loggerOptions } from './logging.ts';
import { missingNodeFlags } from './node-flags.ts';
import { keepTickShape } from './tick-shape.ts';
import { serveMetricsOnLocalPort } from './plugins/metrics.ts';
import { BUILD_DIR, loadProductionBuild, type WebHandlerOptions } from './web/web-handler.ts';

/**
 * Reads the configuration, opens the database, serves, and shuts down gracefully on SIGTERM/SIGINT.
 * Every failure at start-up ends the process with a readable message and a non-zero exit code.
 */
async function main() {
  keepTickShape();
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  if (config.database.kind === 'pglite') lock = lockDataDir(config.dataDir);

  const database = await openDatabase(config.database);
  if (config.allowUnsafeDurability) {
    const problems = await findDurabilityProblems(database);
    if (problems.length > 0) console.warn(`WARNING: running with unsafe durability settings: ${problems.join('; ')}`);
  } else {
    await assertDurable(database).catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
  }
  if (await seedContent(database.db, { companyName: config.companyName, demo: config.seedDemoContent })) {
    console.log(JSON.stringify({ level: 30, time: Date.now(), msg: 'seeded a new database with content' }));
  }

  let web: Omit<WebHandlerOptions, 'contextFor'>;
  let closeDev: (() => Promise<void>) | undefined;
  if (config.env === 'development') {
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    closeDev = () => vite.close();
    web = {
      mode: 'development',
      build: () => vite.ssrLoadModule('virtual:react-router/server-build') as never,
      devMiddleware: vite.middlewares,
    };
  } else {
    web = { mode: 'production', build: await loadProductionBuild(), clientDir: path.join(BUILD_DIR, 'client') };
  }

  const app = await buildApp({
    config,
    database,
    web,
    logger: loggerOptions(config.logLevel),
  });
  if (!config.rateLimits)
    app.log.warn('RATE_LIMITS=off: every rate limit is disabled. Never run like this in production.');
  const missingFlags = missingNodeFlags();
  if (missingFlags.length > 0)
    app.log.warn(
      `Node was started without ${missingFlags.join(' ')}: every request costs more CPU (docs/decisions/125-async-context-without-hooks.md). npm start gives it.`,
    );

  // After a crash (UP-07, DATA-02): licence files whose registration never committed, and partial
  // uploads. Safe while registrations run (see license-sweep.ts). Local disk is swept before serving;
  // S3 after, so that an S3 outage (retried for minutes) does not hold up the start.
  const sweep = async () => {
    try {
      // With the embedded database this process owns DATA_DIR alone (the lock above), so every
      // partial upload is stale; otherwise another instance may be uploading into it right now.
      await app.partners.sweepStorage({ staleAfterMs: lock ? 0 : 60 * 60 * 1000 });
    } catch (error) {
      app.log.error({ err: error }, 'could not sweep the storage for files left by a crash');
    }
  };
  if (config.storage.kind === 'local') await sweep();

  let metricsServer: Server | undefined;
  let socket: { stop(): Promise<void> } | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // A keep-alive connection whose response ends during the close stays open until keepAliveTimeout
    // (Node closes idle connections once, when the close starts), so app.close() outlasted the force
    // timer under load: exit 1 with the database never closed (DATA-06). Close them as they go idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      metricsServer?.close();
      await app.close();
      clearInterval(idle);
      await socket?.stop();
      await closeDev?.();
      await database.close();
    } finally {
      lock?.release();
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await database.close();
    lock?.release();
    throw error;
  }
  if (config.metrics.port) metricsServer = await serveMetricsOnLocalPort(app, config.metrics.port);
  // The command line and psql reach the embedded database through the server while it runs.
  let socketNote = '';
  if (database.embedded) {
    const served = await serveLocalSocket(database.embedded, config.dataDir);
    if (served.path === null)
      app.log.warn(`the command line cannot reach the database while the server runs: ${served.reason}`);
    else {
      socket = served;
      socketNote = `\n  Command line and psql: npm run cli, psql -h ${config.dataDir} -U postgres`;
    }
  }
  if (config.storage.kind !== 'local') void sweep();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const local = `http://localhost:${port}`;
  const publicNote =
    config.publicBaseUrl !== `http://localhost:${config.port}` ? ` (public URL ${config.publicBaseUrl})` : '';
  const databaseNote = config.database.kind === 'pglite' ? `embedded (PGlite) in ${config.database.dir}` : 'PostgreSQL';
  const metricsNote =
    (config.metrics.port ? `\n  Metrics: http://127.0.0.1:${config.metrics.port}/metrics` : '') + socketNote;
  // No admin yet: a one-time link to create the first one in the browser (an hour, once).
  const setupToken = await app.firstAdminSetup.issueLink();
  // Without PUBLIC_BASE_URL the link names the port actually bound (PORT=0 picks one).
  const siteUrl = config.publicBaseUrl === `http://localhost:${config.port}` ? local : config.publicBaseUrl;
  const setupNote = setupToken
    ? `\n  No admin yet. Create the first one within an hour at:\n  ${siteUrl}/setup?token=${setupToken}\n  (or: npm run cli -- create-user --admin --email you@example.com --password-stdin)`
    : '';
  // One write, so whoever waits for the URL line also has the rest.
  console.log(
    `\n  Database: ${databaseNote}\n  ${config.companyName} is running at ${local}${publicNote}${metricsNote}${setupNote}\n`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof UnsafeDurabilityError) {
    console.error(`\n${error.message}\n`);
  } else if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    console.error(
      `\nPort ${(error as { port?: number }).port ?? ''} is already in use. Stop the other program or set PORT to a free port.\n`,
    );
  } else {
    console.error('\nThe server could not start:', error);
  }
  process.exit(1);
});
