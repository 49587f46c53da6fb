import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { waitUntil } from '../helpers/wait.ts';

/**
 * Admins' one-time codes in browser tests (docs/product.md §2.15). The e2e admin enrols its
 * authenticator app through the API in global-setup.ts (the way a first console visit does) and
 * leaves its secret and recovery codes in E2E_DATA_DIR; other admins a spec makes register their
 * secret here. The server takes each 30-second step's code once (and one step either side of now),
 * so the parallel workers claim a step, or else a recovery code, with an exclusive file: no two
 * sign-ins send the same code, and none waits for the clock.
 */
export interface AdminFactor {
  secret: string;
  recoveryCodes: string[];
  /** The step the enrolment itself used (its code is spent). */
  enrolledStep: number;
  /** A session that passed the factor, for API clients (Authorization: Bearer). */
  token?: string;
}

const dataDir = () => process.env.E2E_DATA_DIR!;
export const adminFactorFile = () => path.join(dataDir(), 'e2e-admin-factor.json');
const registered = new Map<string, AdminFactor>();

export const currentStep = () => Math.floor(Date.now() / 30_000);
export const totpAt = (secret: string, step = currentStep()) => generate({ secret, epoch: step * 30 });

/**
 * Admins global-setup.ts makes (the CLI, then enrolment through the API, like the e2e admin) for the
 * specs that sign an admin in through the browser again and again: each has codes of its own (a
 * 30-second step, and ten recovery codes), so one spec's sign-ins do not spend another's.
 */
export const TEAM_ADMINS = [
  'console',
  'integrations',
  'claims',
  'desk',
  'xss',
  'files',
  'layout',
  'hours',
  'due',
  'reports',
  'partners-due',
  'partner-status',
  'licence-expiry',
  'partner-onboarding',
  'merge',
  'narrow',
  'stale-a',
  'stale-b',
  'labels',
  'presence-a',
  'presence-b',
  'bulk',
  'bulk-js',
  'bulk-no-js',
  'macros-js',
  'macros-no-js',
  'keyboard',
  'arrival',
  // Made admins, then given one role each by roles.spec.ts (docs/decisions/147-roles-and-permissions.md).
  'role-lead',
  'role-agent',
  'role-auditor',
  'sso',
  // The delivery card (docs/decisions/151-delivery-card.md).
  'delivery',
  // A console page's form loads its schema when used (docs/decisions/159-console-pages-in-the-budget.md).
  'schemas',
] as const;
export const teamAdminsFile = () => path.join(dataDir(), 'e2e-team-admins.json');
type TeamAdmin = AdminFactor & { email: string; password: string };

/** One of the team admins; read when first used (specs are loaded before global-setup runs). */
export function teamAdmin(name: (typeof TEAM_ADMINS)[number]): { readonly email: string; readonly password: string } {
  let admin: TeamAdmin | undefined;
  const load = (): TeamAdmin => {
    if (!admin) {
      admin = (JSON.parse(fs.readFileSync(teamAdminsFile(), 'utf8')) as Record<string, TeamAdmin>)[name]!;
      registered.set(admin.email.toLowerCase(), admin);
    }
    return admin;
  };
  return {
    get email() {
      return load().email;
    },
    get password() {
      return load().password;
    },
  };
}

/** An admin a spec made with `create-user --admin --totp-secret`. */
export function registerAdminSecret(email: string, secret: string) {
  registered.set(email.toLowerCase(), { secret, recoveryCodes: [], enrolledStep: 0 });
}

export function factorOf(email: string): AdminFactor | undefined {
  const key = email.toLowerCase();
  if (registered.has(key)) return registered.get(key);
  if (key === process.env.E2E_ADMIN_EMAIL?.toLowerCase() && fs.existsSync(adminFactorFile())) {
    return JSON.parse(fs.readFileSync(adminFactorFile(), 'utf8')) as AdminFactor;
  }
  return undefined;
}

/** True once: the first caller (of every worker) to claim `name` for this admin. */
function claim(email: string, name: string): boolean {
  try {
    fs.writeFileSync(path.join(dataDir(), `otp-claim-${email.toLowerCase()}-${name}`), '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A code the server will accept for this admin's next sign-in; undefined for an account without a
 * factor. When this minute's codes and the recovery codes are all spent, it waits for the next step.
 */
async function adminOtp(email: string): Promise<string | undefined> {
  const factor = factorOf(email);
  if (!factor) return undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = currentStep();
    for (const step of [now, now + 1]) {
      if (step > factor.enrolledStep && claim(email, `step-${step}`)) return totpAt(factor.secret, step);
    }
    for (const [index, code] of factor.recoveryCodes.entries()) {
      if (claim(email, `recovery-${index}`)) return code;
    }
    // Step now + 2 becomes acceptable when the clock reaches now + 1.
    // Time is the subject: the authenticator's next 30-second step is a time on the clock, not an effect.
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * 30_000 - Date.now() + 50));
  }
  throw new Error(`${email}: every code of this minute and every recovery code is spent`);
}

/**
 * Runs `send` with a code for this admin's sign-in while no other worker signs the same admin in,
 * and releases the admin when `send` has the server's answer. The server takes steps only forward
 * (a code's step must be later than the last one used), so two workers holding this step's and the
 * next step's codes must not race: if the later one arrives first, the earlier is refused. An
 * account without a factor gets `undefined` and no wait.
 */
export async function withAdminOtp<T>(email: string, send: (otp: string | undefined) => Promise<T>): Promise<T> {
  if (!factorOf(email)) return send(undefined);
  const lock = path.join(dataDir(), `otp-signing-in-${email.toLowerCase()}`);
  await waitUntil(
    `${email}: a turn to sign in (another worker's sign-in held this admin)`,
    () => {
      try {
        fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
        return true;
      } catch {
        // A worker that died holding the lock leaves it behind: older than any sign-in takes, it is free.
        const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > 45_000) fs.rmSync(lock, { force: true });
        return false;
      }
    },
    { timeoutMs: 90_000 },
  );
  try {
    return await send(await adminOtp(email));
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/**
 * An authenticator app's key on screen (the enrolment screen, or Sign-in security's "add" step):
 * types the code for the secret the page shows and waits for the ten recovery codes.
 */
export async function confirmAuthenticatorApp(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  const secretText = page.getByTestId('totp-secret');
  await expect(secretText).toBeVisible();
  const secret = (await secretText.innerText()).replace(/\s/g, '');
  await page.getByLabel('Code from the app').fill(await totpAt(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  return { secret, recoveryCodes: await codes.allInnerTexts() };
}

/**
 * A newly made admin's first console visit: the enrolment screen in place of the console. Sets up
 * the app, keeps the recovery codes, opens the console (at /admin).
 */
export async function enrolOnConsole(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrolled = await confirmAuthenticatorApp(page);
  await page.getByRole('link', { name: 'I have saved them: open the console' }).click();
  return enrolled;
}
