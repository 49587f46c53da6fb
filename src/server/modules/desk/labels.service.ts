import { LABEL_LIMITS, LABEL_TEXT } from '../../../contracts/labels.ts';
import type { Label } from '../../../contracts/labels.schemas.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { LabelRow, LabelsRepository } from './labels.repository.ts';

const missing = () => new AppError('NOT_FOUND', LABEL_TEXT.missing);
const taken = () => new AppError('ALREADY_EXISTS', LABEL_TEXT.nameTaken, { fields: { name: LABEL_TEXT.nameTaken } });

/**
 * Labels (docs/decisions/141-labels.md): one list for the team, any number on a ticket. Every change
 * is written to the audit log: the list's by the label, a ticket's by the ticket.
 */
export function createLabelsService(options: { repository: LabelsRepository; audit: AuditService }) {
  const { repository, audit } = options;

  async function named<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  return {
    list: (): Promise<LabelRow[]> => repository.list(),

    async create(actor: AuditActor, name: string): Promise<Label> {
      if ((await repository.count()) >= LABEL_LIMITS.labels)
        throw new AppError('RESOURCE_EXHAUSTED', LABEL_TEXT.tooMany, { fields: { name: LABEL_TEXT.tooMany } });
      const label = await named(() => repository.insert(name));
      await audit.record({ actor, action: 'label.create', targetType: 'label', targetId: label.id, details: { name } });
      return label;
    },

    async rename(actor: AuditActor, id: string, name: string): Promise<Label> {
      const label = isUuid(id) ? await named(() => repository.rename(id, name)) : null;
      if (!label) throw missing();
      await audit.record({ actor, action: 'label.rename', targetType: 'label', targetId: id, details: { name } });
      return label;
    },

    async remove(actor: AuditActor, id: string): Promise<Label> {
      const removed = isUuid(id) ? await repository.remove(id) : null;
      if (!removed) throw missing();
      await audit.record({
        actor,
        action: 'label.delete',
        targetType: 'label',
        targetId: id,
        details: { name: removed.name, tickets: removed.ticketIds.length },
      });
      return { id: removed.id, name: removed.name };
    },

    /** Sets a ticket's labels to exactly these (an unknown one refuses the whole change). */
    async setForTicket(actor: AuditActor, ticketId: string, labelIds: string[]): Promise<Label[]> {
      const ids = [...new Set(labelIds)];
      if (!isUuid(ticketId)) throw new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);
      if ((await repository.existing(ids)) < ids.length)
        throw new AppError('INVALID_ARGUMENT', LABEL_TEXT.unknownLabel, {
          fields: { labelIds: LABEL_TEXT.unknownLabel },
        });
      const set = await repository.setForTicket(ticketId, ids);
      if (!set) throw new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);
      await audit.record({
        actor,
        action: 'ticket.labels',
        targetType: 'ticket',
        targetId: ticketId,
        details: { ticketNo: set.ticketNo, labels: set.labels.map((label) => label.name) },
      });
      return set.labels;
    },
  };
}

export type LabelsService = ReturnType<typeof createLabelsService>;
