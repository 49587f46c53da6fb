import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { CalendarSettings } from '../../../contracts/service-levels.schemas.ts';
import type { TargetKind } from '../../../contracts/due-times.ts';
import { SYSTEM_LINE_TEXT } from '../../../contracts/support.ts';
import { checkingWorker, createBackgroundRounds, stepAlone, walkPages } from '../../background-rounds.ts';
import { BusinessCalendar, newZealandDate } from '../../calendar/business-calendar.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';
import type { Logger } from '../../logging.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { MailContext } from '../../shared-services.ts';
import { createTicketMailer } from '../notifications/index.ts';
import type { SupportRecords } from '../support/index.ts';
import { autoCloseNudgeMail, serviceLevelWarningMail } from './service-levels.mail.ts';

export interface ServiceLevelWorkerOptions {
  db: AppDatabase;
  outbox: Outbox;
  mail: MailContext;
  log: Logger;
  clock: Clock;
  /** The support module's writes: the auto-close's line in the thread and the close itself. */
  records: SupportRecords;
  /** The team's business calendar as it is now (the module's repository). */
  calendar: () => Promise<CalendarSettings>;
  /** SERVICE_LEVEL_CHECK_MS: how often a round runs (and once at start). */
  checkMs: number;
  /** SLA_WARNING_MINUTES: 'due soon' this long before a due time; 0 tells only 'late'. */
  warningMinutes: number;
  /** AUTO_CLOSE_WORKING_DAYS: an answered ticket with no reply closes after this many working days; 0: never. */
  autoCloseWorkingDays: number;
}

type Target = 'response' | 'resolution';
type Moment = 'soon' | 'missed';

interface RawWait {
  id: unknown;
  ticket_id: string;
  phase: string;
  response_due: unknown;
  resolution_due: unknown;
}

const dateOf = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

/** Working days before the close that the customer is nudged (at once, with the answer, when N ≤ 2). */
export const nudgeWorkingDays = (closeAfter: number) => Math.max(0, closeAfter - 2);

/**
 * The service levels' worker (docs/decisions/108-service-levels.md), one per app instance, every
 * SERVICE_LEVEL_CHECK_MS and once at start, on the app's clock:
 *
 * - **Warnings.** For each open wait, each target (the response, first or next, and the
 *   resolution) reaches 'soon' SLA_WARNING_MINUTES before its due time and 'missed' at it. A moment
 *   is recorded in service_level_alerts (one row per wait, target and moment) and its mail written
 *   to the outbox in the same transaction, only when this transaction's insert made the row: a
 *   moment is told once whatever restarts or instances there are (the wait's row is locked first,
 *   so a second instance waits and then finds the row made, and an answer or close committed
 *   meanwhile ends the wait before anything is told). A 'missed' reached before 'soon' was told
 *   (the server was down) is told alone; 'soon' is recorded as passed. The mail goes to the
 *   ticket's assignee, or to the whole team while it is nobody's (the notifications module's
 *   routing and opt-outs).
 * - **The auto-close.** A ticket that is open and waits on the customer (its newest public
 *   message, system lines aside, is the team's answer A) closes AUTO_CLOSE_WORKING_DAYS (N) working
 *   days after A, at the same New Zealand wall time, on the team's calendar. N − 2 working days
 *   after A (at once when N ≤ 2) its owner gets one mail saying when, and that a reply keeps it
 *   open. Each step is done once per (ticket, A) through auto_close_steps, under the ticket's row
 *   lock with the check that A is still the newest message: a reply (web, stream or mail) before
 *   then means the ticket no longer waits on the customer. The close is at the time the nudge
 *   promised; a nudge that goes out late (the server was down) never promises a close on its own
 *   day or earlier: the close moves to one working day after it.
 */
export function createServiceLevelWorker(options: ServiceLevelWorkerOptions) {
  const { db, outbox, log, clock } = options;
  const mailer = createTicketMailer({ outbox, mail: options.mail });
  const counters = { warned: 0, nudged: 0, closed: 0, failed: 0 };

  // --- Warnings -------------------------------------------------------------------------------------

  /** Open waits with a moment reached and not yet recorded, by id after `afterId`. */
  async function waitsToWarn(now: Date, afterId: number, limit: number): Promise<number[]> {
    const lead = options.warningMinutes;
    const rows = await queryRows<{ id: unknown }>(
      db,
      sql`select distinct w.id from ticket_waits w
          join support_tickets t on t.id = w.ticket_id
          cross join lateral (values ('response', w.response_due), ('resolution', w.resolution_due)) d(target, due)
          cross join lateral (values ('soon', d.due - make_interval(mins => ${lead}::int)), ('missed', d.due)) m(moment, at)
          where w.ended_at is null and t.open and w.id > ${afterId}
            and w.due_at <= ${now.toISOString()}::timestamptz + make_interval(mins => ${lead}::int)
            and d.due is not null and m.at <= ${now.toISOString()}::timestamptz
            and not exists (select 1 from service_level_alerts a
              where a.wait_id = w.id and a.target = d.target and a.moment = m.moment)
          order by w.id limit ${limit}`,
    );
    return rows.map((r) => Number(r.id));
  }

  /** Records the moments one wait has reached and writes the mail of those it made; returns the mails. */
  async function warnWait(waitId: number): Promise<number> {
    return inTransaction(db, async (tx) => {
      const [wait] = await queryRows<RawWait>(
        tx,
        sql`select w.id, w.ticket_id, w.phase, w.response_due, w.resolution_due from ticket_waits w
            where w.id = ${waitId} and w.ended_at is null
              and exists (select 1 from support_tickets t where t.id = w.ticket_id and t.open)
            for no key update`,
      );
      if (!wait) return 0;
      const now = clock.now();
      const leadMs = options.warningMinutes * 60_000;
      let mails = 0;
      const targets: Array<[Target, Date | null, TargetKind]> = [
        ['response', dateOf(wait.response_due), wait.phase === 'first' ? 'firstResponse' : 'nextResponse'],
        ['resolution', dateOf(wait.resolution_due), 'resolution'],
      ];
      for (const [target, due, kind] of targets) {
        if (!due || now.getTime() < due.getTime() - leadMs) continue;
        const reached: Moment[] = now >= due ? ['soon', 'missed'] : ['soon'];
        const made = new Set<Moment>();
        for (const moment of reached) {
          const rows = await queryRows<{ moment: Moment }>(
            tx,
            sql`insert into service_level_alerts (wait_id, ticket_id, target, moment, due_at)
                values (${waitId}, ${wait.ticket_id}, ${target}, ${moment}, ${due.toISOString()}::timestamptz)
                on conflict (wait_id, target, moment) do nothing
                returning moment`,
          );
          if (rows.length > 0) made.add(moment);
        }
        // Past the due time only 'missed' is told; a 'soon' made with it has passed untold.
        const tell: Moment | null = reached.includes('missed')
          ? made.has('missed')
            ? 'missed'
            : null
          : made.has('soon')
            ? 'soon'
            : null;
        if (!tell) continue;
        mails += await mailer.toTeam(
          tx,
          wait.ticket_id,
          tell === 'soon' ? 'service-level-soon' : 'service-level-missed',
          (to) => serviceLevelWarningMail(options.mail, to, { target: kind, moment: tell, dueAt: due, now }),
        );
        counters.warned++;
      }
      return mails;
    });
  }

  async function warn(): Promise<void> {
    await walkPages(rounds, {
      first: 0,
      page: (after, limit) => waitsToWarn(clock.now(), after, limit),
      item: async (waitId) => {
        if ((await warnWait(waitId)) > 0) outbox.wake();
      },
      failed: (error, waitId) => {
        counters.failed++;
        log.error({ err: error, waitId }, 'a service-level warning failed; the next round tries again');
      },
    });
  }

  // --- The auto-close -------------------------------------------------------------------------------

  /**
   * Takes the ticket's row lock (as a reply's statement does), then, in a statement of its own so
   * that it sees a reply committed while it waited, checks that the ticket is open and `answerId`
   * is still its newest public message (system lines aside).
   */
  async function lockWaitingOnCustomer(tx: AppDatabase, ticketId: string, answerId: number): Promise<boolean> {
    await tx.execute(sql`select 1 from support_tickets where id = ${ticketId} for no key update`);
    const [row] = await queryRows<{ open: boolean; newest: unknown }>(
      tx,
      sql`select t.open, (select m.id from ticket_messages m
            where m.ticket_id = t.id and not m.internal and m.system_event is null
            order by m.id desc limit 1) as newest
          from support_tickets t where t.id = ${ticketId}`,
    );
    return row !== undefined && row.open && Number(row.newest) === answerId;
  }

  async function takeStep(
    tx: AppDatabase,
    ticketId: string,
    answerId: number,
    step: 'nudged' | 'closed',
    closesAt: Date,
  ) {
    const rows = await queryRows<{ id: unknown }>(
      tx,
      sql`insert into auto_close_steps (ticket_id, after_message_id, step, closes_at)
          values (${ticketId}, ${answerId}, ${step}, ${closesAt.toISOString()}::timestamptz)
          on conflict (ticket_id, after_message_id, step) do nothing
          returning id`,
    );
    return rows.length > 0;
  }

  async function nudge(ticketId: string, answerId: number, closesAt: Date): Promise<void> {
    const mails = await inTransaction(db, async (tx) => {
      if (!(await lockWaitingOnCustomer(tx, ticketId, answerId))) return 0;
      if (!(await takeStep(tx, ticketId, answerId, 'nudged', closesAt))) return 0;
      counters.nudged++;
      // 'When my ticket is closed' covers the warning before it too.
      return mailer.toOwner(tx, ticketId, 'auto-close-nudge', 'ticket-closed', (to) =>
        autoCloseNudgeMail(options.mail, to, { closesAt }),
      );
    });
    if (mails > 0) outbox.wake();
  }

  async function close(ticketId: string, answerId: number, closesAt: Date): Promise<void> {
    const closed = await inTransaction(db, async (tx) => {
      if (!(await lockWaitingOnCustomer(tx, ticketId, answerId))) return false;
      if (!(await takeStep(tx, ticketId, answerId, 'closed', closesAt))) return false;
      return options.records.closeWithSystemLine(tx, {
        ticketId,
        systemEvent: 'auto-closed',
        body: SYSTEM_LINE_TEXT.autoClosed(options.autoCloseWorkingDays),
      });
    });
    if (closed) {
      counters.closed++;
      // The 'closed' mail's notice is due after the usual wait: the outbox worker looks at once.
      outbox.wake();
    }
  }

  async function autoClose(): Promise<void> {
    const days = options.autoCloseWorkingDays;
    if (days <= 0) return;
    const nudgeDays = nudgeWorkingDays(days);
    const calendar = new BusinessCalendar(await options.calendar());
    const now = clock.now();
    // A working day later is at least a calendar day later, less an hour when the clocks change:
    // answers newer than this cannot be due for a nudge yet.
    const newestDue = new Date(now.getTime() - Math.max(0, nudgeDays * 24 - 1) * 3_600_000);
    const rows = await queryRows<{ ticket_id: string; answer_id: unknown; answered_at: unknown; closes_at: unknown }>(
      db,
      sql`select t.id as ticket_id, a.id as answer_id, a.timestamp as answered_at,
            (select s.closes_at from auto_close_steps s
              where s.ticket_id = t.id and s.after_message_id = a.id and s.step = 'nudged') as closes_at
          from support_tickets t
          cross join lateral (select m.id, m.admin, m.timestamp from ticket_messages m
            where m.ticket_id = t.id and not m.internal and m.system_event is null
            order by m.id desc limit 1) a
          where t.open and a.admin and a.timestamp <= ${newestDue.toISOString()}::timestamptz
          order by a.id`,
    );
    for (const row of rows) {
      if (rounds.stopped) return;
      const answerId = Number(row.answer_id);
      const answeredAt = dateOf(row.answered_at)!;
      const promised = dateOf(row.closes_at);
      try {
        if (promised === null) {
          const nudgeAt = nudgeDays > 0 ? calendar.addWorkingDays(answeredAt, nudgeDays) : answeredAt;
          if (now < nudgeAt) continue;
          const planned = calendar.addWorkingDays(answeredAt, days);
          // Sent late (the server was down): the close is never on the nudge's own day or earlier.
          const closesAt = newZealandDate(planned) > newZealandDate(now) ? planned : calendar.addWorkingDays(now, 1);
          await nudge(row.ticket_id, answerId, closesAt);
        } else if (now >= promised) {
          await close(row.ticket_id, answerId, promised);
        }
      } catch (error) {
        counters.failed++;
        log.error({ err: error, ticketId: row.ticket_id }, 'an auto-close step failed; the next round tries again');
      }
      await nextTurn();
    }
  }

  async function round(): Promise<void> {
    await stepAlone(log, 'the service-level warnings failed a round; the next round tries again', warn);
    await stepAlone(log, 'the auto-close failed a round; the next round tries again', autoClose);
  }

  const rounds = createBackgroundRounds(options.checkMs, round);
  // A round now and then every SERVICE_LEVEL_CHECK_MS; tests run one with run().
  return checkingWorker(rounds, counters);
}

export type ServiceLevelWorker = ReturnType<typeof createServiceLevelWorker>;
