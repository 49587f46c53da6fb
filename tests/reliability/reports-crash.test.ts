/**
 * kill -9 while the reports' rollups are counted (DATA-02, docs/decisions/154-report-rollups.md):
 * 3,000 tickets with their messages, ratings and labels are queued for counting (as migration
 * 0035's backfill queues every ticket), and the server is killed again and again while its worker
 * counts them, mid-transaction more often than not. Once the server runs to the end, the rollups
 * (each ticket's facts, each day's rows, each admin's answer days) must be exactly those that
 * counting again from nothing makes: a batch is counted whole or stays queued. Runs on PGlite and
 * on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFigure, runs } from '../helpers/figures.ts';
import { waitUntil } from '../helpers/wait.ts';
import {
  cleanupAll,
  createUserWithCli,
  killApp,
  mailCrashWorld,
  newPassword,
  type Query,
  sleep,
  startApp,
} from './crash-harness.ts';

const kind = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const RUNS = runs(3, 30);
const TICKETS = 3_000;

afterAll(cleanupAll);

/** The rollups, in a fixed order, as text: two states are the same when these are. */
const DUMP = `select
  (select coalesce(string_agg(x::text, '|' order by x::text), '') from (
    select label, day, reason, assignee, first_by, created, closed, figures, rated_good, rated_all from report_days) x) as days,
  (select coalesce(string_agg(x::text, '|' order by x::text), '') from report_months x) as months,
  (select coalesce(string_agg(x::text, '|' order by x::text), '') from report_answer_months x) as answer_months,
  (select coalesce(string_agg(x::text, '|' order by x::text), '') from report_ticket_facts x) as facts,
  (select coalesce(string_agg(x::text, '|' order by x::text), '') from report_answers x) as answers,
  (select count(*) from report_ticket_facts)::int as tickets`;

const queued = async (query: Query) => {
  const [row] = await query<{ n: string }>(
    `select (select count(*) from report_dirty) + (select count(*) from report_dirty_days)
       + (select count(*) from report_dirty_months) + (select count(*) from report_state where rebuild) as n`,
  );
  return Number(row!.n);
};

describe('kill -9 while the reports’ rollups are counted (DATA-02)', () => {
  it(`counts every batch whole or not at all over ${RUNS} SIGKILLs`, { timeout: 300_000 + RUNS * 90_000 }, async () => {
    const world = await mailCrashWorld('bagspace-reports-crash-', {});
    const { env, readStopped, readRunning } = world;
    const owner = `rollup-owner-${randomUUID().slice(0, 8)}@example.nz`;
    const admin = `rollup-admin-${randomUUID().slice(0, 8)}@example.nz`;
    await createUserWithCli(env, owner, newPassword());
    await createUserWithCli(env, admin, newPassword(), ['--admin']);
    // A year of tickets: four messages each (the customer, the team, the customer, the team),
    // most closed, a third of those rated, labels on some.
    await readStopped(async (query) => {
      await query(`
        insert into support_tickets (user_id, reason, open, creation_date, last_message, closed_at, assigned_to)
        select o.id, (array['General', 'Incident', 'Deactivation'])[1 + g % 3], g % 10 = 0,
          now() - make_interval(secs => ((g::bigint * 7919) % 31536000)::double precision),
          now() - make_interval(secs => ((g::bigint * 7919) % 31536000)::double precision) + interval '3 hours',
          case when g % 10 = 0 then null
            else now() - make_interval(secs => ((g::bigint * 7919) % 31536000)::double precision) + interval '4 hours' end,
          case when g % 4 = 0 then null else a.id end
        from generate_series(1, ${TICKETS}) g, (select id from users where email = '${owner}') o,
          (select id from users where email = '${admin}') a`);
      await query(`
        insert into ticket_messages (ticket_id, message_body, user_id, admin, timestamp)
        select t.id, 'About my parcel', case when k % 2 = 1 then t.assigned_to else t.user_id end,
          k % 2 = 1, t.creation_date + make_interval(mins => 45 * k)
        from support_tickets t cross join generate_series(0, 3) k
        where k % 2 = 0 or t.assigned_to is not null`);
      await query(`
        insert into ticket_ratings (ticket_id, good, comment, rated_at, updated_at)
        select id, ticket_no % 4 <> 0, null, closed_at + interval '1 day', closed_at + interval '1 day'
        from support_tickets where not open and ticket_no % 3 = 0`);
      await query(`insert into labels (name) values ('Courier')`);
      await query(`insert into ticket_labels (ticket_id, label_id)
        select id, (select id from labels where name = 'Courier') from support_tickets where ticket_no % 5 = 0`);
    });

    let kills = 0;
    for (let run = 0; run < RUNS; run++) {
      // Every ticket counted again from the start (as a change of the calendar asks), so each run
      // has a whole corpus to count when it is killed.
      if (run > 0) await readStopped((query) => query(`update report_state set rebuild = true`));
      const app = await startApp(env);
      const before = await readRunning(queued);
      // The worker's first round comes 2 s after start: kill once it has taken some of the queue.
      await waitUntil('the worker taking its first batch', async () => (await readRunning(queued)) < before, {
        timeoutMs: 120_000,
        intervalMs: 50,
      });
      await sleep(Math.floor(Math.random() * 1_500)); // Time is the subject: a random moment of the counting.
      await killApp(app);
      kills++;
    }

    // To the end: the rollups as the interrupted runs left them, counted on.
    const app = await startApp(env);
    await waitUntil('the rollups counted', async () => (await readRunning(queued)) === 0, {
      timeoutMs: 240_000,
      intervalMs: 200,
    });
    const [kept] = await readRunning((query) => query<Record<string, string>>(DUMP));
    // From nothing: every rollup thrown away, every ticket queued again.
    await readRunning((query) =>
      query(`truncate report_ticket_facts, report_days, report_months, report_answers, report_answer_days,
               report_answer_months, report_dirty_days, report_dirty_months;
             insert into report_dirty (ticket_id) select id from support_tickets`),
    );
    await waitUntil('the rollups counted from nothing', async () => (await readRunning(queued)) === 0, {
      timeoutMs: 240_000,
      intervalMs: 200,
    });
    const [fresh] = await readRunning((query) => query<Record<string, string>>(DUMP));
    await killApp(app);
    await world.close();

    expect(Number(kept!.tickets)).toBe(TICKETS);
    expect(kept!.facts === fresh!.facts, 'each ticket’s facts').toBe(true);
    expect(kept!.answers === fresh!.answers, 'the admins’ answer days').toBe(true);
    expect(kept!.days === fresh!.days, 'the days’ rows').toBe(true);
    expect(kept!.months === fresh!.months, 'the months’ rows').toBe(true);
    expect(kept!.months, 'the months’ rows').not.toBe('');
    expect(kept!.answer_months === fresh!.answer_months, 'the admins’ answer months').toBe(true);
    recordFigure('reports-crash', {
      checks: ['DATA-02'],
      label: `kill -9 while the reports' rollups count: every batch whole or still queued (${kind})`,
      values: { kills, tickets: TICKETS, equalToRecount: true },
    });
  });
});
