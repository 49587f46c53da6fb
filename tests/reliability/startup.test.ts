import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';
import { withAdminClient } from '../helpers/postgres.ts';
import { openTestDatabase, testDatabaseKind, withMigratedDatabase } from '../helpers/test-app.ts';

const dataDirs: string[] = [];
function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-start-'));
  dataDirs.push(dir);
  return dir;
}
afterAll(() => dataDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe.runIf(testDatabaseKind === 'pglite')('start-up on the embedded database', () => {
  it('seeds demo content into an empty data dir, serves it, and stops cleanly on SIGTERM', async () => {
    const dataDir = freshDataDir();
    const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
    const url = await server.ready;
    const faqs = await (await fetch(`${url}/api/faqs?type=general`)).json();
    expect(faqs.faqs.length).toBeGreaterThan(2);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(true);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    // A restart keeps the data and does not seed twice.
    const again = startServer({ DATA_DIR: dataDir, PORT: '0' });
    const url2 = await again.ready;
    const faqs2 = await (await fetch(`${url2}/api/faqs?type=general`)).json();
    expect(faqs2.faqs.length).toBe(faqs.faqs.length);
    expect(again.output()).not.toContain('seeded');
    expect(again.output()).not.toContain('Node was started without');
    await again.stop();
  }); // Two cold starts of the embedded database (migrations, seed): 12 s alone, past 90 s on a loaded 2-core machine; the suite's deadline (vitest.config.ts) bounds it.

  it('refuses a second server on the same DATA_DIR with a clear message', async () => {
    const dataDir = withMigratedDatabase(freshDataDir());
    const first = startServer({ DATA_DIR: dataDir, PORT: '0' });
    await first.ready;
    const second = startServer({ DATA_DIR: dataDir, PORT: '0' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is already using the data directory ${dataDir}`);
    // The first one is unharmed.
    const url = await first.ready;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await first.stop();
  });

  it("says so at start-up when Node was started without the server's flags, and serves all the same", async () => {
    const server = startServer({ DATA_DIR: withMigratedDatabase(freshDataDir()), PORT: '0' }, { nodeFlags: [] });
    const url = await server.ready;
    expect((await fetch(`${url}/faqs`)).status).toBe(200);
    expect(server.output()).toContain(
      'Node was started without --experimental-async-context-frame: every request costs more CPU',
    );
    expect(await server.stop()).toBe(0);
  });

  it('stops at start-up with a message naming a wrong setting', async () => {
    const server = startServer({ DATA_DIR: freshDataDir(), PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('PORT must be a whole number from 0 to 65535 (got "eighty")');
  });

  it('writes JSON logs that carry the request id it returns, while it runs and all of them by its stop', async () => {
    const server = startServer({ DATA_DIR: withMigratedDatabase(freshDataDir()), PORT: '0', LOG_LEVEL: 'info' });
    const url = await server.ready;
    const res = await fetch(`${url}/api/faqs?type=general`);
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    const lines = () =>
      server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { reqId?: string; msg: string; req?: { url: string } });
    // The line is buffered, and written by the buffer's periodic flush while the server runs.
    await waitFor(`the log line of request ${id}`, () =>
      lines().some((l) => l.reqId === id && l.msg === 'request completed'),
    );
    // Many more lines than one write holds: every one of them is written, the last ones at the stop.
    // The addresses alternate on the client's kept-alive connections: each line names its own.
    const asked = new Map<string, string>();
    for (let round = 0; round < 20; round++) {
      const paths = Array.from({ length: 20 }, (_, i) => ((round + i) % 2 === 0 ? '/faqs' : '/api/faqs?type=general'));
      const answers = await Promise.all(paths.map((path) => fetch(`${url}${path}`)));
      answers.forEach((answer, i) => asked.set(answer.headers.get('x-request-id')!, paths[i]!));
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    }
    expect(await server.stop()).toBe(0);
    const logged = new Map(lines().map((l) => [l.reqId, l.req?.url]));
    expect([...asked].filter(([id, path]) => logged.get(id) !== path)).toEqual([]);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('start-up on PostgreSQL', () => {
  it('uses DATABASE_URL instead of the embedded database', async () => {
    const db = await openTestDatabase();
    try {
      const dataDir = freshDataDir();
      const server = startServer({ DATA_DIR: dataDir, PORT: '0', DATABASE_URL: db.url! });
      const url = await server.ready;
      expect(server.output()).toContain('Database: PostgreSQL');
      expect((await (await fetch(`${url}/api/faqs?type=sender`)).json()).faqs.length).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(false);
      expect(await server.stop()).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe.runIf(testDatabaseKind === 'postgres')('durability settings (DATA-01)', () => {
  it('refuses to start on a PostgreSQL that would lose acknowledged writes, unless told otherwise', async () => {
    const db = await openTestDatabase();
    try {
      const name = new URL(db.url!).pathname.slice(1);
      await withAdminClient((c) => c.query(`alter database "${name}" set synchronous_commit = off`));
      const refused = startServer({ DATA_DIR: freshDataDir(), PORT: '0', DATABASE_URL: db.url! });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        'PostgreSQL could lose acknowledged writes: synchronous_commit is off (needs on)',
      );

      const allowed = startServer({
        DATA_DIR: freshDataDir(),
        PORT: '0',
        DATABASE_URL: db.url!,
        ALLOW_UNSAFE_DURABILITY: 'true',
      });
      await allowed.ready;
      expect(allowed.output()).toContain('WARNING: running with unsafe durability settings');
      expect(await allowed.stop()).toBe(0);
    } finally {
      await db.close();
    }
  });
});
