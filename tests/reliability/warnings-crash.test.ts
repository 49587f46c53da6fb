/**
 * kill -9 while the service-level worker warns (DATA-02, service levels): a server whose worker runs
 * a round every 100 ms is killed again and again while customers open tickets, mid-round more often
 * than not; once it is back, every moment a ticket reached ('due soon', 'late', for the first
 * response and the resolution) is recorded once and mailed once (a 'due soon' reached together
 * with its 'late', while the server was down, is recorded and not mailed), and a mail goes twice
 * only as the outbox's redelivery of one Message-ID. The team's calendar is open around the clock
 * and the targets are minutes; at each restart the open waits' times move 40 s into the past (time
 * passed while the server was down) and at the end past every target, so the moments come while the
 * test runs rather than minutes later. A real SMTP server on
 * 127.0.0.1 receives. Runs on PGlite and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { generateSecret } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigure, runs } from '../helpers/figures.ts';
import { totpAt } from '../helpers/second-factor.ts';
import {
  cleanupAll,
  createUserWithCli,
  KILL_AFTER_ACKED,
  killOnceAcked,
  mailCrashWorld,
  newPassword,
  type Query,
  signIn,
  startApp,
} from './crash-harness.ts';
import { waitUntil } from '../helpers/wait.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const RUNS = runs(4, 60);

afterAll(cleanupAll);

/** The next New Zealand dates, from today. */
function nzDates(count: number): string[] {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' });
  return Array.from({ length: count }, (_, i) => format.format(new Date(Date.now() + i * 86_400_000)));
}

async function send(url: string, method: string, cookie: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/**
 * Moves time on for the open waits, as the worker sees it: their start and due times come `seconds`
 * earlier (the service-level worker compares them with its clock), on the running server's database.
 */
async function passTime(read: (work: (query: Query) => Promise<unknown>) => Promise<unknown>, seconds: number) {
  await read((query) =>
    query(
      `update ticket_waits set started_at = started_at - make_interval(secs => $1),
         response_due = response_due - make_interval(secs => $1),
         resolution_due = resolution_due - make_interval(secs => $1)
       where ended_at is null`,
      [seconds],
    ),
  );
}

interface Alert {
  ticket_no: number;
  target: 'response' | 'resolution';
  moment: 'soon' | 'missed';
  created_at: string;
}

describe('kill -9 while the service-level worker warns (DATA-02)', () => {
  it(`tells every moment once over ${RUNS} SIGKILLs`, { timeout: 360_000 + RUNS * 60_000 }, async () => {
    const world = await mailCrashWorld('bagspace-warnings-crash-', {
      SERVICE_LEVEL_CHECK_MS: '100',
      SLA_WARNING_MINUTES: '1',
      AUTO_CLOSE_WORKING_DAYS: '0',
    });
    const { sink, env, readStopped, readRunning: read } = world;
    const user = { email: `warn-user-${randomUUID().slice(0, 8)}@example.nz`, password: newPassword() };
    const admin = { email: `warn-admin-${randomUUID().slice(0, 8)}@example.nz`, password: newPassword() };
    await createUserWithCli(env, user.email, user.password);
    const adminSecret = generateSecret();
    await createUserWithCli(env, admin.email, admin.password, ['--admin', '--totp-secret', adminSecret]);

    let acked = 0;
    let unknown = 0;
    let runsDone = 0;
    try {
      for (let run = 0; run < RUNS; run++) {
        const app = await startApp(env);
        if (run === 0) {
          // Open around the clock (today and the next days too, whatever holiday they are), and
          // targets of minutes: response due a minute after a ticket opens, resolution two.
          const cookie = await signIn(app.url, admin.email, admin.password, await totpAt(adminSecret));
          const allDay = [{ start: '00:00', end: '24:00' }];
          const calendar = await send(app.url, 'PUT', cookie, '/api/admin/service-levels/calendar', {
            hours: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
            anniversary: null,
            overrides: nzDates(3).map((date) => ({ date, spans: allDay, note: 'Open all day' })),
          });
          expect(calendar.status, JSON.stringify(calendar.json)).toBe(200);
          const minutes = { firstResponse: 1, nextResponse: 1, resolution: 2 };
          const targets = await send(app.url, 'PUT', cookie, '/api/admin/service-levels/targets', {
            General: minutes,
            Incident: minutes,
            Deactivation: minutes,
          });
          expect(targets.status, JSON.stringify(targets.json)).toBe(200);
        }
        // Time passed while the server was down: every open wait's due times come 40 s nearer (a
        // minute's targets), so moments are reached mid-round, and some together while it was down.
        if (run > 0) await passTime(read, 40);
        const userCookie = await signIn(app.url, user.email, user.password);
        let ackedThisRun = 0;
        let stop = false;
        const ticketLoop = async () => {
          for (let i = 0; !stop && i < 500; i++) {
            try {
              const res = await send(app.url, 'POST', userCookie, '/api/functions/createSupportTicket', {
                data: { reason: 'Incident', message: `Run ${run}, ticket ${i}: my bag is lost.` },
              });
              if (res.status === 200) {
                acked++;
                ackedThisRun++;
              } else unknown++;
            } catch {
              unknown++;
              return;
            }
          }
        };
        const loops = [ticketLoop(), ticketLoop()];
        await killOnceAcked(app, () => ackedThisRun);
        stop = true;
        await Promise.all(loops);
        runsDone++;
      }

      // Back once more, and the targets' two minutes have passed for every ticket: every moment comes
      // and is told.
      const app = await startApp(env);
      await passTime(read, 125);
      const pending = () =>
        read(async (query) => ({
          waits: Number(
            (
              await query<{ n: string }>(
                `select count(*) as n from ticket_waits w
                 where (select count(*) from service_level_alerts a where a.wait_id = w.id) < 4`,
              )
            )[0]!.n,
          ),
          unsent: Number(
            (await query<{ n: string }>(`select count(*) as n from mail_outbox where state <> 'sent'`))[0]!.n,
          ),
        }));
      let left = await pending();
      await waitUntil(
        'every warning recorded and every mail sent',
        async () => {
          left = await pending();
          return left.waits === 0 && left.unsent === 0;
        },
        { timeoutMs: 90_000, intervalMs: 500, seen: () => left },
      );
      expect(left).toEqual({ waits: 0, unsent: 0 });
      expect(await app.process.stop('SIGTERM')).toBe(0);

      // The server stopped: the embedded database is opened directly.
      const { alerts, recorded, tickets } = await readStopped(async (query) => ({
        alerts: await query<Alert>(
          `select t.ticket_no, a.target, a.moment, a.created_at::text
           from service_level_alerts a join support_tickets t on t.id = a.ticket_id`,
        ),
        recorded: await query<{ kind: string; ticket_no: number }>(
          `select m.kind, t.ticket_no from mail_outbox m join support_tickets t on t.id = m.ticket_id
           where m.kind like 'service-level-%'`,
        ),
        tickets: Number((await query<{ n: string }>(`select count(*) as n from support_tickets`))[0]!.n),
      }));

      // What is to be told: every 'late'; a 'due soon' recorded before its 'late' (not with it).
      const key = (ticketNo: number, target: string, moment: string) => `${ticketNo}:${target}:${moment}`;
      const createdAt = new Map(alerts.map((a) => [key(a.ticket_no, a.target, a.moment), a.created_at]));
      const toTell = new Set<string>();
      let soonPassed = 0;
      for (const a of alerts) {
        if (a.moment === 'missed') toTell.add(key(a.ticket_no, a.target, a.moment));
        else if (createdAt.get(key(a.ticket_no, a.target, 'missed')) !== a.created_at)
          toTell.add(key(a.ticket_no, a.target, a.moment));
        else soonPassed++;
      }

      // What reached the admin, by moment: the distinct Message-IDs of each.
      const told = new Map<string, Set<string>>();
      let unreadable = 0;
      const toAdmin = sink.messages.filter(
        (m) => m.envelopeTo.includes(admin.email) && /^Ticket #\d+ \(Incident Report\) is /.test(m.subject),
      );
      for (const m of toAdmin) {
        const ticketNo = Number(/^Ticket #(\d+) /.exec(m.subject)![1]);
        const late = /is late: (first response|resolution) was due/.exec(m.subject);
        const soon = /The (first response|resolution) on ticket #\d+/.exec(m.text);
        const what = late?.[1] ?? (m.subject.includes(' is due in ') ? soon?.[1] : undefined);
        if (!what) {
          unreadable++;
          continue;
        }
        const k = key(ticketNo, what === 'first response' ? 'response' : 'resolution', late ? 'missed' : 'soon');
        told.set(k, (told.get(k) ?? new Set()).add(m.messageId));
      }
      const untold = [...toTell].filter((k) => !told.has(k));
      const toldTwice = [...told.values()].filter((ids) => ids.size > 1).length;
      const toldUnrecorded = [...told.keys()].filter((k) => !toTell.has(k));
      const duplicates = toAdmin.length - [...told.values()].reduce((sum, ids) => sum + ids.size, 0);
      const values = {
        runs: runsDone,
        tickets,
        acked,
        unknown,
        moments: alerts.length,
        mailed: toTell.size,
        soonPassed,
        untold: untold.length,
        toldTwice,
        toldUnrecorded: toldUnrecorded.length,
        recordedMails: recorded.length,
        duplicates,
        unreadable,
      };
      console.log(`warnings-crash-${kind}: ${JSON.stringify(values)}`);
      recordFigure('warnings-crash', {
        checks: ['DATA-02'],
        label: `kill -9 while warning: every service-level moment told once (${kind})`,
        values,
      });
      expect(runsDone).toBe(RUNS);
      expect(acked).toBeGreaterThanOrEqual(RUNS * KILL_AFTER_ACKED);
      // Every ticket's wait reached its four moments, each recorded once (the unique index).
      expect(alerts).toHaveLength(tickets * 4);
      expect(untold).toEqual([]);
      expect(toldTwice).toBe(0);
      expect(toldUnrecorded).toEqual([]);
      expect(unreadable).toBe(0);
      // One recorded mail per moment told (one admin on the team).
      expect(recorded).toHaveLength(toTell.size);
      // At most the mails in flight at each kill go twice (the mail worker sends up to 4 at once).
      expect(duplicates).toBeLessThanOrEqual(RUNS * 4);
    } finally {
      await world.close();
    }
  });
});
