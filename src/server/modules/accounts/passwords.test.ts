import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, ARGON2_TEST_OPTIONS, argon2Options, hashPassword, verifyPassword } from './passwords.ts';

describe('the argon2 cost', () => {
  it('is the policy (m=19456 KiB, t=2, p=1) unless both NODE_ENV and PASSWORD_HASHING say test', () => {
    expect(ARGON2_OPTIONS).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(argon2Options({})).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ NODE_ENV: 'production', PASSWORD_HASHING: 'test' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ NODE_ENV: 'development', PASSWORD_HASHING: 'test' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ PASSWORD_HASHING: 'test' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ NODE_ENV: 'test' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ NODE_ENV: 'test', PASSWORD_HASHING: 'fast' })).toBe(ARGON2_OPTIONS);
    expect(argon2Options({ NODE_ENV: 'test', PASSWORD_HASHING: 'test' })).toBe(ARGON2_TEST_OPTIONS);
  });

  it('at the tests’ cost is still argon2id with a salt, and a hash of either cost verifies', async () => {
    const cheap = await hashPassword('Harbour-kite-2049');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(cheap, 'Harbour-kite-2049')).toBe(true);
    expect(await verifyPassword(cheap, 'Harbour-kite-2050')).toBe(false);
  });
});
