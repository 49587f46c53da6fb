import { generate, generateSecret } from 'otplib';
import type { AppDatabase } from '../../src/server/db/connection.ts';
import { newRecoveryCodes } from '../../src/server/modules/second-factor/recovery-codes.ts';
import { createSecondFactorRepository } from '../../src/server/modules/second-factor/second-factor.repository.ts';

/**
 * Admins' second factor in tests: an authenticator app enrolled the way the CLI does it (its secret
 * known to the test) and ten recovery codes, and the code for each sign-in, computed with otplib.
 *
 * The server accepts each 30-second step once (replay refusal) and one step either side of now, so
 * a test admin signs in with the current step's code, then the next step's, then with recovery codes,
 * never waiting for the clock.
 */
export interface TestSecondFactor {
  secret: string;
  recoveryCodes: string[];
  /** The newest step whose code this process has sent. */
  lastStep: number;
}

const enrolled = new Map<string, TestSecondFactor>();

export const currentStep = () => Math.floor(Date.now() / 30_000);

/** The authenticator code of a secret at a given step (default: now). */
export const totpAt = (secret: string, step = currentStep()) => generate({ secret, epoch: step * 30 });

/** Enrols an authenticator app and recovery codes for an admin, as `create-user --admin --totp-secret` does. */
export async function enrolTestTotp(db: AppDatabase, user: { id: string; email: string }): Promise<TestSecondFactor> {
  const secret = generateSecret();
  const repo = createSecondFactorRepository(db);
  await repo.replaceTotp({ userId: user.id, secret, label: 'Test' });
  const { codes, hashes } = newRecoveryCodes();
  await repo.replaceRecoveryCodes(user.id, hashes);
  const factor = { secret, recoveryCodes: codes, lastStep: 0 };
  enrolled.set(user.email, factor);
  return factor;
}

export const testSecondFactorOf = (email: string) => enrolled.get(email);

/** A code the server will take for this admin's next sign-in, or undefined for an account without one. */
export async function nextOtp(email: string): Promise<string | undefined> {
  const factor = enrolled.get(email);
  if (!factor) return undefined;
  const now = currentStep();
  const step = Math.max(now, factor.lastStep + 1);
  if (step <= now + 1) {
    factor.lastStep = step;
    return totpAt(factor.secret, step);
  }
  const code = factor.recoveryCodes.shift();
  if (!code) throw new Error(`${email} signed in too often in one minute for its test codes`);
  return code;
}
