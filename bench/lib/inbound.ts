/**
 * Reply by email, as figures (docs/decisions/105-reply-by-email.md): a real server process started
 * as `npm start` starts it (scripts/start.js, production mode, the prebuilt web app), on PGlite and
 * on a fresh PostgreSQL database of its own (dropped after), with its SMTP receiver on 127.0.0.1
 * and, where Dovecot is installed, a private Dovecot mailbox read in IDLE (IMAP_URL). A relay
 * vouches for every mail with its Authentication-Results (INBOUND_AUTHSERV_ID), and every mail
 * answers the ticket's thread root from its owner's address, so each one is posted.
 *
 * 1. SMTP: the owner has the ticket's stream open; mails go one at a time over one connection; the
 *    latency is from `sendMail` resolving (the `250`) to the stream's `message` event with the mail's
 *    marker.
 * 2. IMAP: the same from `deliver` (dovecot-lda) resolving.
 * 3. Rate: 4 senders (one connection each) push 1,000 mails into 4 tickets, each stream open:
 *    `250`s a second until the last `250`, and posts a second until the last is on its stream.
 * Every loop is bounded in count and time; nothing here asserts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { ticketThreadId } from '../../src/server/mail/threading.ts';
import { steadyPort } from '../../tests/reliability/crash-harness.ts';
import { type Dovecot, dovecotAvailable, startDovecot } from '../../tests/helpers/dovecot.ts';
import { rawMail, receiverClient } from '../../tests/helpers/inbound-mail.ts';
import { startServer } from '../../tests/helpers/server-process.ts';
import { openSse, type SseConnection, type SseEvent } from '../../tests/helpers/sse-client.ts';
import { createAccounts, createBenchDatabase, createTickets, openBenchDatabase, signIn } from './fixtures.ts';
import { median, percentile, rssOf, sleep } from './process-stats.ts';

const REPLY_DOMAIN = 'reply.bench.example.nz';
const AUTHSERV_ID = 'relay.bench';
/** The longest wait for one mail to reach its stream, and for the whole rate run. */
const MAIL_TIMEOUT_MS = 15_000;
const RATE_TIMEOUT_MS = 180_000;
/** A latency run stops after this many mails that never arrived. */
const MAX_MISSING = 3;

export type DatabaseKind = 'PGlite' | 'PostgreSQL';

export interface Latency {
  mails: number;
  arrived: number;
  p50: number;
  p95: number;
  max: number;
  /** How long the send itself took (SMTP transaction, or dovecot-lda), median. */
  sendMedian: number;
}

export interface Rate {
  mails: number;
  senders: number;
  acked: number;
  refused: number;
  posted: number;
  /** First send until the last `250`, and until the last post reached its stream. */
  ackSeconds: number;
  postSeconds: number;
  ackPerSecond: number;
  postPerSecond: number;
  /** inbound_mail rows by state afterwards. */
  states: Record<string, number>;
  rssBefore: number;
  rssAfter: number;
}

export interface InboundFigures {
  database: DatabaseKind;
  smtp: Latency;
  /** null: Dovecot is not installed. */
  imap: Latency | null;
  rate: Rate;
}

export interface InboundBenchOptions {
  smtpCount?: number;
  imapCount?: number;
  rateCount?: number;
  senders?: number;
  onProgress?: (line: string) => void;
}

interface InboundServer {
  base: string;
  pid: number;
  smtpPort: number;
  owner: string;
  bearer: Record<string, string>;
  token: string;
  /** The host of the app's public URL: thread roots are <ticket-<id>@host>. */
  threadHost: string;
  dovecot: Dovecot | null;
  query<T>(statement: SQL): Promise<T[]>;
  stop(): Promise<void>;
}

/** A reply to a ticket's thread from its owner, vouched for by the relay. */
const replyMail = (server: InboundServer, ticketId: string, words: string) =>
  rawMail({
    from: server.owner,
    to: `support@${REPLY_DOMAIN}`,
    words,
    vouchedBy: AUTHSERV_ID,
    inReplyTo: ticketThreadId(ticketId, server.threadHost),
  });

const carries = (e: SseEvent, marker: string) => e.event === 'message' && JSON.stringify(e.data).includes(marker);

async function startInboundServer(kind: DatabaseKind, withImap: boolean): Promise<InboundServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bench-inbound-'));
  const database = kind === 'PostgreSQL' ? await createBenchDatabase() : null;
  const dovecot = withImap ? await startDovecot() : null;
  const smtpPort = await steadyPort();
  const server = startServer(
    {
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      REPLY_DOMAIN,
      INBOUND_SMTP_PORT: String(smtpPort),
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_AUTHSERV_ID: AUTHSERV_ID,
      ...(dovecot ? { IMAP_URL: dovecot.url } : {}),
    },
    { script: 'scripts/start.js' },
  );
  const stop = async () => {
    if ((await Promise.race([server.stop(), sleep(15_000).then(() => 'late' as const)])) === 'late') {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await dovecot?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const printed = await Promise.race([
      server.ready,
      sleep(60_000).then(() => Promise.reject(new Error(`the ${kind} server did not start within 60 s`))),
    ]);
    // PGlite: through the server's local socket, as the command line reaches it.
    const withDb = async <T>(work: (handle: DatabaseHandle) => Promise<T>) => {
      const handle = await openBenchDatabase(database?.url ?? socketUrl(dataDir));
      try {
        return await work(handle);
      } finally {
        await handle.close();
      }
    };
    const [owner] = await withDb((handle) => createAccounts(handle, 'inbound', 1));
    const base = printed.replace('localhost', '127.0.0.1');
    const session = await signIn(base, owner!.email);
    return {
      base,
      pid: server.child.pid!,
      smtpPort,
      owner: owner!.email,
      bearer: session.bearer,
      token: session.token,
      threadHost: new URL(printed).hostname,
      dovecot,
      query: (statement) => withDb((handle) => queryRows(handle.db, statement)),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function openStream(server: InboundServer, ticketId: string): Promise<SseConnection> {
  const stream = await openSse(`${server.base}/api/support/tickets/${ticketId}/messages/stream`, server.bearer);
  if (stream.status !== 200) throw new Error(`the ticket stream answered ${stream.status}`);
  return stream;
}

/** Mails one at a time, each timed from `send` resolving to its marker on the open stream. */
async function latency(
  server: InboundServer,
  count: number,
  label: string,
  send: (raw: string) => Promise<unknown>,
): Promise<Latency> {
  const [ticketId] = await createTickets(server.base, server.token, 1);
  const stream = await openStream(server, ticketId!);
  const values: number[] = [];
  const sends: number[] = [];
  let missing = 0;
  try {
    for (let i = 0; i < count && missing < MAX_MISSING; i++) {
      const marker = `${label}-${i}-${randomUUID().slice(0, 8)}`;
      const from = stream.events.length;
      const started = performance.now();
      await send(replyMail(server, ticketId!, `Any news on my bag? (${marker})`));
      const answered = performance.now();
      sends.push(answered - started);
      try {
        await stream.waitFor((all) => all.slice(from).some((e) => carries(e, marker)), MAIL_TIMEOUT_MS);
        values.push(performance.now() - answered);
      } catch {
        missing++;
      }
    }
  } finally {
    stream.close();
  }
  const max = values.length ? Math.max(...values) : Number.NaN;
  return {
    mails: values.length + missing,
    arrived: values.length,
    p50: median(values),
    p95: percentile(values, 95),
    max,
    sendMedian: median(sends),
  };
}

/** `senders` connections push `count` mails into a ticket each; counts `250`s and posts on the streams. */
async function rate(server: InboundServer, count: number, senders: number): Promise<Rate> {
  const tickets = await createTickets(server.base, server.token, senders);
  const streams = await Promise.all(tickets.map((id) => openStream(server, id)));
  const tag = `rate-${randomUUID().slice(0, 8)}`;
  const seen = streams.map((s) => s.events.length);
  let posted = 0;
  const countPosted = () => {
    streams.forEach((s, i) => {
      for (; seen[i]! < s.events.length; seen[i]!++) if (carries(s.events[seen[i]!]!, tag)) posted++;
    });
    return posted;
  };
  await sleep(1000);
  const rssBefore = rssOf(server.pid);
  let next = 0;
  let acked = 0;
  let refused = 0;
  let lastAck = Number.NaN;
  const deadline = Date.now() + RATE_TIMEOUT_MS;
  const t0 = performance.now();
  try {
    await Promise.all(
      tickets.map(async (ticketId) => {
        const transport = receiverClient(server.smtpPort);
        try {
          while (next < count && Date.now() < deadline) {
            const i = next++;
            try {
              const info = await transport.sendMail({
                envelope: { from: server.owner, to: `support@${REPLY_DOMAIN}` },
                raw: replyMail(server, ticketId, `Mail ${i} of ${count} (${tag}): is my bag on its way?`),
              });
              if (/^250/.test(info.response)) {
                acked++;
                lastAck = performance.now();
              } else refused++;
            } catch {
              refused++;
            }
          }
        } finally {
          transport.close();
        }
      }),
    );
    let lastPost = performance.now();
    while (countPosted() < acked && Date.now() < deadline) {
      await sleep(10);
      lastPost = performance.now();
    }
    const states = await server.query<{ state: string; n: unknown }>(
      sql`select state, count(*) as n from inbound_mail group by state order by state`,
    );
    const ackSeconds = (lastAck - t0) / 1000;
    const postSeconds = (lastPost - t0) / 1000;
    return {
      mails: count,
      senders,
      acked,
      refused,
      posted,
      ackSeconds,
      postSeconds,
      ackPerSecond: acked / ackSeconds,
      postPerSecond: posted / postSeconds,
      states: Object.fromEntries(states.map((r) => [r.state, Number(r.n)])),
      rssBefore,
      rssAfter: rssOf(server.pid),
    };
  } finally {
    for (const s of streams) s.close();
  }
}

export async function runInboundBench(options: InboundBenchOptions = {}): Promise<InboundFigures[]> {
  const { smtpCount = 200, imapCount = 50, rateCount = 1000, senders = 4 } = options;
  const progress = options.onProgress ?? (() => {});
  const figures: InboundFigures[] = [];
  for (const kind of ['PGlite', 'PostgreSQL'] as const) {
    const server = await startInboundServer(kind, dovecotAvailable);
    try {
      const transport = receiverClient(server.smtpPort);
      let smtp: Latency;
      try {
        const envelope = { from: server.owner, to: `support@${REPLY_DOMAIN}` };
        smtp = await latency(server, smtpCount, 'smtp', (raw) => transport.sendMail({ envelope, raw }));
      } finally {
        transport.close();
      }
      progress(`${kind}: SMTP latency, ${smtp.arrived} of ${smtp.mails} arrived`);
      const { dovecot } = server;
      const imap = dovecot ? await latency(server, imapCount, 'imap', (raw) => dovecot.deliver(raw)) : null;
      if (imap) progress(`${kind}: IMAP latency, ${imap.arrived} of ${imap.mails} arrived`);
      const r = await rate(server, rateCount, senders);
      progress(`${kind}: ${r.acked} accepted, ${r.posted} posted in ${r.postSeconds.toFixed(1)} s`);
      figures.push({ database: kind, smtp, imap, rate: r });
    } finally {
      await server.stop();
    }
  }
  return figures;
}
