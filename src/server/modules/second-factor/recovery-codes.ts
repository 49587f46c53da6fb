import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../contracts/second-factor.ts';
import { hashToken } from '../../security/tokens.ts';

/**
 * Recovery codes: 8 random bytes each (64 bits) from the CSPRNG, shown once as xxxx-xxxx-xxxx-xxxx;
 * only the SHA-256 of the normalised code is stored. 64 random bits make a slow hash unnecessary:
 * guessing one of ten is 2^61 tries, and every try passes the code throttle.
 */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    randomBytes(8)
      .toString('hex')
      .replace(/(.{4})(?!$)/g, '$1-'),
  );
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/** Spaces, dashes and case do not matter when a person types it back. */
export function hashRecoveryCode(code: string): string {
  return hashToken(code.replace(/[\s-]/g, '').toLowerCase());
}

export const isRecoveryCodeShaped = (code: string) => /^[0-9a-f]{16}$/.test(code.replace(/[\s-]/g, '').toLowerCase());
