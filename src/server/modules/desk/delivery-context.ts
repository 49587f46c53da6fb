import { randomBytes } from 'node:crypto';
import { signatureHeaders } from '../../security/standard-webhooks.ts';
import { type DeliveryCard, DeliveryContextSchema } from '../../../contracts/delivery-card.schemas.ts';
import type { Clock } from '../../clock.ts';

/**
 * What our app says about a delivery, for the card on a ticket (docs/decisions/151-delivery-card.md;
 * the exchange is documented in docs/integrations.md). One POST of
 * `{ deliveryReference, ticketId }` as JSON, signed the Standard Webhooks way (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed
 * with the secret's decoded bytes), so the app can tell the request is ours and fresh.
 *
 * The answer is kept in this process's memory for 60 s per reference (on the server's clock), then
 * dropped; nothing of it is written to the database or to disk. A failure (no answer in 2 s, an
 * error status, an answer of another shape) is kept for 10 s only: long enough that a team opening
 * the same ticket does not wait 2 s each, short enough that "Try again in a minute" is true.
 */

export const DELIVERY_TIMEOUT_MS = 2_000;
export const DELIVERY_CACHE_MS = 60_000;
export const DELIVERY_FAILURE_CACHE_MS = 10_000;
/** An answer larger than this is not a delivery card: it is read no further. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** A bound on memory whatever happens: beyond it the oldest reference is dropped first. */
const MAX_KEPT = 1_000;

export type DeliveryLookup = Extract<DeliveryCard, { state: 'found' | 'unknown' | 'unavailable' }>;

/** Why a lookup failed, for the server's log (never shown: the card says only that it could not load). */
export type DeliveryFailure = 'timeout' | 'unreachable' | 'status' | 'malformed';

export interface DeliveryContextOptions {
  /** DELIVERY_CONTEXT_URL: where the POST goes. */
  url: string;
  /** DELIVERY_CONTEXT_SECRET's bytes (the base64 after `whsec_`, decoded). */
  secret: Buffer;
  clock: Clock;
  /** Told of every failed lookup, for the log. */
  onFailure?: (reference: string, failure: DeliveryFailure, detail: string) => void;
  timeoutMs?: number;
}

interface Kept {
  until: number;
  answer: Promise<DeliveryLookup>;
}

export function createDeliveryContext(options: DeliveryContextOptions) {
  const { clock } = options;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const kept = new Map<string, Kept>();

  /** Drops what has run out on the server's clock: nothing is kept past its time once anyone looks again. */
  const sweep = (now: number) => {
    for (const [reference, entry] of kept) if (entry.until <= now) kept.delete(reference);
  };

  async function ask(reference: string, ticketId: string): Promise<DeliveryLookup> {
    const failed = (failure: DeliveryFailure, detail: string): DeliveryLookup => {
      options.onFailure?.(reference, failure, detail);
      return { state: 'unavailable', reference };
    };
    const body = JSON.stringify({ deliveryReference: reference, ticketId });
    const id = `msg_${randomBytes(16).toString('hex')}`;
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    // One deadline for the whole exchange, the answer's body included.
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...signatureHeaders(options.secret, id, timestamp, body),
        },
        body,
        signal,
        redirect: 'error',
      });
    } catch (error) {
      return isTimeout(error) ? failed('timeout', 'no answer in time') : failed('unreachable', String(error));
    }
    try {
      if (response.status === 404) {
        await response.body?.cancel();
        return { state: 'unknown', reference };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        return failed('status', `HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_ANSWER_BYTES) {
        await response.body?.cancel();
        return failed('malformed', `an answer of ${declared} bytes`);
      }
      const text = await response.text();
      if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) return failed('malformed', 'an answer too large');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return failed('malformed', 'not JSON');
      }
      const parsed = DeliveryContextSchema.safeParse(json);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        return failed('malformed', `${first?.path.join('.') ?? ''}: ${first?.message ?? 'not the documented shape'}`);
      }
      return { state: 'found', reference, delivery: parsed.data };
    } catch (error) {
      // The body did not arrive in time, or broke off.
      return isTimeout(error)
        ? failed('timeout', 'the answer did not arrive in time')
        : failed('unreachable', String(error));
    }
  }

  return {
    /**
     * The delivery with this reference, from memory when the app answered about it in the last
     * 60 s (10 s after a failure); asked once at a time per reference, however many pages want it.
     */
    async lookUp(reference: string, ticketId: string): Promise<DeliveryLookup> {
      const now = clock.now().getTime();
      sweep(now);
      const found = kept.get(reference);
      if (found) return found.answer;
      const entry: Kept = { until: Number.POSITIVE_INFINITY, answer: ask(reference, ticketId) };
      kept.set(reference, entry);
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
      const answer = await entry.answer;
      const keepMs = answer.state === 'unavailable' ? DELIVERY_FAILURE_CACHE_MS : DELIVERY_CACHE_MS;
      entry.until = clock.now().getTime() + keepMs;
      // Dropped when its time is up even if nobody looks again (the sweep above covers a clock
      // moved on faster than real time, as the tests move it).
      setTimeout(() => {
        if (kept.get(reference) === entry) kept.delete(reference);
      }, keepMs).unref();
      return answer;
    },
    /** How many references are held now (tests: nothing is kept past its time). */
    keptCount(): number {
      sweep(clock.now().getTime());
      return kept.size;
    },
  };
}

export type DeliveryContext = ReturnType<typeof createDeliveryContext>;

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}
