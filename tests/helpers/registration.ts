import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { companies } from '../../src/server/db/schema.ts';
import type { TestApp } from './test-app.ts';
import { waitUntil } from './wait.ts';

// A type alias (not an interface), so it fits where any string record is expected.
export type CompanyFields = {
  companyName: string;
  phoneNumber: string;
  address: string;
  street: string;
  contactPersonName: string;
  contactPersonJobTitle: string;
  contactPersonPhoneNumber: string;
  contactPersonEmail: string;
};

/** A complete, valid application whose name, phone numbers and email are new (random). */
export function validCompany(): CompanyFields {
  const tag = randomBytes(3).toString('hex');
  const digits = String(parseInt(tag, 16)).padStart(8, '0').slice(-8);
  return {
    companyName: `Harbour Freight ${tag}`,
    phoneNumber: `021${digits}`,
    address: '12 Quay Street, Auckland 1010',
    street: 'Level 3, Ferry Building',
    contactPersonName: 'Aroha Ngāta',
    contactPersonJobTitle: 'Operations Manager',
    contactPersonPhoneNumber: `027${digits}`,
    contactPersonEmail: `aroha.${tag}@harbourfreight.co.nz`,
  };
}

export interface UploadFile {
  bytes: Uint8Array;
  name: string;
  type: string;
}

/** A PNG of exactly `size` bytes: the real signature and header chunk, then filler. */
export function pngOf(size: number): Buffer {
  const head = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const bytes = Buffer.alloc(size, 0x2a);
  head.copy(bytes, 0, 0, Math.min(size, head.length));
  return bytes;
}

/** A JPEG start (SOI, APP0/JFIF) padded to `size` bytes. */
export function jpegOf(size: number): Buffer {
  const head = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
  const bytes = Buffer.alloc(size, 0x11);
  head.copy(bytes, 0, 0, Math.min(size, head.length));
  return bytes;
}

export const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
export const GIF = Buffer.from(
  'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
  'latin1',
);

/** Encodes a form exactly as a browser's fetch(FormData) would. */
export async function encodeForm(
  fields: Partial<Record<string, string>>,
  file?: UploadFile,
  extra: Array<[string, string | UploadFile]> = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  const append = (name: string, value: string | UploadFile) =>
    typeof value === 'string'
      ? form.append(name, value)
      : form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.name);
  if (file) append('commercialLicense', file);
  for (const [name, value] of extra) append(name, value);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

export async function register(
  t: TestApp,
  fields: Partial<Record<string, string>>,
  file?: UploadFile,
  options: {
    extra?: Array<[string, string | UploadFile]>;
    remoteAddress?: string;
    headers?: Record<string, string>;
    /** Send the body as a stream of chunks of this size, as a network would deliver it. */
    chunkSize?: number;
  } = {},
) {
  const { payload, headers } = await encodeForm(fields, file, options.extra);
  const chunkSize = options.chunkSize;
  const body = chunkSize
    ? Readable.from(
        (function* () {
          for (let i = 0; i < payload.length; i += chunkSize) yield payload.subarray(i, i + chunkSize);
        })(),
      )
    : payload;
  return t.app.inject({
    method: 'POST',
    url: '/api/companies',
    payload: body,
    headers: { ...headers, ...options.headers },
    remoteAddress: options.remoteAddress,
  });
}

/**
 * Sends `forms` at once so that they really race: every body is sent but for its last bytes, and
 * once all requests have been read that far, the last bytes of all of them go out together. Sent
 * one after another, requests are parsed one after another and a check-then-insert would never
 * be caught out.
 */
export async function registerAtOnce(
  t: TestApp,
  forms: Array<{ fields: Partial<Record<string, string>>; file?: UploadFile }>,
) {
  const encoded = await Promise.all(forms.map((form) => encodeForm(form.fields, form.file)));
  const bodies = encoded.map(() => new PassThrough());
  const responses = Promise.all(
    encoded.map(({ headers }, i) =>
      t.app.inject({ method: 'POST', url: '/api/companies', payload: bodies[i], headers }),
    ),
  );
  const TAIL = 8;
  encoded.forEach(({ payload }, i) => bodies[i]!.write(payload.subarray(0, payload.length - TAIL)));
  // The server has read every body up to its last bytes: nothing is left in the streams.
  await waitUntil('every registration read up to its last bytes', () =>
    bodies.every((body) => body.readableLength === 0 && body.writableLength === 0),
  );
  encoded.forEach(({ payload }, i) => bodies[i]!.end(payload.subarray(payload.length - TAIL)));
  return responses;
}

/** Every file under the local storage root (DATA_DIR/files), partial uploads included. */
export function storedFiles(t: TestApp): string[] {
  const root = path.join(t.dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

export async function companiesNamed(t: TestApp, companyName: string) {
  return t.database.db.select().from(companies).where(eq(companies.companyName, companyName));
}
