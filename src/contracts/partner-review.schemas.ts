import { CompanySchema, NzbnCheckSchema } from './companies.schemas.ts';
import { RequestedChangesSchema } from './partner-changes.schemas.ts';
import {
  COMPANY_DUE_FILTERS,
  COMPANY_REVIEW_MESSAGES,
  COMPANY_SORTS,
  COMPANY_STATUSES,
  isCalendarDate,
  LICENCE_NEVER,
  LICENCE_TEXT,
  MAIL_OUTCOMES,
  REJECTION_REASON_MAX,
  REVIEW_STAGES,
} from './partner-review.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of partner-review.ts: the review's API and the console's forms, on the server and
 * in a form once it is used. The console's words and constants are in partner-review.ts, which needs
 * no zod (docs/decisions/119-schemas-stay-on-the-server.md).
 */

export const AdminCompanySchema = CompanySchema.extend({
  rejectionReason: z.string().nullable(),
  createdAt: z.string(),
  /** The accepted licence's expiry date ('YYYY-MM-DD', New Zealand); null when none was recorded. */
  licenseExpiresOn: z.string().nullable(),
  /** When the licence expired and the partner went on hold; null while it is not on hold. */
  licenseHoldAt: z.string().nullable(),
  /** When the partner sent a new licence that waits for an admin; null when none waits. */
  renewalSentAt: z.string().nullable(),
  /** The NZBN register's answer (docs/decisions/114-nzbn-lookup.md); null: not checked. */
  nzbnCheck: NzbnCheckSchema.nullable(),
  /** Where a pending application's review stands (docs/decisions/113-changes-requested.md). */
  reviewStage: z.enum(REVIEW_STAGES),
  /** When it was last sent for review: made, or the changes asked for sent; its review due date counts from here. */
  submittedAt: z.string(),
  /** While changes are requested: what was asked. */
  requestedChanges: RequestedChangesSchema.nullable(),
  /** The licence file's kind (decided by its bytes): an image is shown, a PDF previewed in a frame; null: none. */
  licenseFormat: z.enum(['image', 'pdf']).nullable(),
});
export type AdminCompany = z.infer<typeof AdminCompanySchema>;

export const CompanyListQuerySchema = z.object({
  status: z.enum(COMPANY_STATUSES).default('pending'),
  q: z.string().trim().max(200).optional(),
  due: z.enum(COMPANY_DUE_FILTERS).default('all'),
  sort: z.enum(COMPANY_SORTS).default('submitted'),
});

/** A pending application's review due date ('YYYY-MM-DD', New Zealand) and whether today is past it. */
export const ReviewDueSchema = z.object({ dueDate: z.string(), late: z.boolean() });
export type ReviewDue = z.infer<typeof ReviewDueSchema>;

export const CompanyListItemSchema = AdminCompanySchema.extend({ reviewDue: ReviewDueSchema.nullable() });

export const CompanyListSchema = z.object({
  companies: z.array(CompanyListItemSchema),
  counts: z.object({
    pending: z.number().int(),
    verified: z.number().int(),
    'on-hold': z.number().int(),
    rejected: z.number().int(),
    banned: z.number().int(),
    /** Pending applications past their review due date. */
    late: z.number().int(),
  }),
});

export const CompanyParamsSchema = z.object({ companyId: z.uuid({ error: COMPANY_REVIEW_MESSAGES.notFound }) });

export const RejectCompanySchema = z.object({
  reason: z
    .string({ error: COMPANY_REVIEW_MESSAGES.reasonRequired })
    .trim()
    .min(1, COMPANY_REVIEW_MESSAGES.reasonRequired)
    .max(REJECTION_REASON_MAX, COMPANY_REVIEW_MESSAGES.reasonTooLong),
});

export const CompanyDecisionSchema = z.object({ company: AdminCompanySchema, mail: z.enum(MAIL_OUTCOMES) });

export const CompanyResultSchema = z.object({ company: AdminCompanySchema });

/** One application in the console: with its review due date while one is due (decision 111). */
export const CompanyDetailSchema = z.object({ company: AdminCompanySchema, reviewDue: ReviewDueSchema.nullable() });

/** A licence's expiry: a date, or 'never'. */
export const LicenceExpirySchema = z
  .string({ error: LICENCE_TEXT.dateRequired })
  .trim()
  .min(1, LICENCE_TEXT.dateRequired)
  .refine((value) => value === LICENCE_NEVER || isCalendarDate(value), LICENCE_TEXT.dateInvalid);

/**
 * Approve's body: the spec's approve has none (then no expiry is recorded and no reminders go); the
 * console always sends the licence's expiry date, or 'never'.
 */
export const ApproveCompanySchema = z.object({ licenseExpiresOn: LicenceExpirySchema.optional() });

/**
 * The console's licence forms (approve, accept a new licence): the date, or the box 'This licence
 * does not expire' ticked; one of them is required there.
 */
const LicenceFormSchema = z
  .object({ licenseExpiresOn: z.string().optional(), licenseNeverExpires: z.string().optional() })
  .transform((form) => ({
    licenseExpiresOn: form.licenseNeverExpires !== undefined ? LICENCE_NEVER : (form.licenseExpiresOn ?? ''),
  }))
  .pipe(z.object({ licenseExpiresOn: LicenceExpirySchema }));

export const ApproveFormSchema = LicenceFormSchema;

export const AcceptLicenseSchema = z.object({ licenseExpiresOn: LicenceExpirySchema });

export const AcceptLicenseFormSchema = LicenceFormSchema;

export const RefuseLicenseSchema = z.object({
  reason: z
    .string({ error: LICENCE_TEXT.refuseReasonRequired })
    .trim()
    .min(1, LICENCE_TEXT.refuseReasonRequired)
    .max(REJECTION_REASON_MAX, COMPANY_REVIEW_MESSAGES.reasonTooLong),
});
