import { randomBytes } from 'node:crypto';
import {
  API_KEY_LIMITS,
  API_KEY_PREFIX,
  API_KEY_SHAPE,
  type ApiScope,
  INTEGRATION_TEXT as T,
} from '../../../contracts/integrations.ts';
import type { ApiKey } from '../../../contracts/integrations.schemas.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { KeyCaller, Principal } from '../../plugins/access.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import { hashToken } from '../../security/tokens.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { type ApiKeyRow, createKeysRepository } from './keys.repository.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export function toApiKeyDto(row: ApiKeyRow, now: Date): ApiKey {
  return {
    id: row.id,
    name: row.name,
    lastFour: row.lastFour,
    scopes: row.scopes as ApiScope[],
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    rotatedFrom: row.rotatedFrom,
    live: !row.revokedAt && row.expiresAt.getTime() > now.getTime(),
  };
}

/** A new secret: the prefix and 32 bytes from the CSPRNG as base64url. */
const newSecret = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

const actorOf = (principal: Principal) => ({ userId: principal.userId, email: principal.email });
const keyMissing = () => new AppError('NOT_FOUND', T.keyMissing);

export interface KeysServiceOptions {
  db: AppDatabase;
  audit: AuditService;
  clock: Clock;
  limiter: RateLimiter;
  requestsPerMinute: number;
}

/**
 * Service API keys (docs/decisions/149-service-api-keys.md): shown once, stored as a SHA-256, listed
 * by name and last four characters, revoked at once, rotated with an overlap, limited per key.
 */
export function createKeysService({ db, audit, clock, limiter, requestsPerMinute }: KeysServiceOptions) {
  const repository = createKeysRepository(db);

  async function make(
    tx: AppDatabase,
    input: { name: string; scopes: readonly string[]; expiresAt: Date; createdBy: string; rotatedFrom?: string },
  ) {
    const secret = newSecret();
    const row = await createKeysRepository(tx).insert({
      name: input.name,
      tokenHash: hashToken(secret),
      lastFour: secret.slice(-4),
      scopes: [...new Set(input.scopes)],
      createdBy: input.createdBy,
      expiresAt: input.expiresAt,
      ...(input.rotatedFrom ? { rotatedFrom: input.rotatedFrom } : {}),
    });
    return { row, secret };
  }

  return {
    async list(): Promise<ApiKey[]> {
      const now = clock.now();
      return (await repository.list()).map((row) => toApiKeyDto(row, now));
    },

    async create(
      principal: Principal,
      input: { name: string; scopes: readonly ApiScope[]; expiresInDays: number },
    ): Promise<{ key: ApiKey; secret: string }> {
      if ((await repository.count()) >= API_KEY_LIMITS.keys) throw new AppError('ALREADY_EXISTS', T.tooManyKeys);
      const now = clock.now();
      const { row, secret } = await make(db, {
        name: input.name,
        scopes: input.scopes,
        expiresAt: new Date(now.getTime() + input.expiresInDays * DAY),
        createdBy: principal.userId,
      });
      await audit.record({
        actor: actorOf(principal),
        action: 'api-key.create',
        targetType: 'api-key',
        targetId: row.id,
        details: { name: row.name, lastFour: row.lastFour, scopes: row.scopes, expiresAt: row.expiresAt.toISOString() },
      });
      return { key: toApiKeyDto(row, now), secret };
    },

    async revoke(principal: Principal, keyId: string): Promise<ApiKey> {
      if (!isUuid(keyId)) throw keyMissing();
      const now = clock.now();
      const row = await repository.revoke(keyId, now);
      if (!row) {
        const existing = await repository.find(keyId);
        if (!existing) throw keyMissing();
        return toApiKeyDto(existing, now);
      }
      await audit.record({
        actor: actorOf(principal),
        action: 'api-key.revoke',
        targetType: 'api-key',
        targetId: row.id,
        details: { name: row.name, lastFour: row.lastFour },
      });
      return toApiKeyDto(row, now);
    },

    /** A new key with the old one's name and scopes; the old one works until the overlap ends. */
    async rotate(principal: Principal, keyId: string, overlapHours: number): Promise<{ key: ApiKey; secret: string }> {
      if (!isUuid(keyId)) throw keyMissing();
      if ((await repository.count()) >= API_KEY_LIMITS.keys) throw new AppError('ALREADY_EXISTS', T.tooManyKeys);
      const now = clock.now();
      const result = await inTransaction(db, async (tx) => {
        const old = await createKeysRepository(tx).endAt(keyId, now, new Date(now.getTime() + overlapHours * HOUR));
        if (!old) return null;
        const lifetime = Math.max(DAY, old.expiresAt.getTime() - old.createdAt.getTime());
        const made = await make(tx, {
          name: old.name,
          scopes: old.scopes,
          expiresAt: new Date(now.getTime() + Math.min(lifetime, API_KEY_LIMITS.expiryDaysMax * DAY)),
          createdBy: principal.userId,
          rotatedFrom: old.id,
        });
        return { old, ...made };
      });
      if (!result) {
        if (!(await repository.find(keyId))) throw keyMissing();
        throw new AppError('ABORTED', T.keyEnded);
      }
      await audit.record({
        actor: actorOf(principal),
        action: 'api-key.rotate',
        targetType: 'api-key',
        targetId: result.row.id,
        details: {
          name: result.row.name,
          lastFour: result.row.lastFour,
          replaced: result.old.lastFour,
          oldEndsAt: result.old.expiresAt.toISOString(),
        },
      });
      return { key: toApiKeyDto(result.row, now), secret: result.secret };
    },

    /** The access plugin's look-up: a live key (counted against its rate limit) or null. */
    async resolve(token: string): Promise<KeyCaller | null> {
      if (!API_KEY_SHAPE.test(token)) return null;
      const key = await repository.use(hashToken(token), clock.now());
      if (!key) return null;
      await limiter.consume(
        { key: `api-key:${key.id}`, limit: requestsPerMinute, windowMs: 60_000 },
        T.tooManyRequests,
      );
      return { keyId: key.id, name: key.name, scopes: key.scopes as ApiScope[] };
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;

/** How the audit log names what a key did: under the key's own name. */
export const keyActor = (key: KeyCaller) => ({ userId: null, email: `API key “${key.name}”` });
