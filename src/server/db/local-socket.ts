import fs from 'node:fs';
import path from 'node:path';
import { type PGlite, protocol } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The embedded database, served to this machine's other programs while the server runs: a Unix
 * socket in DATA_DIR named the way PostgreSQL names its own (`.s.PGSQL.5432`), so the command line
 * connects with the `pg` driver and an operator with `psql -h "$DATA_DIR" -U postgres`. Only local
 * users who may read DATA_DIR can reach it (the socket is created owner-only, like the data).
 * PGlite runs one statement at a time; the socket server queues the clients' statements with the
 * server's own. See docs/decisions/093-embedded-database-socket.md.
 */
export const SOCKET_PORT = 5432;
export const socketPath = (dataDir: string) => path.join(path.resolve(dataDir), `.s.PGSQL.${SOCKET_PORT}`);

/** Unix socket paths are limited to 107 bytes on Linux (108 with the terminating zero). */
const MAX_SOCKET_PATH = 107;

/** The connection URL of a running server's embedded database, for the `pg` driver. */
export const socketUrl = (dataDir: string) =>
  `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.resolve(dataDir))}&port=${SOCKET_PORT}`;

/**
 * The database as the socket server sees it. PGlite is one database session, which the server's
 * own statements share with every socket client; a client's `BEGIN … COMMIT` spans several
 * messages, and between two of them the server's own statements would otherwise run inside the
 * client's transaction (a read-only backup then refused the server's writes, and the error ended
 * the backup's transaction: "Failed query"). Here each client message takes PGlite's transaction
 * lock, the one the server's own statements and transactions wait for, and a client that leaves a
 * transaction open keeps it until the transaction ends (COMMIT, ROLLBACK, or the socket closing,
 * which rolls back). The server's statements wait meanwhile, as they wait for one of their own
 * transactions.
 */
function transactionAwareView(db: PGlite): { view: PGlite; waiting(): number } {
  let release: (() => void) | undefined;
  let waiting = 0;
  const hold = () =>
    new Promise<void>((held) => {
      void db._runExclusiveTransaction(
        () =>
          new Promise<void>((done) => {
            release = done;
            held();
          }),
      );
    });
  const settle = () => {
    if (release && !db.isInTransaction()) {
      const done = release;
      release = undefined;
      done();
    }
  };
  const overrides: Partial<PGlite> = {
    // The socket server takes only the last client's statements while it sees a transaction open
    // (so two clients never meet in one), and looks again only when a statement arrives. The
    // server's own transactions are not a client's: counted as one, a statement a client sent
    // meanwhile waited for another client's statement to wake the queue, for ever if none came.
    // So it sees only a transaction a client holds; the others' statements wait for the lock.
    isInTransaction: () => release !== undefined && db.isInTransaction(),
    async runExclusive<T>(fn: () => Promise<T>): Promise<T> {
      if (!release) {
        waiting += 1;
        await hold().finally(() => (waiting -= 1));
      }
      try {
        return await db.runExclusive(fn);
      } finally {
        settle();
      }
    },
    // The socket server ends a closed client's transaction with exec('ROLLBACK'); PGlite's exec
    // would wait for the lock this client holds.
    async exec(query, options) {
      if (!release) return db.exec(query, options);
      try {
        await db.runExclusive(() => db.execProtocol(protocol.serialize.query(query), options));
        return [];
      } finally {
        settle();
      }
    },
  };
  const view = new Proxy(db, {
    get(target, key) {
      if (key in overrides) return overrides[key as keyof typeof overrides];
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { view, waiting: () => waiting };
}

export async function serveLocalSocket(
  db: PGlite,
  dataDir: string,
): Promise<{ path: string; queued(): number; stop(): Promise<void> } | { path: null; reason: string }> {
  const file = socketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    return { path: null, reason: `the data directory's path is too long for a Unix socket (${file})` };
  }
  // The server holds the data directory's lock, so a socket file left here is a dead server's.
  fs.rmSync(file, { force: true });
  const previous = process.umask(0o077);
  const { view, waiting } = transactionAwareView(db);
  const server = new PGLiteSocketServer({ db: view, path: file, maxConnections: 8 });
  try {
    await server.start();
  } finally {
    process.umask(previous);
  }
  return {
    path: file,
    /** Statements the clients have sent that wait for their turn (in the queue, or for the lock). */
    queued: () => server.getStats().queuedQueries + waiting(),
    async stop() {
      await server.stop().catch(() => {});
      fs.rmSync(file, { force: true });
    },
  };
}
