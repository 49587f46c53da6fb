import type { RetryErrorInfo, RetryStrategyV2, RetryToken } from '@aws-sdk/types';

/**
 * The AWS SDK counts retries in attempts; docs/product.md §9 counts them in time (operations retried
 * for up to 120 s, uploads for up to 600 s). This strategy retries throttling and transient failures
 * (connection refused or reset, timeouts, 500/502/503/504) with capped exponential backoff and full
 * jitter, and gives up once the next attempt would start after the deadline. Client errors (a
 * missing key, a denied request) are never retried.
 */
interface DeadlineToken extends RetryToken {
  startedAt: number;
}

export interface DeadlineRetryOptions {
  deadlineMs: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export class DeadlineRetryStrategy implements RetryStrategyV2 {
  readonly deadlineMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;

  constructor(options: DeadlineRetryOptions) {
    this.deadlineMs = options.deadlineMs;
    this.baseDelayMs = options.baseDelayMs ?? 200;
    this.maxDelayMs = options.maxDelayMs ?? 10_000;
  }

  async acquireInitialRetryToken(): Promise<RetryToken> {
    return token(0, 0, Date.now());
  }

  async refreshRetryTokenForRetry(previous: RetryToken, errorInfo: RetryErrorInfo): Promise<RetryToken> {
    if (errorInfo.errorType !== 'THROTTLING' && errorInfo.errorType !== 'TRANSIENT') {
      throw new Error(`not retryable (${errorInfo.errorType})`);
    }
    const { startedAt } = previous as DeadlineToken;
    const attempt = previous.getRetryCount();
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** attempt);
    let delay = Math.round(this.baseDelayMs / 2 + Math.random() * (ceiling - this.baseDelayMs / 2));
    if (errorInfo.retryAfterHint) delay = Math.max(delay, errorInfo.retryAfterHint.getTime() - Date.now());
    if (Date.now() + delay - startedAt > this.deadlineMs) {
      throw new Error(`retry deadline of ${this.deadlineMs} ms reached after ${attempt + 1} attempts`);
    }
    return token(attempt + 1, delay, startedAt);
  }

  recordSuccess(): void {}
}

function token(retryCount: number, delay: number, startedAt: number): DeadlineToken {
  return { startedAt, getRetryCount: () => retryCount, getRetryDelay: () => delay };
}
