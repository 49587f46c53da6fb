import { and, asc, desc, eq, ilike, isNotNull, isNull, like, lt, ne, not, or, type SQL, sql } from 'drizzle-orm';
import type { NzbnCheck } from '../../../contracts/companies.schemas.ts';
import { type CompanySort, type CompanyStatus, LICENCE_NEVER } from '../../../contracts/partner-review.ts';
import { type AppDatabase } from '../../db/connection.ts';
import { companies, companyEvents } from '../../db/schema.ts';
import { likePattern } from '../../db/sql.ts';
import { nzbnCheckColumn } from './nzbn-lookup.repository.ts';
import { type CompanyRow, publicColumns } from './partners.repository.ts';

/**
 * Partner review (docs/decisions/061-partner-review.md). Each transition is one conditional UPDATE, so two admins acting at once
 * cannot both approve, both reject, or ban twice; every change sets last_updated and adds its line
 * to the applicant's history (company_events, docs/decisions/112-application-status-page.md) in the
 * caller's transaction. Rejecting
 * (verified = 2) takes the company out of the partial unique indexes, which frees its name, email
 * and phone for a new application; approving a rejected one puts it back and may collide (23505).
 */
export interface ReviewCompanyRow extends CompanyRow {
  createdAt: Date;
  rejectionReason: string | null;
  licenseExpiresOn: string | null;
  licenseHoldAt: Date | null;
  renewalSentAt: Date | null;
  /** The NZBN register's answer as the admin sees it (nzbn-lookup.repository.ts). */
  nzbnCheck: NzbnCheck | null;
  reviewStage: string;
  submittedAt: Date;
  requestedChanges: unknown;
  /** What kind of file the licence is, from the extension its bytes gave it: the console previews each its way. */
  licenseFormat: 'image' | 'pdf' | null;
}

/**
 * A licence that does not expire is stored as the date 'infinity' (PostgreSQL's own), which every
 * comparison with a day puts after it, so no reminder or hold ever reaches it; the API says 'never'.
 */
const INFINITY = 'infinity';
export const storedExpiry = (expiresOn: string | null) => (expiresOn === LICENCE_NEVER ? INFINITY : expiresOn);
export const licenceExpiryOf = (stored: string | null) => (stored === INFINITY ? LICENCE_NEVER : stored);

/** Storage keys and normalised keys stay in the database (AZ-08). */
const columns = {
  ...publicColumns,
  createdAt: companies.createdAt,
  rejectionReason: companies.rejectionReason,
  licenseExpiresOn: companies.licenseExpiresOn,
  licenseHoldAt: companies.licenseHoldAt,
  renewalSentAt: companies.renewalSentAt,
  nzbnCheck: nzbnCheckColumn,
  reviewStage: companies.reviewStage,
  submittedAt: companies.submittedAt,
  requestedChanges: companies.requestedChanges,
  licenseFormat: sql<
    'image' | 'pdf' | null
  >`case when ${companies.commercialLicenseKey} like '%.pdf' then 'pdf' when ${companies.commercialLicenseKey} is not null then 'image' end`,
};

const STATUS_FILTER: Record<CompanyStatus, SQL> = {
  pending: and(eq(companies.verified, 0), not(companies.isBanned))!,
  verified: and(eq(companies.verified, 1), not(companies.isBanned), isNull(companies.licenseHoldAt))!,
  // The licence expired and no new one is accepted yet (docs/decisions/115-licence-expiry.md).
  'on-hold': and(eq(companies.verified, 1), not(companies.isBanned), isNotNull(companies.licenseHoldAt))!,
  rejected: and(eq(companies.verified, 2), not(companies.isBanned))!,
  banned: eq(companies.isBanned, true),
};

/** The queue is worked oldest first; the other lists show the latest change first. */
const STATUS_ORDER: Record<CompanyStatus, SQL[]> = {
  pending: [asc(companies.submittedAt), asc(companies.id)],
  verified: [desc(companies.lastUpdated), asc(companies.id)],
  'on-hold': [asc(companies.licenseHoldAt), asc(companies.id)],
  rejected: [desc(companies.lastUpdated), asc(companies.id)],
  banned: [desc(companies.lastUpdated), asc(companies.id)],
};

/**
 * When an application was last submitted, which its review due date counts from
 * (docs/decisions/111-partner-review-due.md): today only the application itself; a resubmission
 * after changes were asked for will take its place here.
 */
const submittedAt = companies.submittedAt;
/**
 * Waiting for a decision, not for the applicant's changes, and (last) submitted before `lateBefore`
 * (review-due.ts): late for review.
 */
const lateFilter = (lateBefore: Date) =>
  and(STATUS_FILTER.pending, ne(companies.reviewStage, 'changes_requested'), lt(submittedAt, lateBefore))!;
/** Due dates follow the submission, so the earliest due is the earliest submitted. */
const DUE_ORDER: SQL[] = [asc(submittedAt), asc(companies.id)];

/** How many companies have `status`, counted in the one pass over the table. */
const countWhere = (status: CompanyStatus) =>
  sql<number>`count(*) filter (where ${STATUS_FILTER[status]})`.mapWith(Number);

export interface ListOptions {
  /** Only the pending applications submitted before this instant (the late ones). */
  lateBefore?: Date | undefined;
  sort?: CompanySort | undefined;
}

export function createReviewRepository(db: AppDatabase) {
  return {
    /**
     * Every company in a status (or all), most recently changed first, as the app reads them
     * (GET /api/app/partners): name and where it stands, nothing of the application itself.
     */
    async statuses(status: CompanyStatus | undefined, limit: number) {
      return db
        .select({
          id: companies.id,
          companyName: companies.companyName,
          verified: companies.verified,
          isBanned: companies.isBanned,
          licenseHoldAt: companies.licenseHoldAt,
          lastUpdated: companies.lastUpdated,
        })
        .from(companies)
        .where(status ? STATUS_FILTER[status] : undefined)
        .orderBy(desc(companies.lastUpdated), asc(companies.id))
        .limit(limit);
    },

    async list(
      status: CompanyStatus,
      search: string | undefined,
      options: ListOptions = {},
    ): Promise<ReviewCompanyRow[]> {
      const q = search?.trim() || null;
      const pattern = q ? likePattern(q) : null;
      return db
        .select(columns)
        .from(companies)
        .where(
          and(
            STATUS_FILTER[status],
            options.lateBefore ? lateFilter(options.lateBefore) : undefined,
            pattern === null
              ? undefined
              : or(
                  ilike(companies.companyName, pattern),
                  ilike(companies.contactPersonEmail, pattern),
                  like(companies.phoneNumber, pattern),
                  ilike(companies.contactPersonName, pattern),
                ),
          ),
        )
        .orderBy(...(options.sort === 'due' && status === 'pending' ? DUE_ORDER : STATUS_ORDER[status]))
        .limit(200);
    },

    /** Each status's count, and the pending applications submitted before `lateBefore` (late). */
    async counts(lateBefore: Date): Promise<Record<CompanyStatus | 'late', number>> {
      const [row] = await db
        .select({
          pending: countWhere('pending'),
          verified: countWhere('verified'),
          onHold: countWhere('on-hold'),
          rejected: countWhere('rejected'),
          banned: countWhere('banned'),
          late: sql<number>`count(*) filter (where ${lateFilter(lateBefore)})`.mapWith(Number),
        })
        .from(companies);
      return {
        pending: Number(row?.pending ?? 0),
        verified: Number(row?.verified ?? 0),
        'on-hold': Number(row?.onHold ?? 0),
        rejected: Number(row?.rejected ?? 0),
        banned: Number(row?.banned ?? 0),
        late: Number(row?.late ?? 0),
      };
    },

    async find(id: string): Promise<ReviewCompanyRow | null> {
      const [row] = await db.select(columns).from(companies).where(eq(companies.id, id));
      return row ?? null;
    },

    /**
     * Sets the decision (1 approved, 2 rejected) unless it is already that; a new decision has not
     * been mailed yet, so is_email_send goes back to false. Approving records the licence's expiry
     * date (null: none given) and starts with no hold. Null when nothing changed.
     */
    async decide(
      id: string,
      verified: 1 | 2,
      reason: string | null,
      actorId: string | null = null,
      licenseExpiresOn: string | null = null,
    ): Promise<ReviewCompanyRow | null> {
      const approving = verified === 1 ? { licenseExpiresOn: storedExpiry(licenseExpiresOn), licenseHoldAt: null } : {};
      const [row] = await db
        .update(companies)
        .set({ verified, rejectionReason: reason, isEmailSend: false, lastUpdated: sql`now()`, ...approving })
        .where(and(eq(companies.id, id), ne(companies.verified, verified)))
        .returning(columns);
      if (!row) return null;
      await db
        .insert(companyEvents)
        .values({ companyId: id, kind: verified === 1 ? 'approved' : 'rejected', reason, actorId });
      return row;
    },

    /**
     * Null when the company is missing or already in that state. The change's line in the applicant's
     * history is written with it: callers run this in a transaction.
     */
    async setBanned(id: string, banned: boolean, actorId: string | null = null): Promise<ReviewCompanyRow | null> {
      const [row] = await db
        .update(companies)
        .set({ isBanned: banned, lastUpdated: sql`now()` })
        .where(and(eq(companies.id, id), ne(companies.isBanned, banned)))
        .returning(columns);
      if (!row) return null;
      await db.insert(companyEvents).values({ companyId: id, kind: banned ? 'banned' : 'unbanned', actorId });
      return row;
    },

    /** The storage key of the new licence waiting for an admin, or null. */
    async findRenewalKey(id: string): Promise<string | null> {
      const [row] = await db
        .select({ key: companies.renewalLicenseKey })
        .from(companies)
        .where(and(eq(companies.id, id), eq(companies.verified, 1)));
      return row?.key ?? null;
    },

    /**
     * Accepts the waiting new licence `renewalKey` (still that one: a conditional update, so two
     * admins cannot both accept, nor accept one the partner replaced meanwhile): it becomes the
     * licence, with its expiry date, and a hold ends. Returns the row and the old licence's key
     * (to delete from storage after the commit), or null. Callers run this in a transaction.
     */
    async acceptRenewal(
      id: string,
      renewalKey: string,
      licenseExpiresOn: string,
      licenseUrl: string,
      actorId: string | null,
    ): Promise<{ row: ReviewCompanyRow; oldKey: string | null } | null> {
      const [old] = await db
        .select({ key: companies.commercialLicenseKey })
        .from(companies)
        .where(and(eq(companies.id, id), eq(companies.renewalLicenseKey, renewalKey)))
        .for('update');
      if (!old) return null;
      const [row] = await db
        .update(companies)
        .set({
          commercialLicenseKey: renewalKey,
          commercialLicenseUrl: licenseUrl,
          renewalLicenseKey: null,
          renewalSentAt: null,
          licenseExpiresOn: storedExpiry(licenseExpiresOn),
          licenseHoldAt: null,
          lastUpdated: sql`now()`,
        })
        .where(and(eq(companies.id, id), eq(companies.verified, 1), eq(companies.renewalLicenseKey, renewalKey)))
        .returning(columns);
      if (!row) return null;
      await db.insert(companyEvents).values({ companyId: id, kind: 'license_accepted', actorId });
      return { row, oldKey: old.key === renewalKey ? null : old.key };
    },

    /** Refuses the waiting new licence `renewalKey` with a reason; null when it no longer waits. */
    async refuseRenewal(
      id: string,
      renewalKey: string,
      reason: string,
      actorId: string | null,
    ): Promise<ReviewCompanyRow | null> {
      const [row] = await db
        .update(companies)
        .set({ renewalLicenseKey: null, renewalSentAt: null, lastUpdated: sql`now()` })
        .where(and(eq(companies.id, id), eq(companies.verified, 1), eq(companies.renewalLicenseKey, renewalKey)))
        .returning(columns);
      if (!row) return null;
      await db.insert(companyEvents).values({ companyId: id, kind: 'license_refused', reason, actorId });
      return row;
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
