/**
 * kill -9 harness (DATA-02, DATA-06, UP-07): the real server as a
 * child process, client loops writing through the HTTP API, every request recorded as ok (2xx
 * received), fail (4xx, or a connection that was refused so nothing was sent) or unknown (reset,
 * timeout, 5xx), then a SIGKILL and a read-back straight from the database and the storage folder.
 *
 * PostgreSQL runs as a private cluster that this process starts itself, as a direct child (never
 * through pg_ctl: a SIGKILLed postmaster that was started by pg_ctl is left a zombie that nobody
 * reaps, and its postmaster.pid then blocks every restart). Everything listens on
 * 127.0.0.1 only, every loop is bounded in count and time, and every child and temp dir is tracked
 * so that `cleanupAll()` can remove what a failed test left behind.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import sharp from 'sharp';
import { lockDataDir } from '../../src/server/db/data-dir-lock.ts';
import { encodeForm, pngOf } from '../helpers/registration.ts';
import { type ServerProcess, startServer } from '../helpers/server-process.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';
import { openTestDatabase, withMigratedDatabase } from '../helpers/test-app.ts';
import { heldWithin, waitFor, waitUntil } from '../helpers/wait.ts';

/** A child process that ended while the test waited for it to start: no point waiting longer. */
class ExitedEarly extends Error {}

// --- Bookkeeping: what must be cleaned up whatever happens ----------------------------------------

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Kills every child still running (SIGKILL) and removes every temp dir; for afterAll. */
export async function cleanupAll(): Promise<void> {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all(
    [...children].map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  );
  children.clear();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** A pause, where time itself is what a crash loop varies (the moment of a kill); never to wait for an effect. */
// Time is the subject: the loops kill at chosen moments of a write.
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The kill rule of every crash loop: a run's server is killed only once it has acknowledged
 * KILL_AFTER_ACKED writes (so every run tests acknowledged writes, however slow the machine; a run
 * that does not get there within ACK_WAIT_MS is a slow run), then at a random moment within 0.9 s.
 */
export const KILL_AFTER_ACKED = 5;
export const ACK_WAIT_MS = 120_000;
export const randomKillDelay = () => Math.floor(Math.random() * 900);

/** Whether a listener can bind `port` on 127.0.0.1 right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port for a listener that a test restarts again and again on the same number (127.0.0.1): one
 * below the system's range of ephemeral ports, picked at random and checked free. A port the
 * system picked (listen on 0, close, hand on) is an ephemeral one: while its listener was down
 * between a kill and a restart, any new connection could be given it as its own end, and the
 * restart failed "already in use". Below that range only another listener asking for it by number
 * can take it.
 */
export async function steadyPort(): Promise<number> {
  let ephemeralFrom = 32768;
  try {
    const first = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(first) && first > 10_000) ephemeralFrom = first;
  } catch {
    // Not Linux: the IANA range starts at 49152; 32768 is below both.
  }
  const from = 10_000;
  const to = Math.min(ephemeralFrom, 32768);
  for (let tries = 0; tries < 50; tries++) {
    const port = from + Math.floor(Math.random() * (to - from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port from ${from} to ${to}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// --- The app server --------------------------------------------------------------------------------

export interface AppServer {
  process: ServerProcess;
  /** http://127.0.0.1:port (the server prints localhost, which may resolve to ::1). */
  url: string;
}

/**
 * Starts the production server (its bundle with NODE_ENV=production, the prebuilt web app, like
 * `npm start` without the rebuild check) on a loopback port the system picks when it listens
 * (PORT=0): a port found free beforehand could be taken by another socket before the server binds
 * it, and a restart after a kill then failed with "already in use". Rejects, with the child
 * killed, when it does not come up within `timeoutMs`.
 */
export async function startApp(env: Record<string, string>, timeoutMs = 180_000): Promise<AppServer> {
  const server = startServer({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'error', RATE_LIMITS: 'off', ...env });
  children.add(server.child);
  void server.exited.then(() => children.delete(server.child));
  let printed: string;
  try {
    printed = await withTimeout(server.ready, timeoutMs, 'server start-up');
  } catch (error) {
    server.child.kill('SIGKILL');
    await server.exited;
    throw error;
  }
  return { process: server, url: `http://127.0.0.1:${new URL(printed).port}` };
}

/** SIGKILL, and wait until the process is reaped (a zombie would still hold the data-dir lock). */
export async function killApp(app: AppServer): Promise<void> {
  app.process.child.kill('SIGKILL');
  await app.process.exited;
}

/**
 * The kill rule for a loop that counts its own acknowledgements: once `acked()` (this run's) reaches
 * KILL_AFTER_ACKED, or ACK_WAIT_MS have passed, at a random moment within 0.9 s, SIGKILL. True when
 * the run got its acknowledgements in time.
 */
export async function killOnceAcked(app: AppServer, acked: () => number): Promise<boolean> {
  // A run that gets no acknowledgements in time is a slow run, not a failure: it is killed anyway.
  const inTime = await heldWithin(`${KILL_AFTER_ACKED} acknowledged writes`, () => acked() >= KILL_AFTER_ACKED, {
    timeoutMs: ACK_WAIT_MS,
    intervalMs: 20,
  });
  await sleep(randomKillDelay()); // Time is the subject: the kill lands at a random moment of the writes.
  await killApp(app);
  return inTime;
}

/** The accounts CLI, as every test that needs an account made by an operator uses it. */
export { createUserWithCli } from '../helpers/server-process.ts';

export const newPassword = () => `Harbour-${randomBytes(6).toString('hex')}-kite`;

/** `otp`: an admin's one-time code (docs/product.md §2.15). */
export async function signIn(url: string, email: string, password: string, otp?: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ...(otp ? { otp } : {}) }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${body}`);
  const cookie = res.headers.getSetCookie().find((c) => /^(__Host-)?session=/.test(c));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie.split(';')[0]!;
}

// --- The history of writes ----------------------------------------------------------------------------

export type WriteKind = 'company' | 'ticket' | 'message';
export type Outcome = 'ok' | 'fail' | 'unknown';

export interface WriteRecord {
  kind: WriteKind;
  /** What identifies the write in the database: company name, first message body, or message clientId. */
  key: string;
  outcome: Outcome;
  status?: number;
  error?: string;
}

export interface LoadShape {
  /** Concurrent loops registering partner companies (multipart, small PNG licence). */
  companies: number;
  /** Concurrent loops opening tickets. */
  tickets: number;
  /** Concurrent loops each opening a ticket and then posting messages on it. */
  messages: number;
}

/** One request: ok only when a 2xx status and its whole body arrived. */
async function send(
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Pick<WriteRecord, 'outcome' | 'status' | 'error'> & { body?: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    // Refused: no connection, so nothing was sent. Anything else may have reached the server.
    return { outcome: code === 'ECONNREFUSED' ? 'fail' : 'unknown', error: code };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (error) {
    return {
      outcome: res.status >= 200 && res.status < 300 ? 'unknown' : res.status >= 500 ? 'unknown' : 'fail',
      status: res.status,
      error: (error as Error).name,
    };
  }
  if (res.status >= 200 && res.status < 300) return { outcome: 'ok', status: res.status, body };
  // 5xx: the server may have done part of the work; only a 4xx is a definite refusal.
  return { outcome: res.status >= 500 ? 'unknown' : 'fail', status: res.status, body };
}

let sequence = 0;
const uniqueTag = () => `${Date.now().toString(36)}${(sequence++).toString(36)}${randomBytes(3).toString('hex')}`;
/** Phone numbers must be unique across every run of a test file: a counter under a random base. */
let phoneCounter = Math.floor(Math.random() * 50_000_000);
const LICENCE = pngOf(2048);
/** A real photo (the server decodes chat photos to strip their metadata). */
const PHOTO = sharp({ create: { width: 16, height: 12, channels: 3, background: '#c33' } })
  .png()
  .toBuffer();

export interface LoadHandle {
  history: WriteRecord[];
  /** Ask every loop to stop after its current request; resolves when all have. */
  stop(): Promise<void>;
  /** Resolves when every loop has ended on its own (e.g. the server went away). */
  done: Promise<void>;
  /**
   * Resolves true once `count` writes were acknowledged (2xx), false when `withinMs` passes or every
   * loop ends first: a crash loop kills the server only after it has taken writes.
   */
  acknowledged(count: number, withinMs: number): Promise<boolean>;
}

/**
 * Starts the client loops. Each loop runs until `stop()`, until it has made `maxPerLoop` requests,
 * or (with `untilGone`) until the server stops answering (refused connections), whichever is first.
 */
export function startLoad(
  url: string,
  cookie: string,
  shape: LoadShape,
  options: { maxPerLoop?: number; timeoutMs?: number; untilGone?: boolean } = {},
): LoadHandle {
  const history: WriteRecord[] = [];
  const maxPerLoop = options.maxPerLoop ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 15_000;
  let stopped = false;
  const json = (payload: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(payload),
  });
  const photoForm = async (fields: Record<string, string>): Promise<RequestInit> => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('files', new Blob([new Uint8Array(await PHOTO)], { type: 'image/png' }), 'photo.png');
    const encoded = new Response(form);
    return {
      method: 'POST',
      headers: { 'content-type': encoded.headers.get('content-type')!, cookie },
      body: new Uint8Array(await encoded.arrayBuffer()),
    };
  };
  let acked = 0;
  const ackWaiters = new Set<{ count: number; resolve: (reached: boolean) => void }>();
  const record = (kind: WriteKind, key: string, result: Awaited<ReturnType<typeof send>>) => {
    history.push({ kind, key, outcome: result.outcome, status: result.status, error: result.error });
    if (result.outcome === 'ok') {
      acked++;
      for (const waiter of ackWaiters) if (acked >= waiter.count) waiter.resolve(true);
    }
    // A refused connection means the server is gone: nothing more to send.
    if (options.untilGone && result.error === 'ECONNREFUSED') return false;
    return true;
  };

  async function companyLoop() {
    for (let i = 0; i < maxPerLoop && !stopped; i++) {
      const tag = uniqueTag();
      const phone = String(2_000_000_000 + phoneCounter++);
      const fields = {
        companyName: `Crash Freight ${tag}`,
        phoneNumber: `0${phone}`,
        address: '12 Quay Street, Auckland 1010',
        contactPersonName: 'Aroha Ngata',
        contactPersonJobTitle: 'Operations Manager',
        contactPersonEmail: `crash.${tag}@example.nz`,
      };
      const form = await encodeForm(fields, { bytes: LICENCE, name: 'licence.png', type: 'image/png' });
      const result = await send(
        `${url}/api/companies`,
        { method: 'POST', headers: form.headers, body: new Uint8Array(form.payload) },
        timeoutMs,
      );
      if (!record('company', fields.companyName, result)) return;
    }
  }

  async function ticketLoop() {
    for (let i = 0; i < maxPerLoop && !stopped; i++) {
      const key = `Crash ticket ${uniqueTag()}: my parcel has not arrived.`;
      const result = await send(
        `${url}/api/functions/createSupportTicket`,
        json({ data: { reason: 'General', message: key } }),
        timeoutMs,
      );
      if (!record('ticket', key, result)) return;
    }
  }

  async function messageLoop() {
    let ticketId: string | undefined;
    for (let i = 0; i < maxPerLoop && !stopped; i++) {
      if (!ticketId) {
        const key = `Crash thread ${uniqueTag()}: a question about my delivery.`;
        const result = await send(
          `${url}/api/functions/createSupportTicket`,
          json({ data: { reason: 'Incident', message: key } }),
          timeoutMs,
        );
        if (!record('ticket', key, result)) return;
        if (result.outcome === 'ok') ticketId = (result.body as { result: { ticketId: string } }).result.ticketId;
        continue;
      }
      const clientId = `c${uniqueTag()}`;
      // Every third message carries a photo (a multipart send: the file is stored before the
      // message commits; docs/decisions/095-chat-attachments.md).
      const withPhoto = i % 3 === 2;
      const result = await send(
        `${url}/api/support/tickets/${ticketId}/messages`,
        withPhoto
          ? await photoForm({ messageBody: `A photo ${clientId}`, clientId })
          : json({ messageBody: `Any news? ${clientId}`, clientId }),
        timeoutMs,
      );
      if (!record('message', clientId, result)) return;
    }
  }

  const loops = [
    ...Array.from({ length: shape.companies }, companyLoop),
    ...Array.from({ length: shape.tickets }, ticketLoop),
    ...Array.from({ length: shape.messages }, messageLoop),
  ];
  const done = Promise.all(loops).then(() => {
    for (const waiter of ackWaiters) waiter.resolve(acked >= waiter.count);
  });
  return {
    history,
    done,
    acknowledged(count, withinMs) {
      if (acked >= count) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const waiter = {
          count,
          resolve: (reached: boolean) => {
            clearTimeout(timer);
            ackWaiters.delete(waiter);
            resolve(reached);
          },
        };
        const timer = setTimeout(() => waiter.resolve(false), withinMs);
        ackWaiters.add(waiter);
      });
    },
    async stop() {
      stopped = true;
      await done;
    },
  };
}

// --- Reading back --------------------------------------------------------------------------------------

/** A read-only look at what the database holds, whichever engine it is. */
export type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

export interface Tally {
  acked: number;
  failed: number;
  unknown: number;
  lost: number;
  /** Unknown writes found in the database (allowed either way). */
  unknownPresent: number;
  /** 4xx writes found in the database (never allowed). */
  failedPresent: number;
  serverErrors: number;
  lostKeys: string[];
}

export function emptyTally(): Tally {
  return {
    acked: 0,
    failed: 0,
    unknown: 0,
    lost: 0,
    unknownPresent: 0,
    failedPresent: 0,
    serverErrors: 0,
    lostKeys: [],
  };
}

export function addTally(into: Tally, more: Tally): Tally {
  into.acked += more.acked;
  into.failed += more.failed;
  into.unknown += more.unknown;
  into.lost += more.lost;
  into.unknownPresent += more.unknownPresent;
  into.failedPresent += more.failedPresent;
  into.serverErrors += more.serverErrors;
  into.lostKeys.push(...more.lostKeys);
  return into;
}

/** Which of the history's keys the database holds, per kind. */
async function presentKeys(query: Query, history: WriteRecord[]): Promise<Set<string>> {
  const keysOf = (kind: WriteKind) => history.filter((w) => w.kind === kind).map((w) => w.key);
  const present = new Set<string>();
  const companies = await query<{ k: string }>(
    'select company_name as k from companies where company_name = any($1::text[])',
    [keysOf('company')],
  );
  const tickets = await query<{ k: string }>(
    'select message_body as k from ticket_messages where message_body = any($1::text[])',
    [keysOf('ticket')],
  );
  const messages = await query<{ k: string }>(
    'select client_id as k from ticket_messages where client_id = any($1::text[])',
    [keysOf('message')],
  );
  for (const row of [...companies, ...tickets, ...messages]) present.add(row.k);
  return present;
}

/** Compares a history with the database: an acknowledged write that is missing is lost. */
export async function checkHistory(query: Query, history: WriteRecord[]): Promise<Tally> {
  const present = await presentKeys(query, history);
  const tally = emptyTally();
  for (const write of history) {
    if (write.status !== undefined && write.status >= 500) tally.serverErrors++;
    if (write.outcome === 'ok') {
      tally.acked++;
      if (!present.has(write.key)) {
        tally.lost++;
        tally.lostKeys.push(`${write.kind}:${write.key}`);
      }
    } else if (write.outcome === 'fail') {
      tally.failed++;
      if (present.has(write.key)) tally.failedPresent++;
    } else {
      tally.unknown++;
      if (present.has(write.key)) tally.unknownPresent++;
    }
  }
  return tally;
}

export interface FilesCheck {
  /** Licence files whose key no company row holds; attachment files no attachment row names. */
  orphanFiles: string[];
  /** Company rows whose licence file is not in storage; files of sent messages that are not. */
  missingFiles: string[];
  /** Leftover partial uploads (DATA_DIR/files/.partial). */
  partialFiles: number;
}

/** Storage (local disk under DATA_DIR/files) against the companies' licence keys. */
export async function checkFiles(query: Query, dataDir: string): Promise<FilesCheck> {
  const root = path.join(dataDir, 'files');
  const dir = path.join(root, 'commercialLicenses');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => `commercialLicenses/${name}`) : [];
  const partialDir = path.join(root, '.partial');
  const partialFiles = fs.existsSync(partialDir) ? fs.readdirSync(partialDir).length : 0;
  const rows = await query<{ key: string }>(
    'select commercial_license_key as key from companies where commercial_license_key is not null',
  );
  const keys = new Set(rows.map((r) => r.key));
  const onDisk = new Set(files);
  // Chat attachments: a row is written before its file, so no file may lack a row (a pending
  // row's file is kept until the hourly sweep); every sent message's files must all be there.
  const attachDir = path.join(root, 'ticketAttachments');
  const attachFiles = fs.existsSync(attachDir)
    ? fs.readdirSync(attachDir).map((name) => `ticketAttachments/${name}`)
    : [];
  const attachRows = await query<{ storage_key: string; thumbnail_key: string | null; sent: boolean }>(
    'select storage_key, thumbnail_key, message_id is not null as sent from ticket_attachments',
  );
  const named = new Set(attachRows.flatMap((r) => [r.storage_key, r.thumbnail_key ?? '']));
  const attachOnDisk = new Set(attachFiles);
  const sentKeys = attachRows.filter((r) => r.sent).flatMap((r) => [r.storage_key, r.thumbnail_key ?? r.storage_key]);
  return {
    orphanFiles: [...files.filter((f) => !keys.has(f)), ...attachFiles.filter((f) => !named.has(f))],
    missingFiles: [...[...keys].filter((k) => !onDisk.has(k)), ...sentKeys.filter((k) => !attachOnDisk.has(k))],
    partialFiles,
  };
}

/**
 * Opens the embedded database the way a restarted server would: takes the data-dir lock (the
 * killed server's lock names a dead pid and must be taken over), opens PGlite, runs `work`.
 */
export async function withPglite<T>(dataDir: string, work: (query: Query) => Promise<T>): Promise<T> {
  const lock = lockDataDir(dataDir);
  try {
    const client = await PGlite.create({ dataDir: path.join(dataDir, 'db') });
    try {
      return await work(async (text, params) => (await client.query(text, params)).rows as never);
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

export async function withPg<T>(url: string, work: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(async (text, params) => (await client.query(text, params)).rows);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * What each kill -9 loop of a mail-sending worker sets up: a real SMTP server on 127.0.0.1, a
 * migrated data directory, a fresh PostgreSQL database on the postgres project (TEST_DATABASE), the
 * server's environment (mail to that server, quick retries and leases, then `env`), and readers of
 * the database: while the server is stopped (PGlite opened directly), and while it runs (PostgreSQL
 * directly, the embedded database through the server's socket).
 */
export async function mailCrashWorld(prefix: string, env: Record<string, string>) {
  const sink = await startSmtpSink();
  const dataDir = withMigratedDatabase(tempDir(prefix));
  const database = process.env.TEST_DATABASE === 'postgres' ? await openTestDatabase() : null;
  if (database) await database.database.close();
  const url = database?.url;
  const readRunning = <T>(work: (query: Query) => Promise<T>) =>
    url
      ? withPg(url, work)
      : (async () => {
          const client = new pg.Client({ host: dataDir, user: 'postgres', database: 'postgres' });
          await client.connect();
          try {
            return await work(async (text, params) => (await client.query(text, params)).rows);
          } finally {
            await client.end().catch(() => {});
          }
        })();
  return {
    sink,
    dataDir,
    env: {
      DATA_DIR: dataDir,
      ...(url ? { DATABASE_URL: url } : {}),
      SMTP_URL: sink.url,
      MAIL_RETRY_FIRST_SECONDS: '1',
      MAIL_LEASE_SECONDS: '3',
      ...env,
    } as Record<string, string>,
    readStopped: <T>(work: (query: Query) => Promise<T>) => (url ? withPg(url, work) : withPglite(dataDir, work)),
    readRunning,
    async close() {
      await sink.close();
      await database?.close().catch(() => {});
    },
  };
}

// --- A private PostgreSQL cluster ----------------------------------------------------------------------

/** The newest installed PostgreSQL server binaries (Debian layout), or undefined. */
export function findPostgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter(
      (v) => fs.existsSync(path.join(base, v, 'bin', 'postgres')) && fs.existsSync(path.join(base, v, 'bin', 'initdb')),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

/** PostgreSQL refuses to run as root: as root, the cluster runs as the postgres OS user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (result.status !== 0 || group.status !== 0)
    throw new Error('running as root needs a "postgres" OS user for the private cluster');
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}

/** Pids of the processes whose working directory is `dir` (a postmaster and all its children). */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readlinkSync(`/proc/${name}/cwd`) === dir) pids.push(Number(name));
    } catch {
      // gone, a zombie (no cwd), or not ours to read
    }
  }
  return pids;
}

export class PgCluster {
  readonly root: string;
  readonly dataDir: string;
  readonly socketDir: string;
  port = 0;
  private postmaster: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private log = '';
  private readonly user = postgresUser();

  readonly bin: string;

  private constructor(bin: string) {
    this.bin = bin;
    this.root = tempDir('bagspace-pg-');
    this.dataDir = path.join(this.root, 'data');
    this.socketDir = path.join(this.root, 'sock');
    fs.mkdirSync(this.socketDir);
    if (this.user) for (const p of [this.root, this.socketDir]) fs.chownSync(p, this.user.uid, this.user.gid);
  }

  /** initdb into a fresh temp dir (trust auth on loopback only; the cluster never listens elsewhere). */
  static create(bin: string): PgCluster {
    const cluster = new PgCluster(bin);
    const result = spawnSync(
      path.join(bin, 'initdb'),
      ['-D', cluster.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      {
        encoding: 'utf8',
        timeout: 120_000,
        uid: cluster.user?.uid,
        gid: cluster.user?.gid,
        env: { PATH: process.env.PATH ?? '', LANG: 'C' },
      },
    );
    if (result.status !== 0) throw new Error(`initdb failed (${result.status}): ${result.stdout}${result.stderr}`);
    return cluster;
  }

  /** What /proc/<pid>/cwd shows for the cluster's processes (tmpdir may be behind a symlink). */
  private realDataDir(): string {
    this.realDir ??= fs.realpathSync(this.dataDir);
    return this.realDir;
  }
  private realDir: string | undefined;

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  output(): string {
    return this.log.slice(-4000);
  }

  /** Starts `postgres` as a direct child (so that we reap it), with extra `-c` settings; waits until it answers. */
  async start(settings: Record<string, string> = {}, timeoutMs = 180_000): Promise<void> {
    if (this.postmaster) throw new Error('the cluster is already running');
    this.port = await steadyPort();
    const args = [
      '-D',
      this.dataDir,
      '-p',
      String(this.port),
      '-k',
      this.socketDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=40',
    ];
    for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
    const child = spawn(path.join(this.bin, 'postgres'), args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: this.user?.uid,
      gid: this.user?.gid,
      env: { PATH: process.env.PATH ?? '', LANG: 'C' },
    });
    children.add(child);
    this.postmaster = child;
    this.log = '';
    const keep = (d: Buffer) => {
      this.log = (this.log + d.toString()).slice(-20_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        children.delete(child);
        if (this.postmaster === child) this.postmaster = undefined;
        resolve();
      }),
    );
    try {
      await waitFor(
        'postgres to accept connections',
        async () => {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new ExitedEarly(`postgres exited during start-up:\n${this.output()}`);
          await withPg(this.url('postgres'), (q) => q('select 1'));
          return true;
        },
        { timeoutMs, intervalMs: 50, stopOn: (error) => error instanceof ExitedEarly },
      );
    } catch (error) {
      if (error instanceof ExitedEarly) throw error;
      await this.crash();
      throw new Error(`postgres did not accept connections within ${timeoutMs} ms:\n${this.output()}`, {
        cause: error,
      });
    }
  }

  private known: number[] = [];

  /** Lists the cluster's processes now, so that `crashNow` needs no slow /proc scan at the kill. */
  snapshotProcesses(): void {
    this.known = processesIn(this.realDataDir());
  }

  /**
   * SIGKILL the postmaster and every process of the cluster at once: no shutdown checkpoint, no
   * WAL flush, shared memory gone. The postmaster's children call setsid(), so a process-group
   * kill would miss them; they are found by their working directory (the data dir) instead, from
   * `snapshotProcesses()` (then again afterwards, for any forked since). Synchronous up to the
   * kills, so that a caller can kill the app in the same tick.
   */
  crashNow(): Promise<void> {
    const postmaster = this.postmaster;
    if (!postmaster?.pid) return this.exited;
    const pids = new Set([postmaster.pid, ...this.known]);
    this.known = [];
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    return this.afterKill();
  }

  private async afterKill(): Promise<void> {
    await this.exited;
    // Children that outlived the postmaster for a moment (reparented, so not ours to reap).
    await waitUntil(
      'every process of the cluster gone after SIGKILL',
      () => {
        const left = processesIn(this.realDataDir());
        for (const pid of left) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone
          }
        }
        return left.length === 0;
      },
      { intervalMs: 10, seen: () => processesIn(this.realDataDir()).join(', ') },
    );
  }

  async crash(): Promise<void> {
    await this.crashNow();
  }

  /** Fast shutdown (SIGINT): a clean stop, for the end of a test. */
  async stop(): Promise<void> {
    const postmaster = this.postmaster;
    if (!postmaster) return;
    postmaster.kill('SIGINT');
    let exited = false;
    void this.exited.then(() => (exited = true));
    const clean = await heldWithin('postgres to stop on SIGINT', () => exited);
    if (!clean) await this.crash();
  }

  async destroy(): Promise<void> {
    if (this.postmaster) await this.crash().catch(() => {});
    fs.rmSync(this.root, { recursive: true, force: true });
    tempDirs.delete(this.root);
  }
}

/** Creates a database in the cluster (the app migrates it on first start). */
export async function createClusterDatabase(cluster: PgCluster, name: string): Promise<string> {
  await withPg(cluster.url('postgres'), (q) => q(`create database ${pg.escapeIdentifier(name)}`));
  return cluster.url(name);
}
