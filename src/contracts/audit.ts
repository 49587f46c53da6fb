import { z } from './zod.ts';

/** The audit log: what admins did, as the console lists it. */

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
