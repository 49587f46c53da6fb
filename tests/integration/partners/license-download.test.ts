import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, withCookie } from '../../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { jpegOf, PDF, pngOf, register, validCompany } from '../../helpers/registration.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { REGISTRATIONS_PER_IP_PER_HOUR: '10000' } });
});
afterAll(() => t.close());

const download = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('the commercialLicenseUrl of a registration (admin download, UP-05)', () => {
  it('serves the exact bytes to an admin, as an attachment that cannot be sniffed, framed or cached', async () => {
    const licence = pngOf(12_345);
    const res = await register(t, validCompany(), {
      bytes: licence,
      name: '<img src=x onerror=alert(1)>.png',
      type: 'text/html',
    });
    const { id, company } = res.json();
    const adminUser = await createUser(t, { role: 'admin' });
    const cookie = await signIn(t, adminUser.email, adminUser.password);

    const file = await download(company.commercialLicenseUrl, withCookie(t, cookie));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(licence)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-length']).toBe(String(licence.length));
    expect(file.headers['content-disposition']).toBe(`attachment; filename="licence-${id}.png"`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(file.headers['cache-control']).toBe('no-store');
  });

  it('serves a JPEG as image/jpeg with a .jpg name', async () => {
    const licence = jpegOf(5000);
    const { id, company } = (
      await register(t, validCompany(), { bytes: licence, name: 'scan.png', type: 'image/png' })
    ).json();
    const adminUser = await createUser(t, { role: 'admin' });
    const file = await download(
      company.commercialLicenseUrl,
      withCookie(t, await signIn(t, adminUser.email, adminUser.password)),
    );
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="licence-${id}.jpg"`);
    expect(file.rawPayload.equals(licence)).toBe(true);
  });

  it('serves a PDF (decision 130) as application/pdf with a .pdf name, as a download', async () => {
    const { id, company } = (
      await register(t, validCompany(), { bytes: PDF, name: 'scan.jpg', type: 'image/jpeg' })
    ).json();
    const adminUser = await createUser(t, { role: 'admin' });
    const headers = withCookie(t, await signIn(t, adminUser.email, adminUser.password));
    const file = await download(company.commercialLicenseUrl, headers);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="licence-${id}.pdf"`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('shows a PDF to admins in a frame of the console only: inline, unsniffable, no scripts, never cached', async () => {
    const { id, company } = (
      await register(t, validCompany(), { bytes: PDF, name: 'scan.pdf', type: 'application/pdf' })
    ).json();
    const preview = `${company.commercialLicenseUrl}/preview`;
    expect(preview).toBe(`/api/admin/companies/${id}/license/preview`);
    expect((await download(preview)).statusCode).toBe(401);
    const user = await createUser(t);
    expect((await download(preview, withCookie(t, await signIn(t, user.email, user.password)))).statusCode).toBe(403);

    const adminUser = await createUser(t, { role: 'admin' });
    const file = await download(preview, withCookie(t, await signIn(t, adminUser.email, adminUser.password)));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`inline; filename="licence-${id}.pdf"`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'none'; frame-ancestors 'self'",
    );
    expect(file.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(file.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(file.headers['cache-control']).toBe('no-store');
  });

  it('has no preview for an image licence (the console shows the image itself)', async () => {
    const { company } = (
      await register(t, validCompany(), { bytes: pngOf(900), name: 'a.png', type: 'image/png' })
    ).json();
    const adminUser = await createUser(t, { role: 'admin' });
    const res = await download(
      `${company.commercialLicenseUrl}/preview`,
      withCookie(t, await signIn(t, adminUser.email, adminUser.password)),
    );
    expect(res.statusCode).toBe(404);
  });

  it('refuses anonymous callers (401) and signed-in non-admins (403)', async () => {
    const { company } = (
      await register(t, validCompany(), { bytes: pngOf(800), name: 'a.png', type: 'image/png' })
    ).json();
    const anonymous = await download(company.commercialLicenseUrl);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.status).toBe('UNAUTHENTICATED');
    const user = await createUser(t);
    const member = await download(
      company.commercialLicenseUrl,
      withCookie(t, await signIn(t, user.email, user.password)),
    );
    expect(member.statusCode).toBe(403);
    expect(member.json().error.status).toBe('PERMISSION_DENIED');
  });

  it('answers 404 for a company without a licence or an unknown company', async () => {
    const { id } = (await register(t, validCompany())).json();
    const adminUser = await createUser(t, { role: 'admin' });
    const headers = withCookie(t, await signIn(t, adminUser.email, adminUser.password));
    for (const companyId of [id, '3b2f9d4e-8c1a-4e5b-9f7d-2a6c8e0b1d34']) {
      const res = await download(`/api/admin/companies/${companyId}/license`, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({
        status: 'NOT_FOUND',
        message: 'This company has no commercial licence on file.',
      });
    }
  });
});
