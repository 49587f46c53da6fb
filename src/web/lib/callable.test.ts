import { describe, expect, it } from 'vitest';
import { codeForHttpStatus } from '../../contracts/errors.ts';
import { CALLABLE_TIMEOUT_MS, callFunction, CallableError } from './callable.ts';

const respond = (status: number, body: unknown): typeof fetch =>
  (async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as typeof fetch;

describe('callFunction', () => {
  it('gives a callable 70 seconds by default', () => {
    expect(CALLABLE_TIMEOUT_MS).toBe(70_000);
  });

  it('returns the result of a successful call', async () => {
    const result = await callFunction(
      'createSupportTicket',
      {},
      { fetchImpl: respond(200, { result: { ticketId: 'x', ticketNo: 7 } }) },
    );
    expect(result).toEqual({ ticketId: 'x', ticketNo: 7 });
  });

  it('gives up with deadline-exceeded when the server does not answer in time', async () => {
    const hang: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const error = await callFunction('createSupportTicket', {}, { fetchImpl: hang, timeoutMs: 30 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CallableError);
    expect((error as CallableError).code).toBe('DEADLINE_EXCEEDED');
  });

  it('maps a network failure to internal with a readable message', async () => {
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const error = (await callFunction('f', {}, { fetchImpl: down }).catch((e: unknown) => e)) as CallableError;
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toMatch(/connection/);
  });

  it('carries the server message and maps the HTTP status to a code', async () => {
    const error = (await callFunction(
      'f',
      {},
      { fetchImpl: respond(429, { error: { status: 'RESOURCE_EXHAUSTED', message: 'Slow down' } }) },
    ).catch((e: unknown) => e)) as CallableError;
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    expect(error.message).toBe('Slow down');
  });
});

describe('codeForHttpStatus (docs/product.md §8)', () => {
  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [409, 'ABORTED'],
    [429, 'RESOURCE_EXHAUSTED'],
    [499, 'CANCELLED'],
    [500, 'INTERNAL'],
    [501, 'UNIMPLEMENTED'],
    [503, 'UNAVAILABLE'],
    [504, 'DEADLINE_EXCEEDED'],
    [502, 'INTERNAL'],
  ])('%i → %s', (status, code) => {
    expect(codeForHttpStatus(status)).toBe(code);
  });
});
