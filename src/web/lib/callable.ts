import { codeForHttpStatus, type ErrorCode } from '../../contracts/errors.ts';
import { NETWORK_FAILURE, requestJson } from './api-client.ts';

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
  const answer = await requestJson<{ result?: TResult }>(
    'POST',
    `/api/functions/${name}`,
    { data },
    { signal: controller.signal, fetchImpl: options.fetchImpl },
  ).finally(() => clearTimeout(timer));
  if (answer.ok && answer.data && 'result' in answer.data) return answer.data.result as TResult;
  if (answer.status === 0) {
    if (controller.signal.aborted)
      throw new CallableError('DEADLINE_EXCEEDED', 'The request took too long. Please try again.');
    throw new CallableError('INTERNAL', NETWORK_FAILURE);
  }
  if (answer.ok || !answer.fromServer) {
    throw new CallableError(
      codeForHttpStatus(answer.ok ? 500 : answer.status),
      'Something went wrong. Please try again.',
    );
  }
  throw new CallableError(
    codeForHttpStatus(answer.status),
    answer.message,
    Object.keys(answer.fields).length > 0 ? answer.fields : undefined,
  );
}
