import { BULK_UNDO_MINUTES } from '../../../contracts/bulk.ts';
import { DESK_TEXT, SAVED_REPLY_TEXT } from '../../../contracts/desk.ts';
import type { MacroApply } from '../../../contracts/desk.schemas.ts';
import { fillTemplate } from '../../../contracts/macros.ts';
import { type MacroActions, MACRO_ACTION_TEXT } from '../../../contracts/macro-actions.ts';
import { reasonLabel, SUPPORT_TEXT } from '../../../contracts/support.ts';
import type { AdminTicket } from '../../../contracts/support.schemas.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import { type MessageRow } from '../support/index.ts';
import { toAdminMessageDto } from '../support/support.service.ts';
import type { SupportRecords } from '../support/index.ts';
import { type BulkItem, createBulkRepository } from './bulk.repository.ts';
import { createDeskRepository } from './desk.repository.ts';
import type { DeskService } from './desk.service.ts';
import { createMacrosRepository } from './macros.repository.ts';
import { macroActionsOf } from './saved-replies.service.ts';
import type { SavedRepliesRepository } from './saved-replies.repository.ts';

export interface Macro {
  id: string;
  title: string;
  actions: MacroActions;
}

/** What one ticket made of a macro: done (with what to undo), or left alone and why. */
export type MacroOutcome =
  | { kind: 'done'; item: BulkItem; message: MessageRow | null; did: string[] }
  | { kind: 'changed' }
  | { kind: 'missing' }
  | { kind: 'unchanged' };

const stale = () => new AppError('FAILED_PRECONDITION', DESK_TEXT.staleAction);
const nothingToDo = () => new AppError('ABORTED', 'Nothing to do: the ticket already is as this macro leaves it.');

/**
 * Macros (docs/decisions/145-macro-actions.md): a saved reply's reply and actions applied to a
 * ticket as one change, in one transaction, through the statements the console's own buttons use
 * (support.records for the answer and the status, the desk's for the note and the assignee). What
 * the ticket was before is recorded as a bulk action of one ticket, so the bulk actions' undo takes
 * it back; audited once, with what it did.
 */
export function createMacrosService(deps: {
  db: AppDatabase;
  records: SupportRecords;
  savedReplies: SavedRepliesRepository;
  desk: DeskService;
  audit: AuditService;
  clock: Clock;
}) {
  const { db, records, desk, audit, clock } = deps;

  async function macroOf(savedReplyId: string): Promise<Macro> {
    const row = isUuid(savedReplyId) ? await deps.savedReplies.find(savedReplyId) : null;
    if (!row)
      throw new AppError('NOT_FOUND', SAVED_REPLY_TEXT.missing, { fields: { savedReplyId: SAVED_REPLY_TEXT.missing } });
    return { id: row.id, title: row.title, actions: macroActionsOf(row) };
  }

  /**
   * Applies `macro` to one ticket on `tx`: the reply (if any), the note, the labels, the assignee,
   * the status; a reopen comes first, so a reply can follow it, and a close last. Stops ('changed')
   * when the ticket is not at `seenVersion`.
   */
  async function applyOn(
    tx: AppDatabase,
    actor: AuditActor,
    ticket: AdminTicket,
    macro: Macro,
    input: { seenVersion?: number | undefined; messageBody?: string; clientId?: string | undefined },
  ): Promise<MacroOutcome> {
    const repository = createMacrosRepository(tx);
    const deskTx = createDeskRepository(tx);
    const before = await repository.lockTicket(ticket.id);
    if (!before) return { kind: 'missing' };
    if (input.seenVersion !== undefined && before.version !== input.seenVersion) return { kind: 'changed' };
    const { actions } = macro;
    const did: string[] = [];
    let open = before.open;
    if (actions.status === 'reopen' && !open) {
      await records.setOpen(tx, ticket.id, true);
      open = true;
      did.push(MACRO_ACTION_TEXT.reopen);
    }
    let message: MessageRow | null = null;
    if (input.messageBody) {
      message = await records.answer(tx, {
        ticketId: ticket.id,
        authorId: actor.userId,
        body: input.messageBody,
        clientId: input.clientId ?? null,
      });
      // Closed (and the macro does not reopen it), or this reply was sent already: nothing of it happens.
      if (!message) throw new AppError('ABORTED', SUPPORT_TEXT.replyRejected);
      did.push(MACRO_ACTION_TEXT.send);
    }
    let noteId: number | null = null;
    if (actions.note) {
      const context = {
        ticketNo: ticket.ticketNo,
        reasonLabel: reasonLabel(ticket.reason),
        userEmail: ticket.userEmail,
        userName: ticket.userName,
      };
      const note = await deskTx.insertNote({
        ticketId: ticket.id,
        authorId: actor.userId,
        body: fillTemplate(actions.note, context),
        clientId: null,
      });
      noteId = note?.id ?? null;
      if (noteId !== null) did.push('Added an internal note');
    }
    const labelIds = await repository.addLabels(
      ticket.id,
      (actions.labelIds ?? []).filter((id) => !before.labelIds.includes(id)),
    );
    if (labelIds.length > 0) did.push(`Added ${labelIds.length === 1 ? 'a label' : `${labelIds.length} labels`}`);
    if (actions.assignee) {
      const to = actions.assignee === 'me' ? actor.userId : actions.assignee === 'nobody' ? null : actions.assignee;
      if (to !== before.assignedTo) {
        // No longer an admin (disabled, or a user now): the whole macro is refused, nothing half done.
        if (!(await deskTx.assign(ticket.id, to))) throw new AppError('INVALID_ARGUMENT', DESK_TEXT.assigneeMissing);
        did.push(to === null ? 'Unassigned the ticket' : 'Assigned the ticket');
      }
    }
    if (actions.status === 'close' && open) {
      await records.setOpen(tx, ticket.id, false);
      did.push(MACRO_ACTION_TEXT.close);
    }
    if (did.length === 0) return { kind: 'unchanged' };
    const item: BulkItem = {
      ticketId: ticket.id,
      ticketNo: before.ticketNo,
      open: before.open,
      assignedTo: before.assignedTo,
      labelId: null,
      labelIds,
      noteId,
      versionAfter: await repository.version(ticket.id),
    };
    return { kind: 'done', item, message, did };
  }

  const recordAudit = (
    actor: AuditActor,
    macro: Macro,
    ticket: AdminTicket,
    outcome: MacroOutcome & { kind: 'done' },
  ) =>
    audit.record({
      actor,
      action: 'ticket.macro',
      targetType: 'ticket',
      targetId: ticket.id,
      details: {
        ticketNo: ticket.ticketNo,
        title: macro.title,
        did: outcome.did,
        ...(outcome.message ? { messageId: outcome.message.id } : {}),
        ...(outcome.item.noteId !== null ? { noteId: outcome.item.noteId } : {}),
      },
    });

  return {
    macroOf,

    /** One ticket, from its page: the reply as the agent finished it, then the actions; one undo. */
    async apply(actor: AuditActor, ticketId: string, input: MacroApply) {
      if (!isUuid(ticketId)) throw new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);
      const macro = await macroOf(input.savedReplyId);
      const ticket = await desk.adminTicket(ticketId);
      if (input.seenVersion !== undefined && ticket.version !== input.seenVersion) throw stale();
      const applied = await inTransaction(db, async (tx) => {
        const outcome = await applyOn(tx, actor, ticket, macro, input);
        if (outcome.kind === 'missing') throw new AppError('NOT_FOUND', SUPPORT_TEXT.ticketMissing);
        if (outcome.kind === 'changed') throw stale();
        if (outcome.kind === 'unchanged') throw nothingToDo();
        const recorded = await createBulkRepository(tx).record({
          actorId: actor.userId,
          action: 'macro',
          detail: macro.id,
          items: [outcome.item],
          at: clock.now(),
        });
        return { outcome, recorded };
      });
      await recordAudit(actor, macro, ticket, applied.outcome);
      const undoUntil = new Date(applied.recorded.createdAt.getTime() + BULK_UNDO_MINUTES * 60_000);
      return {
        ticket: await desk.adminTicket(ticket.id),
        message: applied.outcome.message ? toAdminMessageDto(applied.outcome.message, actor.userId) : null,
        undoId: applied.recorded.id,
        undoUntil: undoUntil.toISOString(),
      };
    },

    /** One ticket of a bulk action: the macro's actions only (never its reply), at the version the agent saw. */
    async applyActions(actor: AuditActor, ticket: AdminTicket, macro: Macro, seenVersion: number) {
      const outcome = await inTransaction(db, (tx) => applyOn(tx, actor, ticket, macro, { seenVersion }));
      if (outcome.kind === 'done') await recordAudit(actor, macro, ticket, outcome);
      return outcome;
    },

    /**
     * Takes back what a macro did to one ticket (the bulk actions' undo): its note, the labels it
     * added, the assignee and status it changed, only while no one has changed the ticket since. A
     * reply it sent stays: the customer may have read it.
     */
    async undoOn(actor: AuditActor, item: BulkItem, title: string): Promise<'done' | 'changed' | 'missing'> {
      const outcome = await inTransaction(db, async (tx) => {
        const repository = createMacrosRepository(tx);
        const now = await repository.lockTicket(item.ticketId);
        if (!now) return 'missing' as const;
        if (now.version !== item.versionAfter) return 'changed' as const;
        if (item.noteId != null) await repository.removeNote(item.ticketId, item.noteId);
        await repository.removeLabels(item.ticketId, item.labelIds ?? []);
        if (now.assignedTo !== item.assignedTo) await createDeskRepository(tx).assign(item.ticketId, item.assignedTo);
        if (now.open !== item.open) await records.setOpen(tx, item.ticketId, item.open);
        return 'done' as const;
      });
      if (outcome === 'done')
        await audit.record({
          actor,
          action: 'ticket.macro-undo',
          targetType: 'ticket',
          targetId: item.ticketId,
          details: { ticketNo: item.ticketNo, title },
        });
      return outcome;
    },
  };
}

export type MacrosService = ReturnType<typeof createMacrosService>;
