import fs from 'node:fs';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { AUTH_MESSAGES } from '../../../contracts/auth.ts';

/**
 * Password hashing and the password rules the browser cannot check (AUTH-01, AUTH-02).
 * argon2id with the OWASP minimum (m=19456 KiB, t=2, p=1): about 20 ms a hash on this hardware;
 * docs/decisions/043-password-hashing.md says why.
 */
export const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum in the package's types)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash never matches (and never crashes a sign-in).
    return false;
  }
}

/** True when a stored hash is weaker than today's policy, so it is replaced at the next sign-in. */
export function needsRehash(passwordHash: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  if (!match) return true;
  return Number(match[1]) < ARGON2_OPTIONS.memoryCost || Number(match[2]) < ARGON2_OPTIONS.timeCost;
}

let dummyHash: Promise<string> | undefined;
/**
 * An unknown email still costs one argon2 verify, so its answer takes as long as a wrong password's
 * (AUTH-04: no account enumeration by timing).
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not a real password: timing equaliser');
  await verifyPassword(await dummyHash, password);
}

const SUFFIXES = [
  '',
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '123456',
  '!',
  '1!',
  '123!',
  '@123',
  '#1',
  '01',
  '11',
  '22',
  '69',
  '77',
  '88',
  '99',
  '007',
  '00',
  '2000',
  '2010',
  '2015',
  '2018',
  '2019',
  '2020',
  '2021',
  '2022',
  '2023',
  '2024',
  '2025',
  '2026',
  '2027',
];

function loadCommonPasswords(): Set<string> {
  const file = new URL('./common-passwords.txt', import.meta.url);
  const set = new Set<string>();
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim().toLowerCase();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('base:')) {
      const base = line.slice('base:'.length);
      for (const suffix of SUFFIXES) {
        set.add(base + suffix);
        set.add(base + base + suffix);
      }
    } else {
      set.add(line);
    }
  }
  return set;
}

let common: Set<string> | undefined;
export function isCommonPassword(password: string): boolean {
  common ??= loadCommonPasswords();
  return common.has(password.toLowerCase());
}

/** How many distinct passwords are refused as common (reported in the docs and tests). */
export function commonPasswordCount(): number {
  common ??= loadCommonPasswords();
  return common.size;
}

/** The server-side rules for a password being chosen; the length rules are in the contract schema. */
export function findPasswordProblem(password: string, email: string): string | null {
  if (isCommonPassword(password)) return AUTH_MESSAGES.passwordTooCommon;
  if (password.trim().toLowerCase() === email.toLowerCase()) return AUTH_MESSAGES.passwordIsEmail;
  return null;
}
