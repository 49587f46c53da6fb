import { and, eq, ne, or, type SQL } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { companies } from '../../db/schema.ts';

/** Companies with this status are ignored by the duplicate checks (spec §3, §5). */
export const REJECTED = 2;

export interface CompanyKeys {
  emailKey: string | null;
  nameKey: string;
  phoneKey: string;
}

export interface NewCompany extends CompanyKeys {
  id: string;
  companyName: string;
  street: string | null;
  address: string;
  phoneNumber: string;
  contactPersonName: string | null;
  contactPersonJobTitle: string | null;
  contactPersonPhoneNumber: string | null;
  contactPersonEmail: string | null;
  commercialLicenseUrl: string | null;
  commercialLicenseKey: string | null;
  lastUpdated: Date;
}

/** The columns a client may see (spec §3); keys, storage paths and review notes stay here. */
const publicColumns = {
  id: companies.id,
  companyName: companies.companyName,
  street: companies.street,
  address: companies.address,
  phoneNumber: companies.phoneNumber,
  contactPersonName: companies.contactPersonName,
  contactPersonJobTitle: companies.contactPersonJobTitle,
  contactPersonPhoneNumber: companies.contactPersonPhoneNumber,
  contactPersonEmail: companies.contactPersonEmail,
  commercialLicenseUrl: companies.commercialLicenseUrl,
  verified: companies.verified,
  isBanned: companies.isBanned,
  isEmailSend: companies.isEmailSend,
  lastUpdated: companies.lastUpdated,
};

export interface CompanyRow {
  id: string;
  companyName: string;
  street: string | null;
  address: string;
  phoneNumber: string;
  contactPersonName: string | null;
  contactPersonJobTitle: string | null;
  contactPersonPhoneNumber: string | null;
  contactPersonEmail: string | null;
  commercialLicenseUrl: string | null;
  verified: number;
  isBanned: boolean;
  isEmailSend: boolean;
  lastUpdated: Date;
}

/** Which partial unique index a constraint name belongs to. */
export const UNIQUE_CONSTRAINTS = {
  companies_email_key_uq: 'email',
  companies_name_key_uq: 'name',
  companies_phone_key_uq: 'phone',
} as const;
export type ConflictKind = (typeof UNIQUE_CONSTRAINTS)[keyof typeof UNIQUE_CONSTRAINTS];

export function createPartnersRepository(db: AppDatabase) {
  return {
    /** Which of the keys a live (not rejected) company already holds. */
    async findConflicts(keys: CompanyKeys): Promise<Set<ConflictKind>> {
      const matches: SQL[] = [eq(companies.nameKey, keys.nameKey), eq(companies.phoneKey, keys.phoneKey)];
      if (keys.emailKey !== null) matches.push(eq(companies.emailKey, keys.emailKey));
      const rows = await db
        .select({ emailKey: companies.emailKey, nameKey: companies.nameKey, phoneKey: companies.phoneKey })
        .from(companies)
        .where(and(ne(companies.verified, REJECTED), or(...matches)))
        .limit(3);
      const found = new Set<ConflictKind>();
      for (const row of rows) {
        if (keys.emailKey !== null && row.emailKey === keys.emailKey) found.add('email');
        if (row.nameKey === keys.nameKey) found.add('name');
        if (row.phoneKey === keys.phoneKey) found.add('phone');
      }
      return found;
    },

    /** Inserts a new application (verified 0, not banned, no email sent); unique indexes decide races. */
    async insertCompany(company: NewCompany): Promise<CompanyRow> {
      const [row] = await db
        .insert(companies)
        .values({ ...company, verified: 0, isBanned: false, isEmailSend: false })
        .returning(publicColumns);
      return row!;
    },

    /** The storage key of a company's licence: undefined when there is no such company. */
    async findLicenseKey(companyId: string): Promise<string | null | undefined> {
      const [row] = await db
        .select({ key: companies.commercialLicenseKey })
        .from(companies)
        .where(eq(companies.id, companyId));
      return row ? row.key : undefined;
    },
  };
}

export type PartnersRepository = ReturnType<typeof createPartnersRepository>;
