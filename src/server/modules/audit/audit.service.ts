import {
  AUDIT_PAGE_SIZE,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
  type AuditTarget,
} from '../../../contracts/audit.ts';
import type { AuditRepository } from './audit.repository.ts';

/** Who did it: the signed-in admin (the request's principal). */
export interface AuditActor {
  userId: string;
  email: string;
}

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  targetType: AuditTarget;
  targetId: string | number | null;
  /** What a reader needs to understand the change later: names, before and after, the reason. */
  details?: Record<string, unknown>;
}

/**
 * jsonb refuses what text columns quietly store: a lone UTF-16 surrogate (text keeps U+FFFD) and
 * U+0000. Details quote the admin's input (a rejection reason), and the entry is written after the
 * change committed, so quoting must never fail it: such characters become U+FFFD (found by the fuzz).
 */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;
const storable = (details: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify(details, (_key, value: unknown) =>
      typeof value === 'string' ? value.replace(UNSTORABLE, '\uFFFD') : value,
    ),
  );

/**
 * Every admin mutation writes one entry, after it succeeded (docs/decisions/060-admin-console.md).
 * The actor's email is copied into the row, so the log still names them after their account is gone.
 */
export function createAuditService(repository: AuditRepository) {
  return {
    async record(entry: AuditRecord): Promise<void> {
      await repository.insert({
        actorId: entry.actor.userId,
        actorEmail: entry.actor.email,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId === null ? null : String(entry.targetId),
        details: entry.details ? storable(entry.details) : null,
      });
    },

    /** A page of the log at the filters, and the admins who have acted in it (for the person filter). */
    async list(filter: AuditQuery): Promise<{ entries: AuditEntry[]; nextBefore: number | null; actors: string[] }> {
      const [rows, actors] = await Promise.all([
        repository.list({ ...filter, limit: AUDIT_PAGE_SIZE + 1 }),
        repository.actors(),
      ]);
      const page = rows.slice(0, AUDIT_PAGE_SIZE);
      return {
        entries: page.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          actorEmail: row.actorEmail,
          action: row.action,
          targetType: row.targetType,
          targetId: row.targetId,
          details: row.details,
          ticketNo: row.ticketNo,
        })),
        nextBefore: rows.length > AUDIT_PAGE_SIZE ? page.at(-1)!.id : null,
        actors,
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
