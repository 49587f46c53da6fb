/**
 * Storage limits, all in one place (docs/product.md §9: "operation retry 120000 ms; upload retry 600000 ms;
 * upload chunk cap 33554432 bytes; list page size 1 to 1000").
 */
export const STORAGE_LIMITS = {
  /** How long a read, delete or list keeps retrying transient failures. */
  operationRetryMs: 120_000,
  /** How long an upload (each of its requests) keeps retrying transient failures. */
  uploadRetryMs: 600_000,
  /** The largest multipart part; S3 refuses parts under 5 MiB (except the last). */
  maxPartBytes: 33_554_432,
  minPartBytes: 5 * 1024 * 1024,
  defaultPartBytes: 8 * 1024 * 1024,
  minListPageSize: 1,
  maxListPageSize: 1000,
  /** One attempt's limits: a connection that does not open, or a socket silent for this long, is retried. */
  connectTimeoutMs: 5_000,
  socketTimeoutMs: 30_000,
} as const;

/** A listing page size within 1..1000; anything that is not a number gets the largest page. */
export function clampListPageSize(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return STORAGE_LIMITS.maxListPageSize;
  return Math.min(STORAGE_LIMITS.maxListPageSize, Math.max(STORAGE_LIMITS.minListPageSize, Math.floor(requested)));
}

/** A multipart part size within S3's minimum and the spec's 32 MiB cap. */
export function clampPartSize(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return STORAGE_LIMITS.defaultPartBytes;
  return Math.min(STORAGE_LIMITS.maxPartBytes, Math.max(STORAGE_LIMITS.minPartBytes, Math.floor(requested)));
}
