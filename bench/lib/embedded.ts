import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { startServer } from '../../tests/helpers/server-process.ts';
import { createAccounts, createTickets, openBenchDatabase, signIn } from './fixtures.ts';
import { load, type LoadResult } from './load.ts';
import { percentile } from './process-stats.ts';

export interface EmbeddedFigures {
  list: LoadResult[];
  ticket: LoadResult[];
  post: LoadResult[];
  /** Posts sent one after another (as one chatty client would): their latencies, in ms. */
  sequential: { count: number; p50: number; p99: number; max: number };
}

/** Latency percentiles of one-at-a-time requests (autocannon's p99 hides a stall among 10 connections). */
async function sequentialPosts(url: string, headers: Record<string, string>, count: number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ messageBody: 'One more thing.' }) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`a sequential post answered ${res.status}`);
    latencies.push(performance.now() - started);
  }
  return { count, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) };
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
    const figures: Omit<EmbeddedFigures, 'sequential'> = { list: [], ticket: [], post: [] };
    const headers = session.bearer;
    const postHeaders = { ...headers, 'content-type': 'application/json' };
    for (let round = 0; round < options.rounds; round++) {
      figures.list.push(await load(`${base}/api/support/tickets`, { headers, seconds: options.seconds }));
      figures.ticket.push(
        await load(`${base}/api/support/tickets/${tickets[0]}/messages`, { headers, seconds: options.seconds }),
      );
      figures.post.push(
        await load(`${base}/api/support/tickets/${tickets[1]}/messages`, {
          method: 'POST',
          headers: postHeaders,
          body: JSON.stringify({ messageBody: 'Still on its way?' }),
          seconds: options.seconds,
        }),
      );
    }
    // Each post queues a notice for the team, which the mail worker composes once a second: 4,000
    // posts one at a time span several of its rounds.
    const sequential = await sequentialPosts(`${base}/api/support/tickets/${tickets[2]}/messages`, postHeaders, 4000);
    return { ...figures, sequential };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
