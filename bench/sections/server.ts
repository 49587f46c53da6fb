/**
 * Set-up of the first sections: the production build, started as `npm start` would
 * (scripts/start.js) on a fresh PostgreSQL database with the limits raised, then the accounts,
 * sessions and tickets those sections share (the app's own code writes them), and the server's
 * memory at rest on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../../scripts/ensure-build.js';
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import { type ServerProcess, startServer } from '../../tests/helpers/server-process.ts';
import {
  type Account,
  type BenchDatabase,
  createAccounts,
  createBenchDatabase,
  createTickets,
  isPostgresReachable,
  openBenchDatabase,
  POSTGRES_ADMIN_URL,
  signIn,
} from '../lib/fixtures.ts';
import { rssOf, sleep } from '../lib/process-stats.ts';
import { loadAverage, RAISED_LIMITS, results } from './common.ts';

export interface BenchServer {
  database: BenchDatabase;
  dataDir: string;
  serverEnv: Record<string, string>;
  server: ServerProcess;
}

/** Builds if needed, creates the bench database and a data dir, and starts the server (exits if PostgreSQL is down). */
export async function startBenchServer(): Promise<BenchServer> {
  ensureBuild();
  if (!(await isPostgresReachable())) {
    console.error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL). The bench needs it.`);
    process.exit(1);
  }
  const database = await createBenchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bench-'));
  console.log(
    `Bench database ${database.name}; data dir ${dataDir}; Node ${process.version}; ${os.cpus().length} CPUs; load average ${loadAverage()}`,
  );
  const serverEnv = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    ...RAISED_LIMITS,
  };
  const server = startServer(serverEnv, { script: 'scripts/start.js' });
  return { database, dataDir, serverEnv, server };
}

type Session = Awaited<ReturnType<typeof signIn>>;

/** What the sections run against the shared server are given. */
export interface ServerBench {
  base: string;
  pid: number;
  db: DatabaseHandle;
  databaseUrl: string;
  serverEnv: Record<string, string>;
  admin: Account;
  owners: Account[];
  crowdOwner: Account;
  lister: Account;
  poster: Account;
  session: (a: Account) => Promise<Session>;
  adminSession: Session;
  listerSession: Session;
  posterSession: Session;
  ownerSessions: Session[];
  /** 50 tickets for each owner, in the order of `owners`. */
  ownerTickets: string[][];
  crowdTicket: string;
  /** The lister's 10 tickets. */
  listTickets: string[];
  /** The poster's 100 tickets. */
  postTickets: string[];
}

/**
 * Waits for the server, measures its memory at rest, then creates the accounts and tickets. Pushes
 * onto `cleanups` what must be closed before the server stops.
 */
export async function prepareServerBench(
  { server, database, serverEnv }: BenchServer,
  cleanups: Array<() => Promise<unknown> | unknown>,
): Promise<ServerBench> {
  const base = (await server.ready).replace('localhost', '127.0.0.1');
  const pid = server.child.pid!;
  const db = await openBenchDatabase(database.url);
  cleanups.push(() => db.close());

  // Memory at rest on PostgreSQL: after start and a few page and API requests.
  for (const p of ['/', '/faqs', '/api/faqs?type=general', '/about', '/support'])
    await (await fetch(base + p)).arrayBuffer();
  await sleep(1000);
  results.memoryAtRestPostgres = rssOf(pid);

  // Accounts and tickets (the app's own code writes them).
  console.log('Creating accounts and tickets…');
  const [admin] = await createAccounts(db, 'admin', 1, 'admin');
  const owners = await createAccounts(db, 'owner', 20);
  const [crowdOwner, lister, poster] = await createAccounts(db, 'user', 3);
  const session = async (a: Account) => signIn(base, a.email);
  const adminSession = await session(admin!);
  const listerSession = await session(lister!);
  const posterSession = await session(poster!);
  const ownerSessions = await Promise.all(owners.map((o) => session(o)));
  const ownerTickets: string[][] = [];
  for (const s of ownerSessions) ownerTickets.push(await createTickets(base, s.token, 50));
  const [crowdTicket] = await createTickets(base, (await session(crowdOwner!)).token, 1);
  const listTickets = await createTickets(base, listerSession.token, 10);
  const postTickets = await createTickets(base, posterSession.token, 100);
  return {
    base,
    pid,
    db,
    databaseUrl: database.url,
    serverEnv,
    admin: admin!,
    owners,
    crowdOwner: crowdOwner!,
    lister: lister!,
    poster: poster!,
    session,
    adminSession,
    listerSession,
    posterSession,
    ownerSessions,
    ownerTickets,
    crowdTicket: crowdTicket!,
    listTickets,
    postTickets,
  };
}
