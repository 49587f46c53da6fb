import type { Server } from 'node:http';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/connection.ts';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import { assertDurable, findDurabilityProblems, UnsafeDurabilityError } from './db/durability.ts';
import { seedContent } from './db/seed.ts';
import { loggerOptions, serverLogDestination } from './logging.ts';
import { missingNodeFlags } from './node-flags.ts';
import { keepTickShape } from './tick-shape.ts';
import type { WebHandlerOptions } from './web/web-handler.ts';

/**
 * The steps of this start, each marked when it ends (`performance.mark`, in milliseconds since the
 * process started): logged once the server listens ("started"), and read by the bench's cold-start
 * section (bench/sections/cold-start.ts) to say where a start's time went.
 */
const STEP = 'start-up: ';
const step = (name: string) => performance.mark(STEP + name);
step('server entry loaded');

function startupSteps(): Record<string, number> {
  return Object.fromEntries(
    performance
      .getEntriesByType('mark')
      .filter((mark) => mark.name.startsWith(STEP))
      .map((mark) => [mark.name.slice(STEP.length), Math.round(mark.startTime)]),
  );
}

/**
 * Reads the configuration, opens the database, serves, and shuts down gracefully on SIGTERM/SIGINT.
 * Every failure at start-up ends the process with a readable message and a non-zero exit code.
 *
 * The database opens while the app's modules and the web build load (a restart's two longest
 * steps; only the modules that open the database load before): PostgreSQL's connection and queries
 * then wait on the network at no cost. PGlite's engine shares the one main thread with the module
 * loader, so for it only what runs off that thread is saved (on 2 busy cores, measured the same as
 * one after the other, 2026-12-04).
 */
async function main() {
  keepTickShape();
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  if (config.database.kind === 'pglite') lock = lockDataDir(config.dataDir);
  step('configuration read');

  const opening = openDatabase(config.database);
  const loading = Promise.all([
    import('./app.ts'),
    import('./web/web-handler.ts').then(async (web) =>
      config.env === 'development' ? { web, build: undefined } : { web, build: await web.loadProductionBuild() },
    ),
  ]);
  // Awaited below; a failure of one while the other is awaited is not an unhandled rejection.
  opening.catch(() => {});
  loading.catch(() => {});

  let database: DatabaseHandle;
  try {
    database = await opening;
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Until the server listens, a failure closes the database (and the lock goes with the process).
  const failed = async (error: unknown) => {
    await database.close().catch(() => {});
    lock?.release();
    throw error;
  };

  if (config.allowUnsafeDurability) {
    const problems = await findDurabilityProblems(database);
    if (problems.length > 0) console.warn(`WARNING: running with unsafe durability settings: ${problems.join('; ')}`);
  } else {
    await assertDurable(database).catch(failed);
  }
  if (await seedContent(database.db, { companyName: config.companyName, demo: config.seedDemoContent })) {
    console.log(JSON.stringify({ level: 30, time: Date.now(), msg: 'seeded a new database with content' }));
  }
  step('database ready');

  const [{ buildApp }, { web: webModule, build }] = await loading.catch(failed);
  step('modules and web build loaded');
  let web: Omit<WebHandlerOptions, 'contextFor'>;
  let closeDev: (() => Promise<void>) | undefined;
  if (!build) {
    // Development: Vite builds the pages on request.
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    closeDev = () => vite.close();
    web = {
      mode: 'development',
      build: () => vite.ssrLoadModule('virtual:react-router/server-build') as never,
      devMiddleware: vite.middlewares,
    };
  } else {
    web = { mode: 'production', build, clientDir: path.join(webModule.BUILD_DIR, 'client') };
  }

  // The log is written through a buffer (logging.ts): what is still in it is written before the
  // URL line, on shutdown, and at any exit (a fatal error too: Node still emits 'exit').
  const logOutput = await serverLogDestination();
  process.once('exit', logOutput.flushSync);
  const app = await buildApp({
    config,
    database,
    web,
    logger: loggerOptions(config.logLevel, logOutput.stream),
  }).catch(failed);
  step('app built');
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
      await logOutput.flush();
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
  step('listening');
  app.log.info({ startUpMs: startupSteps() }, 'started');
  if (config.metrics.port) {
    const { serveMetricsOnLocalPort } = await import('./plugins/metrics.ts');
    metricsServer = await serveMetricsOnLocalPort(app, config.metrics.port);
  }
  // The command line and psql reach the embedded database through the server while it runs.
  let socketNote = '';
  if (database.embedded) {
    const { serveLocalSocket } = await import('./db/local-socket.ts');
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
  // The start-up's log lines before the URL line: whoever waits for it has them too.
  await logOutput.flush();
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
