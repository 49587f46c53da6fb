import { sql } from 'drizzle-orm';
import { LICENSE_REMINDER_DAYS } from '../../../contracts/partner-review.ts';
import { checkingWorker, createBackgroundRounds, stepAlone, walkPages } from '../../background-rounds.ts';
import { addDays, newZealandDate } from '../../calendar/business-calendar.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';
import type { Logger } from '../../logging.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { licenceExpiredMail, licenceReminderMail, type ReviewMailContext } from './partners.review.mail.ts';
import { newStatusLink } from './status-links.ts';

export interface LicenseExpiryWorkerOptions {
  db: AppDatabase;
  outbox: Outbox;
  mail: ReviewMailContext;
  log: Logger;
  clock: Clock;
  /** LICENSE_EXPIRY_CHECK_MS: how often a round runs (and once at start). */
  checkMs: number;
}

/** The furthest reminder: licences expiring further out than this have nothing due. */
const FIRST_REMINDER = Math.max(...LICENSE_REMINDER_DAYS);

/** Whole days from `from` to `to`, both New Zealand dates ('YYYY-MM-DD'). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * The moment due on `today` for a licence expiring on `expiresOn`: the latest of 30, 14, 3 days
 * before and 0 (the expiry itself) that has been reached, or null when none has.
 */
export function dueMoment(expiresOn: string, today: string): number | null {
  const left = daysBetween(today, expiresOn);
  if (left <= 0) return 0;
  const reached = LICENSE_REMINDER_DAYS.filter((days) => left <= days);
  return reached.length > 0 ? Math.min(...reached) : null;
}

/** A date column as 'YYYY-MM-DD', whichever driver read it (string, or a Date at UTC midnight). */
const dateText = (value: unknown): string =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/**
 * The licence expiry worker (docs/decisions/115-licence-expiry.md), one per app instance, every
 * LICENSE_EXPIRY_CHECK_MS and once at start, on the app's clock and New Zealand's calendar date.
 *
 * For each approved, not banned partner with a licence expiry date and no hold yet, the latest
 * moment reached (30, 14 or 3 days before the date, or the date itself) is recorded in
 * company_license_reminders and, only when this transaction's insert made the row, its mail is
 * written to the outbox in the same transaction: each moment is told once whatever restarts or
 * instances there are (the company's row is locked first, so a second instance waits, then finds
 * the row made). A moment that passed while nobody looked is not told late: only the latest one
 * reached is (a licence approved 10 days before it expires gets the 14-day reminder, never the
 * 30-day one). At the date itself the partner goes on hold (license_hold_at, the applicant's
 * history line 'license_expired') until an admin accepts a new licence. No contact email: the row
 * is still recorded, nothing is sent.
 */
export function createLicenseExpiryWorker(options: LicenseExpiryWorkerOptions) {
  const { db, outbox, log, clock } = options;
  const counters = { reminded: 0, held: 0, failed: 0 };

  /** Companies with a moment reached on `today` that is not recorded yet, by id after `afterId`. */
  async function companiesDue(today: string, afterId: string, limit: number): Promise<Array<{ id: string }>> {
    const horizon = addDays(today, FIRST_REMINDER);
    // Raw SQL: the moment reached is worked out per row (a CASE over the date) to look for its reminder row.
    return queryRows<{ id: string }>(
      db,
      sql`select c.id from companies c
          cross join lateral (select case
              when c.license_expires_on <= ${today}::date then 0
              when c.license_expires_on <= ${today}::date + 3 then 3
              when c.license_expires_on <= ${today}::date + 14 then 14
              else 30 end as days_before) m
          where c.verified = 1 and not c.is_banned and c.license_hold_at is null
            and c.license_expires_on is not null and c.license_expires_on <= ${horizon}::date
            and c.id > ${afterId}::uuid
            and not exists (select 1 from company_license_reminders r
              where r.company_id = c.id and r.expires_on = c.license_expires_on and r.days_before = m.days_before)
          order by c.id limit ${limit}`,
    );
  }

  /** Records the moment due for one company and writes its mail if this made the row; true when a mail was written. */
  async function remind(companyId: string): Promise<boolean> {
    return inTransaction(db, async (tx) => {
      // The row lock first: an admin's change (ban, a new licence accepted) or another instance
      // committed meanwhile is seen by the statements after it.
      await tx.execute(sql`select 1 from companies where id = ${companyId} for no key update`);
      const [company] = await queryRows<{
        company_name: string;
        contact_person_email: string | null;
        expires_on: unknown;
      }>(
        tx,
        sql`select company_name, contact_person_email, license_expires_on as expires_on from companies
            where id = ${companyId} and verified = 1 and not is_banned and license_hold_at is null
              and license_expires_on is not null`,
      );
      if (!company) return false;
      const now = clock.now();
      const today = newZealandDate(now);
      const expiresOn = dateText(company.expires_on);
      const moment = dueMoment(expiresOn, today);
      if (moment === null) return false;
      const made = await queryRows<{ days_before: unknown }>(
        tx,
        sql`insert into company_license_reminders (company_id, expires_on, days_before, sent_at)
            values (${companyId}, ${expiresOn}::date, ${moment}, ${now.toISOString()}::timestamptz)
            on conflict (company_id, expires_on, days_before) do nothing
            returning days_before`,
      );
      if (made.length === 0) return false;
      if (moment === 0) {
        await tx.execute(
          sql`update companies set license_hold_at = ${now.toISOString()}::timestamptz, last_updated = now()
              where id = ${companyId}`,
        );
        await tx.execute(sql`insert into company_events (company_id, kind) values (${companyId}, 'license_expired')`);
        counters.held++;
      } else {
        counters.reminded++;
      }
      const to = company.contact_person_email;
      if (!to) return false;
      const url = await newStatusLink(tx, companyId, options.mail.publicBaseUrl);
      const message =
        moment === 0
          ? licenceExpiredMail(options.mail, to, company.company_name, expiresOn, url)
          : licenceReminderMail(options.mail, to, company.company_name, expiresOn, daysBetween(today, expiresOn), url);
      await outbox.enqueue(tx, { ...message, kind: 'license-reminder' });
      return true;
    });
  }

  async function round(): Promise<void> {
    await stepAlone(log, 'the licence expiry round failed; the next round tries again', () =>
      walkPages(rounds, {
        first: '00000000-0000-0000-0000-000000000000',
        page: async (after, limit) =>
          (await companiesDue(newZealandDate(clock.now()), after, limit)).map((row) => row.id),
        item: async (companyId) => {
          if (await remind(companyId)) outbox.wake();
        },
        failed: (error, companyId) => {
          counters.failed++;
          log.error({ err: error, companyId }, 'a licence reminder failed; the next round tries again');
        },
      }),
    );
  }

  const rounds = createBackgroundRounds(options.checkMs, round);
  // A round now and then every LICENSE_EXPIRY_CHECK_MS; tests run one with run().
  return checkingWorker(rounds, counters);
}

export type LicenseExpiryWorker = ReturnType<typeof createLicenseExpiryWorker>;
