import { BULK_TEXT, BULK_UNDO_MINUTES } from '../../../contracts/bulk.ts';
import type { BulkBody, BulkResult, BulkUndoResult } from '../../../contracts/bulk.schemas.ts';
import type { AdminTicket } from '../../../contracts/support.schemas.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import type { BulkItem, BulkRepository } from './bulk.repository.ts';
import type { DeskService } from './desk.service.ts';
import type { LabelsService } from './labels.service.ts';
import type { Macro, MacrosService } from './macros.service.ts';

type Outcome = BulkResult['results'][number]['outcome'];
/** How many tickets are changed side by side (each is its own short transaction, as from its page). */
const SIDE_BY_SIDE = 4;

/** Runs `work` over `items`, SIDE_BY_SIDE at a time, keeping their order in the answer. */
async function eachSideBySide<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(SIDE_BY_SIDE, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/** A refusal that means this ticket, not the request: gone, or changed since the version given. */
function outcomeOf(error: unknown): Outcome {
  if (error instanceof AppError && error.code === 'NOT_FOUND') return 'missing';
  if (error instanceof AppError && error.code === 'FAILED_PRECONDITION') return 'changed';
  throw error;
}

/**
 * Bulk actions on the inbox (docs/decisions/143-bulk-actions.md). Each ticket goes through the same
 * service call its own page makes (close, reopen, assign, its labels), with the version the agent
 * saw: one that changed since is left alone and reported, never overwritten; each change is audited
 * as that call audits it. What each ticket was before is kept, so the agent's last bulk action can
 * be undone for BULK_UNDO_MINUTES, on every ticket no one has changed since.
 */
export function createBulkService(deps: {
  repository: BulkRepository;
  desk: DeskService;
  labels: LabelsService;
  macros: MacrosService;
  clock: Clock;
}) {
  const { repository, desk, labels, macros, clock } = deps;

  async function labelIdsOf(ticket: AdminTicket) {
    return ticket.labels.map((label) => label.id);
  }

  return {
    async apply(actor: AuditActor, body: BulkBody): Promise<BulkResult> {
      if (body.action === 'assign' && body.assignee === undefined)
        throw new AppError('INVALID_ARGUMENT', BULK_TEXT.assigneeMissing, {
          fields: { assignee: BULK_TEXT.assigneeMissing },
        });
      if (body.action === 'label' && !body.labelId)
        throw new AppError('INVALID_ARGUMENT', BULK_TEXT.labelMissing, { fields: { labelId: BULK_TEXT.labelMissing } });
      if (body.action === 'macro' && !body.savedReplyId)
        throw new AppError('INVALID_ARGUMENT', BULK_TEXT.macroMissing, {
          fields: { savedReplyId: BULK_TEXT.macroMissing },
        });
      const macro: Macro | null = body.action === 'macro' ? await macros.macroOf(body.savedReplyId!) : null;
      const assignTo = body.assignee === 'me' ? actor.userId : (body.assignee ?? null);
      const tickets = [...new Map(body.tickets.map((t) => [t.id, t])).values()];
      const done: BulkItem[] = [];
      const results = await eachSideBySide(tickets, async ({ id, version }) => {
        let before: AdminTicket;
        try {
          before = await desk.adminTicket(id);
        } catch (error) {
          return { ticketId: id, ticketNo: null, outcome: outcomeOf(error) };
        }
        const result = (outcome: Outcome) => ({ ticketId: id, ticketNo: before.ticketNo, outcome });
        if (before.version !== version) return result('changed');
        const item: Omit<BulkItem, 'versionAfter'> = {
          ticketId: id,
          ticketNo: before.ticketNo,
          open: before.open,
          assignedTo: before.assignee?.id ?? null,
          labelId: null,
        };
        if (macro) {
          const outcome = await macros.applyActions(actor, before, macro, version);
          if (outcome.kind !== 'done') return result(outcome.kind);
          done.push(outcome.item);
          return result('done');
        }
        try {
          let after: AdminTicket;
          switch (body.action) {
            case 'macro':
              throw new Error('a macro is applied above');
            case 'close':
            case 'reopen': {
              const open = body.action === 'reopen';
              if (before.open === open) return result('unchanged');
              after = await desk.setOpen(actor, id, open, version);
              break;
            }
            case 'assign':
              if ((before.assignee?.id ?? null) === assignTo) return result('unchanged');
              after = await desk.assign(actor, id, assignTo, version);
              break;
            case 'label': {
              const ids = await labelIdsOf(before);
              if (ids.includes(body.labelId!)) return result('unchanged');
              await labels.setForTicket(actor, id, [...ids, body.labelId!]);
              item.labelId = body.labelId!;
              after = await desk.adminTicket(id);
              break;
            }
          }
          done.push({ ...item, versionAfter: after.version });
          return result('done');
        } catch (error) {
          return result(outcomeOf(error));
        }
      });
      if (done.length === 0) return { bulkId: null, action: body.action, results, undoUntil: null };
      const detail =
        body.action === 'assign'
          ? assignTo
          : body.action === 'label'
            ? body.labelId!
            : body.action === 'macro'
              ? macro!.id
              : null;
      const recorded = await repository.record({
        actorId: actor.userId,
        action: body.action,
        detail,
        items: done,
        at: clock.now(),
      });
      const undoUntil = new Date(new Date(recorded.createdAt).getTime() + BULK_UNDO_MINUTES * 60_000).toISOString();
      return { bulkId: recorded.id, action: body.action, results, undoUntil };
    },

    /** Puts back what the actor's last bulk action changed, on each ticket no one has changed since. */
    async undo(actor: AuditActor, bulkId: string): Promise<BulkUndoResult> {
      const since = new Date(clock.now().getTime() - BULK_UNDO_MINUTES * 60_000);
      const claimed = /^[0-9a-f-]{36}$/i.test(bulkId) ? await repository.claimLast(actor.userId, bulkId, since) : null;
      if (!claimed) throw new AppError('ABORTED', BULK_TEXT.undoGone);
      // A macro's undo names it as it is called now (or as a macro, if it is gone since).
      const macroTitle =
        claimed.action === 'macro'
          ? await macros.macroOf(claimed.detail ?? '').then(
              (macro) => macro.title,
              () => 'a macro',
            )
          : '';
      const results = await eachSideBySide(claimed.items, async (item) => {
        const result = (outcome: Outcome) => ({ ticketId: item.ticketId, ticketNo: item.ticketNo, outcome });
        try {
          switch (claimed.action) {
            case 'macro':
              return result(await macros.undoOn(actor, item, macroTitle));
            case 'close':
            case 'reopen':
              await desk.setOpen(actor, item.ticketId, item.open, item.versionAfter);
              break;
            case 'assign':
              await desk.assign(actor, item.ticketId, item.assignedTo, item.versionAfter);
              break;
            case 'label': {
              const now = await desk.adminTicket(item.ticketId);
              if (now.version !== item.versionAfter) return result('changed');
              const ids = await labelIdsOf(now);
              if (!ids.includes(item.labelId!)) return result('unchanged');
              await labels.setForTicket(
                actor,
                item.ticketId,
                ids.filter((labelId) => labelId !== item.labelId),
              );
              break;
            }
          }
          return result('done');
        } catch (error) {
          return result(outcomeOf(error));
        }
      });
      return { results };
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
