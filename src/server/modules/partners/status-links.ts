import { statusPagePath } from '../../../contracts/partner-status.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { companyStatusLinks } from '../../db/schema.ts';
import { createToken, hashToken } from '../../security/tokens.ts';

/**
 * A new private link to an application's status page (docs/decisions/112-application-status-page.md),
 * for a mail written in the caller's transaction: 32 random bytes (base64url) whose SHA-256 is all the
 * database keeps. A hash cannot be turned back into its link, so every mail that carries the link
 * makes a new one; the earlier links keep working.
 */
export async function newStatusLink(db: AppDatabase, companyId: string, publicBaseUrl: string): Promise<string> {
  return `${publicBaseUrl}${statusPagePath(await newStatusToken(db, companyId))}`;
}

/** A new private token for an application's status page (the page after registering shows its own). */
export async function newStatusToken(db: AppDatabase, companyId: string): Promise<string> {
  const token = createToken();
  await db.insert(companyStatusLinks).values({ tokenHash: hashToken(token), companyId });
  return token;
}
