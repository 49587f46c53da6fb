import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clampListPageSize } from './limits.ts';
import { assertStorageKey, assertStoragePrefix, type FileStorage, type StoragePage } from './storage.ts';

/** Partial uploads are written here and renamed into place when complete; keys never start with a dot. */
const TEMP_DIR = '.partial';

/**
 * Removes partial uploads that a crash left in `root`/.partial (the upload never completed, so
 * nothing refers to them) once they are older than `olderThanMs`: 0 when this process owns the
 * folder alone, longer than any upload can take when other instances may be writing there.
 */
export async function removeStalePartialUploads(root: string, olderThanMs: number): Promise<number> {
  const dir = path.join(path.resolve(root), TEMP_DIR);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  const cutoff = Date.now() - olderThanMs;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if ((await fsp.stat(file)).mtimeMs > cutoff) continue;
      await fsp.rm(file, { force: true });
      removed++;
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}

/** Files on local disk under `root` (DATA_DIR/files), outside any directory the app serves. */
export function createLocalStorage(root: string): FileStorage {
  const resolvedRoot = path.resolve(root);
  const fileFor = (key: string) => {
    assertStorageKey(key);
    return path.join(resolvedRoot, ...key.split('/'));
  };

  async function listAll(prefix: string): Promise<string[]> {
    // Walk only the directory the prefix names, then filter by the rest of the prefix.
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash === -1 ? '' : prefix.slice(0, slash);
    const start = path.join(resolvedRoot, ...dirKey.split('/').filter(Boolean));
    const keys: string[] = [];
    const walk = async (dir: string, keyPrefix: string) => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const key = `${keyPrefix}${entry.name}`;
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${key}/`);
        else if (entry.isFile() && key.startsWith(prefix)) keys.push(key);
      }
    };
    await walk(start, dirKey ? `${dirKey}/` : '');
    return keys.sort();
  }

  return {
    kind: 'local',

    async put(key, body: Readable) {
      const target = fileFor(key);
      const tempDir = path.join(resolvedRoot, TEMP_DIR);
      await fsp.mkdir(tempDir, { recursive: true });
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const temp = path.join(tempDir, randomUUID());
      try {
        await pipeline(body, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
        await fsp.rename(temp, target);
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
    },

    async get(key) {
      const file = fileFor(key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    },

    async exists(key) {
      try {
        return (await fsp.stat(fileFor(key))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },

    async delete(key) {
      await fsp.rm(fileFor(key), { force: true });
    },

    async list(prefix, options = {}): Promise<StoragePage> {
      assertStoragePrefix(prefix);
      const pageSize = clampListPageSize(options.pageSize);
      const cursor = options.cursor ?? null;
      const all = await listAll(prefix);
      const from = cursor === null ? 0 : all.findIndex((key) => key > cursor);
      const keys = from === -1 ? [] : all.slice(from, from + pageSize);
      const last = keys.at(-1);
      const more = last !== undefined && all.at(-1) !== last;
      return { keys, nextCursor: more ? last : null };
    },

    async close() {},
  };
}
