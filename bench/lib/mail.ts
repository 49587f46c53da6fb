/**
 * The mail outbox's throughput, as figures: how fast `outbox.enqueue` records mail (sequential
 * inserts, each its own statement, as a request that changes one thing would), and how fast the
 * outbox worker (modules/notifications, production defaults: claims of 4, 4 sends at a time) delivers
 * what is recorded, to a real SMTP server on 127.0.0.1 (tests/helpers/smtp-sink.ts) or into the
 * .eml outbox directory. Runs on a fresh PostgreSQL database of its own (never the one a bench server
 * runs on: that server's own worker would take the mail) and on in-memory PGlite; both go away after.
 *
 * Reading the SMTP figures: the sink's smtp-server holds every greeting 100 ms (its early-talker
 * check). The transport keeps a pool of 4 connections, so that wait is paid once per connection, not
 * per mail (a connection per mail topped out near 4 / 0.1 s = 40 mails/s). A real mail server's
 * greeting and round trips set the
 * same ceiling in production. The .eml figure is the worker and the database without a network.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type AppDatabase, type DatabaseHandle, openDatabase } from '../../src/server/db/connection.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { createMailTransport, type MailTransport } from '../../src/server/mail/mailer.ts';
import { createOutbox, type Outbox, type QueuedMail } from '../../src/server/mail/outbox.ts';
import { ticketReplyMail } from '../../src/server/modules/notifications/notifications.mail.ts';
import type { Logger } from '../../src/server/logging.ts';
import { createOutboxWorker } from '../../src/server/modules/notifications/notifications.worker.ts';
import { startSmtpSink, type SmtpSink } from '../../tests/helpers/smtp-sink.ts';
import { createBenchDatabase } from './fixtures.ts';
import { median, percentile, sleep } from './process-stats.ts';

const DOMAIN = 'bench.example.nz';
const MAIL_CONTEXT = { companyName: 'Bagspace', publicBaseUrl: `https://${DOMAIN}`, replyAddressDays: 180 };
const FROM = `"Bagspace" <no-reply@${DOMAIN}>`;
/** Transient failures are retried after about a second (production: 30 s), so a retry shows within the run. */
const RETRY_FIRST_SECONDS = 1;

export type DatabaseKind = 'PostgreSQL' | 'PGlite';

export interface RecordResult {
  database: DatabaseKind;
  mails: number;
  seconds: number;
  perSecond: number;
  /** One enqueue, median and 99th percentile. */
  medianMs: number;
  p99Ms: number;
}

export interface DeliveryResult {
  database: DatabaseKind;
  target: 'SMTP 127.0.0.1' | '.eml directory';
  mails: number;
  /** Worker start until the last of `mails` arrived (or the time-out; then the rate counts what arrived by then). */
  seconds: number;
  perSecond: number;
  timedOut: boolean;
  /** Worker start until the first mail arrived. */
  firstMs: number;
  /** One transport.deliver call (an SMTP transaction, or compose + write + rename of a file). */
  deliverMedianMs: number;
  deliverP99Ms: number;
  /** What arrived in all: SMTP messages the sink accepted, or .eml files in the directory. */
  received: number;
  /** Distinct recorded Message-IDs among them (SMTP), distinct files (.eml). */
  distinct: number;
  /** Arrivals beyond one per mail: SMTP messages whose Message-ID came before; for .eml, sends beyond the files there are (a retry overwrites its file). */
  duplicates: number;
  /** Recorded mails that never arrived. */
  lost: number;
  /** Arrivals with a Message-ID that was never recorded (SMTP only). */
  unknown: number;
  /** transport.deliver calls the worker made. */
  sends: number;
  worker: { composed: number; delivered: number; retried: number; failed: number };
  /** mail_outbox rows by state once the worker has stopped. */
  states: Record<string, number>;
  warnings: number;
  errors: number;
  lastProblem?: string;
}

export interface MailBenchResult {
  count: number;
  smtpCount: number;
  worker: { batch: number; concurrency: number; retryFirstSeconds: number };
  record: RecordResult[];
  delivery: DeliveryResult[];
}

export interface MailBenchOptions {
  /** Mails recorded per database, and delivered into the .eml directory. */
  count: number;
  /** Mails delivered over SMTP per database (each takes over 100 ms: see the header). */
  smtpCount: number;
  /** Longest wait for one delivery run. */
  timeoutMs?: number;
  onProgress?: (line: string) => void;
}

const bareId = (id: string) => id.trim().replace(/^<|>$/g, '');

/** A ticket-reply notification as the worker composes it: both bodies, the unsubscribe headers. */
function benchMail(i: number): QueuedMail {
  const url = `${MAIL_CONTEXT.publicBaseUrl}/unsubscribe/bench-${i}`;
  const ref = { id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, ticketNo: 1000 + i, reason: 'General' };
  const answer = `Kia ora, your parcel ${i} left Auckland this morning and should reach you within two working days.`;
  return {
    ...ticketReplyMail(MAIL_CONTEXT, { email: `owner-${i % 50}@${DOMAIN}`, name: null }, ref, [answer], url),
    kind: 'ticket-reply',
    headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** Records `count` mails one after the other; returns the figures and the recorded Message-IDs. */
async function record(
  database: DatabaseKind,
  db: AppDatabase,
  outbox: Outbox,
  count: number,
): Promise<{ result: RecordResult; ids: string[] }> {
  const mails = Array.from({ length: count }, (_, i) => benchMail(i));
  const ids: string[] = [];
  const each: number[] = [];
  const t0 = performance.now();
  for (const mail of mails) {
    const t = performance.now();
    ids.push(await outbox.enqueue(db, mail));
    each.push(performance.now() - t);
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    result: {
      database,
      mails: count,
      seconds,
      perSecond: count / seconds,
      medianMs: median(each),
      p99Ms: percentile(each, 99),
    },
    ids,
  };
}

const emlCount = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).length : 0;

/**
 * Starts a worker on what is recorded and times it from start until `ids.length` mails have arrived
 * (bounded by `timeoutMs`); then lets it finish, runs one more round to give a late duplicate every
 * chance, and counts what arrived.
 */
async function deliver(
  database: DatabaseKind,
  db: AppDatabase,
  ids: string[],
  target: 'smtp' | 'eml',
  timeoutMs: number,
): Promise<DeliveryResult> {
  const count = ids.length;
  const sink: SmtpSink | null = target === 'smtp' ? await startSmtpSink() : null;
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-bench-mail-'));
  const inner = createMailTransport({ from: FROM, smtpUrl: sink?.url, outboxDir });
  const deliverMs: number[] = [];
  let sent = 0;
  let firstAt = Number.NaN;
  const transport: MailTransport = {
    kind: inner.kind,
    async deliver(mail) {
      const t = performance.now();
      try {
        await inner.deliver(mail);
      } finally {
        deliverMs.push(performance.now() - t);
      }
      sent++;
      if (Number.isNaN(firstAt)) firstAt = performance.now();
    },
    close: () => inner.close(),
  };
  let warnings = 0;
  let errors = 0;
  let lastProblem: string | undefined;
  const log: Logger = {
    info() {},
    warn(details, message) {
      warnings++;
      lastProblem = `${message}: ${JSON.stringify(details).slice(0, 200)}`;
    },
    error(details, message) {
      errors++;
      lastProblem = `${message}: ${String((details as { err?: unknown; error?: unknown }).err ?? JSON.stringify(details)).slice(0, 200)}`;
    },
  };
  // An outbox of its own, so `wake` reaches this worker only.
  const outbox = createOutbox({ domain: DOMAIN, retryHours: 1 });
  const worker = createOutboxWorker({
    db,
    transport,
    outbox,
    mail: MAIL_CONTEXT,
    log,
    retryFirstSeconds: RETRY_FIRST_SECONDS,
  });
  // SMTP: what the sink has accepted. Files: sends that returned (the file is renamed into place by
  // then); counting the directory while the worker writes to it would take time from the worker.
  const arrived = () => (sink ? sink.messages.length : sent);
  try {
    const t0 = performance.now();
    const deadline = Date.now() + timeoutMs;
    worker.start();
    // As a request that committed mail does: the worker looks at once rather than after its 1 s poll.
    outbox.wake();
    while (arrived() < count && Date.now() < deadline) await sleep(2);
    const elapsed = performance.now() - t0;
    const got = arrived();
    const timedOut = got < count;
    if (!timedOut) {
      // Let the worker record the last outcomes, then run one more full round for a late duplicate.
      const settle = Date.now() + 5000;
      while (worker.stats().delivered + worker.stats().failed < count && Date.now() < settle) await sleep(10);
      await sleep(200);
      await worker.runOnce();
    }
    // On a time-out this finishes the batch in hand only.
    await worker.stop();

    const stateRows = await queryRows<{ state: string; n: unknown }>(
      db,
      sql`select state, count(*) as n from mail_outbox group by state order by state`,
    );
    const states = Object.fromEntries(stateRows.map((r) => [r.state, Number(r.n)]));
    const stats = worker.stats();
    let received: number;
    let distinct: number;
    let duplicates: number;
    let unknown = 0;
    if (sink) {
      const recorded = new Set(ids.map(bareId));
      const seen = new Set<string>();
      duplicates = 0;
      for (const m of sink.messages) {
        const id = bareId(m.messageId);
        if (!recorded.has(id)) unknown++;
        else if (seen.has(id)) duplicates++;
        else seen.add(id);
      }
      received = sink.messages.length;
      distinct = seen.size;
    } else {
      received = emlCount(outboxDir);
      distinct = received;
      duplicates = Math.max(0, deliverMs.length - received);
    }
    return {
      database,
      target: sink ? 'SMTP 127.0.0.1' : '.eml directory',
      mails: count,
      seconds: elapsed / 1000,
      perSecond: got / (elapsed / 1000),
      timedOut,
      firstMs: firstAt - t0,
      deliverMedianMs: median(deliverMs),
      deliverP99Ms: percentile(deliverMs, 99),
      received,
      distinct,
      duplicates,
      lost: count - distinct,
      unknown,
      sends: deliverMs.length,
      worker: stats,
      states,
      warnings,
      errors,
      lastProblem,
    };
  } finally {
    await worker.stop();
    await transport.close();
    await sink?.close();
    fs.rmSync(outboxDir, { recursive: true, force: true });
  }
}

/** Clears the table between runs, so each run's worker sees only its own mail. */
async function clearOutbox(db: AppDatabase) {
  await db.execute(sql`delete from mail_outbox`);
}

export async function runMailBench(options: MailBenchOptions): Promise<MailBenchResult> {
  const { count, smtpCount, timeoutMs = 20_000 } = options;
  const progress = options.onProgress ?? (() => {});
  const outbox = createOutbox({ domain: DOMAIN, retryHours: 1 });
  const result: MailBenchResult = {
    count,
    smtpCount,
    worker: { batch: 4, concurrency: 4, retryFirstSeconds: RETRY_FIRST_SECONDS },
    record: [],
    delivery: [],
  };
  const report = (r: RecordResult | DeliveryResult) => {
    if ('target' in r) {
      result.delivery.push(r);
      progress(
        `${r.database} → ${r.target}: ${r.received} arrived of ${r.mails} in ${r.seconds.toFixed(2)} s${r.timedOut ? ' (timed out)' : ''}`,
      );
    } else {
      result.record.push(r);
      progress(`${r.database}: recorded ${r.mails} in ${r.seconds.toFixed(2)} s`);
    }
  };

  const bench = await createBenchDatabase();
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase({ kind: 'postgres', url: bench.url });
    report((await record('PostgreSQL', handle.db, outbox, count)).result);
    await clearOutbox(handle.db);
    const { ids } = await record('PostgreSQL', handle.db, outbox, smtpCount);
    report(await deliver('PostgreSQL', handle.db, ids, 'smtp', timeoutMs));
  } finally {
    await handle?.close();
    await bench.drop();
  }

  const lite = await openDatabase({ kind: 'pglite' });
  try {
    const recorded = await record('PGlite', lite.db, outbox, count);
    report(recorded.result);
    report(await deliver('PGlite', lite.db, recorded.ids, 'eml', timeoutMs));
    await clearOutbox(lite.db);
    const { ids } = await record('PGlite', lite.db, outbox, smtpCount);
    report(await deliver('PGlite', lite.db, ids, 'smtp', timeoutMs));
  } finally {
    await lite.close();
  }
  return result;
}
