/**
 * A registration cannot reach another company's file (UP-09): ids, paths and storage keys in the
 * form, the query or the file name are ignored or refused, and the victim's file keeps its hash.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, storedFiles, validCompany } from '../../helpers/registration.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { JPEG_EXIF_GPS, PNG_SEED, PNG_TEXT_SCRIPT } from '../../helpers/upload-corpus.ts';
import { fileOf, licencePart, type RawPart, send, sha256, startUploadApp } from '../../helpers/upload-requests.ts';

let t: TestApp;
let adminCookie: Record<string, string>;
beforeAll(async () => {
  ({ t, adminCookie } = await startUploadApp());
});
afterAll(() => t?.close());

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
