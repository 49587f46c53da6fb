/**
 * kill -9 while admins answer tickets (catalogue DATA-02): every answer the server acknowledged
 * must reach its user by mail once the server is back, however often it was killed, and a mail
 * goes twice only when the kill came between its delivery and the record of it (the same
 * Message-ID again). The user never has the ticket open, so every answer is to be mailed; a real
 * SMTP server on 127.0.0.1 receives. Runs on PGlite and on PostgreSQL (the app is killed; the
 * database server's own crashes are crash.test.ts's subject).
 */
import { randomUUID } from 'node:crypto';
import { generateSecret } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigure, runs } from '../helpers/figures.ts';
import { totpAt } from '../helpers/second-factor.ts';
import {
  type AppServer,
  cleanupAll,
  killOnceAcked,
  mailCrashWorld,
  createUserWithCli,
  KILL_AFTER_ACKED,
  newPassword,
  signIn,
  startApp,
} from './crash-harness.ts';
import { waitUntil } from '../helpers/wait.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const RUNS = runs(5, 100);

afterAll(cleanupAll);

async function api(app: AppServer, cookie: string, url: string, body: unknown) {
  const res = await fetch(`${app.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

describe('kill -9 while admins answer tickets (DATA-02)', () => {
  it(
    `mails every acknowledged answer over ${RUNS} SIGKILLs, and counts the duplicates`,
    { timeout: 240_000 + RUNS * 60_000 },
    async () => {
      const world = await mailCrashWorld('bagspace-notify-crash-', { NOTIFY_DELAY_SECONDS: '0' });
      const { sink, env, readStopped: read } = world;
      const user = { email: `notify-user-${randomUUID().slice(0, 8)}@example.nz`, password: newPassword() };
      const admin = { email: `notify-admin-${randomUUID().slice(0, 8)}@example.nz`, password: newPassword() };
      await createUserWithCli(env, user.email, user.password);
      // The admin's authenticator app, enrolled by the CLI; it signs in once (its session outlives the kills).
      const adminSecret = generateSecret();
      await createUserWithCli(env, admin.email, admin.password, ['--admin', '--totp-secret', adminSecret]);
      let adminCookie: string | undefined;

      const acked: string[] = [];
      let unknown = 0;
      let runsDone = 0;
      try {
        for (let run = 0; run < RUNS; run++) {
          const app = await startApp(env);
          const userCookie = await signIn(app.url, user.email, user.password);
          adminCookie ??= await signIn(app.url, admin.email, admin.password, await totpAt(adminSecret));
          const adminSession = adminCookie;
          const created = await api(app, userCookie, '/api/functions/createSupportTicket', {
            data: { reason: 'General', message: `Run ${run}` },
          });
          const ticketId = (created.json?.result as { ticketId: string }).ticketId;
          // Two admins' tabs answering at once until the kill.
          let stop = false;
          const answerLoop = async () => {
            for (let i = 0; !stop && i < 200; i++) {
              const body = `answer ${randomUUID()}`;
              try {
                const res = await api(app, adminSession, `/api/admin/support/tickets/${ticketId}/messages`, {
                  messageBody: body,
                });
                if (res.status === 200) acked.push(body);
                else unknown++;
              } catch {
                unknown++;
                return;
              }
            }
          };
          const ackedBefore = acked.length;
          const loops = [answerLoop(), answerLoop()];
          // The crash loops' kill rule (crash-harness.ts), counted in this run's acknowledged answers.
          await killOnceAcked(app, () => acked.length - ackedBefore);
          stop = true;
          await Promise.all(loops);
          runsDone++;
        }

        // Back once more, as after any crash: everything acknowledged must arrive.
        const app = await startApp(env);
        const mailedBodies = () => {
          const seen = new Set<string>();
          for (const m of sink.messages)
            if (m.envelopeTo.includes(user.email))
              for (const b of m.text.match(/answer [0-9a-f-]{36}/g) ?? []) seen.add(b);
          return seen;
        };
        await waitUntil('every acknowledged answer mailed', () => acked.every((b) => mailedBodies().has(b)), {
          timeoutMs: 90_000,
          intervalMs: 100,
          seen: () => `${acked.filter((b) => !mailedBodies().has(b)).length} of ${acked.length} not mailed`,
        }).catch(() => {
          // The figure below counts what was lost and the test fails on it, with the numbers.
        });
        expect(await app.process.stop('SIGTERM')).toBe(0);

        const mailed = mailedBodies();
        const lost = acked.filter((b) => !mailed.has(b));
        const toUser = sink.messages.filter((m) => m.envelopeTo.includes(user.email));
        const byMessageId = new Map<string, number>();
        for (const m of toUser) byMessageId.set(m.messageId, (byMessageId.get(m.messageId) ?? 0) + 1);
        const duplicates = [...byMessageId.values()].reduce((sum, n) => sum + n - 1, 0);
        // An answer in two different mails would be a composing bug, not a delivery retry.
        const answerMails = new Map<string, Set<string>>();
        for (const m of toUser)
          for (const b of m.text.match(/answer [0-9a-f-]{36}/g) ?? [])
            answerMails.set(b, (answerMails.get(b) ?? new Set()).add(m.messageId));
        const inTwoMails = [...answerMails.values()].filter((ids) => ids.size > 1).length;
        const leftover = await read(async (query) => ({
          events: (await query<{ n: string }>(`select count(*) as n from notification_events`))[0]!.n,
          unsent: (await query<{ n: string }>(`select count(*) as n from mail_outbox where state <> 'sent'`))[0]!.n,
        }));
        const values = {
          runs: runsDone,
          acked: acked.length,
          unknown,
          mails: toUser.length,
          lost: lost.length,
          duplicates,
          inTwoMails,
          leftoverEvents: Number(leftover.events),
          unsentMails: Number(leftover.unsent),
        };
        console.log(`notify-crash-${kind}: ${JSON.stringify(values)}`);
        recordFigure(`notify-crash`, {
          checks: ['DATA-02'],
          label: `kill -9 while answering: every acknowledged answer mailed (${kind})`,
          values,
        });
        expect(runsDone).toBe(RUNS);
        expect(acked.length).toBeGreaterThanOrEqual(RUNS * KILL_AFTER_ACKED);
        expect(lost).toEqual([]);
        expect(inTwoMails).toBe(0);
        expect(values.leftoverEvents).toBe(0);
        expect(values.unsentMails).toBe(0);
        // At most the mails in flight at each kill (the worker sends up to 4 at once).
        expect(duplicates).toBeLessThanOrEqual(RUNS * 4);
      } finally {
        await world.close();
      }
    },
  );
});
