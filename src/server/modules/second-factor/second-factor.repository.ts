import { and, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { authChallenges, recoveryCodes, secondFactors, sessions } from '../../db/schema.ts';

/** SQL for second factors, recovery codes and WebAuthn challenges. Rows stay here; the service makes DTOs. */
export type FactorRow = typeof secondFactors.$inferSelect;
export type ChallengePurpose = 'passkey-register' | 'passkey-login' | 'password-login';

const ago = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;

export function createSecondFactorRepository(db: AppDatabase) {
  return {
    async confirmedFactors(userId: string): Promise<FactorRow[]> {
      return db
        .select()
        .from(secondFactors)
        .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
        .orderBy(secondFactors.createdAt);
    },

    async hasConfirmedFactor(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ n: count() })
        .from(secondFactors)
        .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)));
      return (row?.n ?? 0) > 0;
    },

    /** The TOTP enrolment waiting for its first code, if it began within `maxAgeMs`. */
    async pendingTotp(userId: string, maxAgeMs: number): Promise<FactorRow | null> {
      const [row] = await db
        .select()
        .from(secondFactors)
        .where(
          and(
            eq(secondFactors.userId, userId),
            eq(secondFactors.kind, 'totp'),
            isNull(secondFactors.confirmedAt),
            gt(secondFactors.createdAt, ago(maxAgeMs)),
          ),
        )
        .orderBy(desc(secondFactors.createdAt))
        .limit(1);
      return row ?? null;
    },

    async findPendingTotp(id: string, userId: string, maxAgeMs: number): Promise<FactorRow | null> {
      const [row] = await db
        .select()
        .from(secondFactors)
        .where(
          and(
            eq(secondFactors.id, id),
            eq(secondFactors.userId, userId),
            eq(secondFactors.kind, 'totp'),
            isNull(secondFactors.confirmedAt),
            gt(secondFactors.createdAt, ago(maxAgeMs)),
          ),
        );
      return row ?? null;
    },

    /** A new TOTP enrolment; earlier unconfirmed ones of the user go. */
    async insertPendingTotp(values: { userId: string; secret: string; label: string }): Promise<FactorRow> {
      await db
        .delete(secondFactors)
        .where(and(eq(secondFactors.userId, values.userId), isNull(secondFactors.confirmedAt)));
      const [row] = await db
        .insert(secondFactors)
        .values({ userId: values.userId, kind: 'totp', label: values.label, totpSecret: values.secret })
        .returning();
      return row!;
    },

    /** A TOTP factor confirmed at once (the command line), replacing the user's other TOTP factors. */
    async replaceTotp(values: { userId: string; secret: string; label: string }): Promise<void> {
      await db
        .delete(secondFactors)
        .where(and(eq(secondFactors.userId, values.userId), eq(secondFactors.kind, 'totp')));
      await db.insert(secondFactors).values({
        userId: values.userId,
        kind: 'totp',
        label: values.label,
        totpSecret: values.secret,
        confirmedAt: sql`now()`,
      });
    },

    async confirmTotp(id: string, values: { label: string; step: number }): Promise<boolean> {
      const rows = await db
        .update(secondFactors)
        .set({ confirmedAt: sql`now()`, label: values.label, totpLastStep: values.step, lastUsedAt: sql`now()` })
        .where(and(eq(secondFactors.id, id), isNull(secondFactors.confirmedAt)))
        .returning({ id: secondFactors.id });
      return rows.length === 1;
    },

    /**
     * Replay refusal in one statement: the step moves forward only, so a code (its step) is accepted
     * once, even by two sign-ins at the same moment.
     */
    async advanceTotpStep(id: string, step: number): Promise<boolean> {
      const rows = await db
        .update(secondFactors)
        .set({ totpLastStep: step, lastUsedAt: sql`now()` })
        .where(
          and(eq(secondFactors.id, id), or(isNull(secondFactors.totpLastStep), lt(secondFactors.totpLastStep, step))),
        )
        .returning({ id: secondFactors.id });
      return rows.length === 1;
    },

    async insertPasskey(values: {
      userId: string;
      label: string;
      credentialId: string;
      publicKey: string;
      signCount: number;
      transports: string[];
    }): Promise<void> {
      await db.insert(secondFactors).values({ ...values, kind: 'passkey', confirmedAt: sql`now()` });
    },

    async findPasskey(userId: string, credentialId: string): Promise<FactorRow | null> {
      const [row] = await db
        .select()
        .from(secondFactors)
        .where(
          and(
            eq(secondFactors.userId, userId),
            eq(secondFactors.kind, 'passkey'),
            eq(secondFactors.credentialId, credentialId),
            isNotNull(secondFactors.confirmedAt),
          ),
        );
      return row ?? null;
    },

    async passkeyUsed(id: string, signCount: number): Promise<void> {
      await db
        .update(secondFactors)
        .set({ signCount, lastUsedAt: sql`now()` })
        .where(eq(secondFactors.id, id));
    },

    /** A new set replaces the old one: earlier codes stop working. */
    async replaceRecoveryCodes(userId: string, hashes: string[]): Promise<void> {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ codeHash, userId })));
    },

    /** Spends a code in one statement, so it works once. */
    async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(eq(recoveryCodes.codeHash, codeHash), eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)),
        )
        .returning({ codeHash: recoveryCodes.codeHash });
      return rows.length === 1;
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return row?.n ?? 0;
    },

    async saveChallenge(values: {
      userId: string;
      purpose: ChallengePurpose;
      challenge: string;
      challengeHash: string;
      ttlMs: number;
    }): Promise<void> {
      // Expired challenges of the user go with each new one.
      await db
        .delete(authChallenges)
        .where(and(eq(authChallenges.userId, values.userId), lt(authChallenges.expiresAt, sql`now()`)));
      await db.insert(authChallenges).values({
        challengeHash: values.challengeHash,
        userId: values.userId,
        purpose: values.purpose,
        challenge: values.challenge,
        expiresAt: sql`now() + make_interval(secs => ${values.ttlMs / 1000})`,
      });
    },

    /**
     * Spends a challenge of this purpose that is still valid: whose it was, or null. With `userId`
     * only that user's challenge is spent (a challenge never answers for another account); without
     * it the hash alone names it (a sign-in ticket, whose holder does not know the account yet).
     */
    async takeChallenge(purpose: ChallengePurpose, challengeHash: string, userId?: string): Promise<string | null> {
      const [row] = await db
        .delete(authChallenges)
        .where(
          and(
            eq(authChallenges.challengeHash, challengeHash),
            userId === undefined ? undefined : eq(authChallenges.userId, userId),
            eq(authChallenges.purpose, purpose),
            gt(authChallenges.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: authChallenges.userId });
      return row?.userId ?? null;
    },

    /** This session passed the second factor: the console opens to it. */
    async markSessionPassed(tokenHash: string): Promise<void> {
      await db
        .update(sessions)
        .set({ secondFactorAt: sql`now()` })
        .where(eq(sessions.tokenHash, tokenHash));
    },

    /**
     * Removes one of the user's confirmed factors unless it is their last. The user's factors are
     * locked first, so two removals at once cannot take away the last two.
     */
    async removeConfirmedFactor(userId: string, id: string): Promise<FactorRow | 'last' | null> {
      return db.transaction(async (tx) => {
        const mine = await tx
          .select()
          .from(secondFactors)
          .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
          .for('update');
        const factor = mine.find((row) => row.id === id);
        if (!factor) return null;
        if (mine.length === 1) return 'last';
        await tx.delete(secondFactors).where(eq(secondFactors.id, id));
        return factor;
      });
    },

    /** Every factor, recovery code and challenge of the user (the command line's reset). */
    async removeAll(userId: string): Promise<{ factors: number; codes: number }> {
      const factors = await db
        .delete(secondFactors)
        .where(eq(secondFactors.userId, userId))
        .returning({ id: secondFactors.id });
      const codes = await db
        .delete(recoveryCodes)
        .where(eq(recoveryCodes.userId, userId))
        .returning({ codeHash: recoveryCodes.codeHash });
      await db.delete(authChallenges).where(eq(authChallenges.userId, userId));
      return { factors: factors.length, codes: codes.length };
    },
  };
}

export type SecondFactorRepository = ReturnType<typeof createSecondFactorRepository>;
