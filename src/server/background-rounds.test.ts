import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffSeconds, checkingWorker, createBackgroundRounds, walkPages } from './background-rounds.ts';

/** A round that waits until the test lets it end, and counts how many began. */
function gatedRound() {
  let began = 0;
  let release: () => void = () => {};
  let beganNext: () => void = () => {};
  let nextBegins = new Promise<void>((resolve) => (beganNext = resolve));
  return {
    get began() {
      return began;
    },
    /** Resolves when the next round begins. */
    nextBegins: () => nextBegins,
    round: () =>
      new Promise<void>((resolve) => {
        began++;
        release = resolve;
        const signal = beganNext;
        nextBegins = new Promise<void>((r) => (beganNext = r));
        signal();
      }),
    end: () => release(),
  };
}

describe('background rounds', () => {
  it('runs a round when asked, and a call during a round makes it go exactly once more', async () => {
    const gate = gatedRound();
    const rounds = createBackgroundRounds(60_000, gate.round);
    const first = rounds.run();
    expect(gate.began).toBe(1);
    // Two calls while it runs: one more round, not two, and both callers wait for it.
    const second = rounds.run();
    const third = rounds.run();
    const secondBegins = gate.nextBegins();
    gate.end();
    await secondBegins;
    expect(gate.began).toBe(2);
    gate.end();
    await Promise.all([first, second, third]);
    expect(gate.began).toBe(2);
  });

  it('a call at any moment as a round ends gets a round that began after the call', async () => {
    // The moment the last round's loop has ended but its promise has not yet settled is a few
    // microtasks wide: a call there once joined the round that had ended, and no round read the
    // work it came for (a mail stored just before was left for the next poll).
    for (let ticks = 0; ticks < 8; ticks++) {
      const gate = gatedRound();
      const rounds = createBackgroundRounds(60_000, gate.round);
      const first = rounds.run();
      gate.end();
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      const began = gate.began;
      let settled = false;
      const second = rounds.run();
      void Promise.all([first, second]).then(() => (settled = true));
      // Every round that begins is let end, until both callers have their answer.
      while (!settled) {
        gate.end();
        await nextTurn();
      }
      expect(gate.began, `a call ${ticks} microtasks after the round ended`).toBeGreaterThan(began);
    }
  });

  it('wakes only once started, polls after each round, and stop waits for the round in progress', async () => {
    let ended = 0;
    const gate = gatedRound();
    const rounds = createBackgroundRounds(1, async () => {
      await gate.round();
      ended++;
    });
    rounds.wake();
    expect(gate.began).toBe(0);
    const polled = gate.nextBegins();
    rounds.start();
    await polled; // the poll started a round without being asked
    expect(gate.began).toBe(1);
    const stopping = rounds.stop();
    expect(rounds.stopped).toBe(true);
    let stoppedYet = false;
    void stopping.then(() => (stoppedYet = true));
    await Promise.resolve();
    expect(stoppedYet).toBe(false);
    gate.end();
    await stopping;
    expect(ended).toBe(1);
    rounds.wake();
    expect(gate.began).toBe(1);
  });
});

describe('a checking worker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes its first check a second after start, not at once (a restart serves first), and none after stop', async () => {
    vi.useFakeTimers();
    let checks = 0;
    const worker = checkingWorker(
      createBackgroundRounds(60 * 60_000, async () => {
        checks++;
      }),
      {},
    );
    worker.start();
    await vi.advanceTimersByTimeAsync(900);
    expect(checks).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(checks).toBe(1);
    await worker.stop();

    const stopped = checkingWorker(
      createBackgroundRounds(60 * 60_000, async () => {
        checks++;
      }),
      {},
    );
    stopped.start();
    await stopped.stop();
    await vi.advanceTimersByTimeAsync(2000);
    expect(checks).toBe(1);
  });
});

describe('backoffSeconds', () => {
  it('doubles from the first wait, stays within ±20 %, and never passes an hour', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => backoffSeconds(n, 30, middle))).toEqual([30, 60, 120, 240, 480]);
    expect(backoffSeconds(20, 30, middle)).toBe(3600);
    expect(backoffSeconds(1, 30, () => 0)).toBe(24);
    expect(backoffSeconds(1, 30, () => 0.999999)).toBe(36);
    expect(backoffSeconds(1, 1, () => 0)).toBe(1);
  });
});

describe('walking pages of work', () => {
  const work = Array.from({ length: 7 }, (_, i) => i + 1);
  const page = async (after: number, limit: number) => work.filter((k) => k > after).slice(0, limit);

  it('handles every key once across pages, and a failing item leaves the others done', async () => {
    const done: number[] = [];
    const failed: number[] = [];
    await walkPages(
      { stopped: false },
      {
        first: 0,
        page,
        item: async (key) => {
          if (key === 3) throw new Error('no mail server');
          done.push(key);
        },
        failed: (_error, key) => failed.push(key),
      },
      3,
    );
    expect(done).toEqual([1, 2, 4, 5, 6, 7]);
    expect(failed).toEqual([3]);
  });

  it('stops between items once its rounds are stopped', async () => {
    const rounds = { stopped: false };
    const done: number[] = [];
    await walkPages(
      rounds,
      {
        first: 0,
        page,
        item: async (key) => {
          done.push(key);
          if (key === 4) rounds.stopped = true;
        },
        failed: () => {},
      },
      3,
    );
    expect(done).toEqual([1, 2, 3, 4]);
  });
});
