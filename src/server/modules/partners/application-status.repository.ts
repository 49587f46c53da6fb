import { asc, desc, eq } from 'drizzle-orm';
import type { ApplicationEventKind } from '../../../contracts/partner-status.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { companies, companyEvents, companyStatusLinks } from '../../db/schema.ts';
import { companyFields } from './partners.repository.ts';

/**
 * Reads for the applicant's status page (docs/decisions/112-application-status-page.md): one
 * application by the hash of its status token, and its history. Keys, the licence's storage key and
 * URL stay here: only whether a licence was sent leaves.
 */
export function createApplicationStatusRepository(db: AppDatabase) {
  return {
    async findByTokenHash(hash: string) {
      const [row] = await db
        .select({
          ...companyFields,
          licenseKey: companies.commercialLicenseKey,
          verified: companies.verified,
          isBanned: companies.isBanned,
          createdAt: companies.createdAt,
          reviewStage: companies.reviewStage,
          submittedAt: companies.submittedAt,
          requestedChanges: companies.requestedChanges,
          licenseExpiresOn: companies.licenseExpiresOn,
          licenseHoldAt: companies.licenseHoldAt,
          renewalSentAt: companies.renewalSentAt,
        })
        .from(companyStatusLinks)
        .innerJoin(companies, eq(companies.id, companyStatusLinks.companyId))
        .where(eq(companyStatusLinks.tokenHash, hash));
      return row ?? null;
    },

    /** The applications a contact address was given for (by its key), newest first; a few at most. */
    async findByEmailKey(emailKey: string) {
      return db
        .select({ id: companies.id, companyName: companies.companyName, email: companies.contactPersonEmail })
        .from(companies)
        .where(eq(companies.emailKey, emailKey))
        .orderBy(desc(companies.createdAt))
        .limit(5);
    },

    /** The application's history, oldest first. */
    async history(companyId: string) {
      const rows = await db
        .select({ kind: companyEvents.kind, reason: companyEvents.reason, createdAt: companyEvents.createdAt })
        .from(companyEvents)
        .where(eq(companyEvents.companyId, companyId))
        .orderBy(asc(companyEvents.createdAt), asc(companyEvents.id));
      return rows.map((row) => ({ ...row, kind: row.kind as ApplicationEventKind }));
    },
  };
}

export type ApplicationStatusRepository = ReturnType<typeof createApplicationStatusRepository>;
