import { CompanySchema } from './companies.ts';
import { FAQ_TYPES, LEGAL_DOCUMENTS } from './content.ts';
import { AdminMessageSchema } from './support.ts';
import { z } from './zod.ts';

/**
 * The admin console (docs/product.md §2.9): what the console sends and receives, and every string it shows that
 * a rule depends on. The browser and the server both import these.
 */

export const ADMIN_TEXT = {
  title: 'Admin console',
  notAllowedTitle: 'Not allowed',
  notAllowed: 'This area is for the support and operations team only. Your account does not have access to it.',
  nav: {
    support: 'Support inbox',
    savedReplies: 'Saved replies',
    partners: 'Partner applications',
    faqs: 'FAQs',
    legal: 'Legal documents',
    users: 'Users',
    audit: 'Audit log',
    mail: 'Mail',
    security: 'Sign-in security',
  },
  closeTicket: 'Close ticket',
  reopenTicket: 'Reopen ticket',
  noOpenTickets: 'There are no open tickets',
  noClosedTickets: 'There are no closed tickets',
  noMatchingTickets: 'No tickets match your search',
  approve: 'Approve',
  reject: 'Reject',
  ban: 'Ban',
  unban: 'Unban',
  save: 'Save',
  noContactEmail: 'This application has no contact email, so no email was sent. Contact the company another way.',
  noContactEmailYet:
    'This application has no contact email: a decision cannot be emailed. Contact the company another way.',
  mailQueued: (email: string) =>
    `The email to ${email} is on its way: “Decision email sent” turns to Yes once it is delivered (see Mail).`,
  notSignedInAsAdmin: 'Your session ended or you are no longer an admin. Reload the page.',
} as const;

/** A ticket message as admins see it: with its author's email. */
export type AdminMessage = z.infer<typeof AdminMessageSchema>;

// --- Companies (partner applications) ------------------------------------------------------------

export const COMPANY_STATUSES = ['pending', 'verified', 'rejected', 'banned'] as const;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];
export const COMPANY_STATUS_LABELS: Record<CompanyStatus, string> = {
  pending: 'Pending',
  verified: 'Verified',
  rejected: 'Rejected',
  banned: 'Banned',
};
/** `verified` values (docs/product.md §3.4, §4.2): 0 on creation, 1 approved, 2 rejected (ignored by duplicate checks). */
export const VERIFIED = { pending: 0, verified: 1, rejected: 2 } as const;

export const REJECTION_REASON_MAX = 1000;

export const COMPANY_REVIEW_MESSAGES = {
  notFound: 'That application does not exist.',
  alreadyApproved: 'This application is already approved.',
  alreadyRejected: 'This application is already rejected.',
  alreadyBanned: 'This company is already banned.',
  notBanned: 'This company is not banned.',
  reasonRequired: 'Please give the reason for the rejection',
  reasonTooLong: `The reason can be at most ${REJECTION_REASON_MAX} characters`,
  nameTaken:
    'Another live application already uses this company name, phone number or email, so this one cannot be approved. Reject or ban the other one first.',
  nothingToNotify: 'There is no decision to email yet: approve or reject the application first.',
} as const;

export const AdminCompanySchema = CompanySchema.extend({
  rejectionReason: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminCompany = z.infer<typeof AdminCompanySchema>;

export const CompanyListQuerySchema = z.object({
  status: z.enum(COMPANY_STATUSES).default('pending'),
  q: z.string().trim().max(200).optional(),
});
export const CompanyListSchema = z.object({
  companies: z.array(AdminCompanySchema),
  counts: z.object({
    pending: z.number().int(),
    verified: z.number().int(),
    rejected: z.number().int(),
    banned: z.number().int(),
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

/** What happened to the decision mail: accepted by the mailer, nowhere to send it, or refused. */
export const MAIL_OUTCOMES = ['queued', 'no-address'] as const;
export type MailOutcome = (typeof MAIL_OUTCOMES)[number];
export const CompanyDecisionSchema = z.object({ company: AdminCompanySchema, mail: z.enum(MAIL_OUTCOMES) });
export const CompanyResultSchema = z.object({ company: AdminCompanySchema });

export function companyStatusOf(company: Pick<AdminCompany, 'verified' | 'isBanned'>): CompanyStatus {
  if (company.isBanned) return 'banned';
  if (company.verified === VERIFIED.verified) return 'verified';
  if (company.verified === VERIFIED.rejected) return 'rejected';
  return 'pending';
}

// --- FAQs -----------------------------------------------------------------------------------------

export const FAQ_LIMITS = { titleMax: 300, contentMax: 5000, perType: 500 } as const;
export const FAQ_MESSAGES = {
  typeRequired: 'Choose a type',
  titleRequired: 'Title is required',
  titleTooLong: `Title can be at most ${FAQ_LIMITS.titleMax} characters`,
  contentRequired: 'Content is required',
  contentTooLong: `Content can be at most ${FAQ_LIMITS.contentMax} characters`,
  notFound: 'That FAQ entry does not exist.',
  orderChanged: 'The list changed while you were reordering it. It has been reloaded: please try again.',
} as const;

export const FaqInputSchema = z.object({
  type: z.enum(FAQ_TYPES, { error: FAQ_MESSAGES.typeRequired }),
  title: z
    .string({ error: FAQ_MESSAGES.titleRequired })
    .trim()
    .min(1, FAQ_MESSAGES.titleRequired)
    .max(FAQ_LIMITS.titleMax, FAQ_MESSAGES.titleTooLong),
  content: z
    .string({ error: FAQ_MESSAGES.contentRequired })
    .trim()
    .min(1, FAQ_MESSAGES.contentRequired)
    .max(FAQ_LIMITS.contentMax, FAQ_MESSAGES.contentTooLong),
});
export type FaqInput = z.infer<typeof FaqInputSchema>;
export const FaqParamsSchema = z.object({ faqId: z.coerce.number().int().positive().max(2_147_483_647) });
export const FaqReorderSchema = z.object({
  type: z.enum(FAQ_TYPES),
  ids: z.array(z.number().int().positive()).max(FAQ_LIMITS.perType),
});

// --- Legal links and hosted documents ------------------------------------------------------------

export const LEGAL_LINK_MAX = 2000;
export const DOCUMENT_LIMITS = { titleMax: 200, bodyMax: 200_000 } as const;
export const LEGAL_MESSAGES = {
  linkRequired: 'A link is required',
  linkInvalid: 'Use an https:// address, or a path on this site that starts with / (for example /documents/terms)',
  linkTooLong: `A link can be at most ${LEGAL_LINK_MAX} characters`,
  titleRequired: 'Title is required',
  titleTooLong: `Title can be at most ${DOCUMENT_LIMITS.titleMax} characters`,
  bodyRequired: 'The document text is required',
  bodyTooLong: `The document text can be at most ${DOCUMENT_LIMITS.bodyMax} characters`,
  documentMissing: 'That document does not exist.',
} as const;

/**
 * Anything but printable characters (controls, spaces, line breaks, a lone UTF-16 surrogate, which
 * the settings document cannot even store): never part of a link we accept.
 */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0020\u007f-\u00a0\u2028\u2029\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PROBE_ORIGIN = 'https://origin.invalid';

/**
 * A link an admin may give the legal page (IN-04): an absolute https URL without credentials, or a
 * path on our own origin ("/…", never "//…" or "/\…", which browsers read as another host).
 * Everything else (javascript:, data:, vbscript:, http:, relative paths) is refused.
 */
export function isAllowedLegalLink(value: string): boolean {
  if (value.length === 0 || value.length > LEGAL_LINK_MAX || UNPRINTABLE.test(value)) return false;
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.startsWith('/\\')) return false;
    try {
      return new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;
    } catch {
      return false;
    }
  }
  // A host right after the scheme: URL parsers forgive "https:///host" and "https:\\host", we do not.
  if (!/^https:\/\/[^/\\?#]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

const legalLink = z
  .string({ error: LEGAL_MESSAGES.linkRequired })
  .trim()
  .min(1, { error: LEGAL_MESSAGES.linkRequired, abort: true })
  .max(LEGAL_LINK_MAX, { error: LEGAL_MESSAGES.linkTooLong, abort: true })
  .refine(isAllowedLegalLink, LEGAL_MESSAGES.linkInvalid);

export const LegalLinksInputSchema = z.object({ terms: legalLink, privacy: legalLink });
export type LegalLinksInput = z.infer<typeof LegalLinksInputSchema>;

export const DocumentParamsSchema = z.object({
  slug: z.enum(LEGAL_DOCUMENTS, { error: LEGAL_MESSAGES.documentMissing }),
});
export const DocumentInputSchema = z.object({
  title: z
    .string({ error: LEGAL_MESSAGES.titleRequired })
    .trim()
    .min(1, LEGAL_MESSAGES.titleRequired)
    .max(DOCUMENT_LIMITS.titleMax, LEGAL_MESSAGES.titleTooLong),
  body: z
    .string({ error: LEGAL_MESSAGES.bodyRequired })
    .trim()
    .min(1, LEGAL_MESSAGES.bodyRequired)
    .max(DOCUMENT_LIMITS.bodyMax, LEGAL_MESSAGES.bodyTooLong),
});
export const HostedDocumentSchema = z.object({
  slug: z.enum(LEGAL_DOCUMENTS),
  title: z.string(),
  body: z.string(),
  updatedAt: z.string(),
  /** Where the public page serves it. */
  path: z.string(),
});
export type HostedDocumentDto = z.infer<typeof HostedDocumentSchema>;
export const AdminLegalSchema = z.object({
  links: z.object({ terms: z.string(), privacy: z.string() }).nullable(),
  documents: z.array(HostedDocumentSchema),
});

// --- Users -----------------------------------------------------------------------------------------

export const USERS_PAGE_SIZE = 50;
export const USER_MESSAGES = {
  notFound: 'That account does not exist.',
  notYourOwnRole: 'You cannot change your own role.',
  notYourself: 'You cannot disable your own account.',
  alreadyVerified: 'This email address is already verified.',
  disabled: 'This account is disabled. Enable it first.',
  verificationSent: (email: string) => `A new verification email is on its way to ${email}.`,
} as const;

export const AdminUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** The admin looking at the list. */
  self: z.boolean(),
  /** The owner asked to delete it (docs/product.md §2.14): when, when it is (or was) erased. */
  deletion: z
    .object({ requestedAt: z.string(), eraseAfter: z.string(), erasedAt: z.string().nullable() })
    .nullable()
    .optional(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const UserListQuerySchema = z.object({
  q: z.string().trim().max(254).optional(),
  /** 1-based page of USERS_PAGE_SIZE accounts, newest first. */
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const UserListSchema = z.object({ users: z.array(AdminUserSchema), more: z.boolean() });
export const UserParamsSchema = z.object({ userId: z.uuid({ error: USER_MESSAGES.notFound }) });
export const UserRoleSchema = z.object({ role: z.enum(['user', 'admin'], { error: 'Role must be user or admin' }) });
export const UserResultSchema = z.object({ user: AdminUserSchema, message: z.string().optional() });

// --- Audit log -------------------------------------------------------------------------------------

export const AUDIT_ACTIONS = {
  'ticket.answer': 'Answered a ticket',
  'ticket.close': 'Closed a ticket',
  'ticket.reopen': 'Reopened a ticket',
  'ticket.assign': 'Assigned a ticket',
  'ticket.privacy': 'Marked a ticket a privacy request (or not)',
  'ticket.note': 'Added an internal note',
  'saved-reply.create': 'Added a saved reply',
  'saved-reply.update': 'Edited a saved reply',
  'saved-reply.delete': 'Deleted a saved reply',
  'company.approve': 'Approved a partner application',
  'company.reject': 'Rejected a partner application',
  'company.ban': 'Banned a company',
  'company.unban': 'Unbanned a company',
  'company.notify': 'Emailed a partner decision again',
  'faq.create': 'Added a FAQ entry',
  'faq.update': 'Edited a FAQ entry',
  'faq.delete': 'Deleted a FAQ entry',
  'faq.reorder': 'Reordered FAQ entries',
  'legal.links': 'Changed the legal links',
  'document.update': 'Edited a legal document',
  'user.resend-verification': 'Resent a verification email',
  'user.disable': 'Disabled an account',
  'user.enable': 'Enabled an account',
  'user.role': 'Changed an account’s role',
  'mail.retry': 'Sent a failed mail again',
  'mail.post': 'Posted a held mail to its ticket',
  'mail.discard': 'Discarded a held mail',
  'user.erase': 'Erased an account now (its owner asked to delete it)',
  'ticket.keep-for-record': 'Kept a ticket’s messages for the record (or not)',
  'account.deletion-requested': 'Asked to delete their account',
  'account.erased': 'Account erased',
  'admin.second-factor.enrolled': 'Set up a second factor for signing in',
  'admin.second-factor.removed': 'Removed one of their second factors',
  'admin.second-factor.recovery-codes-renewed': 'Got new recovery codes (the old ones stopped working)',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_TARGETS = [
  'ticket',
  'company',
  'faq',
  'settings',
  'document',
  'user',
  'mail',
  'saved-reply',
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

export const AUDIT_PAGE_SIZE = 25;
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditQuerySchema = z.object({
  /** Entries older than this id (the last id of the previous page). */
  before: z.coerce.number().int().positive().optional(),
  targetType: z.enum(AUDIT_TARGETS).optional(),
  targetId: z.string().max(100).optional(),
});
export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  nextBefore: z.number().int().nullable(),
});

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}
