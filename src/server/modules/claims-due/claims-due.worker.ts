import { checkingWorker, createBackgroundRounds, stepAlone, walkPages } from '../../background-rounds.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { Logger } from '../../logging.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { MailContext } from '../../shared-services.ts';
import { createTicketMailer } from '../notifications/index.ts';
import { claimDueMail } from './claims-due.mail.ts';
import type { ClaimsDueRepository } from './claims-due.repository.ts';

export interface ClaimsDueWorkerOptions {
  db: AppDatabase;
  repository: ClaimsDueRepository;
  outbox: Outbox;
  mail: MailContext;
  log: Logger;
  clock: Clock;
  /** SERVICE_LEVEL_CHECK_MS: how often a round runs (and once at start), as the service levels' worker. */
  checkMs: number;
  /** SLA_WARNING_MINUTES: a claim's due time is told this long before it (or once passed, if the server was down). */
  warningMinutes: number;
}

/**
 * The claims' clock (docs/decisions/152-incident-claims.md), one per app instance, every
 * SERVICE_LEVEL_CHECK_MS and once at start, on the app's clock:
 *
 * - **Warnings.** A claim waiting on the team (submitted, appealed) or on the traveller the team
 *   chases (with-traveller) is told once per due time, SLA_WARNING_MINUTES before it or at once when
 *   that moment has passed: `due_warned_at` takes the due time it was told about, in the transaction
 *   that records the mail in the outbox, by a conditional UPDATE (a second instance waits on the
 *   row and then finds it told). A new due time (the claim moved on) is told again. The mail goes
 *   to the ticket's assignee, or to the whole team while it is nobody's, as the service levels'
 *   warnings do (the notifications module's routing and opt-outs).
 * - **Closing.** A decided claim whose appeal window (its due time) has passed is closed by one
 *   conditional statement: nothing is left to wait for.
 */
export function createClaimsDueWorker(options: ClaimsDueWorkerOptions) {
  const { db, repository, outbox, log, clock } = options;
  const mailer = createTicketMailer({ outbox, mail: options.mail });
  const counters = { warned: 0, closed: 0, failed: 0 };

  async function warnClaim(claimId: string): Promise<number> {
    return inTransaction(db, async (tx) => {
      const now = clock.now();
      const claim = await repository.markWarned(tx, claimId, now, options.warningMinutes);
      if (!claim) return 0;
      counters.warned++;
      return mailer.toTeam(tx, claim.ticketId, 'claim-due', (to) => claimDueMail(options.mail, to, { claim, now }));
    });
  }

  async function warn(): Promise<void> {
    await walkPages(rounds, {
      first: repository.firstId,
      page: (after, limit) => repository.listToWarn(clock.now(), options.warningMinutes, after, limit),
      item: async (claimId) => {
        if ((await warnClaim(claimId)) > 0) outbox.wake();
      },
      failed: (error, claimId) => {
        counters.failed++;
        log.error({ err: error, claimId }, 'a claim’s due warning failed; the next round tries again');
      },
    });
  }

  async function close(): Promise<void> {
    counters.closed += await repository.closeDecided(clock.now());
  }

  async function round(): Promise<void> {
    await stepAlone(log, 'the claims’ due warnings failed a round; the next round tries again', warn);
    await stepAlone(log, 'closing claims past their appeal window failed; the next round tries again', close);
  }

  const rounds = createBackgroundRounds(options.checkMs, round);
  // A round now and then every SERVICE_LEVEL_CHECK_MS; tests run one with run().
  return checkingWorker(rounds, counters);
}

export type ClaimsDueWorker = ReturnType<typeof createClaimsDueWorker>;
