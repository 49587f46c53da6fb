import {
  APPLICATION_STATUS_TEXT,
  type ApplicationEventKind,
  type ApplicationState,
  STATUS_TOKEN_PATTERN,
} from '../../../contracts/partner-status.ts';
import type { ApplicationStatus } from '../../../contracts/partner-status.schemas.ts';
import { RequestedChangesSchema } from '../../../contracts/partner-changes.schemas.ts';
import { type CompanyStatus, companyStatusOf, VERIFIED } from '../../../contracts/partner-review.ts';
import type { CalendarSettings } from '../../../contracts/service-levels.schemas.ts';
import { BusinessCalendar } from '../../calendar/business-calendar.ts';
import { AppError } from '../../errors.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { hashToken } from '../../security/tokens.ts';
import { AUTH_MESSAGES } from '../../../contracts/auth.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { emailKey } from './company-keys.ts';
import { partnerLinkMail, type ReviewMailContext } from './partners.review.mail.ts';
import { newStatusLink } from './status-links.ts';
import { licenceExpiryOf } from './partners.review.repository.ts';
import type { ApplicationStatusRepository } from './application-status.repository.ts';
import { reviewDue } from './review-due.ts';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

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
  /** A new link by mail (docs/decisions/113-changes-requested.md): the mail commits with the link. */
  db: AppDatabase;
  outbox: Outbox;
  mail: ReviewMailContext;
  /** Requests per network address, and mails per address asked about, per hour (ACCOUNT_* settings). */
  linkRequestsPerIpPerHour: number;
  linkMailsPerHour: number;
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

    /**
     * Emails a new status link to the contact address of each application that gave it (a few at
     * most). The caller answers the same whether or not one did; the limits count either way.
     */
    async sendLink(ip: string, email: string): Promise<void> {
      const key = emailKey(email);
      await limiter.consume(
        { key: `partner-link:ip:${ip}`, limit: deps.linkRequestsPerIpPerHour, windowMs: HOUR_MS },
        AUTH_MESSAGES.tooManyRequests,
      );
      await limiter.consume(
        { key: `partner-link:mail:${key}`, limit: deps.linkMailsPerHour, windowMs: HOUR_MS },
        AUTH_MESSAGES.tooManyMailRequests,
      );
      const applications = await repository.findByEmailKey(key);
      if (applications.length === 0) return;
      await inTransaction(deps.db, async (tx) => {
        for (const application of applications) {
          if (!application.email) continue;
          const url = await newStatusLink(tx, application.id, deps.mail.publicBaseUrl);
          await deps.outbox.enqueue(tx, {
            ...partnerLinkMail(deps.mail, application.email, application.companyName, url),
            kind: 'partner-link',
          });
        }
      });
      deps.outbox.wake();
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
        licenseExpiresOn: approved && !row.isBanned ? licenceExpiryOf(row.licenseExpiresOn) : null,
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
