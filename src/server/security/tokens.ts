import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque secrets (SES-01, AUTH-07): 32 bytes from the CSPRNG, base64url (43 characters), with no
 * user data inside. Only their SHA-256 (hex) is ever stored (SES-02).
 */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const isTokenShaped = (value: string) => TOKEN_SHAPE.test(value);
