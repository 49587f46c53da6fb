import { AUDIT_ACTIONS, type AuditAction, AUDIT_TARGETS } from './audit.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of audit.ts: the audit log's API. How an entry reads, and the words, are in
 * audit.ts, which needs no zod (docs/decisions/119-schemas-stay-on-the-server.md).
 */

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /**
   * The number of a ticket the entry names only by id (a held mail posted to a ticket), read
   * when the log is; null when there is none or it is gone.
   */
  ticketNo: z.number().int().nullable().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** The filters' days are New Zealand calendar days ('YYYY-MM-DD'); the log starts long after 1900 (and the database has no year 0). */
const NzDay = z.iso
  .date({ error: 'Dates are written YYYY-MM-DD.' })
  .refine((day) => day >= '1900-01-01', 'Choose a date from 1900 on.');

export const AuditQuerySchema = z.object({
  /** Entries older than this id (the last id of the previous page). */
  before: z.coerce.number().int().positive().optional(),
  targetType: z.enum(AUDIT_TARGETS).optional(),
  targetId: z.string().max(100).optional(),
  /** The email of whoever acted, as the log copied it (any case). */
  actor: z.string().trim().min(1).max(320).optional(),
  action: z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]).optional(),
  /** From the start of this New Zealand day. */
  from: NzDay.optional(),
  /** To the end of this New Zealand day. */
  to: NzDay.optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.object({
  entries: z.array(AuditEntrySchema),
  nextBefore: z.number().int().nullable(),
  /** The admins who have acted in the log (their copied emails), for the person filter. */
  actors: z.array(z.string()),
});
