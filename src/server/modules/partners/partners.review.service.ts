import {
  COMPANY_REVIEW_MESSAGES,
  type CompanyDueFilter,
  type CompanySort,
  type CompanyStatus,
  companyStatusOf,
  LICENCE_NEVER,
  LICENCE_TEXT,
  type MailOutcome,
  VERIFIED,
} from '../../../contracts/partner-review.ts';
import type { AdminCompany, ReviewDue } from '../../../contracts/partner-review.schemas.ts';
import { licenseTypeOfKey } from '../../../contracts/companies.ts';
import type { CalendarSettings } from '../../../contracts/service-levels.schemas.ts';
import { BusinessCalendar, newZealandDate } from '../../calendar/business-calendar.ts';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { FileStorage } from '../../storage/storage.ts';
import type { Logger } from '../../logging.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import {
  approvalMail,
  licenceAcceptedMail,
  licenceRefusedMail,
  rejectionMail,
  type ReviewMailContext,
} from './partners.review.mail.ts';
import { licenseUrl } from './partners.service.ts';
import {
  createReviewRepository,
  licenceExpiryOf,
  type ReviewCompanyRow,
  type ReviewRepository,
} from './partners.review.repository.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isLate, lateBefore, reviewDue } from './review-due.ts';
import { newStatusLink } from './status-links.ts';
import { RequestedChangesSchema } from '../../../contracts/partner-changes.schemas.ts';

/** A pending application's review due date, and whether `today` is past it; null when nothing is due from the team. */
function reviewDueOf(row: ReviewCompanyRow, calendar: BusinessCalendar, today: string): ReviewDue | null {
  // Waiting for the applicant's changes, nothing is due from the team.
  if (companyStatusOf(row) !== 'pending' || row.reviewStage === 'changes_requested') return null;
  const { dueDate } = reviewDue(row.submittedAt, calendar);
  return { dueDate, late: isLate(dueDate, today) };
}

export function toAdminCompany(row: ReviewCompanyRow): AdminCompany {
  return {
    ...row,
    lastUpdated: row.lastUpdated.toISOString(),
    createdAt: row.createdAt.toISOString(),
    licenseExpiresOn: licenceExpiryOf(row.licenseExpiresOn),
    reviewStage: row.reviewStage as AdminCompany['reviewStage'],
    submittedAt: row.submittedAt.toISOString(),
    requestedChanges: row.requestedChanges ? RequestedChangesSchema.parse(row.requestedChanges) : null,
    licenseHoldAt: row.licenseHoldAt?.toISOString() ?? null,
    renewalSentAt: row.renewalSentAt?.toISOString() ?? null,
  };
}

/**
 * Reviewing partner applications (docs/product.md §3–4; docs/decisions/061-partner-review.md): approve (verified 1), reject with a reason
 * (verified 2, which frees the name, email and phone for a new application), ban and unban. Approve
 * and reject email the contact address: the mail is recorded in the outbox in the decision's own
 * transaction, and isEmailSend turns true only when the outbox worker has delivered it (and the
 * decision still stands), so a failed or missing mail stays visible and can be sent again.
 */
export function createReviewService(deps: {
  repository: ReviewRepository;
  db: AppDatabase;
  outbox: Outbox;
  mail: ReviewMailContext;
  audit: AuditService;
  /** Today's date for review due dates (docs/decisions/111-partner-review-due.md). */
  clock: Clock;
  /** The team's business calendar, as saved on the business-hours page. */
  calendar: () => Promise<CalendarSettings>;
  /** Where licence files are: a new licence is served from it, and an accepted one's old file removed. */
  storage: FileStorage;
  log: Logger;
}) {
  const { repository, outbox, audit, clock } = deps;

  /** A decision and its mail commit together. */
  async function transaction<T>(work: (repo: ReviewRepository, db: AppDatabase) => Promise<T>): Promise<T> {
    const result = await inTransaction(deps.db, async (tx) => work(createReviewRepository(tx), tx));
    outbox.wake();
    return result;
  }

  async function getCompany(id: string): Promise<ReviewCompanyRow> {
    const row = await repository.find(id);
    if (!row) throw new AppError('NOT_FOUND', COMPANY_REVIEW_MESSAGES.notFound);
    return row;
  }

  /** Records the mail of the current decision in the caller's transaction. */
  async function queueDecision(db: AppDatabase, row: ReviewCompanyRow): Promise<MailOutcome> {
    const to = row.contactPersonEmail;
    if (!to) return 'no-address';
    const message =
      row.verified === VERIFIED.verified
        ? approvalMail(deps.mail, to, row.companyName, {
            expiresOn: licenceExpiryOf(row.licenseExpiresOn),
            statusUrl: await newStatusLink(db, row.id, deps.mail.publicBaseUrl),
          })
        : rejectionMail(deps.mail, to, row.companyName, row.rejectionReason ?? '');
    await outbox.enqueue(db, { ...message, kind: 'partner-decision', company: { id: row.id, decision: row.verified } });
    return 'queued';
  }

  /** A licence expiry date must not be before today on New Zealand's calendar (the app's clock). */
  function requireNotPast(date: string): void {
    if (date !== LICENCE_NEVER && date < newZealandDate(clock.now())) {
      throw new AppError('INVALID_ARGUMENT', LICENCE_TEXT.datePast, {
        fields: { licenseExpiresOn: LICENCE_TEXT.datePast },
      });
    }
  }

  async function decide(
    actor: AuditActor,
    id: string,
    verified: 1 | 2,
    reason: string | null,
    licenseExpiresOn: string | null = null,
  ) {
    if (licenseExpiresOn !== null) requireNotPast(licenseExpiresOn);
    const before = await getCompany(id);
    let decided: { row: ReviewCompanyRow; mail: MailOutcome } | null;
    try {
      decided = await transaction(async (repo, db) => {
        const row = await repo.decide(id, verified, reason, actor.userId, licenseExpiresOn);
        return row ? { row, mail: await queueDecision(db, row) } : null;
      });
    } catch (error) {
      // Approving a rejected application whose name, email or phone a live one now holds.
      if (isUniqueViolation(error)) throw new AppError('ABORTED', COMPANY_REVIEW_MESSAGES.nameTaken);
      throw error;
    }
    if (!decided) {
      await getCompany(id);
      throw new AppError(
        'ABORTED',
        verified === VERIFIED.verified
          ? COMPANY_REVIEW_MESSAGES.alreadyApproved
          : COMPANY_REVIEW_MESSAGES.alreadyRejected,
      );
    }
    const { row, mail } = decided;
    await audit.record({
      actor,
      action: verified === VERIFIED.verified ? 'company.approve' : 'company.reject',
      targetType: 'company',
      targetId: id,
      details: {
        companyName: row.companyName,
        from: before.verified,
        ...(reason !== null ? { reason } : {}),
        ...(licenseExpiresOn !== null ? { licenseExpiresOn } : {}),
        mail,
      },
    });
    return { company: toAdminCompany(row), mail };
  }

  /** The new licence waiting for an admin (its storage key), or 409/404 in the admin's words. */
  async function requireRenewal(id: string): Promise<string> {
    const key = await repository.findRenewalKey(id);
    if (key) return key;
    const row = await getCompany(id);
    throw new AppError(
      'ABORTED',
      row.verified === VERIFIED.verified ? LICENCE_TEXT.noRenewal : LICENCE_TEXT.notApproved,
    );
  }

  /** Accepts or refuses the waiting new licence; the partner's mail commits with the change. */
  async function decideRenewal(
    actor: AuditActor,
    id: string,
    outcome: { accept: string } | { refuse: string },
  ): Promise<{ company: AdminCompany; mail: MailOutcome }> {
    if ('accept' in outcome) requireNotPast(outcome.accept);
    const key = await requireRenewal(id);
    const decided = await transaction(async (repo, db) => {
      let row: ReviewCompanyRow | null;
      let oldKey: string | null = null;
      if ('accept' in outcome) {
        const accepted = await repo.acceptRenewal(id, key, outcome.accept, licenseUrl(id), actor.userId);
        row = accepted?.row ?? null;
        oldKey = accepted?.oldKey ?? null;
      } else {
        row = await repo.refuseRenewal(id, key, outcome.refuse, actor.userId);
      }
      if (!row) return null;
      let mail: MailOutcome = 'no-address';
      const to = row.contactPersonEmail;
      if (to) {
        const message =
          'accept' in outcome
            ? licenceAcceptedMail(deps.mail, to, row.companyName, outcome.accept)
            : licenceRefusedMail(
                deps.mail,
                to,
                row.companyName,
                outcome.refuse,
                await newStatusLink(db, id, deps.mail.publicBaseUrl),
              );
        await outbox.enqueue(db, { ...message, kind: 'license-decision' });
        mail = 'queued';
      }
      return { row, oldKey, mail };
    });
    if (!decided) throw new AppError('ABORTED', LICENCE_TEXT.noRenewal);
    // After the commit: the licence the company now holds is the new one; a crash here leaves an
    // orphan file for the start-up sweep, never a company without its file.
    // A refused file is removed the same way.
    const unused = 'accept' in outcome ? decided.oldKey : key;
    if (unused) {
      await deps.storage.delete(unused).catch((error: unknown) => {
        deps.log.warn({ err: error, companyId: id }, 'a replaced licence file could not be removed; the sweep will');
      });
    }
    await audit.record({
      actor,
      action: 'accept' in outcome ? 'company.license-accept' : 'company.license-refuse',
      targetType: 'company',
      targetId: id,
      details: {
        companyName: decided.row.companyName,
        ...('accept' in outcome ? { licenseExpiresOn: outcome.accept } : { reason: outcome.refuse }),
        mail: decided.mail,
      },
    });
    return { company: toAdminCompany(decided.row), mail: decided.mail };
  }

  async function setBanned(actor: AuditActor, id: string, banned: boolean) {
    const row = await transaction((repo) => repo.setBanned(id, banned, actor.userId));
    if (!row) {
      await getCompany(id);
      throw new AppError('ABORTED', banned ? COMPANY_REVIEW_MESSAGES.alreadyBanned : COMPANY_REVIEW_MESSAGES.notBanned);
    }
    await audit.record({
      actor,
      action: banned ? 'company.ban' : 'company.unban',
      targetType: 'company',
      targetId: id,
      details: { companyName: row.companyName },
    });
    return { company: toAdminCompany(row) };
  }

  return {
    /**
     * A status's applications (`due: 'late'`: only the pending ones past their review due date;
     * `sort: 'due'`: the pending queue by due date), each pending one with its due date, and the
     * counts. Late is decided in SQL by the submission instant (review-due.ts: lateBefore).
     */
    async list(status: CompanyStatus, q: string | undefined, due: CompanyDueFilter, sort: CompanySort) {
      const calendar = new BusinessCalendar(await deps.calendar());
      const today = newZealandDate(clock.now());
      const before = lateBefore(today, calendar);
      const [rows, counts] = await Promise.all([
        repository.list(status, q, { lateBefore: due === 'late' ? before : undefined, sort }),
        repository.counts(before),
      ]);
      return {
        companies: rows.map((row) => ({ ...toAdminCompany(row), reviewDue: reviewDueOf(row, calendar, today) })),
        counts,
      };
    },

    /** One application, with its review due date while one is due. */
    async get(id: string) {
      const row = await getCompany(id);
      const calendar = new BusinessCalendar(await deps.calendar());
      return { company: toAdminCompany(row), reviewDue: reviewDueOf(row, calendar, newZealandDate(clock.now())) };
    },

    approve: (actor: AuditActor, id: string, licenseExpiresOn?: string) =>
      decide(actor, id, VERIFIED.verified, null, licenseExpiresOn ?? null),
    reject: (actor: AuditActor, id: string, reason: string) => decide(actor, id, VERIFIED.rejected, reason),
    ban: (actor: AuditActor, id: string) => setBanned(actor, id, true),
    unban: (actor: AuditActor, id: string) => setBanned(actor, id, false),

    acceptLicense: (actor: AuditActor, id: string, licenseExpiresOn: string) =>
      decideRenewal(actor, id, { accept: licenseExpiresOn }),
    refuseLicense: (actor: AuditActor, id: string, reason: string) => decideRenewal(actor, id, { refuse: reason }),

    /** The new licence file waiting for an admin, as a download. */
    async openRenewalLicense(id: string) {
      const key = await repository.findRenewalKey(id);
      const object = key ? await deps.storage.get(key) : null;
      if (!key || !object) throw new AppError('NOT_FOUND', LICENCE_TEXT.renewalNotFound);
      const type = licenseTypeOfKey(key);
      return {
        body: object.body,
        size: object.size,
        contentType: type.contentType,
        filename: `new-licence-${id}.${type.ext}`,
      };
    },

    /** Queues the current decision's mail again (after a failure, or a corrected address). */
    async notify(actor: AuditActor, id: string) {
      const row = await getCompany(id);
      if (row.verified !== VERIFIED.verified && row.verified !== VERIFIED.rejected) {
        throw new AppError('ABORTED', COMPANY_REVIEW_MESSAGES.nothingToNotify);
      }
      const mail = await transaction((_repo, db) => queueDecision(db, row));
      await audit.record({
        actor,
        action: 'company.notify',
        targetType: 'company',
        targetId: id,
        details: { companyName: row.companyName, mail },
      });
      return { company: toAdminCompany(row), mail };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
