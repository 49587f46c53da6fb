import { storableInJson } from '../../../contracts/json-text.ts';
import { SAVED_REPLY_TEXT } from '../../../contracts/desk.ts';
import type { SavedReply } from '../../../contracts/desk.schemas.ts';
import type { MacroActions } from '../../../contracts/macro-actions.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { SavedRepliesRepository, SavedReplyRow } from './saved-replies.repository.ts';

const toDto = (row: SavedReplyRow): SavedReply => ({
  id: row.id,
  title: row.title,
  body: row.body,
  actions: macroActionsOf(row),
  updatedAt: row.updatedAt.toISOString(),
});

/** A row's actions as stored (decision 145): only what is set, so a plain saved reply has none. */
export function macroActionsOf(row: SavedReplyRow): MacroActions {
  const stored = (row.actions ?? {}) as MacroActions;
  return {
    ...(stored.status ? { status: stored.status } : {}),
    ...(stored.assignee ? { assignee: stored.assignee } : {}),
    ...(stored.labelIds?.length ? { labelIds: stored.labelIds } : {}),
    // Kept in jsonb, which refuses what a text column keeps (contracts/json-text.ts).
    ...(stored.note?.trim() ? { note: storableInJson(stored.note) } : {}),
  };
}

type SavedReplyInput = { title: string; body: string; actions?: MacroActions | undefined };
const toRow = (input: SavedReplyInput) => ({
  title: input.title,
  body: input.body,
  actions: macroActionsOf({ actions: input.actions ?? {} } as SavedReplyRow),
});

const missing = () => new AppError('NOT_FOUND', SAVED_REPLY_TEXT.missing);
const taken = () =>
  new AppError('ALREADY_EXISTS', SAVED_REPLY_TEXT.titleTaken, { fields: { title: SAVED_REPLY_TEXT.titleTaken } });

/** The team's saved replies: one shared list; every change is written to the audit log. */
export function createSavedRepliesService(options: { repository: SavedRepliesRepository; audit: AuditService }) {
  const { repository, audit } = options;

  async function write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  const record = (
    actor: AuditActor,
    action: 'saved-reply.create' | 'saved-reply.update' | 'saved-reply.delete',
    row: SavedReplyRow,
  ) => audit.record({ actor, action, targetType: 'saved-reply', targetId: row.id, details: { title: row.title } });

  return {
    async list(): Promise<SavedReply[]> {
      return (await repository.list()).map(toDto);
    },

    async create(actor: AuditActor, input: SavedReplyInput): Promise<SavedReply> {
      const row = await write(() => repository.insert(toRow(input)));
      await record(actor, 'saved-reply.create', row);
      return toDto(row);
    },

    async update(actor: AuditActor, id: string, input: SavedReplyInput): Promise<SavedReply> {
      const row = isUuid(id) ? await write(() => repository.update(id, toRow(input))) : null;
      if (!row) throw missing();
      await record(actor, 'saved-reply.update', row);
      return toDto(row);
    },

    async remove(actor: AuditActor, id: string): Promise<SavedReply> {
      const row = isUuid(id) ? await repository.remove(id) : null;
      if (!row) throw missing();
      await record(actor, 'saved-reply.delete', row);
      return toDto(row);
    },
  };
}

export type SavedRepliesService = ReturnType<typeof createSavedRepliesService>;
