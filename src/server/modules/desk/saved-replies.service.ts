import { SAVED_REPLY_TEXT } from '../../../contracts/desk.ts';
import type { SavedReply } from '../../../contracts/desk.schemas.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { SavedRepliesRepository, SavedReplyRow } from './saved-replies.repository.ts';

const toDto = (row: SavedReplyRow): SavedReply => ({
  id: row.id,
  title: row.title,
  body: row.body,
  updatedAt: row.updatedAt.toISOString(),
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

    async create(actor: AuditActor, input: { title: string; body: string }): Promise<SavedReply> {
      const row = await write(() => repository.insert(input));
      await record(actor, 'saved-reply.create', row);
      return toDto(row);
    },

    async update(actor: AuditActor, id: string, input: { title: string; body: string }): Promise<SavedReply> {
      const row = isUuid(id) ? await write(() => repository.update(id, input)) : null;
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
