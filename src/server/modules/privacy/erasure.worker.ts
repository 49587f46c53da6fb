import { createBackgroundRounds } from '../../background-rounds.ts';
import type { Logger } from '../../logging.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { createErasureRepository } from './erasure.repository.ts';

export interface ErasureWorkerOptions {
  db: AppDatabase;
  storage: Pick<FileStorage, 'delete'>;
  log: Logger;
  /** How often it looks for accounts due (ERASE_CHECK_SECONDS). */
  pollMs: number;
  /** Accounts erased per round at most (the next round takes the rest). */
  batch?: number;
}

/**
 * The erasure worker of one server process (docs/decisions/098-account-deletion-and-erasure.md).
 * Each round it takes accounts due (`erase_after <= now()`, not yet erased) one at a time, each in
 * its own transaction that claims the row with FOR UPDATE SKIP LOCKED: several instances share the
 * work and never erase the same account twice. A failed erasure rolls back and leaves the account
 * due, so the next round tries again. Files are deleted from storage after the commit; one that
 * fails to go is named by no row any more, and the attachments sweep removes it (local and S3).
 */
export function createErasureWorker(options: ErasureWorkerOptions) {
  const { db, storage, log } = options;
  const batch = options.batch ?? 20;
  const counters = { erased: 0, failed: 0, filesLeft: 0 };

  /**
   * Erases one due account; false when none is due (or every due one is another worker's, or
   * failed this round). An account that fails is skipped for the rest of the round, so one that
   * cannot be erased never holds up the others; it stays due and the next round tries it again.
   */
  async function eraseOne(failed: string[]): Promise<boolean> {
    let claimed: string | null = null;
    let outcome;
    try {
      outcome = await inTransaction(db, async (tx) => {
        const repository = createErasureRepository(tx);
        const due = await repository.claimDue(failed);
        if (!due) return null;
        claimed = due.id;
        return { userId: due.id, ...(await repository.erase(due.id, due.email)) };
      });
    } catch (error) {
      counters.failed++;
      log.error({ err: error, userId: claimed }, 'an account could not be erased; it stays due and is tried again');
      if (claimed === null) throw error;
      failed.push(claimed);
      return true;
    }
    if (!outcome) return false;
    counters.erased++;
    let filesLeft = 0;
    for (const key of outcome.storageKeys) {
      try {
        await storage.delete(key);
      } catch (error) {
        // No row names it any more: the attachments sweep deletes it on its next pass.
        filesLeft++;
        log.warn({ err: error, key }, 'an erased account’s file could not be deleted yet; the sweep removes it');
      }
    }
    counters.filesLeft += filesLeft;
    // Never the address: it is what was erased (LOG-02).
    log.info(
      {
        userId: outcome.userId,
        deletedTickets: outcome.deletedTickets,
        keptTickets: outcome.keptTickets,
        files: outcome.storageKeys.length,
        filesLeft,
      },
      'account erased',
    );
    return true;
  }

  /** At most `batch` accounts; a wake-up during the round makes it go once more (background-rounds.ts). */
  async function round(): Promise<void> {
    const failed: string[] = [];
    let tries = 0;
    try {
      while (!rounds.stopped && tries < batch && (await eraseOne(failed))) tries++;
    } catch (error) {
      log.error({ err: error }, 'the erasure worker could not look for accounts due; it tries again');
    }
  }
  const rounds = createBackgroundRounds(options.pollMs, round);

  return {
    start: () => rounds.start(),
    /** Runs a round now and answers how many accounts were erased meanwhile (tests). */
    async runOnce(): Promise<number> {
      const before = counters.erased;
      await rounds.run();
      return counters.erased - before;
    },
    /** Looks at once (an admin's 'Erase now'), in the background. */
    wake: () => rounds.wake(),
    stop: () => rounds.stop(),
    stats: () => ({ ...counters }),
  };
}

export type ErasureWorker = ReturnType<typeof createErasureWorker>;
