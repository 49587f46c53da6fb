import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../../../src/server/storage/storage.ts';
import { createUser, signIn, withCookie } from '../../helpers/accounts.ts';
import { startS3rver } from '../../helpers/s3rver.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import { GIF, pngOf, register, validCompany } from '../../helpers/registration.ts';

/** The whole registration with STORAGE=s3, against s3rver on loopback. */
let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: TestApp;
let bucket: FileStorage;

beforeAll(async () => {
  s3 = await startS3rver('licences');
  bucket = s3.bucket;
  t = await createTestApp({ env: { ...s3.env, REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
});
afterAll(async () => {
  await t.close();
  await s3.close();
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
    const gif = await register(t, validCompany(), { bytes: GIF, name: 'a.png', type: 'image/png' });
    expect(gif.json().error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
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
