import { CompanySchema } from './companies.schemas.ts';
import { RequestedChangesSchema } from './partner-changes.schemas.ts';
import { APPLICATION_EVENT_KINDS, APPLICATION_STATES, APPLICATION_STATUS_TEXT } from './partner-status.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of partner-status.ts: the applicant's status page as the API answers it, and the
 * request for a new link. The words and constants are in partner-status.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */

/** The address a new link is asked for (the registration's contact email). */
export const StatusLinkRequestSchema = z.object({
  email: z
    .string({ error: APPLICATION_STATUS_TEXT.emailInvalid })
    .trim()
    .max(254, APPLICATION_STATUS_TEXT.emailInvalid)
    .pipe(z.email({ error: APPLICATION_STATUS_TEXT.emailInvalid })),
});

/** Any token is read (a malformed one answers 404 like an unknown one, never 400). */
export const StatusTokenParamsSchema = z.object({ token: z.string() });

export const ApplicationStatusSchema = z.object({
  // The company record's own fields as submitted, without its id, licence link or review columns.
  company: CompanySchema.pick({
    companyName: true,
    nzbn: true,
    street: true,
    address: true,
    phoneNumber: true,
    contactPersonName: true,
    contactPersonJobTitle: true,
    contactPersonPhoneNumber: true,
    contactPersonEmail: true,
  }).extend({
    /** Whether a licence file was sent; never where it is. */
    licenseSent: z.boolean(),
    submittedAt: z.string(),
  }),
  state: z.enum(APPLICATION_STATES),
  /** Received or in review: the New Zealand date ('YYYY-MM-DD') the review is due by. */
  reviewDueDate: z.string().nullable(),
  /** Changes requested: what the admin asked for (docs/decisions/113-changes-requested.md). */
  requestedChanges: RequestedChangesSchema.nullable(),
  /** On hold: banned by an admin, or an approved partner whose licence expired. */
  hold: z.enum(['banned', 'license-expired']).nullable(),
  /** Approved: the accepted licence's expiry date ('YYYY-MM-DD'), when one was recorded. */
  licenseExpiresOn: z.string().nullable(),
  /** Approved: when a new licence was sent that an admin has not accepted or refused yet. */
  renewalSentAt: z.string().nullable(),
  history: z.array(
    z.object({
      kind: z.enum(APPLICATION_EVENT_KINDS),
      at: z.string(),
      reason: z.string().nullable(),
    }),
  ),
});
export type ApplicationStatus = z.infer<typeof ApplicationStatusSchema>;
