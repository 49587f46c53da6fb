import type { NzbnLookupError } from '../../../contracts/companies.ts';

/**
 * The one call this app makes to MBIE's NZBN API v5 (docs/decisions/114-nzbn-lookup.md):
 * GET {base}/entities/{nzbn} with the subscription key in `Ocp-Apim-Subscription-Key`. A 200 answer
 * is the entity (`nzbn`, `entityName`, `entityStatusCode`, `entityStatusDescription`, and much we do
 * not read); 404 means no entity has the number.
 */
export interface NzbnRegisterOptions {
  /** NZBN_API_URL, without a trailing slash. */
  baseUrl: string;
  /** NZBN_API_KEY: a secret, sent only in the header and never logged. */
  apiKey: string;
  /** NZBN_LOOKUP_TIMEOUT_MS: the whole call, answer body included. */
  timeoutMs: number;
}

export type NzbnRegisterAnswer =
  | { kind: 'found'; registeredName: string; status: string }
  | { kind: 'not-found' }
  // Every failure is worth another try later, the key's refusal included (the key may be fixed).
  | { kind: 'failed'; error: NzbnLookupError; httpStatus?: number };

export async function lookUpNzbn(options: NzbnRegisterOptions, nzbn: string): Promise<NzbnRegisterAnswer> {
  let response: Response;
  try {
    response = await fetch(`${options.baseUrl}/entities/${encodeURIComponent(nzbn)}`, {
      headers: { 'Ocp-Apim-Subscription-Key': options.apiKey, Accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    return { kind: 'failed', error: isTimeout(error) ? 'timeout' : 'unavailable' };
  }
  const httpStatus = response.status;
  try {
    if (httpStatus === 404) {
      await response.body?.cancel();
      return { kind: 'not-found' };
    }
    if (httpStatus === 401 || httpStatus === 403) {
      await response.body?.cancel();
      return { kind: 'failed', error: 'refused', httpStatus };
    }
    if (httpStatus !== 200) {
      await response.body?.cancel();
      return {
        kind: 'failed',
        error: httpStatus === 429 || httpStatus >= 500 ? 'unavailable' : 'unreadable',
        httpStatus,
      };
    }
    const entity = (await response.json()) as Record<string, unknown>;
    const name = entity.entityName;
    const status = entity.entityStatusDescription ?? entity.entityStatusCode;
    if (typeof name !== 'string' || name.trim() === '' || typeof status !== 'string' || status.trim() === '') {
      return { kind: 'failed', error: 'unreadable', httpStatus };
    }
    return { kind: 'found', registeredName: name.trim(), status: status.trim() };
  } catch (error) {
    // The body did not arrive in time, or was not JSON.
    return { kind: 'failed', error: isTimeout(error) ? 'timeout' : 'unreadable', httpStatus };
  }
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}
