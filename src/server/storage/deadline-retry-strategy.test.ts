import { describe, expect, it } from 'vitest';
import { DeadlineRetryStrategy } from './deadline-retry-strategy.ts';

describe('DeadlineRetryStrategy', () => {
  it('retries throttling and transient errors with growing, capped delays', async () => {
    const strategy = new DeadlineRetryStrategy({ deadlineMs: 600_000, baseDelayMs: 100, maxDelayMs: 1000 });
    let token = await strategy.acquireInitialRetryToken();
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      token = await strategy.refreshRetryTokenForRetry(token, { errorType: i % 2 ? 'THROTTLING' : 'TRANSIENT' });
      delays.push(token.getRetryDelay());
    }
    expect(token.getRetryCount()).toBe(12);
    for (const [i, delay] of delays.entries()) {
      expect(delay).toBeGreaterThanOrEqual(50);
      expect(delay).toBeLessThanOrEqual(Math.min(1000, 100 * 2 ** i));
    }
  });

  it('never retries client errors or errors it cannot classify as temporary', async () => {
    const strategy = new DeadlineRetryStrategy({ deadlineMs: 600_000 });
    const token = await strategy.acquireInitialRetryToken();
    await expect(strategy.refreshRetryTokenForRetry(token, { errorType: 'CLIENT_ERROR' })).rejects.toThrow(
      /not retryable/,
    );
    await expect(strategy.refreshRetryTokenForRetry(token, { errorType: 'SERVER_ERROR' })).rejects.toThrow(
      /not retryable/,
    );
  });

  it('stops when the next attempt would start after the deadline, and honours Retry-After within it', async () => {
    const strategy = new DeadlineRetryStrategy({ deadlineMs: 5_000, baseDelayMs: 100 });
    const token = await strategy.acquireInitialRetryToken();
    const hinted = await strategy.refreshRetryTokenForRetry(token, {
      errorType: 'THROTTLING',
      retryAfterHint: new Date(Date.now() + 3_000),
    });
    expect(hinted.getRetryDelay()).toBeGreaterThan(2_900);
    await expect(
      strategy.refreshRetryTokenForRetry(token, {
        errorType: 'THROTTLING',
        retryAfterHint: new Date(Date.now() + 6_000),
      }),
    ).rejects.toThrow(/deadline/);
  });
});
