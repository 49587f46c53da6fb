/**
 * Waiting for an effect, never for a duration: a test that needs a mail, a row, an event or a file
 * asks for that thing and gets it as soon as it exists, on a quiet machine or a loaded one. A deadline
 * only bounds a wait that would otherwise hang; when it passes, the error says what never came and
 * what was last seen, so a failure reads as "no mail to x@y" instead of "timed out".
 *
 * The lint rule `testing/no-sleep` (eslint.config.js) refuses sleeps in tests: poll with these instead.
 */
import { setTimeout as pause } from 'node:timers/promises';

/** What a probe may answer: a value is the effect; undefined, null and false mean "not yet". */
type Probe<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

export interface WaitOptions {
  /** The longest wait, generous: a passing wait returns at the first look that finds the effect. */
  timeoutMs?: number;
  /** Between looks. */
  intervalMs?: number;
  /** Shown with the failure: what the last look saw (the probe's own view of "not yet"). */
  seen?: () => unknown;
  /** An error the probe throws that means the effect will never come (a process that exited): fails at once. */
  stopOn?: (error: unknown) => boolean;
}

/** Thirty seconds: far past any effect's time on a loaded 2-core machine, inside every test's own timeout. */
export const DEFAULT_WAIT_MS = 30_000;

/** An effect that did not come within its deadline. */
export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

/**
 * Polls `probe` until it answers a value (not undefined, null or false) and returns it. A probe
 * that throws counts as "not yet" (a file half written, a row not committed); its last error is
 * in the failure's message. Fails after `timeoutMs` with "<what> never came".
 */
export async function waitFor<T>(what: string, probe: Probe<T>, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const intervalMs = options.intervalMs ?? 25;
  const started = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      if (options.stopOn?.(error)) throw error;
      lastError = error;
    }
    if (Date.now() - started >= timeoutMs) {
      const details: string[] = [];
      if (options.seen) details.push(`last seen: ${describe(options.seen())}`);
      if (lastError) details.push(`last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
      throw new WaitTimeout(
        `${what} never came (waited ${Math.round((Date.now() - started) / 100) / 10} s)${details.length ? `; ${details.join('; ')}` : ''}`,
        lastError ? { cause: lastError } : undefined,
      );
    }
    await pause(intervalMs); // Time is the subject: the pause between two looks of a poll.
  }
}

/**
 * Whether `condition` came to hold before the deadline: true at once when it does, false when the
 * deadline passes (for a wait whose running out is an outcome, not a failure: a slow run, a process
 * that needs the next signal).
 */
export async function heldWithin(
  what: string,
  condition: () => boolean | Promise<boolean>,
  options: WaitOptions = {},
): Promise<boolean> {
  try {
    await waitUntil(what, condition, options);
    return true;
  } catch (error) {
    if (error instanceof WaitTimeout) return false;
    throw error;
  }
}

/** waitFor for a condition: resolves once `condition` holds. */
export async function waitUntil(
  what: string,
  condition: () => boolean | Promise<boolean>,
  options: WaitOptions = {},
): Promise<void> {
  await waitFor(what, async () => (await condition()) || undefined, options);
}

function describe(value: unknown): string {
  try {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
}
