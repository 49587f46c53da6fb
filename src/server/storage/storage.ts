import type { Readable } from 'node:stream';

/**
 * Where uploaded files live (docs/design.md §1 "Files"): local disk under DATA_DIR/files by default, any
 * S3-compatible store when configured. Keys look like `commercialLicenses/{companyId}.png`; neither
 * backend is ever served directly (docs/design.md §5): files reach admins only through an app route.
 */
export interface StoredObject {
  body: Readable;
  /** Bytes, when the backend knows them. */
  size: number | undefined;
}

export interface StoragePage {
  keys: string[];
  /** Pass back to get the next page; null on the last page. */
  nextCursor: string | null;
}

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores the stream under `key`. Nothing appears under the key unless the whole stream arrived:
   * when the stream errors (or is destroyed), the partial upload is removed and this rejects.
   */
  put(key: string, body: Readable, options: { contentType: string }): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Keys starting with `prefix`, in key order, a page at a time (page size clamped to 1..1000). */
  list(prefix: string, options?: { pageSize?: number; cursor?: string | null }): Promise<StoragePage>;
  close(): Promise<void>;
}

/**
 * Keys are built by the server, never taken from a client, but the adapters still refuse anything
 * that could climb out of the storage root or hide (UP-04): path segments of letters, digits,
 * dot, dash and underscore, none starting with a dot.
 */
const KEY = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const PREFIX = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/?)*$/;

export class InvalidStorageKeyError extends Error {
  override name = 'InvalidStorageKeyError';
}

export function assertStorageKey(key: string): void {
  if (key.length > 512 || !KEY.test(key))
    throw new InvalidStorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
}

export function assertStoragePrefix(prefix: string): void {
  if (prefix.length > 512 || !PREFIX.test(prefix)) {
    throw new InvalidStorageKeyError(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  }
}
