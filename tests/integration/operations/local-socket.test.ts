import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../src/server/db/connection.ts';
import { serveLocalSocket, socketUrl } from '../../../src/server/db/local-socket.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import { testDatabaseKind } from '../../helpers/test-app.ts';

/**
 * The embedded database shared between the server's own statements and a program on its socket
 * (the command line's backup, psql): a transaction opened on the socket is the socket's alone.
 */
describe.runIf(testDatabaseKind === 'pglite')('the embedded database on its local socket', () => {
  let dir: string;
  let database: DatabaseHandle;
  let socket: Awaited<ReturnType<typeof serveLocalSocket>>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-socket-'));
    database = await openDatabase({ kind: 'pglite', dir: path.join(dir, 'db') });
    await database.embedded!.exec('create table socket_probe (n integer not null)');
    socket = await serveLocalSocket(database.embedded!, dir);
    expect(socket.path).not.toBeNull();
  });
  afterAll(async () => {
    if (socket.path) await socket.stop();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = async () =>
    Number((await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from socket_probe`))[0]!.n);

  it("keeps the server's own writes out of a read-only transaction on the socket, and runs them after it", async () => {
    const client = new pg.Client({ connectionString: socketUrl(dir) });
    await client.connect();
    try {
      await client.query('begin isolation level repeatable read read only');
      const first = await client.query('select count(*)::int as n from socket_probe');
      // The server writes while the client's transaction is open…
      let settled = false;
      const write = database.db.execute(sql`insert into socket_probe (n) values (1)`).finally(() => {
        settled = true;
      });
      // …and the client's statements that follow see one moment, without an error.
      for (let i = 0; i < 5; i++) {
        const again = await client.query('select count(*)::int as n from socket_probe');
        expect(again.rows[0].n).toBe(first.rows[0].n);
      }
      expect(settled).toBe(false);
      await client.query('commit');
      await write;
      expect(await count()).toBe(first.rows[0].n + 1);
    } finally {
      await client.end();
    }
  });

  it('a client that goes away inside a transaction leaves nothing open: its work is rolled back, the server goes on', async () => {
    const before = await count();
    const client = new pg.Client({ connectionString: socketUrl(dir) });
    await client.connect();
    await client.query('begin');
    await client.query('insert into socket_probe (n) values (2)');
    const write = database.db.execute(sql`insert into socket_probe (n) values (3)`);
    await client.end();
    await write;
    const rows = await queryRows<{ n: number }>(database.db, sql`select n from socket_probe where n in (2, 3)`);
    expect(rows.map((row) => row.n)).toEqual([3]);
    expect(await count()).toBe(before + 1);
    // Outside any transaction, the socket and the server take turns statement by statement.
    const other = new pg.Client({ connectionString: socketUrl(dir) });
    await other.connect();
    try {
      await Promise.all([
        other.query('insert into socket_probe (n) values (4)'),
        database.db.execute(sql`insert into socket_probe (n) values (5)`),
      ]);
      expect(await count()).toBe(before + 3);
    } finally {
      await other.end();
    }
  });

  it("a program's statement sent while the server's own transaction is open runs when that transaction ends", async () => {
    const [first, second] = [0, 1].map(() => new pg.Client({ connectionString: socketUrl(dir) }));
    await Promise.all([first!.connect(), second!.connect()]);
    try {
      // The first program speaks last before the server's transaction…
      await first!.query('select 1');
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      let inside!: () => void;
      const opened = new Promise<void>((resolve) => (inside = resolve));
      const transaction = database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into socket_probe (n) values (7)`);
        inside();
        await finished;
      });
      await opened;
      // …the second sends a statement while it is open, and gets its answer once it ends.
      const answer = second!.query('select count(*)::int as n from socket_probe where n = 7');
      await expect.poll(() => (socket.path ? socket.queued() : 0)).toBeGreaterThan(0);
      finish();
      await transaction;
      expect((await answer).rows).toEqual([{ n: 1 }]);
    } finally {
      await Promise.all([first!.end(), second!.end()]);
    }
  });

  it('two programs on the socket at once each get their own statements and transactions', async () => {
    // Two command-line commands at once (the e2e set-up made admins this way): each sends its
    // statements with parameters (Parse, Bind, Execute, Sync) and its own transactions.
    const before = await count();
    const clients = [0, 1].map(() => new pg.Client({ connectionString: socketUrl(dir) }));
    await Promise.all(clients.map((client) => client.connect()));
    const rounds = 40;
    try {
      await Promise.all(
        clients.map(async (client, which) => {
          const mark = 100 + which;
          for (let i = 0; i < rounds; i++) {
            const seen = await client.query('select $1::int as n, $2::text as who', [i, `client ${which}`]);
            expect(seen.rows).toEqual([{ n: i, who: `client ${which}` }]);
            await client.query('begin');
            await client.query('insert into socket_probe (n) values ($1)', [mark]);
            await client.query('insert into socket_probe (n) values ($1)', [mark]);
            await client.query(i % 2 ? 'commit' : 'rollback');
          }
        }),
      );
      // …with the server writing between them.
      await database.db.execute(sql`insert into socket_probe (n) values (6)`);
      const rows = await queryRows<{ n: number; k: number }>(
        database.db,
        sql`select n, count(*)::int as k from socket_probe where n in (100, 101) group by n order by n`,
      );
      expect(rows).toEqual([
        { n: 100, k: rounds },
        { n: 101, k: rounds },
      ]);
      expect(await count()).toBe(before + 2 * rounds + 1);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });
});
