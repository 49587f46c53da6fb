import { DESK_TEXT } from '../../../contracts/desk.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { MERGE_MESSAGES } from '../../../contracts/ticket-merge.ts';
import type { MergeTarget } from '../../../contracts/ticket-merge.schemas.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { MergeOutcome, MergeRepository, SplitOutcome, UndoOutcome } from './desk.merge.repository.ts';

const REFUSALS: Record<Exclude<MergeOutcome['kind'], 'merged'>, AppError> = {
  missing: new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing),
  'target-missing': new AppError('NOT_FOUND', MERGE_MESSAGES.targetMissing, {
    fields: { targetTicketId: MERGE_MESSAGES.targetMissing },
  }),
  same: new AppError('INVALID_ARGUMENT', MERGE_MESSAGES.sameTicket, {
    fields: { targetTicketId: MERGE_MESSAGES.sameTicket },
  }),
  'other-customer': new AppError('INVALID_ARGUMENT', MERGE_MESSAGES.otherCustomer, {
    fields: { targetTicketId: MERGE_MESSAGES.otherCustomer },
  }),
  'already-merged': new AppError('ABORTED', MERGE_MESSAGES.alreadyMerged),
  stale: new AppError('FAILED_PRECONDITION', DESK_TEXT.staleAction),
  'target-merged': new AppError('ABORTED', MERGE_MESSAGES.targetMerged, {
    fields: { targetTicketId: MERGE_MESSAGES.targetMerged },
  }),
};

const SPLIT_REFUSALS: Record<Exclude<SplitOutcome['kind'], 'split'>, AppError> = {
  missing: REFUSALS.missing,
  'already-merged': REFUSALS['already-merged'],
  'not-customers': new AppError('INVALID_ARGUMENT', MERGE_MESSAGES.notCustomers, {
    fields: { messageId: MERGE_MESSAGES.notCustomers },
  }),
  first: new AppError('INVALID_ARGUMENT', MERGE_MESSAGES.firstMessage, {
    fields: { messageId: MERGE_MESSAGES.firstMessage },
  }),
};

const UNDO_REFUSALS: Record<Exclude<UndoOutcome['kind'], 'undone'>, AppError> = {
  missing: new AppError('NOT_FOUND', MERGE_MESSAGES.undoMissing),
  'undone-already': new AppError('ABORTED', MERGE_MESSAGES.undoneAlready),
  'too-old': new AppError('ABORTED', MERGE_MESSAGES.undoTooOld),
  'target-merged': new AppError('ABORTED', MERGE_MESSAGES.undoTargetMerged),
};

/** Merging tickets in the console (docs/decisions/116-ticket-merge.md); each merge is audited. */
export function createMergeService(options: { repository: MergeRepository; audit: AuditService }) {
  const { repository, audit } = options;
  return {
    async targets(ticketId: string): Promise<MergeTarget[]> {
      if (!isUuid(ticketId)) throw REFUSALS.missing;
      return repository.targets(ticketId);
    },

    async split(actor: AuditActor, sourceId: string, input: { messageId: number; reason: string }) {
      if (!isUuid(sourceId)) throw REFUSALS.missing;
      const outcome = await repository.split(sourceId, input.messageId, input.reason, actor.userId);
      if (outcome.kind !== 'split') throw SPLIT_REFUSALS[outcome.kind];
      await audit.record({
        actor,
        action: 'ticket.split',
        targetType: 'ticket',
        targetId: outcome.targetId,
        details: { ticketNo: outcome.targetNo, sourceTicketNo: outcome.sourceNo, sourceTicketId: sourceId },
      });
      return { newTicketId: outcome.targetId, newTicketNo: outcome.targetNo, sourceTicketNo: outcome.sourceNo };
    },

    async undoable(ticketId: string) {
      if (!isUuid(ticketId)) throw REFUSALS.missing;
      return repository.undoable(ticketId);
    },

    async undo(actor: AuditActor, mergeId: number) {
      const outcome = await repository.undo(mergeId);
      if (outcome.kind !== 'undone') throw UNDO_REFUSALS[outcome.kind];
      await audit.record({
        actor,
        action: outcome.split ? 'ticket.unsplit' : 'ticket.unmerge',
        targetType: 'ticket',
        targetId: outcome.targetId,
        details: { ticketNo: outcome.targetNo, sourceTicketNo: outcome.sourceNo, sourceTicketId: outcome.sourceId },
      });
      return {
        sourceTicketId: outcome.sourceId,
        sourceTicketNo: outcome.sourceNo,
        targetTicketId: outcome.targetId,
        targetTicketNo: outcome.targetNo,
      };
    },

    async merge(actor: AuditActor, sourceId: string, targetId: string, seenVersion?: number) {
      if (!isUuid(sourceId)) throw REFUSALS.missing;
      const outcome = await repository.merge(sourceId, targetId, actor.userId, seenVersion);
      if (outcome.kind !== 'merged') throw REFUSALS[outcome.kind];
      await audit.record({
        actor,
        action: 'ticket.merge',
        targetType: 'ticket',
        targetId: outcome.targetId,
        details: { ticketNo: outcome.targetNo, sourceTicketNo: outcome.sourceNo, sourceTicketId: sourceId },
      });
      return { targetTicketId: outcome.targetId, targetTicketNo: outcome.targetNo, sourceTicketNo: outcome.sourceNo };
    },
  };
}

export type MergeService = ReturnType<typeof createMergeService>;
