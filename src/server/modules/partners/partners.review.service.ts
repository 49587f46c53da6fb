import {
  type AdminCompany,
  COMPANY_REVIEW_MESSAGES,
  type CompanyStatus,
  type MailOutcome,
  VERIFIED,
} from '../../../contracts/admin.ts';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { AuditActor, AuditService } from '../admin/audit.service.ts';
import { approvalMail, rejectionMail, type ReviewMailContext } from './partners.review.mail.ts';
import type { ReviewCompanyRow, ReviewRepository } from './partners.review.repository.ts';

export function toAdminCompany(row: ReviewCompanyRow): AdminCompany {
  return { ...row, lastUpdated: row.lastUpdated.toISOString(), createdAt: row.createdAt.toISOString() };
}

/** The Postgres unique-violation (SQLSTATE 23505) inside a driver or ORM error. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export interface ReviewLogger {
  error(details: object, message: string): void;
}

/**
 * Reviewing partner applications (spec §3–4; issue 6): approve (verified 1), reject with a reason
 * (verified 2, which frees the name, email and phone for a new application), ban and unban. Approve
 * and reject email the contact address; isEmailSend turns true only once the mailer accepted the
 * message, so a failed or missing mail stays visible and can be sent again.
 */
export function createReviewService(deps: {
  repository: ReviewRepository;
  mailer: Mailer;
  mail: ReviewMailContext;
  audit: AuditService;
  log: ReviewLogger;
}) {
  const { repository, mailer, audit, log } = deps;

  async function getCompany(id: string): Promise<ReviewCompanyRow> {
    const row = await repository.find(id);
    if (!row) throw new AppError('NOT_FOUND', COMPANY_REVIEW_MESSAGES.notFound);
    return row;
  }

  /** Mails the current decision; on success records it. The decision itself stands either way. */
  async function sendDecision(row: ReviewCompanyRow): Promise<{ row: ReviewCompanyRow; mail: MailOutcome }> {
    const to = row.contactPersonEmail;
    if (!to) return { row, mail: 'no-address' };
    const message =
      row.verified === VERIFIED.verified
        ? approvalMail(deps.mail, to, row.companyName)
        : rejectionMail(deps.mail, to, row.companyName, row.rejectionReason ?? '');
    try {
      await mailer.send(message);
    } catch (error) {
      log.error({ err: error, companyId: row.id }, 'partner decision mail failed');
      return { row, mail: 'failed' };
    }
    return { row: (await repository.markEmailSent(row.id, row.verified)) ?? row, mail: 'sent' };
  }

  async function decide(actor: AuditActor, id: string, verified: 1 | 2, reason: string | null) {
    const before = await getCompany(id);
    let row: ReviewCompanyRow | null;
    try {
      row = await repository.decide(id, verified, reason);
    } catch (error) {
      // Approving a rejected application whose name, email or phone a live one now holds.
      if (isUniqueViolation(error)) throw new AppError('ABORTED', COMPANY_REVIEW_MESSAGES.nameTaken);
      throw error;
    }
    if (!row) {
      await getCompany(id);
      throw new AppError('ABORTED', verified === VERIFIED.verified ? COMPANY_REVIEW_MESSAGES.alreadyApproved : COMPANY_REVIEW_MESSAGES.alreadyRejected);
    }
    const sent = await sendDecision(row);
    await audit.record({
      actor,
      action: verified === VERIFIED.verified ? 'company.approve' : 'company.reject',
      targetType: 'company',
      targetId: id,
      details: { companyName: row.companyName, from: before.verified, ...(reason !== null ? { reason } : {}), mail: sent.mail },
    });
    return { company: toAdminCompany(sent.row), mail: sent.mail };
  }

  async function setBanned(actor: AuditActor, id: string, banned: boolean) {
    const row = await repository.setBanned(id, banned);
    if (!row) {
      await getCompany(id);
      throw new AppError('ABORTED', banned ? COMPANY_REVIEW_MESSAGES.alreadyBanned : COMPANY_REVIEW_MESSAGES.notBanned);
    }
    await audit.record({ actor, action: banned ? 'company.ban' : 'company.unban', targetType: 'company', targetId: id, details: { companyName: row.companyName } });
    return { company: toAdminCompany(row) };
  }

  return {
    async list(status: CompanyStatus, q: string | undefined) {
      const [rows, counts] = await Promise.all([repository.list(status, q), repository.counts()]);
      return { companies: rows.map(toAdminCompany), counts };
    },

    async get(id: string) {
      return { company: toAdminCompany(await getCompany(id)) };
    },

    approve: (actor: AuditActor, id: string) => decide(actor, id, VERIFIED.verified, null),
    reject: (actor: AuditActor, id: string, reason: string) => decide(actor, id, VERIFIED.rejected, reason),
    ban: (actor: AuditActor, id: string) => setBanned(actor, id, true),
    unban: (actor: AuditActor, id: string) => setBanned(actor, id, false),

    /** Sends the current decision's mail again (after a failure, or a corrected address). */
    async notify(actor: AuditActor, id: string) {
      const row = await getCompany(id);
      if (row.verified !== VERIFIED.verified && row.verified !== VERIFIED.rejected) {
        throw new AppError('ABORTED', COMPANY_REVIEW_MESSAGES.nothingToNotify);
      }
      const sent = await sendDecision(row);
      await audit.record({ actor, action: 'company.notify', targetType: 'company', targetId: id, details: { companyName: row.companyName, mail: sent.mail } });
      return { company: toAdminCompany(sent.row), mail: sent.mail };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
