import fs from 'node:fs';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { AUTH_MESSAGES } from '../../../contracts/auth.ts';
import { passwordHashingCost } from '../../config.ts';

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

/**
 * The test runs' cost: argon2id still, at 1 MiB and one pass (about 1 ms). Used only when
 * NODE_ENV=test and PASSWORD_HASHING=test are both set (vitest.config.ts sets them for its workers);
 * anywhere else, production included, the policy above holds whatever PASSWORD_HASHING says.
 * The tests of the policy itself (stored parameters, timing, the upgrade at sign-in) run without it.
 * docs/decisions/104-password-hashing-in-tests.md.
 */
export const ARGON2_TEST_OPTIONS = { ...ARGON2_OPTIONS, memoryCost: 1024, timeCost: 1 } as const;

/** The argon2 parameters new hashes get (config.ts reads the setting at each use). */
export function argon2Options(env?: Record<string, string | undefined>) {
  return passwordHashingCost(env) === 'test' ? ARGON2_TEST_OPTIONS : ARGON2_OPTIONS;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options());
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
  const options = argon2Options();
  return Number(match[1]) < options.memoryCost || Number(match[2]) < options.timeCost;
}

/** One dummy hash per cost, so the unknown email's verify costs what a real account's does. */
const dummyHashes = new Map<number, Promise<string>>();
/**
 * An unknown email still costs one argon2 verify, so its answer takes as long as a wrong password's
 * (AUTH-04: no account enumeration by timing).
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  const { memoryCost } = argon2Options();
  let dummy = dummyHashes.get(memoryCost);
  if (!dummy) {
    dummy = hashPassword('not a real password: timing equaliser');
    dummyHashes.set(memoryCost, dummy);
  }
  await verifyPassword(await dummy, password);
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
