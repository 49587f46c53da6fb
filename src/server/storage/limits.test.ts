import { describe, expect, it } from 'vitest';
import { clampListPageSize, clampPartSize, STORAGE_LIMITS } from './limits.ts';

describe('storage limits (docs/product.md §9)', () => {
  it('are the spec’s figures', () => {
    expect(STORAGE_LIMITS.operationRetryMs).toBe(120_000);
    expect(STORAGE_LIMITS.uploadRetryMs).toBe(600_000);
    expect(STORAGE_LIMITS.maxPartBytes).toBe(33_554_432);
    expect([STORAGE_LIMITS.minListPageSize, STORAGE_LIMITS.maxListPageSize]).toEqual([1, 1000]);
  });

  it('clamp listing pages to 1..1000', () => {
    expect(clampListPageSize(0)).toBe(1);
    expect(clampListPageSize(-5)).toBe(1);
    expect(clampListPageSize(1)).toBe(1);
    expect(clampListPageSize(250.9)).toBe(250);
    expect(clampListPageSize(1000)).toBe(1000);
    expect(clampListPageSize(1001)).toBe(1000);
    expect(clampListPageSize(undefined)).toBe(1000);
    expect(clampListPageSize(Number.NaN)).toBe(1000);
  });

  it('clamp upload parts to S3’s 5 MiB minimum and the 32 MiB cap', () => {
    expect(clampPartSize(64 * 1024 * 1024)).toBe(33_554_432);
    expect(clampPartSize(33_554_433)).toBe(33_554_432);
    expect(clampPartSize(1024)).toBe(5 * 1024 * 1024);
    expect(clampPartSize(undefined)).toBe(8 * 1024 * 1024);
  });
});
