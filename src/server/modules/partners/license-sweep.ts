import type { FastifyBaseLogger } from 'fastify';
import type { FileStorage } from '../../storage/storage.ts';
import type { PartnersRepository } from './partners.repository.ts';

const PREFIX = 'commercialLicenses/';
/** A registration's file is named by its company id; a later one (changes, a renewal) adds 8 hex digits. */
const KEY = /^commercialLicenses\/([0-9a-f-]{36})(?:-[0-9a-f]{8})?\.(?:jpg|png|pdf)$/;

/**
 * UP-07, DATA-02: a registration stores its licence file before its company row commits (so a
 * company never points at a missing file), which means a crash in between leaves a file no company
 * holds. This removes those, at start-up before the server listens. Each removal re-checks under
 * the company id's lock that a registration insert also takes (partners.repository.ts), so it is
 * safe while other instances serve: a registration either committed first (the file is kept) or
 * finds its file gone and fails instead of saving a company without its licence.
 */
export async function sweepOrphanLicenses(options: {
  storage: FileStorage;
  repository: PartnersRepository;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}): Promise<{ checked: number; removed: string[] }> {
  const { storage, repository } = options;
  const removed: string[] = [];
  let checked = 0;
  let cursor: string | null = null;
  do {
    const page = await storage.list(PREFIX, { cursor });
    checked += page.keys.length;
    const held = await repository.heldLicenseKeys(page.keys);
    for (const key of page.keys) {
      const companyId = KEY.exec(key)?.[1];
      // Not a name this app writes: leave it to whoever put it there.
      if (!companyId || held.has(key)) continue;
      if (await repository.removeIfUnheld(companyId, key, () => storage.delete(key))) removed.push(key);
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
  if (removed.length > 0)
    options.log?.warn({ removed }, `removed ${removed.length} licence file(s) of registrations a crash interrupted`);
  return { checked, removed };
}
