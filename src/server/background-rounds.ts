import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from './logging.ts';
/**
 * The run loop the server's background workers share (the mail outbox, account erasure): a round
 * runs every `pollMs` after the last one ended, or at once when woken. Rounds never overlap: a wake
 * or `run()` during a round makes that round go once more when it ends (work that arrived while it
 * ran is not left for the next poll), and every caller of `run()` gets the promise of the round
 * that covers its call. `stop()` cancels the next poll and waits for the round in progress.
 */
export interface BackgroundRounds {
  /** Starts polling: the first round runs `pollMs` from now. */
  start(): void;
  /** Runs a round now (or once more after the current one); resolves when that round has ended. */
  run(): Promise<void>;
  /** Like run(), in the background, and only once started and not stopped (a new event's wake-up). */
  wake(): void;
  /** No round starts after this; resolves when the one in progress has ended. */
  stop(): Promise<void>;
  /** True once stop() was called: a round checks it between items of work. */
  readonly stopped: boolean;
}

export function createBackgroundRounds(pollMs: number, round: () => Promise<void>): BackgroundRounds {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let busy = false;
  let again = false;
  let started = false;
  let stopped = false;

  async function rounds() {
    busy = true;
    try {
      do {
        again = false;
        await round();
      } while (again && !stopped);
    } finally {
      // In the same step as the loop's last check: a call after it starts a round of its own (its
      // work may have come after that round read), never joins the one that has ended.
      busy = false;
      if (started && !stopped) schedule();
    }
  }

  function run(): Promise<void> {
    if (busy && running) {
      again = true;
      return running;
    }
    running = rounds();
    return running;
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), pollMs);
    timer.unref();
  }

  return {
    start() {
      started = true;
      schedule();
    },
    run,
    wake() {
      if (started && !stopped) void run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    get stopped() {
      return stopped;
    },
  };
}

const MAX_BACKOFF_SECONDS = 3600;

/**
 * Seconds before a background worker tries again after `attempts` failed ones: first, 2×, 4×…
 * capped at an hour, ±20 % so that many items that failed together do not return together.
 */
export function backoffSeconds(attempts: number, firstSeconds: number, random = Math.random): number {
  const base = Math.min(MAX_BACKOFF_SECONDS, firstSeconds * 2 ** Math.max(0, attempts - 1));
  return Math.max(1, Math.round(base * (0.8 + 0.4 * random())));
}

/**
 * A round's walk over work read in pages of keys (ids in ascending order): `page(after)` reads the
 * next keys after `after`; each is handled by `item`, whose failure is handed to `failed` (logged,
 * left for the next round) without ending the walk. It stops between items once `rounds.stopped`,
 * and yields to the event loop after each: the embedded database answers without I/O, so requests
 * get their turn in between.
 */
export async function walkPages<K>(
  rounds: Pick<BackgroundRounds, 'stopped'>,
  options: {
    first: K;
    page(after: K, limit: number): Promise<K[]>;
    item(key: K): Promise<void>;
    failed(error: unknown, key: K): void;
  },
  pageSize = 100,
): Promise<void> {
  let after = options.first;
  for (;;) {
    const keys = await options.page(after, pageSize);
    for (const key of keys) {
      if (rounds.stopped) return;
      after = key;
      try {
        await options.item(key);
      } catch (error) {
        options.failed(error, key);
      }
      await nextTurn();
    }
    if (keys.length < pageSize) return;
  }
}

/**
 * One step of a round that fails alone: its error is logged with `failed` (which says that the next
 * round tries again), and the round goes on to its next step.
 */
export async function stepAlone(log: Pick<Logger, 'error'>, failed: string, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    log.error({ err: error }, failed);
  }
}

/**
 * How long after `start()` a checking worker's first round waits: a restart's first requests get
 * the database before the catching up does (the embedded one runs one statement at a time, and a
 * round's first statements each cost a fresh plan), and a check made every few minutes loses
 * nothing by starting a second later.
 */
const FIRST_CHECK_AFTER_MS = 1000;

/**
 * What a worker that checks on a schedule (licence expiry, service levels, NZBN lookups) gives the
 * app: `start()` runs a round soon (FIRST_CHECK_AFTER_MS) and then every check interval, `run()` one
 * round now (tests; it resolves when the round has ended), `stop()`, and a copy of its counters.
 */
export function checkingWorker<C extends object>(rounds: BackgroundRounds, counters: C) {
  return {
    start() {
      rounds.start();
      setTimeout(() => rounds.wake(), FIRST_CHECK_AFTER_MS).unref();
    },
    run: () => rounds.run(),
    stop: () => rounds.stop(),
    stats: (): C => ({ ...counters }),
  };
}
