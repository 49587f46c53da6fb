import { codeForHttpStatus, type ErrorCode } from '../../contracts/errors.ts';

/**
 * Calls a callable function the way the original client did (docs/product.md §7): a POST with a `data`
 * wrapper; 70 seconds before it gives up with deadline-exceeded; HTTP statuses mapped to codes
 * (docs/product.md §8). Failures throw CallableError with a message a person can read.
 */
export const CALLABLE_TIMEOUT_MS = 70_000;

export class CallableError extends Error {
  override name = 'CallableError';
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.code = code;
    this.fields = fields;
  }
}

export async function callFunction<TResult>(
  name: string,
  data: unknown,
  options: { timeoutMs?: number; fetchImpl?: typeof fetch } = {},
): Promise<TResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? CALLABLE_TIMEOUT_MS);
  let res: Response;
  try {
    res = await (options.fetchImpl ?? fetch)(`/api/functions/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ data }),
      signal: controller.signal,
    });
  } catch {
    if (controller.signal.aborted)
      throw new CallableError('DEADLINE_EXCEEDED', 'The request took too long. Please try again.');
    throw new CallableError('INTERNAL', 'We could not reach the server. Check your connection and try again.');
  } finally {
    clearTimeout(timer);
  }
  const body = (await res.json().catch(() => null)) as {
    result?: TResult;
    error?: { message?: string; fields?: Record<string, string> };
  } | null;
  if (res.ok && body && 'result' in body) return body.result as TResult;
  const code = codeForHttpStatus(res.ok ? 500 : res.status);
  const message = body?.error?.message ?? 'Something went wrong. Please try again.';
  throw new CallableError(code, message, body?.error?.fields);
}
