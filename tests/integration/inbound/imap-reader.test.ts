// One database: the IMAP reader is tested against Dovecot alone, with no database.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createImapReader,
  type ImapReaderOptions,
  type ImapReaderStats,
} from '../../../src/server/modules/inbound/inbound.imap.ts';
import { type Dovecot, dovecotAvailable, startDovecot } from '../../helpers/dovecot.ts';
import { waitUntil } from '../../helpers/wait.ts';

/**
 * The IMAP reader against a real Dovecot (tests/helpers/dovecot.ts). No database: it runs in the
 * PGlite project only. Without Dovecot it is skipped, except in CI, where .ci/run installs it.
 */

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  details: object;
  message: string;
}
const logs: LogEntry[] = [];
const log: ImapReaderOptions['log'] = {
  info: (details, message) => logs.push({ level: 'info', details, message }),
  warn: (details, message) => logs.push({ level: 'warn', details, message }),
  error: (details, message) => logs.push({ level: 'error', details, message }),
};

/** Every message body carries this marker: it must never reach the log. */
const BODY_MARKER = `body-${randomBytes(6).toString('hex')}`;
let sequence = 0;
function mail(subject: string): string {
  sequence++;
  return [
    'From: Customer <customer@example.nz>',
    'To: support@example.test',
    `Subject: ${subject}`,
    `Message-ID: <imap-reader-${sequence}-${Date.now()}@example.nz>`,
    `Date: ${new Date().toUTCString()}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Kia ora, ${BODY_MARKER} number ${sequence}.`,
    '',
  ].join('\r\n');
}
const subjectOf = (raw: Buffer) => /^Subject: (.*)$/m.exec(raw.toString('utf8'))?.[1]?.trim() ?? '';

describe.skipIf(!dovecotAvailable && !process.env.CI)('IMAP reader with a real Dovecot', () => {
  let dovecot: Dovecot;
  const readers: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.stop();
  });
  afterAll(async () => {
    await dovecot?.stop();
  });

  function reader(options: Partial<ImapReaderOptions> & Pick<ImapReaderOptions, 'store'>) {
    const created = createImapReader({ url: dovecot.url, moveTo: 'Processed', log, ...options });
    readers.push(created);
    return created;
  }
  const settled = (stats: () => ImapReaderStats, moved: number) => () => stats().moved >= moved;

  it('stores the messages already in INBOX, each before it is moved to Processed (created)', async () => {
    expect(await dovecot.mailboxCount('Processed')).toBe(0);
    for (const subject of ['First', 'Second', 'Third']) await dovecot.deliver(mail(subject));
    expect(await dovecot.mailboxCount('INBOX')).toBe(3);

    const stored: Array<{ subject: string; raw: Buffer; inboxAtStore: number }> = [];
    const imap = reader({
      store: async (raw) => {
        stored.push({ subject: subjectOf(raw), raw, inboxAtStore: await dovecot.mailboxCount('INBOX') });
      },
    });
    await imap.start();
    await imap.drain();

    expect(stored.map((s) => s.subject)).toEqual(['First', 'Second', 'Third']);
    // Each was still in INBOX while it was being stored: moved only after its store resolved.
    expect(stored.map((s) => s.inboxAtStore)).toEqual([3, 2, 1]);
    expect(stored[0]?.raw.toString()).toContain(BODY_MARKER);
    expect(imap.stats()).toEqual({ stored: 3, moved: 3, failed: 0, connected: true });
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
    expect(await dovecot.mailboxCount('Processed')).toBe(3);
  });

  it('is told of a new message while in IDLE and stores it within a second or two, without polling', async () => {
    const arrived: Array<{ subject: string; at: number }> = [];
    const imap = reader({
      store: async (raw) => void arrived.push({ subject: subjectOf(raw), at: Date.now() }),
      // No timer of the reader's could explain a quick arrival: only IDLE can.
      retryMs: 60_000,
      reconnectMs: 60_000,
    });
    await imap.start();
    await imap.drain();
    // The server's own view: the session is in IDLE (its process title says so).
    await waitUntil('the reader to be in IDLE', () => dovecot.imapSessions().some((s) => s.endsWith(' IDLE')));

    await dovecot.deliver(mail('While idle'));
    const delivered = Date.now();
    await waitUntil('the new message at store', () => arrived.length === 1);
    const latencyMs = (arrived[0]?.at ?? Infinity) - delivered;
    console.info(`IMAP IDLE latency: delivered to stored in ${latencyMs} ms`);
    expect(arrived[0]?.subject).toBe('While idle');
    // Time is the subject: the reader's own timers are a minute, so an arrival well inside it is IDLE's.
    expect(latencyMs).toBeLessThan(30_000);

    await waitUntil('the message moved', settled(imap.stats, 1));
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
    // And back to IDLE afterwards.
    await waitUntil('the reader to be in IDLE again', () => dovecot.imapSessions().some((s) => s.endsWith(' IDLE')));
  });

  it('leaves a message whose store failed in INBOX, retries it, and moves it once a store succeeds', async () => {
    const processedBefore = await dovecot.mailboxCount('Processed');
    let storeWorks = false;
    let calls = 0;
    const imap = reader({
      store: async () => {
        calls++;
        if (!storeWorks) throw new Error('database unavailable');
      },
      retryMs: 200,
    });
    await dovecot.deliver(mail('Fails first'));
    await imap.start();
    await imap.drain();
    expect(imap.stats()).toMatchObject({ stored: 0, moved: 0 });
    expect(imap.stats().failed).toBeGreaterThanOrEqual(1);
    expect(await dovecot.mailboxCount('INBOX')).toBe(1);

    // Retried on its own (the retry timer), still failing: still never moved.
    const failedSoFar = imap.stats().failed;
    await waitUntil('a retry', () => imap.stats().failed >= failedSoFar + 2);
    expect(imap.stats()).toMatchObject({ stored: 0, moved: 0 });
    expect(await dovecot.mailboxCount('INBOX')).toBe(1);
    expect(await dovecot.mailboxCount('Processed')).toBe(processedBefore);
    const warning = logs.find((entry) => entry.message.startsWith('Inbound message not stored'));
    expect(warning?.details).toMatchObject({ mailbox: 'INBOX', uid: expect.any(Number), size: expect.any(Number) });

    storeWorks = true;
    await waitUntil('the message moved', settled(imap.stats, 1));
    expect(imap.stats()).toMatchObject({ stored: 1, moved: 1 });
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
    expect(await dovecot.mailboxCount('Processed')).toBe(processedBefore + 1);
  });

  it('tries a message whose store failed again when new mail arrives', async () => {
    let storeWorks = false;
    const stored: string[] = [];
    const imap = reader({
      store: async (raw) => {
        if (!storeWorks) throw new Error('disk full');
        stored.push(subjectOf(raw));
      },
      retryMs: 60_000,
    });
    await dovecot.deliver(mail('Left behind'));
    await imap.start();
    await imap.drain();
    expect(await dovecot.mailboxCount('INBOX')).toBe(1);

    storeWorks = true;
    await dovecot.deliver(mail('Newcomer'));
    await waitUntil('both moved', settled(imap.stats, 2));
    expect(stored.sort()).toEqual(['Left behind', 'Newcomer']);
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
  });

  it('reconnects after the server restarts and handles the new mail', async () => {
    const stored: string[] = [];
    const imap = reader({ store: async (raw) => void stored.push(subjectOf(raw)), reconnectMs: 100 });
    await imap.start();
    await dovecot.deliver(mail('Before the restart'));
    await waitUntil('the first message moved', settled(imap.stats, 1));

    const failedConnects = () => logs.filter((entry) => entry.message === 'IMAP connection failed').length;
    const failedBefore = failedConnects();
    await dovecot.restart(async () => {
      await waitUntil('the reader to notice', () => !imap.stats().connected);
      // While the server is down it keeps trying, with backoff.
      await waitUntil('a refused reconnect', () => failedConnects() > failedBefore);
    });
    await dovecot.deliver(mail('After the restart'));
    await waitUntil('the reader to reconnect', () => imap.stats().connected);
    await waitUntil('the second message moved', settled(imap.stats, 2));

    // And IDLE works on the new connection.
    await waitUntil('the reader to be in IDLE', () => dovecot.imapSessions().some((s) => s.endsWith(' IDLE')));
    await dovecot.deliver(mail('Once reconnected'));
    await waitUntil('the third message moved', settled(imap.stats, 3));
    expect(stored).toEqual(['Before the restart', 'After the restart', 'Once reconnected']);
    expect(logs.some((entry) => entry.message === 'IMAP connection closed')).toBe(true);
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
  });

  it('stops cleanly: the message being stored is finished and moved, no further call to store', async () => {
    await dovecot.deliver(mail('Being stored at stop'));
    await dovecot.deliver(mail('Left for the next run'));
    let release = () => {};
    const calls: string[] = [];
    const imap = reader({
      store: async (raw) => {
        calls.push(subjectOf(raw));
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    await imap.start();
    await waitUntil('the first store', () => calls.length === 1);
    const stopped = imap.stop();
    release();
    await stopped;
    expect(calls).toEqual(['Being stored at stop']);
    expect(imap.stats()).toMatchObject({ stored: 1, moved: 1, connected: false });
    expect(await dovecot.mailboxCount('INBOX')).toBe(1);

    // Tidy up for the next test: a reader that runs takes it.
    const next = reader({ store: async () => {} });
    await next.start();
    await next.drain();
    expect(next.stats().moved).toBe(1);
    expect(calls).toHaveLength(1);
    expect(await dovecot.mailboxCount('INBOX')).toBe(0);
  });

  it('never logs the password (nor a wrong one), nor a message body', async () => {
    const wrong = `wrong-${randomBytes(8).toString('hex')}`;
    const url = new URL(dovecot.url);
    url.password = wrong;
    const imap = reader({ url: url.toString(), store: async () => {}, reconnectMs: 60_000 });
    await imap.start();
    expect(imap.stats().connected).toBe(false);
    const failure = logs.findLast((entry) => entry.level === 'error');
    expect(failure).toMatchObject({ message: 'IMAP connection failed', details: { mailbox: 'INBOX' } });
    console.info('Logged for a wrong password:', JSON.stringify(failure));

    expect(logs.length).toBeGreaterThan(10);
    const everything = JSON.stringify(logs);
    for (const secret of [dovecot.password, encodeURIComponent(dovecot.password), wrong]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toContain(BODY_MARKER);
    expect(everything).not.toContain('Kia ora');
  });
});
