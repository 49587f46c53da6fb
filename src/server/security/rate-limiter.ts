import { sql } from 'drizzle-orm';
import { type AppDatabase } from '../db/connection.ts';
import { queryRows } from '../db/sql.ts';
import { AppError } from '../errors.ts';

/**
 * Fixed-window counters kept in the database, so every app instance shares them (docs/design.md §6).
 * One statement both counts and decides, so concurrent requests cannot slip past the limit.
 */
export interface RateLimitRule {
  /** What is limited, e.g. `login:ip:203.0.113.9`. */
  key: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(rule: RateLimitRule): Promise<RateLimitResult>;
  /** Counts a hit and throws RESOURCE_EXHAUSTED (429, Retry-After) past the limit. */
  consume(rule: RateLimitRule, message: string): Promise<void>;
  /** Forgets a key (e.g. failed sign-ins after a success). */
  reset(key: string): Promise<void>;
  /** Reads a key without counting. */
  peek(rule: RateLimitRule): Promise<RateLimitResult>;
}

export function createRateLimiter(db: AppDatabase, options: { enabled: boolean }): RateLimiter {
  const result = (count: number, resetAt: Date, limit: number): RateLimitResult => ({
    allowed: count <= limit,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000)),
  });

  const limiter: RateLimiter = {
    async hit(rule) {
      if (!options.enabled) return { allowed: true, remaining: rule.limit, retryAfterSeconds: 0 };
      const resetAt = new Date(Date.now() + rule.windowMs);
      const rows = await queryRows<{ count: number; reset_at: string | Date }>(
        db,
        sql`
        insert into rate_limits (key, count, reset_at) values (${rule.key}, 1, ${resetAt.toISOString()})
        on conflict (key) do update set
          count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
          reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
        returning count, reset_at`,
      );
      const row = rows[0]!;
      return result(Number(row.count), new Date(row.reset_at), rule.limit);
    },

    async peek(rule) {
      if (!options.enabled) return { allowed: true, remaining: rule.limit, retryAfterSeconds: 0 };
      const [row] = await queryRows<{ count: number; reset_at: string | Date }>(
        db,
        sql`select count, reset_at from rate_limits where key = ${rule.key} and reset_at > now()`,
      );
      // "allowed" here means one more attempt may be made.
      if (!row) return { allowed: true, remaining: rule.limit, retryAfterSeconds: 0 };
      const r = result(Number(row.count), new Date(row.reset_at), rule.limit);
      return { ...r, allowed: Number(row.count) < rule.limit };
    },

    async consume(rule, message) {
      const r = await limiter.hit(rule);
      if (!r.allowed) {
        throw new AppError('RESOURCE_EXHAUSTED', message, { headers: { 'retry-after': String(r.retryAfterSeconds) } });
      }
    },

    async reset(key) {
      await db.execute(sql`delete from rate_limits where key = ${key}`);
    },
  };
  return limiter;
}
