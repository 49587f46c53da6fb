import { and, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { Clock } from '../../clock.ts';
import { companies, companyEvents } from '../../db/schema.ts';

/** Companies with this status are ignored by the duplicate checks (docs/product.md §3, §5). */
export const REJECTED = 2;

export interface CompanyKeys {
  emailKey: string | null;
  nameKey: string;
  phoneKey: string;
}

/**
 * A company's own ten fields, as the applicant gives them (id, name, NZBN, addresses, phone and the
 * contact person): every read of a company selects them, and each read adds what it needs besides.
 */
export const companyFields = {
  id: companies.id,
  companyName: companies.companyName,
  nzbn: companies.nzbn,
  street: companies.street,
  address: companies.address,
  phoneNumber: companies.phoneNumber,
  contactPersonName: companies.contactPersonName,
  contactPersonJobTitle: companies.contactPersonJobTitle,
  contactPersonPhoneNumber: companies.contactPersonPhoneNumber,
  contactPersonEmail: companies.contactPersonEmail,
};

/** The ten fields' values (`companyFields`), typed from the table. */
export type CompanyFields = Pick<typeof companies.$inferSelect, keyof typeof companyFields>;

export interface NewCompany extends CompanyKeys, Omit<CompanyFields, 'nzbn'> {
  /** Optional (docs/decisions/110-nzbn.md): absent is stored as null. */
  nzbn?: string | null;
  commercialLicenseUrl: string | null;
  commercialLicenseKey: string | null;
  lastUpdated: Date;
}

/** The columns a client may see (docs/product.md §3); keys, storage paths and review notes stay here. */
export const publicColumns = {
  ...companyFields,
  commercialLicenseUrl: companies.commercialLicenseUrl,
  verified: companies.verified,
  isBanned: companies.isBanned,
  isEmailSend: companies.isEmailSend,
  lastUpdated: companies.lastUpdated,
};

export interface CompanyRow extends CompanyFields {
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
  companies_nzbn_uq: 'nzbn',
} as const;
export type ConflictKind = (typeof UNIQUE_CONSTRAINTS)[keyof typeof UNIQUE_CONSTRAINTS];

/**
 * UP-07: a licence file is stored before its company row commits, so a crash in between leaves a
 * file no company holds, which the start-up sweep removes (licence-sweep.ts). Both sides take this
 * transaction lock on the company id, so the sweep can never remove the file of a registration
 * that is about to commit: whichever goes second sees what the first did.
 */
const LICENSE_LOCK_NAMESPACE = 7_241_010;
export const lockCompanyId = (tx: Pick<AppDatabase, 'execute'>, companyId: string) =>
  // Raw SQL: an advisory lock is the function call pg_advisory_xact_lock(), not a query of a table.
  tx.execute(sql`select pg_advisory_xact_lock(${LICENSE_LOCK_NAMESPACE}, hashtext(${companyId}))`);

/** The NZBN register lookup as registration sees it (docs/decisions/114-nzbn-lookup.md). */
export interface NzbnLookupHooks {
  /** The app clock: a registration with an NZBN is due for its lookup now. */
  clock: Clock;
  /** True with NZBN_API_KEY set: the application shows 'waiting' until the worker has answered. */
  lookupsOn: boolean;
  /** After the commit: wakes the lookup worker (registration never waits for it). */
  due: () => void;
}

export function createPartnersRepository(db: AppDatabase, nzbnLookup?: NzbnLookupHooks) {
  return {
    /**
     * Which of the keys (and the NZBN, when given) a live (not rejected) company already holds; `exceptId`:
     * another than this one (an applicant correcting their own application).
     */
    async findConflicts(
      keys: CompanyKeys,
      nzbn: string | null = null,
      exceptId: string | null = null,
    ): Promise<Set<ConflictKind>> {
      const matches: SQL[] = [eq(companies.nameKey, keys.nameKey), eq(companies.phoneKey, keys.phoneKey)];
      if (keys.emailKey !== null) matches.push(eq(companies.emailKey, keys.emailKey));
      if (nzbn !== null) matches.push(eq(companies.nzbn, nzbn));
      const rows = await db
        .select({
          emailKey: companies.emailKey,
          nameKey: companies.nameKey,
          phoneKey: companies.phoneKey,
          nzbn: companies.nzbn,
        })
        .from(companies)
        .where(and(ne(companies.verified, REJECTED), exceptId ? ne(companies.id, exceptId) : undefined, or(...matches)))
        .limit(4);
      const found = new Set<ConflictKind>();
      for (const row of rows) {
        if (keys.emailKey !== null && row.emailKey === keys.emailKey) found.add('email');
        if (row.nameKey === keys.nameKey) found.add('name');
        if (row.phoneKey === keys.phoneKey) found.add('phone');
        if (nzbn !== null && row.nzbn === nzbn) found.add('nzbn');
      }
      return found;
    },

    /**
     * Inserts a new application (verified 0, not banned, no email sent); unique indexes decide races.
     * With a licence, `licenseStillThere` runs under the company id's lock, just before the insert:
     * if the sweep removed the file meanwhile, it throws and nothing is inserted. `alongside` runs in
     * the same transaction after the insert (the acknowledgement mail commits with the application).
     */
    async insertCompany(
      company: NewCompany,
      options: {
        licenseStillThere?: () => Promise<void>;
        alongside?: (tx: AppDatabase, row: CompanyRow) => Promise<void>;
      } = {},
    ): Promise<CompanyRow> {
      const lookup =
        company.nzbn && nzbnLookup
          ? {
              nzbnLookupDueAt: nzbnLookup.clock.now(),
              nzbnLookup: nzbnLookup.lookupsOn ? { result: 'waiting' } : null,
            }
          : {};
      const values = { ...company, ...lookup, verified: 0, isBanned: false, isEmailSend: false };
      const inserted = await inTransaction(db, async (tx) => {
        if (company.commercialLicenseKey) {
          await lockCompanyId(tx, company.id);
          await options.licenseStillThere?.();
        }
        const [row] = await tx.insert(companies).values(values).returning(publicColumns);
        // The first line of the applicant's history (docs/decisions/112-application-status-page.md).
        await tx.insert(companyEvents).values({ companyId: row!.id, kind: 'received' });
        await options.alongside?.(tx, row!);
        return row!;
      });
      if (company.nzbn && nzbnLookup?.lookupsOn) nzbnLookup.due();
      return inserted;
    },

    /** Of these storage keys, the ones some company holds. */
    async heldLicenseKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .select({ key: companies.commercialLicenseKey, renewal: companies.renewalLicenseKey })
        .from(companies)
        .where(or(inArray(companies.commercialLicenseKey, keys), inArray(companies.renewalLicenseKey, keys)));
      return new Set(rows.flatMap((r) => [r.key, r.renewal]).filter((key): key is string => key !== null));
    },

    /**
     * Runs `remove` under the company id's lock if, then, no company holds `key`; true if it ran.
     * The lock makes this and a registration's insert of the same id take turns.
     */
    async removeIfUnheld(companyId: string, key: string, remove: () => Promise<void>): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockCompanyId(tx, companyId);
        const [held] = await tx
          .select({ id: companies.id })
          .from(companies)
          .where(or(eq(companies.commercialLicenseKey, key), eq(companies.renewalLicenseKey, key)))
          .limit(1);
        if (held) return false;
        await remove();
        return true;
      });
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
