/**
 * kill -9 while replies to a side conversation are received (DATA-02, decision 138): every mail the
 * SMTP receiver answered `250` to a side conversation's reply address must be posted in that
 * conversation exactly once when the server is back, however often it was killed (between storing
 * and posting, mid-post, or while answering). Two senders deliver at once, as a relay does; the
 * relay vouches for them (INBOUND_AUTHSERV_ID). Runs on PGlite and on PostgreSQL. The shape of
 * inbound-crash.test.ts, for the side conversations' own statement.
 */
import { randomUUID } from 'node:crypto';
import { generateSecret } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigure, runs } from '../helpers/figures.ts';
import { rawMail, receiverClient } from '../helpers/inbound-mail.ts';
import { waitForMails } from '../helpers/mail.ts';
import { totpAt } from '../helpers/second-factor.ts';
import { openTestDatabase, withMigratedDatabase } from '../helpers/test-app.ts';
import { waitUntil } from '../helpers/wait.ts';
import {
  cleanupAll,
  createUserWithCli,
  KILL_AFTER_ACKED,
  killOnceAcked,
  newPassword,
  type Query,
  signIn,
  startApp,
  steadyPort,
  tempDir,
  withPg,
  withPglite,
} from './crash-harness.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const RUNS = runs(4, 50);
const REPLY_DOMAIN = 'reply.bagspace.test';
const RELAY = 'relay.bagspace.test';

afterAll(cleanupAll);

describe('kill -9 while side conversation replies are received (DATA-02)', () => {
  it(
    `posts every reply answered 250 in its side conversation exactly once over ${RUNS} SIGKILLs`,
    { timeout: 240_000 + RUNS * 60_000 },
    async () => {
      const dataDir = withMigratedDatabase(tempDir('bagspace-side-crash-'));
      const database = kind === 'postgres' ? await openTestDatabase() : null;
      if (database) await database.database.close();
      const smtpPort = await steadyPort();
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        ...(database?.url ? { DATABASE_URL: database.url } : {}),
        REPLY_DOMAIN,
        INBOUND_SMTP_PORT: String(smtpPort),
        INBOUND_SMTP_HOST: '127.0.0.1',
        INBOUND_AUTHSERV_ID: RELAY,
        // A mail claimed by a killed server is taken over after 3 s (production: 300).
        MAIL_LEASE_SECONDS: '3',
      };
      const read = <T>(work: (query: Query) => Promise<T>) =>
        database?.url ? withPg(database.url, work) : withPglite(dataDir, work);
      const customer = { email: `side-crash-${randomUUID().slice(0, 8)}@kiwi-mail.test`, password: newPassword() };
      const admin = { email: `side-desk-${randomUUID().slice(0, 8)}@bagspace.test`, password: newPassword() };
      const partner = `depot-${randomUUID().slice(0, 8)}@kea-couriers.test`;
      await createUserWithCli(env, customer.email, customer.password);
      const adminSecret = generateSecret();
      await createUserWithCli(env, admin.email, admin.password, ['--admin', '--totp-secret', adminSecret]);

      const acked: string[] = [];
      let refused = 0;
      let runsDone = 0;
      let adminCookie: string | undefined;
      let ticketId: string | undefined;
      let sideId: string | undefined;
      let replyTo: string | undefined;
      const mailFor = (words: string) => rawMail({ from: partner, to: replyTo!, words, vouchedBy: RELAY });
      try {
        for (let run = 0; run < RUNS; run++) {
          const app = await startApp(env);
          if (!sideId) {
            // The customer's ticket, and a side conversation an admin starts on it (its mail written
            // to DATA_DIR/outbox, which names the conversation's reply address).
            const cookie = await signIn(app.url, customer.email, customer.password);
            const created = await fetch(`${app.url}/api/functions/createSupportTicket`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie },
              body: JSON.stringify({ data: { reason: 'General', message: 'Where is my bag?' } }),
            });
            ticketId = ((await created.json()) as { result: { ticketId: string } }).result.ticketId;
            adminCookie = await signIn(app.url, admin.email, admin.password, await totpAt(adminSecret));
            const started = await fetch(`${app.url}/api/admin/support/tickets/${ticketId}/side-conversations`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie: adminCookie, origin: app.url },
              body: JSON.stringify({ to: partner, subject: 'A bag at your depot', messageBody: 'Is it there?' }),
            });
            expect(started.status, await started.clone().text()).toBe(200);
            sideId = ((await started.json()) as { conversation: { id: string } }).conversation.id;
            const [mail] = await waitForMails(dataDir, partner);
            replyTo = mail!.headers['reply-to']!.replace(/^.*<|>.*$/g, '').trim();
          }
          let stop = false;
          const sender = async () => {
            const transport = receiverClient(smtpPort);
            try {
              for (let i = 0; !stop && i < 300; i++) {
                const words = `from the depot ${randomUUID()}`;
                try {
                  const info = await transport.sendMail({
                    envelope: { from: partner, to: replyTo! },
                    raw: mailFor(words),
                  });
                  if (info.response.startsWith('250')) acked.push(words);
                } catch {
                  refused++;
                  return;
                }
              }
            } finally {
              transport.close();
            }
          };
          const ackedBefore = acked.length;
          const senders = [sender(), sender()];
          await killOnceAcked(app, () => acked.length - ackedBefore);
          stop = true;
          await Promise.all(senders);
          runsDone++;
        }

        // Back once more: everything answered 250 must be in the conversation, each once. Read
        // through the API while the server runs (the embedded database has one user at a time).
        const app = await startApp(env);
        const posted = async () => {
          const list = await fetch(`${app.url}/api/admin/support/tickets/${ticketId}/side-conversations`, {
            headers: { cookie: adminCookie! },
            signal: AbortSignal.timeout(10_000),
          });
          const { conversations } = (await list.json()) as {
            conversations: Array<{ id: string; messages: Array<{ direction: string; body: string }> }>;
          };
          return (conversations.find((c) => c.id === sideId)?.messages ?? [])
            .filter((m) => m.direction === 'in')
            .map((m) => m.body);
        };
        let bodies = await posted();
        await waitUntil(
          'every acknowledged reply posted',
          async () => {
            bodies = await posted();
            return acked.every((w) => bodies.includes(w));
          },
          { timeoutMs: 90_000, intervalMs: 200 },
        ).catch(() => {
          // What was lost is counted below and the test fails on it, with the numbers.
        });
        expect(await app.process.stop('SIGTERM')).toBe(0);
        const [row] = await read((query) =>
          query<{ waiting: string; state: string }>(
            `select (select count(*) from inbound_mail where state in ('received', 'processing')) as waiting,
                    (select state from side_conversations where id = $1) as state`,
            [sideId],
          ),
        );
        const lost = acked.filter((w) => !bodies.includes(w));
        const counts = new Map<string, number>();
        for (const b of bodies) counts.set(b, (counts.get(b) ?? 0) + 1);
        const twice = [...counts.values()].filter((n) => n > 1).length;
        const values = {
          runs: runsDone,
          acked: acked.length,
          refused,
          lost: lost.length,
          twice,
          waiting: Number(row!.waiting),
        };
        console.log(`side-inbound-crash-${kind}: ${JSON.stringify(values)}`);
        recordFigure('side-inbound-crash', {
          checks: ['DATA-02'],
          label: `kill -9 while side conversation replies are received: every reply answered 250 posted once (${kind})`,
          values,
        });
        expect(runsDone).toBe(RUNS);
        expect(acked.length).toBeGreaterThanOrEqual(RUNS * KILL_AFTER_ACKED);
        expect(lost).toEqual([]);
        expect(twice).toBe(0);
        expect(row!.state).toBe('answered');
      } finally {
        await database?.close().catch(() => {});
      }
    },
  );
});
