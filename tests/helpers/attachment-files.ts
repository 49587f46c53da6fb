import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { TestApp } from './test-app.ts';

/** Files for the attachment tests, made here (no binary fixtures in the repository). */
export interface UploadFile {
  name: string;
  data: Buffer;
  /** The type the client declares (the server ignores it). */
  type?: string;
}

const CAMERA = 'BagspaceTestCam';

/** A JPEG photo with EXIF: camera make and a GPS position (Auckland), as a phone would send it. */
export async function jpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: CAMERA, Model: 'Pocket 9' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '36/1 50/1 5/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '174/1 45/1 50/1',
      },
    })
    .toBuffer();
}

/** Whether bytes still carry EXIF, the GPS IFD pointer (tag 0x8825) or the camera name. */
export function carriesMetadata(data: Buffer): boolean {
  return (
    data.includes(Buffer.from('Exif\0\0')) ||
    data.includes(Buffer.from(CAMERA)) ||
    data.includes(Buffer.from([0x25, 0x88])) ||
    data.includes(Buffer.from([0x88, 0x25]))
  );
}

export const png = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 4, background: '#3a6' } })
    .png()
    .toBuffer();
export const webp = () =>
  sharp({ create: { width: 30, height: 30, channels: 3, background: '#36c' } })
    .webp()
    .toBuffer();

/** A small valid-looking PDF (the server keeps PDFs as they are). */
export function pdf(size = 0): Buffer {
  const body = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  return size > body.length ? Buffer.concat([body, Buffer.alloc(size - body.length, 0x20)]) : body;
}

/** A PNG of a few hundred bytes whose header declares 30000×30000 pixels (a decompression bomb). */
export async function pixelFlood(): Promise<Buffer> {
  const small = Buffer.from(await png(1, 1));
  // IHDR data starts at byte 16: width, height (big-endian), then 5 more bytes; its CRC follows.
  small.writeUInt32BE(30000, 16);
  small.writeUInt32BE(30000, 20);
  small.writeUInt32BE(crc32(small.subarray(12, 29)) >>> 0, 29);
  return small;
}

/** Hostile files that must be refused (none is a photo or a PDF by its bytes, or it does not decode). */
export async function hostileCorpus(): Promise<Array<UploadFile & { why: 'unsupported' | 'unreadable' }>> {
  const jpeg = await jpegWithGps();
  return [
    { name: 'cat.jpg', data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), why: 'unsupported' },
    {
      name: 'logo.png',
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      why: 'unsupported',
    },
    {
      name: 'photo.jpg',
      data: Buffer.from('<html><script>alert(document.cookie)</script></html>'),
      why: 'unsupported',
    },
    { name: 'shell.jpg.php', data: Buffer.from('<?php system($_GET["c"]); ?>'), why: 'unsupported' },
    { name: 'archive.pdf', data: Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00'), why: 'unsupported' },
    { name: 'program.png', data: Buffer.from('\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00'), why: 'unsupported' },
    { name: 'truncated.jpg', data: jpeg.subarray(0, Math.floor(jpeg.length / 2)), why: 'unreadable' },
    { name: 'flood.png', data: await pixelFlood(), why: 'unreadable' },
  ];
}

/** A multipart body as a browser sends it: text fields first, then the files (all under `files`). */
export async function multipart(
  fields: Record<string, string>,
  files: UploadFile[],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files)
    form.append(
      'files',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

/** Posts a multipart form to the API as a signed-in user. */
export async function postFiles(
  t: TestApp,
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  files: UploadFile[],
) {
  const body = await multipart(fields, files);
  return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...headers, ...body.headers } });
}

/** Every stored attachment file (keys under the local storage root). */
export function storedAttachmentFiles(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'files', 'ticketAttachments');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => !name.startsWith('.'))
        .sort()
    : [];
}
