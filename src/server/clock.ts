/**
 * The one clock the server's time-driven work reads (service-level warnings, the auto-close and
 * its nudge, the reports' "last 28 days"): `clock.now()`, never `new Date()` in that work. Tests
 * build the app with a clock they move (`movableClock`); the database's own `now()` stamps rows as
 * they are written and is not moved. See docs/decisions/108-service-levels.md.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface MovableClock extends Clock {
  /** Moves the clock on (or back, with a negative amount) by this many milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to an instant; it runs on from there at the real rate. */
  set(instant: Date): void;
}

/** A clock that runs at the real rate from `start` (now by default) and moves when told. */
export function movableClock(start: Date = new Date()): MovableClock {
  let offset = start.getTime() - Date.now();
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
    set(instant) {
      offset = instant.getTime() - Date.now();
    },
  };
}
