import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { createAccountAdmin } from '../../src/server/modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { createUser, signIn, withCookie } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  BASE_SEED,
  defineFuzzSuite,
  FUZZ_ENV,
  type FuzzContext,
  newStats,
  RUNS_PER_OPERATION,
} from './fuzz-harness.ts';
import { type Account } from './fuzz-operations.ts';

/**
 * IN-01/IN-02/IN-05/IN-07, LOG-04: the public and account operations (content, registration,
 * sign-in, sign-up, verification, password reset and change) under generated input.
 */

let t: TestApp;
let ctx: FuzzContext;
const stats = newStats();

/** Verification and reset tokens from the mail the app wrote, with whom each was sent to. */
function mailTokens(dataDir: string, owners: Map<string, string>, seen: Map<string, Array<[string, string]>>) {
  const dir = path.join(dataDir, 'outbox');
  const found: Array<[string, string]> = [];
  if (!fs.existsSync(dir)) return found;
  for (const file of fs.readdirSync(dir)) {
    let tokens = seen.get(file);
    if (!tokens) {
      const raw = fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/gi, '=');
      const to = /^To: .*?<?([^\s<>]+@[^\s<>]+)>?\s*$/im.exec(raw)?.[1]?.toLowerCase() ?? '';
      tokens = [...raw.matchAll(/(verify-email|reset-password|confirm-email)\?token=([A-Za-z0-9_-]{43})/g)].map(
        (m) => [m[1]!, m[2]!] as [string, string],
      );
      for (const [, token] of tokens) owners.set(token, to);
      seen.set(file, tokens);
    }
    found.push(...tokens);
  }
  return found;
}

beforeAll(async () => {
  t = await createTestApp({ env: FUZZ_ENV, mailWorker: false });
  const admin = createAccountAdmin(createAccountsRepository(t.database.db));
  const user = await createUser(t);
  const passwordUser = await createUser(t);
  const verified = await createUser(t);
  const unverified = await createUser(t, { verified: false });
  const disabled = await createUser(t);
  await admin.disableUser({ email: disabled.email });
  const accounts: Account[] = [verified, unverified, disabled].map((u) => ({ email: u.email, password: u.password }));
  const tokenOwners = new Map<string, string>();
  const seenMail = new Map<string, Array<[string, string]>>();
  const companies = async () =>
    (await t.database.db.execute(
      sql`select company_name, phone_number, contact_person_email from companies`,
    )) as unknown as {
      rows: Array<{ company_name: string; phone_number: string; contact_person_email: string | null }>;
    };
  const fullWidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  ctx = {
    t,
    principals: {
      anonymous: { name: 'anonymous', headers: {} },
      user: { name: 'user', headers: withCookie(t, await signIn(t, user.email, user.password)), userId: user.id },
      passwordUser: {
        name: 'passwordUser',
        headers: withCookie(t, await signIn(t, passwordUser.email, passwordUser.password)),
        userId: passwordUser.id,
      },
    },
    state: { accounts, tokenOwners, currentPassword: passwordUser.password },
    pools: {
      accountEmail: () => accounts.map((a) => a.email),
      accountEmailUpper: () => accounts.map((a) => ` ${a.email.toUpperCase()} `),
      accountPassword: () => accounts.map((a) => a.password),
      currentPassword: () => [ctx.state.currentPassword],
      verifyToken: () =>
        mailTokens(t.dataDir, tokenOwners, seenMail)
          .filter(([kind]) => kind === 'verify-email')
          .map(([, token]) => token),
      resetToken: () =>
        mailTokens(t.dataDir, tokenOwners, seenMail)
          .filter(([kind]) => kind === 'reset-password')
          .map(([, token]) => token),
      changeEmailToken: () =>
        mailTokens(t.dataDir, tokenOwners, seenMail)
          .filter(([kind]) => kind === 'confirm-email')
          .map(([, token]) => token),
      // The ids the sessions list gives the fuzz's own principals.
      ownSessionId: async () => {
        const listed = await t.app.inject({
          method: 'GET',
          url: '/api/account/sessions',
          headers: ctx.principals.user!.headers,
        });
        return (listed.json() as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id);
      },
      // Another spelling of a live registration: each must be refused as a duplicate (IN-02).
      companyNameVariant: async () =>
        (await companies()).rows.flatMap((r) => [
          r.company_name.toUpperCase(),
          ` ${r.company_name.replace(/ /g, '   ')} `,
          fullWidth(r.company_name),
        ]),
      companyPhoneVariant: async () =>
        (await companies()).rows.flatMap((r) => {
          const digits = r.phone_number.replace(/\D/g, '');
          return digits.startsWith('0') ? [`64${digits.slice(1)}`, `0064${digits.slice(1)}`, digits] : [digits];
        }),
      companyEmailVariant: async () =>
        (await companies()).rows.flatMap((r) =>
          r.contact_person_email ? [r.contact_person_email.toUpperCase(), ` ${r.contact_person_email} `] : [],
        ),
    },
  };
  console.log(`[fuzz public] seed ${BASE_SEED}, ${RUNS_PER_OPERATION} runs per operation and principal`);
});

defineFuzzSuite('public', 'fuzz: public and account operations', () => ({ t, ctx }), stats);
