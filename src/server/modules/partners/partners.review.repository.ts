import { type SQL, sql } from 'drizzle-orm';
import type { CompanyStatus } from '../../../contracts/admin.ts';
import { type AppDatabase } from '../../db/connection.ts';
import { queryRows, likePattern } from '../../db/sql.ts';
import type { CompanyRow } from './partners.repository.ts';

/**
 * Partner review (docs/decisions/061-partner-review.md). Each transition is one conditional UPDATE, so two admins acting at once
 * cannot both approve, both reject, or ban twice; every change sets last_updated. Rejecting
 * (verified = 2) takes the company out of the partial unique indexes, which frees its name, email
 * and phone for a new application; approving a rejected one puts it back and may collide (23505).
 */
export interface ReviewCompanyRow extends CompanyRow {
  createdAt: Date;
  rejectionReason: string | null;
}

type Raw = {
  id: string;
  company_name: string;
  street: string | null;
  address: string;
  phone_number: string;
  contact_person_name: string | null;
  contact_person_job_title: string | null;
  contact_person_phone_number: string | null;
  contact_person_email: string | null;
  commercial_license_url: string | null;
  verified: number;
  is_banned: boolean;
  is_email_send: boolean;
  last_updated: unknown;
  created_at: unknown;
  rejection_reason: string | null;
};

const toRow = (r: Raw): ReviewCompanyRow => ({
  id: r.id,
  companyName: r.company_name,
  street: r.street,
  address: r.address,
  phoneNumber: r.phone_number,
  contactPersonName: r.contact_person_name,
  contactPersonJobTitle: r.contact_person_job_title,
  contactPersonPhoneNumber: r.contact_person_phone_number,
  contactPersonEmail: r.contact_person_email,
  commercialLicenseUrl: r.commercial_license_url,
  verified: Number(r.verified),
  isBanned: r.is_banned,
  isEmailSend: r.is_email_send,
  lastUpdated: new Date(r.last_updated as string),
  createdAt: new Date(r.created_at as string),
  rejectionReason: r.rejection_reason,
});

/** Storage keys and normalised keys stay in the database (AZ-08). */
const COLUMNS = sql.raw(
  'id, company_name, street, address, phone_number, contact_person_name, contact_person_job_title, ' +
    'contact_person_phone_number, contact_person_email, commercial_license_url, verified, is_banned, ' +
    'is_email_send, last_updated, created_at, rejection_reason',
);

const STATUS_FILTER: Record<CompanyStatus, SQL> = {
  pending: sql`verified = 0 and not is_banned`,
  verified: sql`verified = 1 and not is_banned`,
  rejected: sql`verified = 2 and not is_banned`,
  banned: sql`is_banned`,
};

/** The queue is worked oldest first; the other lists show the latest change first. */
const STATUS_ORDER: Record<CompanyStatus, SQL> = {
  pending: sql`created_at asc, id`,
  verified: sql`last_updated desc, id`,
  rejected: sql`last_updated desc, id`,
  banned: sql`last_updated desc, id`,
};

export function createReviewRepository(db: AppDatabase) {
  async function one(query: SQL): Promise<ReviewCompanyRow | null> {
    const [row] = await queryRows<Raw>(db, query);
    return row ? toRow(row) : null;
  }

  return {
    async list(status: CompanyStatus, search: string | undefined): Promise<ReviewCompanyRow[]> {
      const q = search?.trim() || null;
      const pattern = q ? likePattern(q) : null;
      const rows = await queryRows<Raw>(
        db,
        sql`select ${COLUMNS} from companies
            where ${STATUS_FILTER[status]}
              and (${q}::text is null
                   or company_name ilike ${pattern}::text
                   or contact_person_email ilike ${pattern}::text
                   or phone_number like ${pattern}::text
                   or contact_person_name ilike ${pattern}::text)
            order by ${STATUS_ORDER[status]}
            limit 200`,
      );
      return rows.map(toRow);
    },

    async counts(): Promise<Record<CompanyStatus, number>> {
      const [row] = await queryRows<{ pending: unknown; verified: unknown; rejected: unknown; banned: unknown }>(
        db,
        sql`select count(*) filter (where verified = 0 and not is_banned) as pending,
                   count(*) filter (where verified = 1 and not is_banned) as verified,
                   count(*) filter (where verified = 2 and not is_banned) as rejected,
                   count(*) filter (where is_banned) as banned
            from companies`,
      );
      return {
        pending: Number(row?.pending ?? 0),
        verified: Number(row?.verified ?? 0),
        rejected: Number(row?.rejected ?? 0),
        banned: Number(row?.banned ?? 0),
      };
    },

    async find(id: string): Promise<ReviewCompanyRow | null> {
      return one(sql`select ${COLUMNS} from companies where id = ${id}`);
    },

    /**
     * Sets the decision (1 approved, 2 rejected) unless it is already that; a new decision has not
     * been mailed yet, so is_email_send goes back to false. Null when nothing changed.
     */
    async decide(id: string, verified: 1 | 2, reason: string | null): Promise<ReviewCompanyRow | null> {
      return one(sql`
        update companies
        set verified = ${verified}, rejection_reason = ${reason}, is_email_send = false, last_updated = now()
        where id = ${id} and verified <> ${verified}
        returning ${COLUMNS}`);
    },

    /** Null when the company is missing or already in that state. */
    async setBanned(id: string, banned: boolean): Promise<ReviewCompanyRow | null> {
      return one(sql`
        update companies set is_banned = ${banned}, last_updated = now()
        where id = ${id} and is_banned <> ${banned}
        returning ${COLUMNS}`);
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
