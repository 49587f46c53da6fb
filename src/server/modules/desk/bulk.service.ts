import { type BulkAction, BULK_TEXT, BULK_UNDO_MINUTES } from '../../../contracts/bulk.ts';
import type { BulkBody, BulkResult, BulkUndoResult } from '../../../contracts/bulk.schemas.ts';
import { DESK_TEXT } from '../../../contracts/desk.ts';
import { LABEL_TEXT } from '../../../contracts/labels.ts';
import type { AdminTicket } from '../../../contracts/support.schemas.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditRecord, AuditService } from '../audit/audit.service.ts';
import type { SupportRecords } from '../support/index.ts';
import { type BulkItem, type BulkRepository, createBulkRepository, type LockedTicket } from './bulk.repository.ts';
import { createDeskRepository } from './desk.repository.ts';
import type { DeskService } from './desk.service.ts';
import { createLabelsRepository } from './labels.repository.ts';
import type { Macro, MacrosService } from './macros.service.ts';

type Outcome = BulkResult['results'][number]['outcome'];
/** How many tickets a macro changes side by side (each is the macro's own transaction, as from its page). */
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

type SetAction = Exclude<BulkAction, 'macro'>;
type Result = BulkResult['results'][number];

/**
 * Bulk actions on the inbox (docs/decisions/143-bulk-actions.md). Assign, label, close and reopen
 * are one transaction for all the tickets: their rows are locked, each ticket at the version the
 * agent saw is changed by one statement for the lot (the statements the console's own buttons use,
 * for a set: the owner's mail about a close included), one that changed since is left alone and
 * reported, never overwritten, and each change gets its own audit entry, as from its page. A macro
 * goes ticket by ticket through the macro's own transaction. What each ticket was before is kept,
 * so the agent's last bulk action can be undone for BULK_UNDO_MINUTES, on every ticket no one has
 * changed since.
 */
export function createBulkService(deps: {
  db: AppDatabase;
  records: SupportRecords;
  repository: BulkRepository;
  desk: DeskService;
  macros: MacrosService;
  audit: AuditService;
  clock: Clock;
}) {
  const { db, records, repository, desk, macros, audit, clock } = deps;

  /** Changes the tickets (rows locked, versions checked) on `tx`: the ones changed, with their version after. */
  async function change(
    tx: AppDatabase,
    action: SetAction,
    tickets: readonly LockedTicket[],
    detail: { assignTo: string | null; labelId: string | null; open: boolean },
  ): Promise<Map<string, number>> {
    const ids = tickets.map((ticket) => ticket.id);
    if (action === 'label') {
      // Labels leave a ticket's version as it was (they change nothing a reply is written against).
      const labelled = new Set(await createLabelsRepository(tx).putOnAll(ids, detail.labelId!, detail.open));
      return new Map(tickets.filter((ticket) => labelled.has(ticket.id)).map((ticket) => [ticket.id, ticket.version]));
    }
    const changed =
      action === 'assign'
        ? await createDeskRepository(tx).assignAll(ids, detail.assignTo)
        : await records.setOpenAll(tx, ids, detail.open);
    return new Map(changed.map((row) => [row.id, row.version]));
  }

  /** Each changed ticket's audit entry, as its page writes it. */
  function auditEntries(
    actor: AuditActor,
    action: SetAction,
    changed: readonly LockedTicket[],
    named: { assignee: string | null; label: { id: string; name: string } | null; labelOn: boolean },
  ): AuditRecord[] {
    return changed.map((ticket) => {
      const base = { actor, targetType: 'ticket' as const, targetId: ticket.id };
      if (action === 'assign')
        return { ...base, action: 'ticket.assign', details: { ticketNo: ticket.ticketNo, assignee: named.assignee } };
      if (action === 'label') {
        const others = ticket.labels.filter((label) => label.id !== named.label!.id);
        const after = named.labelOn ? [...others, named.label!] : others;
        after.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
        return {
          ...base,
          action: 'ticket.labels',
          details: { ticketNo: ticket.ticketNo, labels: after.map((label) => label.name) },
        };
      }
      return {
        ...base,
        action: action === 'reopen' ? 'ticket.reopen' : 'ticket.close',
        details: { ticketNo: ticket.ticketNo, userEmail: ticket.userEmail },
      };
    });
  }

  async function applyMacro(actor: AuditActor, body: BulkBody, tickets: BulkBody['tickets']) {
    const macro: Macro = await macros.macroOf(body.savedReplyId!);
    const done: BulkItem[] = [];
    const results = await eachSideBySide(tickets, async ({ id, version }): Promise<Result> => {
      let before: AdminTicket;
      try {
        before = await desk.adminTicket(id);
      } catch (error) {
        return { ticketId: id, ticketNo: null, outcome: outcomeOf(error) };
      }
      const result = (outcome: Outcome) => ({ ticketId: id, ticketNo: before.ticketNo, outcome });
      if (before.version !== version) return result('changed');
      const outcome = await macros.applyActions(actor, before, macro, version);
      if (outcome.kind !== 'done') return result(outcome.kind);
      done.push(outcome.item);
      return result('done');
    });
    return { results, done, detail: macro.id };
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
      const tickets = [...new Map(body.tickets.map((t) => [t.id, t])).values()];
      if (body.action === 'macro') {
        const { results, done, detail } = await applyMacro(actor, body, tickets);
        return finish(repository, actor, body.action, detail, results, done);
      }
      const action = body.action;
      const assignTo = body.assignee === 'me' ? actor.userId : (body.assignee ?? null);
      const assignee = assignTo === null ? null : await repository.adminEmail(assignTo);
      if (action === 'assign' && assignTo !== null && assignee === null)
        throw new AppError('INVALID_ARGUMENT', DESK_TEXT.assigneeMissing, {
          fields: { assignee: DESK_TEXT.assigneeMissing },
        });
      const labelName = action === 'label' ? await repository.labelName(body.labelId!) : null;
      if (action === 'label' && labelName === null)
        throw new AppError('INVALID_ARGUMENT', LABEL_TEXT.unknownLabel, {
          fields: { labelId: LABEL_TEXT.unknownLabel },
        });
      const open = action === 'reopen';

      const { answer, changed } = await inTransaction(db, async (tx) => {
        const locked = await createBulkRepository(tx).lockTickets(tickets.map((t) => t.id).filter(isUuid));
        const outcomes = new Map<string, Outcome>();
        const todo: LockedTicket[] = [];
        for (const { id, version } of tickets) {
          const now = locked.get(id);
          if (!now) outcomes.set(id, 'missing');
          else if (now.version !== version) outcomes.set(id, 'changed');
          else if (
            action === 'assign'
              ? now.assignedTo === assignTo
              : action === 'label'
                ? now.labels.some((label) => label.id === body.labelId)
                : now.open === open
          )
            outcomes.set(id, 'unchanged');
          else todo.push(now);
        }
        const after = await change(tx, action, todo, {
          assignTo,
          labelId: body.labelId ?? null,
          open: action === 'label' ? true : open,
        });
        const done: BulkItem[] = [];
        const changed: LockedTicket[] = [];
        for (const ticket of todo) {
          const versionAfter = after.get(ticket.id);
          // Not changed by the statement: the assignee stopped being an admin, or the label went, meanwhile.
          outcomes.set(ticket.id, versionAfter === undefined ? 'changed' : 'done');
          if (versionAfter === undefined) continue;
          changed.push(ticket);
          done.push({
            ticketId: ticket.id,
            ticketNo: ticket.ticketNo,
            open: ticket.open,
            assignedTo: ticket.assignedTo,
            labelId: action === 'label' ? body.labelId! : null,
            versionAfter,
          });
        }
        const results = tickets.map(({ id }) => ({
          ticketId: id,
          ticketNo: locked.get(id)?.ticketNo ?? null,
          outcome: outcomes.get(id)!,
        }));
        // What it did, for its undo: in the same transaction as the change.
        const detail = action === 'assign' ? assignTo : action === 'label' ? body.labelId! : null;
        return { answer: await finish(createBulkRepository(tx), actor, action, detail, results, done), changed };
      });
      await audit.recordEach(
        auditEntries(actor, action, changed, {
          assignee,
          label: labelName === null ? null : { id: body.labelId!, name: labelName },
          labelOn: true,
        }),
      );
      return answer;
    },

    /** Puts back what the actor's last bulk action changed, on each ticket no one has changed since. */
    async undo(actor: AuditActor, bulkId: string): Promise<BulkUndoResult> {
      const since = new Date(clock.now().getTime() - BULK_UNDO_MINUTES * 60_000);
      const claimed = /^[0-9a-f-]{36}$/i.test(bulkId) ? await repository.claimLast(actor.userId, bulkId, since) : null;
      if (!claimed) throw new AppError('ABORTED', BULK_TEXT.undoGone);
      if (claimed.action === 'macro') {
        // A macro's undo names it as it is called now (or as a macro, if it is gone since).
        const macroTitle = await macros.macroOf(claimed.detail ?? '').then(
          (macro) => macro.title,
          () => 'a macro',
        );
        const results = await eachSideBySide(claimed.items, async (item) => ({
          ticketId: item.ticketId,
          ticketNo: item.ticketNo,
          outcome: await macros.undoOn(actor, item, macroTitle),
        }));
        return { results };
      }
      const action = claimed.action;
      const labelId = action === 'label' ? claimed.detail : null;
      const labelName = labelId ? await repository.labelName(labelId) : null;
      const { outcomes, changed } = await inTransaction(db, async (tx) => {
        const locked = await createBulkRepository(tx).lockTickets(claimed.items.map((item) => item.ticketId));
        const outcomes = new Map<string, Outcome>();
        /** The tickets to put back, by what they go back to. */
        const groups = new Map<string, BulkItem[]>();
        for (const item of claimed.items) {
          const now = locked.get(item.ticketId);
          if (!now) outcomes.set(item.ticketId, 'missing');
          else if (now.version !== item.versionAfter) outcomes.set(item.ticketId, 'changed');
          else if (action === 'label' && !now.labels.some((label) => label.id === labelId))
            outcomes.set(item.ticketId, 'unchanged');
          else {
            const back = action === 'assign' ? String(item.assignedTo) : action === 'label' ? '' : String(item.open);
            groups.set(back, [...(groups.get(back) ?? []), item]);
          }
        }
        const changed: LockedTicket[] = [];
        for (const items of groups.values()) {
          const first = items[0]!;
          const after = await change(
            tx,
            action,
            items.map((item) => locked.get(item.ticketId)!),
            { assignTo: first.assignedTo, labelId, open: action === 'label' ? false : first.open },
          );
          for (const item of items) {
            // Not put back: the admin it was assigned to is no admin now, or the label is gone.
            outcomes.set(item.ticketId, after.has(item.ticketId) ? 'done' : 'changed');
            if (after.has(item.ticketId)) changed.push(locked.get(item.ticketId)!);
          }
        }
        return { outcomes, changed };
      });
      // Each ticket's entry says what it is now, as its page's change would.
      const assignees = new Map<string, string | null>();
      const entries: AuditRecord[] = [];
      for (const ticket of changed) {
        const item = claimed.items.find((i) => i.ticketId === ticket.id)!;
        const back: SetAction = action === 'close' ? 'reopen' : action === 'reopen' ? 'close' : action;
        if (action === 'assign' && item.assignedTo !== null && !assignees.has(item.assignedTo))
          assignees.set(item.assignedTo, await repository.adminEmail(item.assignedTo));
        entries.push(
          ...auditEntries(actor, back, [ticket], {
            assignee: item.assignedTo === null ? null : (assignees.get(item.assignedTo) ?? null),
            label: labelId && labelName !== null ? { id: labelId, name: labelName } : null,
            labelOn: false,
          }),
        );
      }
      await audit.recordEach(entries);
      return {
        results: claimed.items.map((item) => ({
          ticketId: item.ticketId,
          ticketNo: item.ticketNo,
          outcome: outcomes.get(item.ticketId)!,
        })),
      };
    },
  };

  /** Records what was done (for its undo) and answers with each ticket's result. */
  async function finish(
    on: BulkRepository,
    actor: AuditActor,
    action: BulkAction,
    detail: string | null,
    results: Result[],
    done: BulkItem[],
  ): Promise<BulkResult> {
    if (done.length === 0) return { bulkId: null, action, results, undoUntil: null };
    const recorded = await on.record({ actorId: actor.userId, action, detail, items: done, at: clock.now() });
    const undoUntil = new Date(new Date(recorded.createdAt).getTime() + BULK_UNDO_MINUTES * 60_000).toISOString();
    return { bulkId: recorded.id, action, results, undoUntil };
  }
}

export type BulkService = ReturnType<typeof createBulkService>;
