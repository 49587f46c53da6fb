import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createS3Storage } from '../../src/server/storage/s3-storage.ts';
import type { FileStorage } from '../../src/server/storage/storage.ts';

/** s3rver's fixed credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * A real S3-compatible server on loopback (a random port, a temporary directory) with one bucket;
 * `env` configures the app to use it, `bucket` reads it as the app would.
 */
export async function startS3rver(bucketName: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucketName }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket: FileStorage = createS3Storage({
    bucket: bucketName,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    ...S3RVER_CREDENTIALS,
  });
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucketName,
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await bucket.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
