import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkingWorker, createBackgroundRounds } from '../../background-rounds.ts';
import type { Clock } from '../../clock.ts';
import type { AppDatabase } from '../../db/connection.ts';
import type { Logger } from '../../logging.ts';
import { lookUpNzbn, type NzbnRegisterAnswer } from './nzbn-lookup.client.ts';
import { type ClaimedLookup, createNzbnLookupRepository, type StoredNzbnLookup } from './nzbn-lookup.repository.ts';

export interface NzbnLookupSettings {
  /** NZBN_API_KEY; the worker exists only when it is set. */
  apiKey: string;
  /** NZBN_API_URL: MBIE's v5 base, or a local server in tests. */
  apiUrl: string;
  /** NZBN_LOOKUP_TIMEOUT_MS: one call's limit. */
  timeoutMs: number;
  /** NZBN_LOOKUP_CHECK_MS: how often a round runs (and once at start; a registration wakes it). */
  checkMs: number;
  /** NZBN_LOOKUP_MAX_ATTEMPTS: failed tries in a row before the worker gives up on a number. */
  maxAttempts: number;
}

export interface NzbnLookupWorkerOptions extends NzbnLookupSettings {
  db: AppDatabase;
  log: Logger;
  clock: Clock;
}

/** Minutes before the next try after the Nth failed one in a row: 1, 5, 30, 120, then every 6 hours. */
const RETRY_MINUTES = [1, 5, 30, 120, 360];
export const retryDelayMs = (failedAttempts: number) =>
  RETRY_MINUTES[Math.min(failedAttempts, RETRY_MINUTES.length) - 1]! * 60_000;

/** How many lookups one claim takes; a round claims again until none are due. */
const BATCH = 10;

/**
 * The NZBN register lookup (docs/decisions/114-nzbn-lookup.md), one per app instance, every
 * NZBN_LOOKUP_CHECK_MS, once at start, and when a registration with an NZBN has committed. It leases
 * the companies whose lookup is due on the app clock (skipping rows another instance holds), asks
 * the register outside any transaction, and records the answer; a failure is tried again later
 * (RETRY_MINUTES) until NZBN_LOOKUP_MAX_ATTEMPTS, and the admin reads why meanwhile.
 */
export function createNzbnLookupWorker(options: NzbnLookupWorkerOptions) {
  const { log, clock } = options;
  const repository = createNzbnLookupRepository(options.db);
  const counters = { found: 0, notFound: 0, failed: 0 };
  // The lease outlives a batch's calls by a minute: a process that dies mid-batch leaves them due again then.
  const leaseMs = BATCH * options.timeoutMs + 60_000;

  async function lookUp(claim: ClaimedLookup, leaseUntil: Date): Promise<void> {
    const answer: NzbnRegisterAnswer = await lookUpNzbn(
      { baseUrl: options.apiUrl, apiKey: options.apiKey, timeoutMs: options.timeoutMs },
      claim.nzbn,
    );
    const checkedAt = clock.now().toISOString();
    if (answer.kind === 'found') {
      counters.found++;
      const lookup: StoredNzbnLookup = {
        result: 'found',
        registeredName: answer.registeredName,
        status: answer.status,
        checkedAt,
      };
      await repository.recordAnswer(claim, leaseUntil, lookup);
      return;
    }
    if (answer.kind === 'not-found') {
      counters.notFound++;
      await repository.recordAnswer(claim, leaseUntil, { result: 'not-found', checkedAt });
      return;
    }
    counters.failed++;
    const failed = claim.attempts + 1;
    const retryAt = failed >= options.maxAttempts ? null : new Date(clock.now().getTime() + retryDelayMs(failed));
    // Never the key: the company, the number, what went wrong and when the next try is.
    log.warn(
      {
        companyId: claim.id,
        nzbn: claim.nzbn,
        error: answer.error,
        httpStatus: answer.httpStatus,
        attempts: failed,
        retryAt,
      },
      retryAt ? 'an NZBN lookup failed; it is tried again later' : 'an NZBN lookup failed too often; no more tries',
    );
    await repository.recordFailure(claim, leaseUntil, { result: 'failed', error: answer.error, checkedAt }, retryAt);
  }

  async function round(): Promise<void> {
    for (;;) {
      if (rounds.stopped) return;
      const now = clock.now();
      const leaseUntil = new Date(now.getTime() + leaseMs);
      let claims: ClaimedLookup[];
      try {
        claims = await repository.claimDue(now, leaseUntil, BATCH);
      } catch (error) {
        log.error({ err: error }, 'the NZBN lookups failed a round; the next round tries again');
        return;
      }
      // One at a time: the register is a shared public service, and a round is never in a hurry.
      for (const claim of claims) {
        try {
          await lookUp(claim, leaseUntil);
        } catch (error) {
          // The answer could not be recorded: the lease ends and the lookup is due again.
          log.error({ err: error, companyId: claim.id }, 'an NZBN lookup could not be recorded; tried again later');
        }
        await nextTurn();
      }
      if (claims.length < BATCH) return;
    }
  }

  const rounds = createBackgroundRounds(options.checkMs, round);

  return {
    // A round now and then every NZBN_LOOKUP_CHECK_MS; tests run one with run().
    ...checkingWorker(rounds, counters),
    /** A registration with an NZBN committed: a round now, in the background. */
    wake: () => rounds.wake(),
  };
}

export type NzbnLookupWorker = ReturnType<typeof createNzbnLookupWorker>;
