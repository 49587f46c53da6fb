import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { COMPANY_MESSAGES, type CompanyTextField, licenseTypeOfKey } from '../../../contracts/companies.ts';
import {
  type Company,
  type CompanyRegistration,
  type CompanyRegistrationResult,
  CompanyRegistrationSchema,
} from '../../../contracts/companies.schemas.ts';
import { AppError } from '../../errors.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { companyKeys } from './company-keys.ts';
import { type LicenseOutcome } from './license-upload.ts';
import { readApplicationForm, removeLicenseQuietly } from './application-form.ts';
import type { Outbox } from '../../mail/outbox.ts';
import {
  type CompanyRow,
  type ConflictKind,
  type PartnersRepository,
  UNIQUE_CONSTRAINTS,
} from './partners.repository.ts';
import { newStatusLink, newStatusToken } from './status-links.ts';
import { statusPagePath } from '../../../contracts/partner-status.ts';
import { partnerReceivedMail, type ReviewMailContext } from './partners.review.mail.ts';

import type { FormPart } from '../../http/form-parts.ts';

export type { FormPart };

export interface PartnersServiceOptions {
  repository: PartnersRepository;
  outbox: Outbox;
  mail: ReviewMailContext;
  storage: FileStorage;
  limiter: RateLimiter;
  registrationsPerIpPerHour: number;
  log: FastifyBaseLogger;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Duplicate messages in the order of docs/product.md §5.2: email (only if given), then name, then phone;
 * the NZBN (only if given) comes after the spec's three (docs/decisions/110-nzbn.md).
 */
const CONFLICT_ORDER: Array<{ kind: ConflictKind; field: CompanyTextField; message: string }> = [
  { kind: 'email', field: 'contactPersonEmail', message: COMPANY_MESSAGES.duplicateEmail },
  { kind: 'name', field: 'companyName', message: COMPANY_MESSAGES.duplicateName },
  { kind: 'phone', field: 'phoneNumber', message: COMPANY_MESSAGES.duplicatePhone },
  { kind: 'nzbn', field: 'nzbn', message: COMPANY_MESSAGES.duplicateNzbn },
];

/** The admin-only download route for a company's licence (served by partners.routes.ts). */
export function licenseUrl(companyId: string): string {
  return `/api/admin/companies/${companyId}/license`;
}

export function toCompany(row: CompanyRow): Company {
  return { ...row, lastUpdated: row.lastUpdated.toISOString() };
}

/** The Postgres unique-violation (SQLSTATE 23505) inside a driver or ORM error, if that is what it is. */
function uniqueViolation(error: unknown): { constraint: string | undefined } | null {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if ((e as { code?: unknown }).code === '23505') return { constraint: (e as { constraint?: string }).constraint };
  }
  return null;
}

export function duplicateError(kinds: Set<ConflictKind>): AppError | null {
  const first = CONFLICT_ORDER.find((c) => kinds.has(c.kind));
  if (!first) return null;
  return new AppError('ALREADY_EXISTS', COMPANY_MESSAGES.duplicateCompany, {
    fields: { [first.field]: first.message },
  });
}

export function createPartnersService(options: PartnersServiceOptions) {
  const { repository, storage, limiter, log } = options;

  const readForm = (companyId: string, parts: AsyncIterable<FormPart>) =>
    readApplicationForm(storage, companyId, parts);
  const removeQuietly = (key: string) => removeLicenseQuietly(storage, log, key);

  async function save(
    companyId: string,
    company: CompanyRegistration,
    license: LicenseOutcome,
  ): Promise<{ row: CompanyRow; statusToken: string }> {
    let statusToken = '';
    const keys = companyKeys(company);
    // The checks give the right message in the spec's order; the unique indexes are the guarantee.
    const known = duplicateError(await repository.findConflicts(keys, company.nzbn));
    if (known) throw known;
    const stored = license.kind === 'stored' ? license : null;
    try {
      const row = await repository.insertCompany(
        {
          id: companyId,
          ...company,
          ...keys,
          commercialLicenseUrl: stored ? licenseUrl(companyId) : null,
          commercialLicenseKey: stored ? stored.key : null,
          lastUpdated: new Date(),
        },
        {
          // UP-07: the start-up sweep of a starting instance may have taken the file for an orphan.
          licenseStillThere: stored
            ? async () => {
                if (!(await storage.exists(stored.key)))
                  throw new AppError('UNAVAILABLE', COMPANY_MESSAGES.submitFailed);
              }
            : undefined,
          // The applicant hears that we have it, with the private link to its status page, if they gave
          // an address; the mail commits with the row.
          alongside: async (tx, row) => {
            // The applicant's own link, shown by the page after registering (the mail makes its own).
            statusToken = await newStatusToken(tx, row.id);
            if (!row.contactPersonEmail) return;
            await options.outbox.enqueue(tx, {
              ...partnerReceivedMail(
                options.mail,
                row.contactPersonEmail,
                row.companyName,
                await newStatusLink(tx, row.id, options.mail.publicBaseUrl),
              ),
              kind: 'partner-received',
            });
          },
        },
      );
      return { row, statusToken };
    } catch (error) {
      const violation = uniqueViolation(error);
      if (!violation) throw error;
      // A concurrent registration won the race. Ask again so the message follows the spec's order;
      // the constraint name is the fallback if the winner has since been rejected.
      const raced = duplicateError(await repository.findConflicts(keys, company.nzbn));
      if (raced) throw raced;
      const kind = UNIQUE_CONSTRAINTS[violation.constraint as keyof typeof UNIQUE_CONSTRAINTS] ?? 'name';
      throw duplicateError(new Set([kind]))!;
    }
  }

  return {
    /** Counts a registration attempt from this address; past the hourly limit, 429 with Retry-After. */
    async requireRegistrationAllowance(ip: string): Promise<void> {
      await limiter.consume(
        { key: `registration:ip:${ip}`, limit: options.registrationsPerIpPerHour, windowMs: HOUR_MS },
        COMPANY_MESSAGES.tooManyRegistrations,
      );
    },

    /**
     * Registers a company from a multipart form (docs/product.md §5): the same schema as the form, the licence
     * checked while it streams, duplicates refused. A registration that fails leaves no file.
     */
    async register(
      parts: AsyncIterable<FormPart>,
    ): Promise<{ result: CompanyRegistrationResult; statusToken: string }> {
      const companyId = randomUUID();
      const { values, problems, license } = await readForm(companyId, parts);
      try {
        const parsed = CompanyRegistrationSchema.safeParse(values);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            const field = String(issue.path[0] ?? '_');
            problems[field] ??= issue.message;
          }
        }
        if (!parsed.success || Object.keys(problems).length > 0) {
          throw new AppError('INVALID_ARGUMENT', COMPANY_MESSAGES.invalidForm, { fields: problems });
        }
        const { row, statusToken } = await save(companyId, parsed.data, license);
        options.outbox.wake();
        return {
          result: { id: row.id, company: toCompany(row), statusPath: statusPagePath(statusToken) },
          statusToken,
        };
      } catch (error) {
        if (license.kind === 'stored') await removeQuietly(license.key);
        throw error;
      }
    },

    /** A PDF licence for the console's preview frame; an image licence has none (the page shows the image). */
    async openLicensePreview(companyId: string) {
      const key = await repository.findLicenseKey(companyId);
      if (!key || licenseTypeOfKey(key).ext !== 'pdf')
        throw new AppError('NOT_FOUND', COMPANY_MESSAGES.licenseNotFound);
      const object = await storage.get(key);
      if (!object) throw new AppError('NOT_FOUND', COMPANY_MESSAGES.licenseNotFound);
      return { body: object.body, size: object.size, filename: `licence-${companyId}.pdf` };
    },

    /** The licence file of a company, for the admin download. */
    async openLicense(companyId: string) {
      const key = await repository.findLicenseKey(companyId);
      if (!key) throw new AppError('NOT_FOUND', COMPANY_MESSAGES.licenseNotFound);
      const object = await storage.get(key);
      if (!object) throw new AppError('NOT_FOUND', COMPANY_MESSAGES.licenseNotFound);
      const type = licenseTypeOfKey(key);
      return {
        body: object.body,
        size: object.size,
        contentType: type.contentType,
        filename: `licence-${companyId}.${type.ext}`,
      };
    },
  };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
