import { and, eq, ne, not, sql } from 'drizzle-orm';
import type { CompanyTextField } from '../../../contracts/companies.ts';
import type { RequestedChanges } from '../../../contracts/partner-changes.schemas.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { companies, companyEvents, companyStatusLinks } from '../../db/schema.ts';
import { companyFields, lockCompanyId } from './partners.repository.ts';

const pending = and(eq(companies.verified, 0), not(companies.isBanned));

/** The application behind a status link, with what the applicant may change and its keys. */
const applicationColumns = {
  ...companyFields,
  verified: companies.verified,
  isBanned: companies.isBanned,
  reviewStage: companies.reviewStage,
  requestedChanges: companies.requestedChanges,
  licenseKey: companies.commercialLicenseKey,
  renewalKey: companies.renewalLicenseKey,
};

export type ChangesApplicationRow = Omit<
  Awaited<ReturnType<ReturnType<typeof createChangesRepository>['findByTokenHash']>> & object,
  'requestedChanges'
> & { requestedChanges: RequestedChanges | null };

/**
 * Changes requested (docs/decisions/113-changes-requested.md). Each step is one conditional UPDATE
 * with its line in the applicant's history, in the caller's transaction: two admins cannot both ask,
 * and an applicant's two tabs cannot both send.
 */
export function createChangesRepository(db: AppDatabase) {
  return {
    /** Asks for changes: only a pending application not already waiting for them. Null when nothing changed. */
    async requestChanges(id: string, changes: RequestedChanges, historyText: string, actorId: string) {
      const [row] = await db
        .update(companies)
        .set({ reviewStage: 'changes_requested', requestedChanges: changes, lastUpdated: sql`now()` })
        .where(and(eq(companies.id, id), pending, ne(companies.reviewStage, 'changes_requested')))
        .returning({ id: companies.id, companyName: companies.companyName, email: companies.contactPersonEmail });
      if (!row) return null;
      await db.insert(companyEvents).values({ companyId: id, kind: 'changes_requested', reason: historyText, actorId });
      return row;
    },

    /** An admin opened a received application: it is in review from now (once). */
    async markInReview(id: string, actorId: string): Promise<boolean> {
      const [row] = await db
        .update(companies)
        .set({ reviewStage: 'in_review' })
        .where(and(eq(companies.id, id), pending, eq(companies.reviewStage, 'received')))
        .returning({ id: companies.id });
      if (!row) return false;
      await db.insert(companyEvents).values({ companyId: id, kind: 'review_started', actorId });
      return true;
    },

    /** Where an application stands, to say why a request was refused; null when there is no such application. */
    async state(id: string) {
      const [row] = await db
        .select({ verified: companies.verified, isBanned: companies.isBanned, reviewStage: companies.reviewStage })
        .from(companies)
        .where(eq(companies.id, id));
      return row ?? null;
    },

    async findByTokenHash(hash: string) {
      const [row] = await db
        .select(applicationColumns)
        .from(companyStatusLinks)
        .innerJoin(companies, eq(companies.id, companyStatusLinks.companyId))
        .where(eq(companyStatusLinks.tokenHash, hash));
      return row ?? null;
    },

    /** Takes the company id's lock that the licence sweep takes too (partners.repository.ts). */
    lock: (id: string) => lockCompanyId(db, id),

    /**
     * The applicant's changes: the fields they sent (with their keys) and a new licence, back in
     * review from `submittedAt`. Null when the application no longer waits for changes.
     */
    async applyChanges(
      id: string,
      values: Partial<Pick<typeof companies.$inferInsert, CompanyTextField | 'nameKey' | 'phoneKey' | 'emailKey'>>,
      license: { key: string; url: string } | null,
      submittedAt: Date,
      summary: string,
    ) {
      const [row] = await db
        .update(companies)
        .set({
          ...values,
          ...(license ? { commercialLicenseKey: license.key, commercialLicenseUrl: license.url } : {}),
          reviewStage: 'in_review',
          requestedChanges: null,
          submittedAt,
          lastUpdated: sql`now()`,
        })
        .where(and(eq(companies.id, id), pending, eq(companies.reviewStage, 'changes_requested')))
        .returning({ id: companies.id });
      if (!row) return null;
      await db.insert(companyEvents).values({ companyId: id, kind: 'resubmitted', reason: summary });
      return row;
    },

    /** An approved partner's new licence, waiting for an admin; the one it replaces (if any) is returned to delete. */
    async storeRenewal(id: string, key: string, sentAt: Date): Promise<{ replaced: string | null } | null> {
      const [before] = await db
        .select({ renewalKey: companies.renewalLicenseKey })
        .from(companies)
        .where(and(eq(companies.id, id), eq(companies.verified, 1), not(companies.isBanned)))
        .for('update');
      if (!before) return null;
      await db
        .update(companies)
        .set({ renewalLicenseKey: key, renewalSentAt: sentAt, lastUpdated: sql`now()` })
        .where(eq(companies.id, id));
      await db.insert(companyEvents).values({ companyId: id, kind: 'license_sent' });
      return { replaced: before.renewalKey };
    },
  };
}
