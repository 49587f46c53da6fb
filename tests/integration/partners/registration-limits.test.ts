import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { register, validCompany } from '../../helpers/registration.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '2' } });
});
afterAll(() => t.close());

describe('registrations per IP per hour (REGISTRATIONS_PER_IP_PER_HOUR)', () => {
  it('answers the next attempt from the same address with 429, a clear message and Retry-After', async () => {
    const ip = '203.0.113.7';
    expect((await register(t, validCompany(), undefined, { remoteAddress: ip })).statusCode).toBe(201);
    // A refused attempt counts too: the limit also blunts probing for registered names.
    expect((await register(t, { ...validCompany(), address: '' }, undefined, { remoteAddress: ip })).statusCode).toBe(
      400,
    );
    const input = validCompany();
    const limited = await register(t, input, undefined, { remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: { status: 'RESOURCE_EXHAUSTED', message: COMPANY_MESSAGES.tooManyRegistrations },
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);

    // Another address is unaffected; a spoofed X-Forwarded-For is no other address (no trusted proxy).
    expect((await register(t, input, undefined, { remoteAddress: '203.0.113.8' })).statusCode).toBe(201);
    const spoofed = await register(t, validCompany(), undefined, {
      remoteAddress: ip,
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(spoofed.statusCode).toBe(429);
  });
});
