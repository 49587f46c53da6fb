import {
  APPLICATION_STATUS_TEXT,
  type ApplicationEventKind,
  type ApplicationState,
  type ApplicationStatus,
  STATUS_TOKEN_PATTERN,
} from '../../../contracts/partner-status.ts';
import { RequestedChangesSchema } from '../../../contracts/partner-changes.ts';
import { type CompanyStatus, companyStatusOf, VERIFIED } from '../../../contracts/partner-review.ts';
import type { CalendarSettings } from '../../../contracts/service-levels.ts';
import { BusinessCalendar } from '../../calendar/business-calendar.ts';
import { AppError } from '../../errors.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { hashToken } from '../../security/tokens.ts';
import type { ApplicationStatusRepository } from './application-status.repository.ts';
import { reviewDue } from './review-due.ts';

const MINUTE_MS = 60 * 1000;

type ReviewStage = 'received' | 'in_review' | 'changes_requested';
const STAGE_STATE: Record<ReviewStage, ApplicationState> = {
  received: 'received',
  in_review: 'in-review',
  changes_requested: 'changes-requested',
};
/** The history lines whose reason the applicant reads: decisions, requests, what they sent. */
const EXPLAINED = new Set<ApplicationEventKind>(['rejected', 'changes_requested', 'resubmitted', 'license_refused']);

/**
 * The state in the applicant's words for the console's status of the application (the same rule:
 * a ban reads 'On hold', whatever the decision under it).
 */
const STATE_OF: Record<CompanyStatus, ApplicationState> = {
  pending: 'received',
  verified: 'approved',
  // The licence expired (docs/decisions/115-licence-expiry.md).
  'on-hold': 'on-hold',
  rejected: 'not-approved',
  banned: 'on-hold',
};

/**
 * The applicant's status page (docs/decisions/112-application-status-page.md): one application by
 * its private token. An unknown and a malformed token answer the same 404 with the same words.
 */
export function createApplicationStatusService(deps: {
  repository: ApplicationStatusRepository;
  limiter: RateLimiter;
  /** Token reads per address per minute (PARTNER_STATUS_READS_PER_MIN). */
  readsPerIpPerMinute: number;
  /** The team's business calendar: a pending application's review due date counts its working days. */
  calendar: () => Promise<CalendarSettings>;
}) {
  const { repository, limiter } = deps;
  return {
    /** Counts a token read from this address; past the limit, 429 with Retry-After. */
    async requireReadAllowance(ip: string): Promise<void> {
      await limiter.consume(
        { key: `partner-status:ip:${ip}`, limit: deps.readsPerIpPerMinute, windowMs: MINUTE_MS },
        APPLICATION_STATUS_TEXT.tooMany,
      );
    },

    async status(token: string): Promise<ApplicationStatus> {
      const row = STATUS_TOKEN_PATTERN.test(token) ? await repository.findByTokenHash(hashToken(token)) : null;
      if (!row) throw new AppError('NOT_FOUND', APPLICATION_STATUS_TEXT.notFound);
      const status = companyStatusOf(row);
      // A pending application's stage says how far its review is (docs/decisions/113-changes-requested.md).
      const state = status === 'pending' ? STAGE_STATE[row.reviewStage as ReviewStage] : STATE_OF[status];
      const reviewDueDate =
        state === 'received' || state === 'in-review'
          ? reviewDue(row.submittedAt, new BusinessCalendar(await deps.calendar())).dueDate
          : null;
      const history = await repository.history(row.id);
      const approved = row.verified === VERIFIED.verified;
      return {
        company: {
          companyName: row.companyName,
          nzbn: row.nzbn,
          street: row.street,
          address: row.address,
          phoneNumber: row.phoneNumber,
          contactPersonName: row.contactPersonName,
          contactPersonJobTitle: row.contactPersonJobTitle,
          contactPersonPhoneNumber: row.contactPersonPhoneNumber,
          contactPersonEmail: row.contactPersonEmail,
          licenseSent: row.licenseKey !== null,
          submittedAt: row.createdAt.toISOString(),
        },
        state,
        reviewDueDate,
        requestedChanges: state === 'changes-requested' ? RequestedChangesSchema.parse(row.requestedChanges) : null,
        hold: row.isBanned ? 'banned' : approved && row.licenseHoldAt ? 'license-expired' : null,
        licenseExpiresOn: approved && !row.isBanned ? row.licenseExpiresOn : null,
        renewalSentAt: approved && !row.isBanned && row.renewalSentAt ? row.renewalSentAt.toISOString() : null,
        history: history.map((event) => ({
          kind: event.kind,
          at: event.createdAt.toISOString(),
          reason: EXPLAINED.has(event.kind) ? event.reason : null,
        })),
      };
    },
  };
}

export type ApplicationStatusService = ReturnType<typeof createApplicationStatusService>;
