import { DELETION_TEXT, shownEmail } from '../../../contracts/account-deletion.ts';
import type { DeleteAccountResult, DeletionInfo } from '../../../contracts/account-deletion.schemas.ts';
import { longDate } from '../../../contracts/dates.ts';
import { USER_MESSAGES } from '../../../contracts/users.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { AppError } from '../../errors.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { MailContext } from '../../shared-services.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { accountDeletionMail } from './deletion.mail.ts';
import { createDeletionRepository } from './deletion.repository.ts';

/**
 * Opens a ticket for the team inside the caller's transaction. The support module provides it
 * (`app.supportRecords.openTicket`); privacy names only what it needs, so it imports nothing of
 * support, which dates privacy requests with this module's clock (no import cycle).
 */
export type OpenTicket = (
  db: AppDatabase,
  input: { userId: string; reason: 'Deactivation'; message: string },
) => Promise<{ ticketId: string; ticketNo: number }>;

export interface DeletionServiceOptions {
  db: AppDatabase;
  outbox: Outbox;
  mail: MailContext;
  eraseAfterDays: number;
  /** The accounts service's throttled password check. */
  confirmPassword(input: { userId: string; password: string; ip: string; field: string }): Promise<void>;
  /** Opens the Deactivation ticket in this transaction (the support module's records, handed in by index.ts). */
  openTicket: OpenTicket;
  /** Tells this process's erasure worker to look now. */
  wakeWorker(): void;
  log: { info(details: object, message: string): void };
}

/**
 * Deleting an account (docs/product.md §2.14): the request, in one transaction, and the admin's
 * 'Erase now'. The erasure itself is the erasure worker's (erasure.worker.ts).
 */
export function createDeletionService(options: DeletionServiceOptions) {
  const { db, outbox, mail, eraseAfterDays } = options;
  const repository = createDeletionRepository(db);

  return {
    /** What the page says before the person deletes: erasure would be on this date. */
    info(now = new Date()): DeletionInfo {
      return { eraseAfterDays, eraseOn: longDate(new Date(now.getTime() + eraseAfterDays * 86_400_000)) };
    },

    /**
     * Confirmed with the password; then, in one transaction: the account disabled and its erasure
     * date set, every session ended (live streams end on commit), a Deactivation ticket opened for
     * the team, the audit entry and the confirmation mail recorded.
     */
    async request(input: { userId: string; password: string; ip: string }): Promise<DeleteAccountResult> {
      const state = await repository.findState(input.userId);
      if (!state || state.deletionRequestedAt) throw new AppError('UNAUTHENTICATED', USER_MESSAGES.notFound);
      await options.confirmPassword({ ...input, field: 'password' });
      if (state.role === 'admin') throw new AppError('PERMISSION_DENIED', DELETION_TEXT.adminRefused);
      const result = await inTransaction(db, async (txDb) => {
        const repo = createDeletionRepository(txDb);
        const marked = await repo.markRequested(input.userId, eraseAfterDays);
        if (!marked) throw new AppError('ABORTED', DELETION_TEXT.eraseAlreadyDone);
        const endedSessions = await repo.endSessions(input.userId);
        const requestedOn = longDate(marked.requestedAt);
        const eraseOn = longDate(marked.eraseAfter);
        const ticket = await options.openTicket(txDb, {
          userId: input.userId,
          reason: 'Deactivation',
          message: DELETION_TEXT.ticketMessage(requestedOn, eraseOn),
        });
        await repo.audit({
          actorId: input.userId,
          actorEmail: marked.email,
          action: 'account.deletion-requested',
          targetId: input.userId,
          details: { eraseAfter: marked.eraseAfter.toISOString(), ticketNo: ticket.ticketNo, endedSessions },
        });
        await outbox.enqueue(txDb, {
          ...accountDeletionMail(mail, marked.email, { requestedOn, eraseOn, ticketNo: ticket.ticketNo }),
          kind: 'account-deletion',
          userId: input.userId,
        });
        return { eraseAfter: marked.eraseAfter, eraseOn, ticketNo: ticket.ticketNo, endedSessions };
      });
      outbox.wake();
      options.log.info(
        { userId: input.userId, ticketNo: result.ticketNo, endedSessions: result.endedSessions },
        'account deletion requested',
      );
      return {
        message: DELETION_TEXT.closed(result.eraseOn),
        eraseAfter: result.eraseAfter.toISOString(),
        ticketNo: result.ticketNo,
      };
    },

    /** An admin brings erasure forward: only for accounts whose owner asked, never their own. */
    async eraseNow(actor: AuditActor, userId: string): Promise<{ message: string; eraseAfter: string }> {
      if (userId === actor.userId) throw new AppError('PERMISSION_DENIED', DELETION_TEXT.eraseNotYourself);
      const state = await repository.findState(userId);
      if (!state) throw new AppError('NOT_FOUND', USER_MESSAGES.notFound);
      if (state.erasedAt) throw new AppError('ABORTED', DELETION_TEXT.eraseAlreadyDone);
      if (!state.deletionRequestedAt) throw new AppError('ABORTED', DELETION_TEXT.eraseNotRequested);
      const eraseAfter = await inTransaction(db, async (tx) => {
        const repo = createDeletionRepository(tx);
        const at = await repo.eraseNow(userId);
        if (!at) throw new AppError('ABORTED', DELETION_TEXT.eraseAlreadyDone);
        await repo.audit({
          actorId: actor.userId,
          actorEmail: actor.email,
          action: 'user.erase',
          targetId: userId,
          details: { email: state.email },
        });
        return at;
      });
      options.wakeWorker();
      return { message: DELETION_TEXT.eraseScheduled(shownEmail(state.email)), eraseAfter: eraseAfter.toISOString() };
    },
  };
}

export type DeletionService = ReturnType<typeof createDeletionService>;
