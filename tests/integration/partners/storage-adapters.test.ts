// One database: the local and S3 stores under test keep files, not rows.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../../src/server/storage/local-storage.ts';
import { createS3Storage, type S3StorageOptions } from '../../../src/server/storage/s3-storage.ts';
import type { FileStorage } from '../../../src/server/storage/storage.ts';

/** A real S3-compatible server on loopback, a random port and a temporary directory. */
const BUCKET = 'bagspace-test';
let s3rver: S3rver;
let s3Dir: string;
let s3Endpoint: string;
let localDir: string;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-s3rver-'));
  localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-local-'));
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3rver.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3rver.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  fs.rmSync(localDir, { recursive: true, force: true });
});

const s3Options = (overrides: Partial<S3StorageOptions> = {}): S3StorageOptions => ({
  bucket: BUCKET,
  endpoint: s3Endpoint,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  ...overrides,
});

const bytes = (n: number, seed = 7) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed) % 251));

/** A stream that sends `good` bytes, then fails, as a client that drops its connection would. */
function failingStream(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(bytes(good));
      } else {
        this.destroy(new Error('client went away'));
      }
    },
  });
}

const adapters: Array<[string, () => FileStorage]> = [
  ['local disk', () => createLocalStorage(localDir)],
  ['S3 (s3rver)', () => createS3Storage(s3Options({ partBytes: 5 * 1024 * 1024 }))],
];

describe.each(adapters)('the %s storage', (_name, make) => {
  let storage: FileStorage;
  let prefix: string;
  beforeAll(() => {
    storage = make();
    prefix = `test-${Math.random().toString(36).slice(2, 8)}/`;
  });
  afterAll(() => storage.close());

  it('puts, gets, tells existence and deletes', async () => {
    const key = `${prefix}commercialLicenses/a1.png`;
    const content = bytes(70_000);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, Readable.from([content]), { contentType: 'image/png' });
    expect(await storage.exists(key)).toBe(true);
    const object = await storage.get(key);
    expect(object!.size).toBe(content.length);
    expect((await buffer(object!.body)).equals(content)).toBe(true);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key); // deleting a missing key is fine
  });

  it('stores a 12 MiB stream that arrives in small chunks (several multipart parts on S3) byte for byte', async () => {
    const key = `${prefix}big.png`;
    const content = bytes(12 * 1024 * 1024, 13);
    const chunks = function* () {
      for (let i = 0; i < content.length; i += 64 * 1024) yield content.subarray(i, i + 64 * 1024);
    };
    await storage.put(key, Readable.from(chunks()), { contentType: 'image/png' });
    const object = await storage.get(key);
    expect((await buffer(object!.body)).equals(content)).toBe(true);
    await storage.delete(key);
  });

  it.each([
    ['small', 1000],
    ['larger than one S3 part', 6 * 1024 * 1024],
  ])('leaves nothing behind when the incoming stream fails (%s)', async (_size, good) => {
    const key = `${prefix}broken-${good}.png`;
    await expect(storage.put(key, failingStream(good), { contentType: 'image/png' })).rejects.toThrow();
    expect(await storage.exists(key)).toBe(false);
    expect((await storage.list(prefix)).keys).not.toContain(key);
    if (storage.kind === 'local') expect(fs.readdirSync(path.join(localDir, '.partial'))).toEqual([]);
  });

  it('lists keys under a prefix a page at a time, in key order', async () => {
    const listPrefix = `${prefix}list/`;
    const keys = ['c.png', 'a.png', 'b/d.png', 'e.jpg', 'f.png'].map((k) => `${listPrefix}${k}`);
    for (const key of keys) await storage.put(key, Readable.from([Buffer.from(key)]), { contentType: 'image/png' });
    await storage.put(`${prefix}elsewhere.png`, Readable.from([Buffer.from('x')]), { contentType: 'image/png' });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await storage.list(listPrefix, { pageSize: 2, cursor });
      expect(page.keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.keys);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual([...keys].sort());
    expect(pages).toBe(3);
  });

  it('clamps the page size to 1..1000', async () => {
    const listPrefix = `${prefix}list/`;
    expect((await storage.list(listPrefix, { pageSize: 0 })).keys).toHaveLength(1);
    expect((await storage.list(listPrefix, { pageSize: -20 })).keys).toHaveLength(1);
    expect((await storage.list(listPrefix, { pageSize: 1_000_000 })).keys).toHaveLength(5);
  });

  it('refuses keys that could leave the storage root or hide', async () => {
    for (const key of [
      '../evil.png',
      'a/../../evil.png',
      '/etc/passwd',
      '.partial/x',
      'a//b.png',
      'a\\b.png',
      'a/b.png\0',
    ]) {
      await expect(storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'image/png' })).rejects.toThrow(
        /Invalid storage key/,
      );
      await expect(storage.get(key)).rejects.toThrow(/Invalid storage key/);
    }
    expect(fs.existsSync(path.join(localDir, '..', 'evil.png'))).toBe(false);
  });
});

describe('the local storage listing', () => {
  it('returns at most 1000 keys a page', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-many-'));
    try {
      fs.mkdirSync(path.join(dir, 'many'));
      for (let i = 0; i < 1005; i++) fs.writeFileSync(path.join(dir, 'many', `${String(i).padStart(4, '0')}.png`), '');
      const storage = createLocalStorage(dir);
      const first = await storage.list('many/', { pageSize: 5000 });
      expect(first.keys).toHaveLength(1000);
      const rest = await storage.list('many/', { pageSize: 5000, cursor: first.nextCursor });
      expect(rest.keys).toHaveLength(5);
      expect(rest.nextCursor).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A loopback HTTP server in front of s3rver that answers the first `failures` requests itself
 * (with `status`) and forwards the rest, counting everything it sees.
 */
async function flakyProxy(failures: number, status: number) {
  let seen = 0;
  const server = http.createServer((req, res) => {
    seen += 1;
    if (seen <= failures) {
      req.resume();
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><Error><Code>${status === 503 ? 'SlowDown' : 'AccessDenied'}</Code><Message>test</Message></Error>`,
      );
      return;
    }
    const upstream = http.request(`${s3Endpoint}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: () => seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the S3 storage retries (docs/product.md §9: operations up to 120 s, uploads up to 600 s)', () => {
  it('retries transient failures until the request gets through', async () => {
    const direct = createS3Storage(s3Options());
    await direct.put('retry/ok.png', Readable.from([Buffer.from('fine')]), { contentType: 'image/png' });
    const proxy = await flakyProxy(3, 503);
    const storage = createS3Storage(s3Options({ endpoint: proxy.endpoint }));
    try {
      const object = await storage.get('retry/ok.png');
      expect((await buffer(object!.body)).toString()).toBe('fine');
      expect(proxy.seen()).toBe(4);
    } finally {
      await storage.close();
      await direct.close();
      await proxy.close();
    }
  });

  it('retries an upload’s requests through transient failures too', async () => {
    const proxy = await flakyProxy(2, 503);
    const storage = createS3Storage(s3Options({ endpoint: proxy.endpoint }));
    try {
      await storage.put('retry/upload.png', Readable.from([bytes(3000)]), { contentType: 'image/png' });
      expect(proxy.seen()).toBe(3);
      expect(await storage.exists('retry/upload.png')).toBe(true);
    } finally {
      await storage.close();
      await proxy.close();
    }
  });

  it('gives up once its time budget is spent, not after a fixed number of attempts', async () => {
    const proxy = await flakyProxy(Number.POSITIVE_INFINITY, 503);
    const storage = createS3Storage(
      s3Options({ endpoint: proxy.endpoint, operationRetryMs: 1500, uploadRetryMs: 1500 }),
    );
    try {
      const started = Date.now();
      await expect(storage.exists('retry/never.png')).rejects.toThrow();
      const elapsed = Date.now() - started;
      // Time is the subject: it stops soon after its 1.5 s budget (a loaded machine adds to "soon").
      expect(elapsed).toBeLessThan(1500 + 15_000);
      expect(proxy.seen()).toBeGreaterThanOrEqual(3);
      const afterReads = proxy.seen();
      await expect(
        storage.put('retry/never.png', Readable.from([bytes(100)]), { contentType: 'image/png' }),
      ).rejects.toThrow();
      expect(proxy.seen() - afterReads).toBeGreaterThanOrEqual(3);
    } finally {
      await storage.close();
      await proxy.close();
    }
  });

  it('does not retry a refusal (403)', async () => {
    const proxy = await flakyProxy(1, 403);
    const storage = createS3Storage(s3Options({ endpoint: proxy.endpoint }));
    try {
      await expect(storage.exists('retry/denied.png')).rejects.toThrow();
      expect(proxy.seen()).toBe(1);
    } finally {
      await storage.close();
      await proxy.close();
    }
  });
});
