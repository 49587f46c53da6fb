import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
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

export async function serveLocalSocket(
  db: PGlite,
  dataDir: string,
): Promise<{ path: string; stop(): Promise<void> } | { path: null; reason: string }> {
  const file = socketPath(dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    return { path: null, reason: `the data directory's path is too long for a Unix socket (${file})` };
  }
  // The server holds the data directory's lock, so a socket file left here is a dead server's.
  fs.rmSync(file, { force: true });
  const previous = process.umask(0o077);
  const server = new PGLiteSocketServer({ db, path: file, maxConnections: 8 });
  try {
    await server.start();
  } finally {
    process.umask(previous);
  }
  return {
    path: file,
    async stop() {
      await server.stop().catch(() => {});
      fs.rmSync(file, { force: true });
    },
  };
}
