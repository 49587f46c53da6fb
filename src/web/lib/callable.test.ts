import { describe, expect, it } from 'vitest';
import { NETWORK_FAILURE } from '../../contracts/endpoint.ts';
import { codeForHttpStatus } from '../../contracts/errors.ts';
import { CALLABLE_TIMEOUT_MS, DEADLINE_MESSAGE, sendOrSay } from './callable.ts';

const said = (message: string) => ({ said: message });

describe('sendOrSay', () => {
  it('gives a callable 70 seconds by default', () => {
    expect(CALLABLE_TIMEOUT_MS).toBe(70_000);
  });

  it('returns what the action answered', async () => {
    const answer = await sendOrSay(async () => ({ ticketId: 'x', ticketNo: 7 }), said, 1000);
    expect(answer).toEqual({ ticketId: 'x', ticketNo: 7 });
  });

  it('gives up with the deadline message when the server does not answer in time', async () => {
    const hang = () => new Promise<never>(() => {});
    expect(await sendOrSay(hang, said, 30)).toEqual({ said: DEADLINE_MESSAGE });
  });

  it('says the server could not be reached when the network fails', async () => {
    const down = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await sendOrSay(down, said)).toEqual({ said: NETWORK_FAILURE });
  });

  it('lets a redirect and an error the action raised go on', async () => {
    const redirect = new Response(null, { status: 302, headers: { location: '/support' } });
    await expect(
      sendOrSay(async () => {
        throw redirect;
      }, said),
    ).rejects.toBe(redirect);
    await expect(
      sendOrSay(async () => {
        throw new Error('Unexpected Server Error');
      }, said),
    ).rejects.toThrow('Unexpected Server Error');
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
