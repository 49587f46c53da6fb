/**
 * The reports bench's data: 100,000 tickets with 10 messages each (1,000,000 messages) over the
 * last year, written straight into the bench database with set-based SQL (the API would take hours;
 * the reports read rows however they were written). Creation times spread over every hour of the
 * year; 2 % of the tickets are open and waiting on the team; a third of the closed ones are rated.
 * The waits and first answers are derived from the messages by the database's derive_ticket_waits
 * (migration 0014; the triggers stand aside while the corpus is written, as in a restore), and the
 * open ones get their due times from the calendar's intervals.
 */
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/server/db/connection.ts';
import { queryRows } from '../../src/server/db/sql.ts';

export const REPORT_TICKETS = Number(process.env.BENCH_REPORT_TICKETS ?? 100_000);
export const MESSAGES_PER_TICKET = 10;

export async function createReportsCorpus(
  db: DatabaseHandle,
  ownerIds: string[],
  adminIds: string[],
  tickets = REPORT_TICKETS,
): Promise<void> {
  const owners = `{${ownerIds.join(',')}}`;
  const admins = `{${adminIds.join(',')}}`;
  await db.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('bagspace.restoring', 'on', true)`);
    // One year back, a ticket every ~315 s, hours and weekdays spread by a multiplicative hash.
    await tx.execute(sql`
      create temporary table bench_tickets on commit drop as
      select g,
        gen_random_uuid() as id,
        (${owners}::uuid[])[1 + g % ${ownerIds.length}] as user_id,
        (${admins}::uuid[])[1 + (g / 7) % ${adminIds.length}] as admin_id,
        case g % 10 when 0 then 'Incident' when 1 then 'Deactivation' else 'General' end as reason,
        g % 50 = 0 as open,
        now() - make_interval(secs => ((g::bigint * 7919) % 31536000)::double precision) as created,
        1 + (g * 31) % 13 as step_minutes
      from generate_series(1, ${tickets}) g`);
    await tx.execute(sql`
      insert into support_tickets (id, user_id, reason, open, creation_date, last_message, closed_at, assigned_to)
      select id, user_id, reason, open, created,
        created + make_interval(mins => step_minutes * 37 * ${MESSAGES_PER_TICKET - 1}),
        case when open then null else created + make_interval(mins => step_minutes * 37 * ${MESSAGES_PER_TICKET}) end,
        case when g % 4 = 0 then null else admin_id end
      from bench_tickets`);
    // Ten messages each, the customer and the team in turn; an open ticket ends with the customer.
    await tx.execute(sql`
      insert into ticket_messages (ticket_id, message_body, user_id, admin, timestamp)
      select t.id, 'Message ' || k || ' about my parcel to Nelson', case when k % 2 = 1 and not (t.open and k = 9) then t.admin_id else t.user_id end,
        k % 2 = 1 and not (t.open and k = 9),
        t.created + make_interval(mins => t.step_minutes * 37 * k)
      from bench_tickets t cross join generate_series(0, ${MESSAGES_PER_TICKET - 1}) k`);
    await tx.execute(sql`
      insert into ticket_ratings (ticket_id, good, comment, rated_at, updated_at)
      select id, g % 5 <> 0, case when g % 15 = 0 then 'Comment on ticket ' || g end,
        created + interval '2 days', created + interval '2 days'
      from bench_tickets where not open and g % 3 = 0`);
    // The waits and first answers, derived from the messages as for tickets loaded in bulk (migration 0014).
    await tx.execute(sql`analyze support_tickets, ticket_messages`);
    await tx.execute(sql`select derive_ticket_waits()`);
    await tx.execute(sql`
      update ticket_waits w set response_due = d.response_due, resolution_due = d.resolution_due
      from ticket_waits o cross join lateral wait_dues(o.ticket_id, o.phase, o.started_at) d
      where o.id = w.id and o.ended_at is null and o.response_due is null`);
  });
  await db.db.execute(sql`analyze`);
}

/** Two labels on the corpus (Courier on every third ticket, Refund on every fifth), for the label filter. */
export async function labelCorpus(db: DatabaseHandle): Promise<string> {
  const [courier] = await queryRows<{ id: string }>(
    db.db,
    sql`insert into labels (name) values ('Courier'), ('Refund') on conflict do nothing returning id::text as id`,
  );
  await db.db.execute(sql`
    insert into ticket_labels (ticket_id, label_id)
    select id, (select id from labels where name = 'Courier') from support_tickets where ticket_no % 3 = 0
    union all select id, (select id from labels where name = 'Refund') from support_tickets where ticket_no % 5 = 0
    on conflict do nothing`);
  return courier!.id;
}

/** Waits until the server's rollups worker has counted the whole queue; the seconds it took. */
export async function waitForRollups(db: DatabaseHandle, limitMs = 1_800_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    const [left] = await queryRows<{ n: number }>(
      db.db,
      sql`select (select count(*) from report_dirty) + (select count(*) from report_dirty_days)
            + (select count(*) from report_dirty_months) + (select count(*) from report_state where rebuild) as n`,
    );
    if (Number(left!.n) === 0) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the report rollups did not catch up');
}

/**
 * The largest relative error of the year's report (from the days' histograms) against PostgreSQL's
 * exact percentile_cont over the same tickets' facts: first response and resolution, p50 and p90,
 * business and clock time.
 */
export async function sketchError(
  base: string,
  headers: Record<string, string>,
  db: DatabaseHandle,
  from: string,
  to: string,
) {
  const res = await fetch(`${base}/api/admin/reports?from=${from}&to=${to}`, { headers });
  const report = (await res.json()) as Record<'firstResponse' | 'resolution', Record<string, number>>;
  const [exact] = await queryRows<Record<string, number>>(
    db.db,
    sql`select percentile_cont(0.5) within group (order by fr_min) / 60 as fr_b50,
          percentile_cont(0.9) within group (order by fr_min) / 60 as fr_b90,
          percentile_cont(0.5) within group (order by fr_hours) as fr_c50,
          percentile_cont(0.9) within group (order by fr_hours) as fr_c90,
          percentile_cont(0.5) within group (order by res_min) / 60 as res_b50,
          percentile_cont(0.9) within group (order by res_min) / 60 as res_b90,
          percentile_cont(0.5) within group (order by res_hours) as res_c50,
          percentile_cont(0.9) within group (order by res_hours) as res_c90
        from report_ticket_facts where created_day >= ${from}::date and created_day <= ${to}::date`,
  );
  let worst = 0;
  for (const [prefix, figure] of [
    ['fr', report.firstResponse],
    ['res', report.resolution],
  ] as const) {
    const pairs: Array<[number, number]> = [
      [figure.medianBusinessHours!, Number(exact![`${prefix}_b50`])],
      [figure.p90BusinessHours!, Number(exact![`${prefix}_b90`])],
      [figure.medianClockHours!, Number(exact![`${prefix}_c50`])],
      [figure.p90ClockHours!, Number(exact![`${prefix}_c90`])],
    ];
    for (const [got, want] of pairs) if (want > 0) worst = Math.max(worst, Math.abs(got - want) / want);
  }
  return worst;
}
