import { storableInJson } from '../../../contracts/json-text.ts';
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditTarget } from '../../../contracts/audit.ts';
import type { AuditEntry, AuditQuery } from '../../../contracts/audit.schemas.ts';
import type { AuditRepository } from './audit.repository.ts';

/** Who did it: the signed-in admin (the request's principal). */
export interface AuditActor {
  userId: string;
  email: string;
}

/**
 * Who did it when it was not a person: a service API key, recorded under its own name, or the app
 * itself (a webhook endpoint turned off for failing). `email` is the name the log shows.
 */
export interface AuditNonPerson {
  userId: null;
  email: string;
}

export interface AuditRecord {
  actor: AuditActor | AuditNonPerson;
  action: AuditAction;
  targetType: AuditTarget;
  targetId: string | number | null;
  /** What a reader needs to understand the change later: names, before and after, the reason. */
  details?: Record<string, unknown>;
}

/**
 * Details quote the admin's input (a rejection reason), and the entry is written after the change
 * committed, so quoting must never fail it: what jsonb refuses becomes U+FFFD (contracts/json-text.ts).
 */
const storable = (details: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify(details, (_key, value: unknown) => (typeof value === 'string' ? storableInJson(value) : value)),
  );

/**
 * Every admin mutation writes one entry, after it succeeded (docs/decisions/060-admin-console.md).
 * The actor's email is copied into the row, so the log still names them after their account is gone.
 */
export function createAuditService(repository: AuditRepository) {
  /** One entry per change, written together (a bulk action audits each ticket it changed). */
  async function recordEach(entries: readonly AuditRecord[]): Promise<void> {
    await repository.insert(
      entries.map((entry) => ({
        actorId: entry.actor.userId,
        actorEmail: entry.actor.email,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId === null ? null : String(entry.targetId),
        details: entry.details ? storable(entry.details) : null,
      })),
    );
  }

  return {
    async record(entry: AuditRecord): Promise<void> {
      await recordEach([entry]);
    },

    recordEach,

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
