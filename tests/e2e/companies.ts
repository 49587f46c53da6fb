import { randomBytes, randomInt } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { type APIRequestContext, expect } from '@playwright/test';

/** Partner applications for browser tests, sent the way the registration page's form sends them. */

/** A real (decodable) 2×2 PNG, so the licence image must actually render. */
export function realPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.from([0, 200, 30, 30, 30, 30, 200, 0, 30, 200, 30, 240, 240, 240]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function newCompany(withEmail = true) {
  const tag = randomBytes(3).toString('hex');
  const digits = String(parseInt(tag, 16)).padStart(8, '0').slice(-8);
  return {
    companyName: `Southern Couriers ${tag}`,
    phoneNumber: `021${digits}`,
    address: '7 Cashel Street, Christchurch 8011',
    street: 'Level 2',
    contactPersonName: 'Hemi Walker',
    contactPersonJobTitle: 'Director',
    contactPersonPhoneNumber: `027${digits}`,
    contactPersonEmail: withEmail ? `hemi.${tag}@southerncouriers.co.nz` : '',
  };
}
export type Company = ReturnType<typeof newCompany>;

export async function apply(request: APIRequestContext, company: Company, licence?: Buffer) {
  const res = await request.post('/api/companies', {
    multipart: {
      ...company,
      ...(licence ? { commercialLicense: { name: 'licence.png', mimeType: 'image/png', buffer: licence } } : {}),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as string;
}

/** A New Zealand Business Number no other test uses: 9429, eight random digits, and the GS1 check digit. */
export function newNzbn(): string {
  const body = `9429${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}
