/**
 * kill -9 while the licence expiry worker reminds (DATA-02, docs/decisions/115-licence-expiry.md): a
 * server whose worker runs a round every 50 ms is killed again and again, a random moment after it
 * starts, mid-round more often than not; before each start a batch of approved partners is written
 * whose licences are due a reminder today (30, 14 or 3 days before their expiry date) or expire
 * today. Once it is back, every partner's moment is recorded once and mailed once (a mail goes
 * twice only as the outbox's redelivery of one Message-ID), and each expired one is on hold with
 * one 'license_expired' line in its history. A real SMTP server on 127.0.0.1 receives. Runs on
 * PGlite and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigure, runs } from '../helpers/figures.ts';
import { cleanupAll, killApp, mailCrashWorld, type Query, sleep, startApp } from './crash-harness.ts';
import { waitUntil } from '../helpers/wait.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const RUNS = runs(4, 30);
/** Partners written before each start: enough that a round takes a while to get through them. */
const BATCH = 40;
const MOMENTS = [30, 14, 3, 0] as const;

afterAll(cleanupAll);

/** New Zealand's date `days` from today ('YYYY-MM-DD'). */
function nzDate(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

interface Partner {
  email: string;
  daysBefore: (typeof MOMENTS)[number];
}

/** Approved partners written straight into the database, each with a licence at one of the moments. */
async function addPartners(query: Query, run: number): Promise<Partner[]> {
  const partners: Partner[] = [];
  for (let i = 0; i < BATCH; i++) {
    const tag = randomUUID().slice(0, 8);
    const daysBefore = MOMENTS[i % MOMENTS.length]!;
    const email = `licence-${run}-${i}-${tag}@example.nz`;
    const phone = `04${String(run * 1000 + i).padStart(7, '0')}`;
    await query(
      `insert into companies (company_name, address, phone_number, name_key, phone_key, email_key,
         contact_person_email, verified, license_expires_on)
       values ($1, '1 Licence Street, Wellington', $2, $3, $2, $4, $4, 1, $5::date)`,
      [`Licence Couriers ${tag}`, phone, `licence couriers ${tag}`, email, nzDate(daysBefore)],
    );
    partners.push({ email, daysBefore });
  }
  return partners;
}

describe('kill -9 while the licence expiry worker reminds (DATA-02)', () => {
  it(`tells every partner's moment once over ${RUNS} SIGKILLs`, { timeout: 240_000 + RUNS * 60_000 }, async () => {
    const world = await mailCrashWorld('bagspace-licence-crash-', { LICENSE_EXPIRY_CHECK_MS: '50' });
    const { sink, env, readStopped, readRunning } = world;

    const partners: Partner[] = [];
    let killedMidRound = 0;
    try {
      for (let run = 0; run < RUNS; run++) {
        partners.push(...(await readStopped((query) => addPartners(query, run))));
        const app = await startApp(env);
        // The worker's first round starts with the server: kill it a random moment into it.
        await sleep(Math.floor(Math.random() * 400)); // Time is the subject: a random moment of the round.
        const done = await readRunning(async (query) =>
          Number((await query<{ n: string }>(`select count(*) as n from company_license_reminders`))[0]!.n),
        );
        if (done < partners.length) killedMidRound++;
        await killApp(app);
      }

      // Back once more: every moment is recorded and every mail delivered.
      const app = await startApp(env);
      const pending = () =>
        readRunning(async (query) => ({
          unrecorded:
            partners.length -
            Number((await query<{ n: string }>(`select count(*) as n from company_license_reminders`))[0]!.n),
          unsent: Number(
            (await query<{ n: string }>(`select count(*) as n from mail_outbox where state <> 'sent'`))[0]!.n,
          ),
        }));
      let left = await pending();
      await waitUntil(
        'every moment recorded and every mail sent',
        async () => {
          left = await pending();
          return left.unrecorded === 0 && left.unsent === 0;
        },
        { timeoutMs: 90_000, intervalMs: 200, seen: () => left },
      );
      expect(left).toEqual({ unrecorded: 0, unsent: 0 });
      expect(await app.process.stop('SIGTERM')).toBe(0);

      const { reminders, recorded, held, expiredEvents } = await readStopped(async (query) => ({
        reminders: await query<{ email: string; days_before: number }>(
          `select c.contact_person_email as email, r.days_before from company_license_reminders r
           join companies c on c.id = r.company_id`,
        ),
        recorded: await query<{ recipient: string }>(
          `select recipient from mail_outbox where kind = 'license-reminder'`,
        ),
        held: await query<{ email: string }>(
          `select contact_person_email as email from companies where license_hold_at is not null`,
        ),
        expiredEvents: await query<{ email: string; n: string }>(
          `select c.contact_person_email as email, count(*) as n from company_events e
           join companies c on c.id = e.company_id where e.kind = 'license_expired'
           group by c.contact_person_email`,
        ),
      }));

      // Each partner: one row, for its own moment.
      const momentOf = new Map(reminders.map((r) => [r.email, Number(r.days_before)]));
      expect(reminders).toHaveLength(partners.length);
      for (const p of partners) expect(momentOf.get(p.email), p.email).toBe(p.daysBefore);
      // One recorded mail each, and what reached them: one Message-ID each.
      expect(recorded.map((r) => r.recipient).sort()).toEqual(partners.map((p) => p.email).sort());
      const ids = new Map<string, Set<string>>();
      for (const m of sink.messages)
        for (const to of m.envelopeTo) ids.set(to, (ids.get(to) ?? new Set()).add(m.messageId));
      const untold = partners.filter((p) => !ids.has(p.email)).length;
      const toldTwice = partners.filter((p) => (ids.get(p.email)?.size ?? 0) > 1).length;
      const delivered = sink.messages.filter((m) => m.envelopeTo.some((to) => to.startsWith('licence-'))).length;
      const duplicates = delivered - partners.length;
      // The expired ones are on hold, each with one line in its history.
      const expired = partners.filter((p) => p.daysBefore === 0).map((p) => p.email);
      expect(held.map((h) => h.email).sort()).toEqual([...expired].sort());
      expect(expiredEvents.map((e) => [e.email, Number(e.n)]).sort()).toEqual(expired.map((e) => [e, 1]).sort());

      const values = { runs: RUNS, partners: partners.length, killedMidRound, untold, toldTwice, duplicates };
      console.log(`license-reminders-crash-${kind}: ${JSON.stringify(values)}`);
      recordFigure('license-reminders-crash', {
        checks: ['DATA-02'],
        label: `kill -9 while reminding: every licence moment told once (${kind})`,
        values,
      });
      expect(untold).toBe(0);
      expect(toldTwice).toBe(0);
      // At most the mails in flight at each kill go twice (the mail worker sends up to 4 at once).
      expect(duplicates).toBeLessThanOrEqual(RUNS * 4);
    } finally {
      await world.close();
    }
  });
});
