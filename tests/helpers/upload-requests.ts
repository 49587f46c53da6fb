/**
 * Registrations with a licence, as the upload suites (tests/security/uploads/) send them: multipart
 * bodies written by hand, so names, types and headers go out exactly as given, and the app they are
 * sent to (one per test file, on a fresh database, with an admin's cookie for the downloads).
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { CompanyFields } from './registration.ts';
import { createUser, signIn, withCookie } from './accounts.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export interface RawPart {
  name: string;
  /** Sent verbatim between the quotes (bytes, if a Buffer): nothing escapes it. */
  filename?: string | Buffer;
  contentType?: string;
  body: Buffer | string;
  /** Whole extra header lines for the part, e.g. a `filename*=` variant. */
  disposition?: string;
}

export function multipart(parts: RawPart[]): { payload: Buffer; headers: Record<string, string> } {
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

export const fieldParts = (fields: Partial<Record<string, string>>): RawPart[] =>
  Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [{ name, body: value }]));

/** Unique applications without randomness: a thousand draws of validCompany() could collide. */
let serial = 0;
const runTag = randomBytes(2).toString('hex');
export function uniqueCompany(): CompanyFields {
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

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// ---------------------------------------------------------------------------------------------
// The app.

let t: TestApp;

/** The app of one upload file, with the per-address limit out of the way, and an admin's cookie. */
export async function startUploadApp(): Promise<{ t: TestApp; adminCookie: Record<string, string> }> {
  t = await createTestApp({ web: true, env: { REGISTRATIONS_PER_IP_PER_HOUR: '100000' } });
  const admin = await createUser(t, { role: 'admin' });
  const adminCookie = withCookie(t, await signIn(t, admin.email, admin.password));
  return { t, adminCookie };
}

export async function send(
  license: RawPart | RawPart[] | null,
  options: { fields?: Partial<Record<string, string>>; url?: string } = {},
) {
  const extra = license === null ? [] : Array.isArray(license) ? license : [license];
  const { payload, headers } = multipart([...fieldParts(options.fields ?? uniqueCompany()), ...extra]);
  return t.app.inject({ method: 'POST', url: options.url ?? '/api/companies', payload, headers });
}

export const licencePart = (
  body: Buffer,
  filename: string | Buffer = 'licence.png',
  contentType = 'image/png',
): RawPart => ({
  name: 'commercialLicense',
  filename,
  contentType,
  body,
});

export const fileOf = (key: string) => path.join(t.dataDir, 'files', ...key.split('/'));
