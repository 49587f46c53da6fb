import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { startServer } from '../../tests/support/server-process.ts';
import { createAccounts, createTickets, openBenchDatabase, signIn } from './fixtures.ts';
import { load, type LoadResult } from './load.ts';

export interface EmbeddedFigures {
  list: LoadResult[];
  ticket: LoadResult[];
  post: LoadResult[];
}

/**
 * The signed-in API on the embedded database, as `npm start` runs it: a server on a fresh data
 * directory; its account is made through the server's local socket (decision 093), as the command
 * line would. Rounds alternate between a user's ticket list, one of their tickets and a message
 * post, `seconds` each, 10 connections.
 */
export async function runEmbeddedBench(
  env: Record<string, string>,
  options: { seconds: number; rounds: number },
): Promise<EmbeddedFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-embedded-'));
  const server = startServer({ ...env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' });
  try {
    const base = (await server.ready).replace('localhost', '127.0.0.1');
    const db = await openBenchDatabase(socketUrl(dataDir));
    let user;
    try {
      [user] = await createAccounts(db, 'embedded', 1);
    } finally {
      await db.close();
    }
    const session = await signIn(base, user!.email);
    const tickets = await createTickets(base, session.token, 20);
    const figures: EmbeddedFigures = { list: [], ticket: [], post: [] };
    const headers = session.bearer;
    for (let round = 0; round < options.rounds; round++) {
      figures.list.push(await load(`${base}/api/support/tickets`, { headers, seconds: options.seconds }));
      figures.ticket.push(
        await load(`${base}/api/support/tickets/${tickets[0]}/messages`, { headers, seconds: options.seconds }),
      );
      figures.post.push(
        await load(`${base}/api/support/tickets/${tickets[1]}/messages`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ messageBody: 'Still on its way?' }),
          seconds: options.seconds,
        }),
      );
    }
    return figures;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
