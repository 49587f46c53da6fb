import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { apiKeys, users } from '../../db/schema.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  lastFour: string;
  scopes: string[];
  createdAt: Date;
  createdBy: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  rotatedFrom: string | null;
}

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  lastFour: apiKeys.lastFour,
  scopes: apiKeys.scopes,
  createdAt: apiKeys.createdAt,
  createdBy: users.email,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  rotatedFrom: apiKeys.rotatedFrom,
};

/** Service API keys (docs/decisions/149-service-api-keys.md): only each key's SHA-256 is stored. */
export function createKeysRepository(db: AppDatabase) {
  const one = async (id: string): Promise<ApiKeyRow | null> => {
    const [row] = await db
      .select(columns)
      .from(apiKeys)
      .leftJoin(users, eq(users.id, apiKeys.createdBy))
      .where(eq(apiKeys.id, id));
    return row ?? null;
  };

  return {
    find: one,

    async list(): Promise<ApiKeyRow[]> {
      return db
        .select(columns)
        .from(apiKeys)
        .leftJoin(users, eq(users.id, apiKeys.createdBy))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(apiKeys);
      return Number(row?.n ?? 0);
    },

    async insert(values: {
      name: string;
      tokenHash: string;
      lastFour: string;
      scopes: string[];
      createdBy: string;
      expiresAt: Date;
      rotatedFrom?: string;
    }): Promise<ApiKeyRow> {
      const [row] = await db.insert(apiKeys).values(values).returning({ id: apiKeys.id });
      return (await one(row!.id))!;
    },

    async revoke(id: string, at: Date): Promise<ApiKeyRow | null> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return row ? one(row.id) : null;
    },

    /** Ends a key at `at` unless it ends sooner anyway (a rotation's overlap); null when it is not live. */
    async endAt(id: string, now: Date, at: Date): Promise<ApiKeyRow | null> {
      const [row] = await db
        .update(apiKeys)
        .set({ expiresAt: sql`least(${apiKeys.expiresAt}, ${at.toISOString()}::timestamptz)` })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), gt(apiKeys.expiresAt, now)))
        .returning({ id: apiKeys.id });
      return row ? one(row.id) : null;
    },

    /**
     * The live key with this hash, marking it used: at most once a minute, so a busy key does not
     * write on every request.
     */
    async use(tokenHash: string, now: Date): Promise<{ id: string; name: string; scopes: string[] } | null> {
      const [row] = await db
        .select({ id: apiKeys.id, name: apiKeys.name, scopes: apiKeys.scopes, lastUsedAt: apiKeys.lastUsedAt })
        .from(apiKeys)
        .where(and(eq(apiKeys.tokenHash, tokenHash), isNull(apiKeys.revokedAt), gt(apiKeys.expiresAt, now)));
      if (!row) return null;
      if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
        await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
      }
      return { id: row.id, name: row.name, scopes: row.scopes };
    },
  };
}
