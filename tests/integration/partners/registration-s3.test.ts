import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from '../../../src/server/storage/s3-storage.ts';
import type { FileStorage } from '../../../src/server/storage/storage.ts';
import { createUser, signIn, withCookie } from '../../support/accounts.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { PDF, pngOf, register, validCompany } from './registration-helpers.ts';

/** The whole registration with STORAGE=s3, against s3rver on loopback. */
const BUCKET = 'licences';
let s3rver: S3rver;
let s3Dir: string;
let t: TestApp;
let bucket: FileStorage;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bagspace-s3rver-'));
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      REGISTRATIONS_PER_IP_PER_HOUR: '10000',
    },
  });
  bucket = createS3Storage({
    bucket: BUCKET,
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
});
afterAll(async () => {
  await t.close();
  await bucket.close();
  await s3rver.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

const objects = async () => (await bucket.list('')).keys;

describe('registration with the licence in an S3 bucket', () => {
  it('stores the licence at commercialLicenses/{id}.png in the bucket, and nothing on local disk', async () => {
    const licence = pngOf(300_000);
    const res = await register(
      t,
      validCompany(),
      { bytes: licence, name: 'scan.png', type: 'image/png' },
      { chunkSize: 16 * 1024 },
    );
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    expect(await objects()).toContain(`commercialLicenses/${id}.png`);
    const stored = await bucket.get(`commercialLicenses/${id}.png`);
    expect((await buffer(stored!.body)).equals(licence)).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, 'files'))).toBe(false);
  });

  it('serves it to an admin from the bucket', async () => {
    const licence = pngOf(4000);
    const { company } = (
      await register(t, validCompany(), { bytes: licence, name: 'a.png', type: 'image/png' })
    ).json();
    const admin = await createUser(t, { role: 'admin' });
    const res = await t.app.inject({
      method: 'GET',
      url: company.commercialLicenseUrl,
      headers: withCookie(t, await signIn(t, admin.email, admin.password)),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(licence)).toBe(true);
  });

  it('leaves the bucket unchanged when a registration is refused (duplicate, wrong type, one byte too large)', async () => {
    const existing = validCompany();
    expect((await register(t, existing)).statusCode).toBe(201);
    const before = await objects();
    const duplicate = await register(
      t,
      { ...validCompany(), companyName: existing.companyName },
      {
        bytes: pngOf(8 * 1024 * 1024),
        name: 'a.png',
        type: 'image/png',
      },
      { chunkSize: 64 * 1024 },
    );
    expect(duplicate.statusCode).toBe(409);
    const pdf = await register(t, validCompany(), { bytes: PDF, name: 'a.png', type: 'image/png' });
    expect(pdf.json().error.fields).toEqual({ commercialLicense: 'Unsupported File Format' });
    const tooLarge = await register(
      t,
      validCompany(),
      { bytes: pngOf(10 * 1024 * 1024 + 1), name: 'a.png', type: 'image/png' },
      { chunkSize: 64 * 1024 },
    );
    expect(tooLarge.json().error.fields).toEqual({ commercialLicense: 'File size should be less than 10MB' });
    expect(await objects()).toEqual(before);
  });
});
