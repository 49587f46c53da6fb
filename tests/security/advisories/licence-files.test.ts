// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
/**
 * Advisory regressions (docs/security-checks.md#advisory-regressions): the uploaded licence files.
 * What is kept, under which name, and who can ever fetch it back.
 * Each test is a short scenario on the real app (real requests, a fresh database) asserting what a
 * client observes; the exhaustive versions live in the matrix, IDOR, fuzz and upload suites. The
 * table of advisories and where each is tested: tests/helpers/advisories.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect } from 'vitest';
import { COMPANY_MESSAGES } from '../../../src/contracts/companies.ts';
import type { ApiClient } from '../../helpers/admin-client.ts';
import { encodeForm, register, storedFiles, validCompany } from '../../helpers/registration.ts';
import { advisory } from '../../helpers/advisories.ts';
import {
  freshIp,
  licenceFile,
  post,
  registerCompany,
  rows,
  send,
  sha256,
  withAdvisoryApp,
  uniquePng,
} from '../../helpers/advisory-app.ts';
import { waitForMails } from '../../helpers/mail.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import type { TestApp } from '../../helpers/test-app.ts';

let t: TestApp;
let admin: ApiClient;
withAdvisoryApp('licence-files', (app) => ({ t, admin } = app));

describe('support-desk advisories (docs/security-checks.md#advisory-regressions)', () => {
  let alice: SupportUser;
  beforeAll(async () => {
    alice = await supportUser(t);
  });

  advisory(
    3,
    'an SVG with a script is refused as a licence (Unsupported File Format), under any name or type, and nothing is stored',
    async () => {
      const svg = Buffer.from(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>',
      );
      const before = storedFiles(t);
      for (const file of [
        { bytes: svg, name: 'avatar.svg', type: 'image/svg+xml' },
        { bytes: svg, name: 'avatar.png', type: 'image/png' },
        { bytes: svg, name: 'avatar.jpg', type: 'image/jpeg' },
      ]) {
        const fields = validCompany();
        const res = await register(t, fields, file);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
        expect(await rows(sql`select id from companies where company_name = ${fields.companyName}`)).toEqual([]);
      }
      expect(storedFiles(t)).toEqual(before);
    },
  );

  advisory(
    8,
    'a registration carrying companyId, licence key or path cannot touch another company’s licence; the key is always server-chosen',
    async () => {
      const victim = await registerCompany(validCompany(), {
        bytes: uniquePng(),
        name: 'victim.png',
        type: 'image/png',
      });
      const victimFile = licenceFile(victim.id);
      const victimHash = sha256(fs.readFileSync(victimFile, 'latin1'));
      const attackerBytes = uniquePng(2048);

      // Extra form fields naming the victim: refused as fields that are not part of the form.
      const smuggled: Array<[string, string]> = [
        ['companyId', victim.id],
        ['id', victim.id],
        ['commercialLicenseKey', `commercialLicenses/${victim.id}.png`],
        ['commercialLicenseUrl', `/api/admin/companies/${victim.id}/license`],
        ['path', `commercialLicenses/${victim.id}.png`],
      ];
      const refused = await register(
        t,
        validCompany(),
        { bytes: attackerBytes, name: 'x.png', type: 'image/png' },
        { extra: smuggled },
      );
      expect(refused.statusCode).toBe(400);
      for (const [name] of smuggled) expect(refused.json().error.fields[name]).toBe(COMPANY_MESSAGES.unexpectedField);

      // The victim's id in the query and in the file name: ignored; the new company gets its own key.
      for (const name of [
        `${victim.id}.png`,
        `../commercialLicenses/${victim.id}.png`,
        `commercialLicenses/${victim.id}.png`,
      ]) {
        const fields = validCompany();
        const { payload, headers } = await encodeForm(fields, { bytes: attackerBytes, name, type: 'image/png' });
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/companies?companyId=${victim.id}&path=commercialLicenses/${victim.id}.png`,
          payload,
          headers,
        });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json().id as string;
        expect(id).not.toBe(victim.id);
        const [row] = await rows<{ commercial_license_key: string; commercial_license_url: string }>(
          sql`select commercial_license_key, commercial_license_url from companies where id = ${id}`,
        );
        expect(row).toEqual({
          commercial_license_key: `commercialLicenses/${id}.png`,
          commercial_license_url: `/api/admin/companies/${id}/license`,
        });
        expect(fs.readFileSync(licenceFile(id))).toEqual(attackerBytes);
      }
      expect(sha256(fs.readFileSync(victimFile, 'latin1'))).toBe(victimHash);
      const download = await admin.get(`/api/admin/companies/${victim.id}/license`);
      expect(sha256(download.rawPayload.toString('latin1'))).toBe(victimHash);
    },
  );

  advisory(
    16,
    'a licence file is reachable by no path; the download API is 401 anonymous, 403 for a user, 200 (attachment) for an admin',
    async () => {
      const bytes = uniquePng();
      const { id } = await registerCompany(validCompany(), { bytes, name: 'licence.png', type: 'image/png' });
      const marker = bytes.subarray(64, 90).toString('latin1');
      for (const url of [
        `/commercialLicenses/${id}.png`,
        `/files/commercialLicenses/${id}.png`,
        `/data/files/commercialLicenses/${id}.png`,
        `/data/commercialLicenses/${id}.png`,
        `/uploads/commercialLicenses/${id}.png`,
        `/storage/commercialLicenses/${id}.png`,
        `/api/commercialLicenses/${id}.png`,
        `/api/files/commercialLicenses/${id}.png`,
        `/assets/../files/commercialLicenses/${id}.png`,
        `/%2e%2e/files/commercialLicenses/${id}.png`,
        `/api/companies/${id}/license`,
      ]) {
        for (const headers of [{}, admin.headers]) {
          const res = await send('GET', url, { headers });
          expect(res.statusCode, url).toBe(404);
          expect(res.rawPayload.toString('latin1')).not.toContain(marker);
        }
      }
      const download = `/api/admin/companies/${id}/license`;
      expect((await send('GET', download)).statusCode).toBe(401);
      expect((await alice.get(download)).statusCode).toBe(403);
      const ok = await admin.get(download);
      expect(ok.statusCode).toBe(200);
      expect(ok.rawPayload).toEqual(bytes);
      expect(ok.headers['content-disposition']).toBe(`attachment; filename="licence-${id}.png"`);
    },
  );

  advisory(
    24,
    'a hostile file name is never stored or echoed: the key is commercialLicenses/{id}.png and no answer contains the name',
    async () => {
      for (const name of ['<img src=x onerror=alert(1)>.png', '../../x.png', '..\\..\\evil.png', 'a\u202egnp.js']) {
        const bytes = uniquePng();
        const { id, res, fields } = await registerCompany(validCompany(), { bytes, name, type: 'image/png' });
        const [row] = await rows<{ commercial_license_key: string }>(
          sql`select commercial_license_key from companies where id = ${id}`,
        );
        expect(row!.commercial_license_key).toBe(`commercialLicenses/${id}.png`);
        expect(fs.readFileSync(licenceFile(id))).toEqual(bytes);
        const answers = [
          res.body,
          (await admin.get(`/api/admin/companies/${id}`)).body,
          (await admin.get(`/api/admin/companies?status=pending&q=${encodeURIComponent(fields.companyName)}`)).body,
          JSON.stringify((await admin.get(`/api/admin/companies/${id}/license`)).headers),
        ];
        for (const body of answers) {
          expect(body).not.toContain('onerror');
          expect(body).not.toContain('../');
          expect(body).not.toContain('evil.png');
          expect(body).not.toContain('gnp');
        }
      }
      const names = storedFiles(t);
      expect(
        names.filter((f) => !/^commercialLicenses\/[0-9a-f-]{36}\.(png|jpg)$/.test(f.split(path.sep).join('/'))),
      ).toEqual([]);
      expect(fs.existsSync(path.join(t.dataDir, 'x.png'))).toBe(false);
      expect(fs.existsSync(path.join(t.dataDir, '..', 'x.png'))).toBe(false);
    },
  );

  advisory(26, 'a PHP script named .jpg is refused, and nothing under DATA_DIR is ever served as a file', async () => {
    const php = Buffer.from("<?php system($_GET['c']); ?>\n");
    for (const file of [
      { bytes: php, name: 'shell.jpg', type: 'image/jpeg' },
      { bytes: Buffer.concat([Buffer.from('GIF89a'), php]), name: 'shell.php.jpg', type: 'image/jpeg' },
      { bytes: php, name: 'shell.php', type: 'application/x-php' },
    ]) {
      const before = storedFiles(t);
      const res = await register(t, validCompany(), file);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
      expect(storedFiles(t)).toEqual(before);
    }
    // A kept licence and a written mail: neither is reachable under any prefix.
    await registerCompany(validCompany(), { bytes: uniquePng(), name: 'ok.png', type: 'image/png' });
    await post('/api/auth/forgot-password', { email: alice.email }, { ip: freshIp() });
    await waitForMails(t.dataDir, alice.email, 1);
    const everything = (fs.readdirSync(t.dataDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isFile())
      .map((e) => path.relative(t.dataDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    const sample = [
      ...everything.filter((f) => f.startsWith('files/')).slice(0, 5),
      ...everything.filter((f) => f.startsWith('outbox/')).slice(0, 5),
    ];
    expect(sample.length).toBeGreaterThanOrEqual(2);
    for (const file of sample) {
      for (const prefix of ['', '/data', `/${path.basename(t.dataDir)}`, '/static', '/public']) {
        const res = await send('GET', `${prefix}/${file}`);
        expect(res.statusCode, `${prefix}/${file}`).toBe(404);
        expect(res.headers['content-type']).not.toMatch(/^(image\/|message\/|application\/octet-stream)/);
      }
    }
  });

  advisory(
    27,
    'an anonymous upload is kept only as JPEG or PNG under the server’s name, whatever it is called or claims to be',
    async () => {
      const bytes = uniquePng();
      const { id } = await registerCompany(validCompany(), { bytes, name: 'shell.php', type: 'application/x-php' });
      const [row] = await rows<{ commercial_license_key: string }>(
        sql`select commercial_license_key from companies where id = ${id}`,
      );
      expect(row!.commercial_license_key).toBe(`commercialLicenses/${id}.png`);
      expect(fs.readFileSync(licenceFile(id))).toEqual(bytes);
      for (const file of [
        { bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'licence.png', type: 'image/png' },
        { bytes: Buffer.from('#!/bin/sh\nrm -rf /\n'), name: 'licence.jpg', type: 'image/jpeg' },
        { bytes: Buffer.from('PK\u0003\u0004 a zip', 'latin1'), name: 'licence.png', type: 'image/png' },
      ]) {
        const res = await register(t, validCompany(), file);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields.commercialLicense).toBe(COMPANY_MESSAGES.fileUnsupported);
      }
      const everything = (fs.readdirSync(t.dataDir, { recursive: true }) as string[]).map((f) =>
        f.split(path.sep).join('/'),
      );
      expect(everything.filter((f) => /\.(php|phtml|js|html?|sh)$/i.test(f))).toEqual([]);
      // The uploader cannot fetch it back either.
      expect((await send('GET', `/api/admin/companies/${id}/license`)).statusCode).toBe(401);
    },
  );
});
