import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../../src/contracts/attachments.schemas.ts';
import type { FileStorage } from '../../../src/server/storage/storage.ts';
import { carriesMetadata, jpegWithGps, pdf, postFiles } from '../../helpers/attachment-files.ts';
import { startS3rver } from '../../helpers/s3rver.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/** Chat attachments with STORAGE=s3, against s3rver on loopback: kept in the bucket, served from it, swept from it. */
let s3: Awaited<ReturnType<typeof startS3rver>>;
let t: TestApp;
let bucket: FileStorage;
let alice: SupportUser;
let bob: SupportUser;

beforeAll(async () => {
  s3 = await startS3rver('attachments');
  bucket = s3.bucket;
  t = await createTestApp({ env: s3.env });
  [alice, bob] = await Promise.all([supportUser(t), supportUser(t)]);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const objects = async () => (await bucket.list('ticketAttachments/')).keys;

describe('attachments in an S3 bucket', () => {
  it('keeps the cleaned photo and its thumbnail in the bucket, serves them to the owner only, and nothing on disk', async () => {
    const { ticketId } = await alice.createTicket('Incident', 'The wheel came off.');
    const res = await postFiles(t, `/api/support/tickets/${ticketId}/messages`, alice.headers, { messageBody: '' }, [
      { name: 'wheel.jpg', data: await jpegWithGps(800, 600) },
      { name: 'receipt.pdf', data: pdf() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [photo, document] = res.json<{ message: { attachments: Attachment[] } }>().message.attachments as [
      Attachment,
      Attachment,
    ];
    expect(await objects()).toEqual(
      [
        `ticketAttachments/${photo.id}.jpg`,
        `ticketAttachments/${photo.id}.thumb.webp`,
        `ticketAttachments/${document.id}.pdf`,
      ].sort(),
    );
    const kept = await buffer((await bucket.get(`ticketAttachments/${photo.id}.jpg`))!.body);
    expect(carriesMetadata(kept)).toBe(false);
    expect((await sharp(kept).metadata()).width).toBe(800);

    const served = await alice.get(photo.url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(kept)).toBe(true);
    expect((await alice.get(document.url)).rawPayload.equals(pdf())).toBe(true);
    expect((await bob.get(photo.url)).statusCode).toBe(404);
    expect(fs.existsSync(path.join(t.dataDir, 'files'))).toBe(false);
  });

  it('a refused send leaves nothing in the bucket, and the sweep removes files no row names', async () => {
    const { ticketId } = await alice.createTicket();
    const before = await objects();
    const refused = await postFiles(
      t,
      `/api/support/tickets/${ticketId}/messages`,
      alice.headers,
      { messageBody: 'x' },
      [
        { name: 'fine.pdf', data: pdf() },
        { name: 'bad.jpg', data: Buffer.from('<html>not a photo</html>') },
      ],
    );
    expect(refused.statusCode).toBe(400);
    expect(await objects()).toEqual(before);

    const stray = 'ticketAttachments/00000000-0000-4000-8000-00000000000f.pdf';
    await bucket.put(stray, Readable.from([pdf()]), { contentType: 'application/pdf' });
    expect(await t.app.attachments.sweep()).toEqual({ removedRows: 0, removedFiles: 1 });
    expect(await objects()).toEqual(before);
  });
});
