import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { users } from './schema.ts';

/**
 * Admins' second factor (docs/product.md, accounts): TOTP apps and passkeys, one-time recovery
 * codes, and the short-lived WebAuthn challenges. Kept apart from schema.ts (re-exported from it)
 * so the account tables stay readable.
 */

export const secondFactors = pgTable(
  'second_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** What the person called it ('Phone', 'YubiKey'), shown on the account page. */
    label: text('label').notNull(),
    /** TOTP: the base32 secret (needed to check codes; never shown again after enrolment). */
    totpSecret: text('totp_secret'),
    /** TOTP: the newest 30-second step a code was accepted for, so a code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Passkey: the credential id (base64url), its public key (base64url COSE), signature counter, transports. */
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: jsonb('transports').$type<string[]>(),
    /** Null while a TOTP enrolment waits for its first code; only confirmed factors count. */
    confirmedAt: timestamptz('confirmed_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [
    index('second_factors_user_idx').on(t.userId),
    uniqueIndex('second_factors_credential_uq')
      .on(t.credentialId)
      .where(sql`${t.credentialId} is not null`),
    check('second_factors_kind_check', sql`${t.kind} in ('totp', 'passkey')`),
  ],
);

/** Ten one-time codes given at enrolment: SHA-256 of each (they are random, 50+ bits), spent once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A WebAuthn challenge between its options and its answer (registration or sign-in), or a sign-in
 * ticket ('password-login': the password was right, the code is still to come; its challenge is
 * empty, only the hash is kept). Good for 5 minutes, used once.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    /** SHA-256 of the challenge (base64url) the browser signs. */
    challengeHash: text('challenge_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    index('auth_challenges_user_idx').on(t.userId),
    check(
      'auth_challenges_purpose_check',
      sql`${t.purpose} in ('passkey-register', 'passkey-login', 'password-login')`,
    ),
  ],
);
