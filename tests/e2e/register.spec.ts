import { randomBytes } from 'node:crypto';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  COMPANY_MESSAGES,
  LICENCE_FIELD_TEXT,
  NZBN_TEXT,
  PHONE_HINT,
  REGISTERED_TEXT,
} from '../../src/contracts/companies.ts';
import { LICENCE_TEXT } from '../../src/contracts/partner-review.ts';
import { linkIn, waitForMail } from '../helpers/mail.ts';
import { newNzbn } from './companies.ts';
import { E2E_ADMIN, signInAt } from './fixtures.ts';
import { expectNoAxeViolations, recordCspViolations, cspViolations, VIEWPORTS, watchPage } from './support.ts';

/**
 * /register as a logistics company would use it: the spec's form, messages, button rules and
 * alerts (docs/product.md §2, §5, §8), in Chromium against the real server and database.
 */

const TITLE = 'Logistic Company Partner Registration';

function newCompany() {
  const tag = randomBytes(3).toString('hex');
  const digits = String(parseInt(tag, 16)).padStart(8, '0').slice(-8);
  return {
    companyName: `Kiwi Haulage ${tag}`,
    phoneNumber: `022${digits}`,
    address: '48 Station Road, Hamilton 3204',
    street: 'Unit 2',
    contactPersonName: 'Mere Tūhoe',
    contactPersonJobTitle: 'Fleet Manager',
    contactPersonPhoneNumber: `027${digits}`,
    contactPersonEmail: `mere.${tag}@kiwihaulage.co.nz`,
  };
}
type Company = ReturnType<typeof newCompany>;

const png = (size = 2048) => {
  const bytes = Buffer.alloc(size, 0x2a);
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(bytes);
  return bytes;
};
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00;', 'latin1');
const ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';

const LABELS: Record<keyof Company, string> = {
  companyName: 'Company name',
  phoneNumber: 'Phone number',
  address: 'Address 1',
  street: 'Address 2 (optional)',
  contactPersonName: 'Contact person name (optional)',
  contactPersonJobTitle: 'Contact person job title (optional)',
  contactPersonPhoneNumber: 'Contact person phone number (optional)',
  contactPersonEmail: 'Contact person email (optional)',
};
// The accepted types, said the same way in the label, the hint and the error (decision 130).
const LICENSE_LABEL = 'Commercial licence (JPG, PNG or PDF) (optional)';
const NZBN_LABEL = 'NZBN (New Zealand Business Number) (optional)';
const nzbnInput = (page: Page) => page.getByRole('textbox', { name: NZBN_LABEL, exact: true });
/** '9429046393920' as people copy it from their NZBN record: '9429 0463 9392 0'. */
const spaced = (nzbn: string) => `${nzbn.slice(0, 4)} ${nzbn.slice(4, 8)} ${nzbn.slice(8, 12)} ${nzbn.slice(12)}`;

const field = (page: Page, name: keyof Company) => page.getByRole('textbox', { name: LABELS[name], exact: true });
const licenseInput = (page: Page) => page.getByLabel(LICENSE_LABEL, { exact: true });
const submitButton = (page: Page) => page.getByRole('button', { name: /^Submit/ });

/** The message under a field, found the way assistive technology finds it: through aria-describedby. */
async function expectFieldError(input: Locator, message: string) {
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
  expect(errorId, `aria-describedby="${describedBy}" names no error`).toBeTruthy();
  await expect(input.page().locator(`[id="${errorId}"]`)).toHaveText(message);
  await expect(input).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
}

async function expectNoFieldError(input: Locator) {
  await expect(input).toHaveAttribute('aria-invalid', 'false');
  expect((await input.getAttribute('aria-describedby')) ?? '').not.toMatch(/-error/);
}

async function openForm(page: Page) {
  await page.goto('/register');
  // Typing before the app has hydrated would be lost; the form says when it is live.
  await expect(page.locator('form[data-hydrated="true"]')).toBeVisible();
}

async function fillCompany(page: Page, company: Partial<Company>) {
  for (const [name, value] of Object.entries(company) as Array<[keyof Company, string]>)
    await field(page, name).fill(value);
}

/** Collects browser alerts, accepting each one as a user would. */
function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', async (dialog) => {
    alerts.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.accept();
  });
  return alerts;
}

/** Registers a company straight through the API, as another applicant would have done earlier. */
async function registerThroughApi(page: Page, company: Company & { nzbn?: string }) {
  const res = await page.request.post('/api/companies', { multipart: company });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; company: { commercialLicenseUrl: string | null; nzbn: string | null } };
}

/** The page after an application: the spec's message, what happens next, and the working status link. */
async function expectNextSteps(page: Page, companyName: string) {
  await expect(page).toHaveURL(/\/register\?submitted=1$/);
  await expect(page.getByRole('status')).toHaveText(COMPANY_MESSAGES.submitted);
  const next = page.getByRole('region', { name: REGISTERED_TEXT.heading });
  for (const step of REGISTERED_TEXT.steps) await expect(next.getByText(step, { exact: true })).toBeVisible();
  await next.getByRole('link', { name: REGISTERED_TEXT.statusLink }).click();
  await expect(page).toHaveURL(/\/partners\/status\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your partner application' })).toBeVisible();
  await expect(page.getByText(companyName, { exact: true })).toBeVisible();
}

/**
 * An admin opens the application: the PDF licence is in a frame from its first page (served inline,
 * framed by our pages only) with a download link beside it (decision 130). In a context of its own,
 * with JavaScript, whatever the applicant's page had.
 */
async function expectAdminSeesPdf(browser: Browser, companyName: string) {
  const context = await browser.newContext({ javaScriptEnabled: true });
  const page = await context.newPage();
  await recordCspViolations(page);
  await signInAt(page, `/admin/partners?q=${encodeURIComponent(companyName)}`, E2E_ADMIN);
  const preview = page.waitForResponse((res) => res.url().includes('/license/preview'));
  await page.getByRole('link', { name: companyName, exact: true }).click();
  const frame = page.locator('iframe.admin-licence__frame');
  await expect(frame).toHaveAttribute('title', `Commercial licence of ${companyName} (PDF, from its first page)`);
  await expect(frame).toHaveAttribute('src', /\/api\/admin\/companies\/[0-9a-f-]{36}\/license\/preview#page=1/);
  const served = await preview;
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('application/pdf');
  expect(served.headers()['content-disposition']).toMatch(/^inline; filename="licence-[0-9a-f-]{36}\.pdf"$/);
  const src = (await frame.getAttribute('src'))!.replace(/#.*$/, '');
  expect((await (await page.request.get(src)).body()).equals(PDF)).toBe(true);
  const link = page.getByRole('link', { name: 'Download the licence (PDF)' });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^licence-[0-9a-f-]{36}\.pdf$/);
  expect(await cspViolations(page)).toEqual([]);
  await context.close();
}

test.describe('partner registration (/register)', () => {
  test('is server-rendered: the title and every labelled field are in the first HTML', async ({ request }) => {
    const res = await request.get('/register');
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<h1 id="register-title">${TITLE}</h1>`);
    for (const name of [
      'companyName',
      'phoneNumber',
      'address',
      'street',
      'contactPersonName',
      'contactPersonJobTitle',
      'contactPersonPhoneNumber',
      'contactPersonEmail',
      'commercialLicense',
    ]) {
      expect(html).toContain(`name="${name}"`);
    }
    expect(html).toContain(`accept="${ACCEPT}"`);
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Submit<\/button>/);
    expect(html).not.toMatch(/style="/);
  });

  test('shows the labelled form with the licence picker offering the types it takes', async ({ page, baseURL }) => {
    const watch = watchPage(page, baseURL!);
    await recordCspViolations(page);
    await openForm(page);
    await expect(page).toHaveTitle(`${TITLE} | Bagspace`);
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    for (const name of Object.keys(LABELS) as Array<keyof Company>) await expect(field(page, name)).toBeVisible();
    await expect(licenseInput(page)).toHaveAttribute('type', 'file');
    await expect(licenseInput(page)).toHaveAttribute('accept', ACCEPT);
    await expect(licenseInput(page)).toHaveAccessibleDescription(LICENCE_FIELD_TEXT.hint);
    for (const name of ['companyName', 'phoneNumber', 'address'] as const)
      await expect(field(page, name)).toHaveAttribute('aria-required', 'true');
    await expect(submitButton(page)).toHaveText('Submit');
    await expect(submitButton(page)).toBeDisabled();
    expect(await cspViolations(page)).toEqual([]);
    expect(watch.problems).toEqual([]);
    expect(watch.foreign).toEqual([]);
  });

  test('every validation message of docs/product.md §5 shows under its field as the user types, and clears when fixed', async ({
    page,
  }) => {
    await openForm(page);
    const cases: Array<[keyof Company, string, string, string]> = [
      ['companyName', 'Ki', 'Company name must be at least 3 characters', 'Kiwi Haulage'],
      ['companyName', '', 'Company name is required', 'Kiwi Haulage'],
      ['address', '48 S', 'Address 1 must be at least 5 characters', '48 Station Road'],
      ['address', '', 'Address 1 is required', '48 Station Road'],
      ['phoneNumber', '', 'Phone number is required', '0221234567'],
      ['phoneNumber', '022123', 'Phone number must be between 7 and 14 digits', '0221234567'],
      ['phoneNumber', '+61 2 1234 5678', 'Phone number must be between 7 and 14 digits', '022 123 4567'],
      ['phoneNumber', '022.123.4567', 'Phone number must be between 7 and 14 digits', '+64 22-123-4567'],
      ['contactPersonName', 'Mere 2', 'Contact person name must only contain alphabetic characters', 'Mere Tūhoe'],
      ['contactPersonName', 'Me', 'Contact person name must be at least 3 characters', 'Mere'],
      ['contactPersonJobTitle', 'Manager #1', 'Job title must only contain alphabetic characters', 'Fleet Manager'],
      ['contactPersonJobTitle', 'GM', 'Job title must be at least 3 characters', 'General Manager'],
      ['contactPersonPhoneNumber', '12345', 'Phone number must be between 7 and 14 digits', '0271234567'],
      ['contactPersonEmail', 'mere@', 'Invalid email format', 'mere@kiwihaulage.co.nz'],
    ];
    for (const [name, bad, message, good] of cases) {
      const input = field(page, name);
      // "Required" needs a change to an empty value: type something first, then clear it.
      if (bad === '') await input.fill('x');
      await input.fill(bad);
      await expectFieldError(input, message);
      await input.fill(good);
      await expectNoFieldError(input);
    }
    // Optional fields may be left empty again without a message.
    await field(page, 'contactPersonName').fill('');
    await expectNoFieldError(field(page, 'contactPersonName'));
  });

  test('the licence is checked by size and by its bytes, whatever its name says: JPG, PNG or PDF', async ({ page }) => {
    await openForm(page);
    const input = licenseInput(page);
    await input.setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: png(10 * 1024 * 1024 + 1) });
    await expectFieldError(input, 'File size should be less than 10MB');
    await input.setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: GIF });
    await expectFieldError(input, 'Unsupported File Format. Please choose a JPG, PNG or PDF file.');
    await input.setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: PDF });
    await expectNoFieldError(input);
    await input.setInputFiles({
      name: 'notes.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('<html>%PDF-1.7'),
    });
    await expectFieldError(input, COMPANY_MESSAGES.fileUnsupported);
    await input.setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: png(10 * 1024 * 1024) });
    await expectNoFieldError(input);
  });

  test('a PDF licence is sent, and the admin sees it from its first page and can download it', async ({
    page,
    browser,
  }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    const company = newCompany();
    await fillCompany(page, company);
    await licenseInput(page).setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expectNoFieldError(licenseInput(page));
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Company Profile submitted successfully!']);
    await expectAdminSeesPdf(browser, company.companyName);
  });

  test('phone numbers with spaces, dashes or +64 are taken as people write them, and stored plainly', async ({
    page,
  }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    const company = newCompany();
    const digits = company.phoneNumber.slice(3);
    await fillCompany(page, {
      ...company,
      phoneNumber: `+64 22 ${digits.slice(0, 4)}-${digits.slice(4)}`,
      contactPersonPhoneNumber: `027 ${digits.slice(0, 4)} ${digits.slice(4)}`,
    });
    await expect(field(page, 'phoneNumber')).toHaveAccessibleDescription(PHONE_HINT);
    await expectNoFieldError(field(page, 'phoneNumber'));
    await expectNoFieldError(field(page, 'contactPersonPhoneNumber'));
    await expect(submitButton(page)).toBeEnabled();
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Company Profile submitted successfully!']);
    // The same number written nationally is a duplicate: it was stored as 022….
    await fillCompany(page, { ...newCompany(), phoneNumber: company.phoneNumber });
    await submitButton(page).click();
    await expectFieldError(field(page, 'phoneNumber'), COMPANY_MESSAGES.duplicatePhone);
  });

  test('after the alert, the page says what happens next and links to the application’s status page', async ({
    page,
  }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    const company = newCompany();
    await fillCompany(page, company);
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Company Profile submitted successfully!']);
    await expectNextSteps(page, company.companyName);
  });

  test('Submit is enabled only once company name, address and phone number are valid', async ({ page }) => {
    await openForm(page);
    const button = submitButton(page);
    await field(page, 'companyName').fill('Kiw');
    await field(page, 'address').fill('48 Station Road');
    await expect(button).toBeDisabled();
    await field(page, 'phoneNumber').fill('123456');
    await expect(button).toBeDisabled();
    await field(page, 'phoneNumber').fill('1234567');
    await expect(button).toBeEnabled();
    await field(page, 'phoneNumber').fill('123456789012345');
    await expect(button).toBeDisabled();
    await field(page, 'phoneNumber').fill('12345678901234');
    await expect(button).toBeEnabled();
    await field(page, 'companyName').fill('Ki');
    await expect(button).toBeDisabled();
    await field(page, 'companyName').fill('Kiwi');
    await field(page, 'address').fill('48 S');
    await expect(button).toBeDisabled();
    await field(page, 'address').fill('48 St');
    await expect(button).toBeEnabled();
    // Errors elsewhere do not hold Submit back, but stop the sending and are pointed out.
    await field(page, 'contactPersonEmail').fill('mere@');
    await expect(button).toBeEnabled();
    let posted = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/companies')) posted = true;
    });
    await button.click();
    await expect(field(page, 'contactPersonEmail')).toBeFocused();
    await expectFieldError(field(page, 'contactPersonEmail'), 'Invalid email format');
    expect(posted).toBe(false);
  });

  test('a successful application says so in an alert, resets the form and reloads the page', async ({ page }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    const company = newCompany();
    await fillCompany(page, company);
    await licenseInput(page).setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: png(50_000) });
    // Hold the answer back until the form has been seen while it is sent ("Submitting....", read-only).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/companies', async (route) => {
      await held;
      await route.continue();
    });
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await submitButton(page).click();
    await expect(submitButton(page)).toHaveText('Submitting....');
    await expect(submitButton(page)).toBeDisabled();
    // What is being sent cannot change under it.
    for (const name of Object.keys(LABELS) as Array<keyof Company>) {
      await expect(field(page, name)).toHaveAttribute('readonly', '');
    }
    await expect(licenseInput(page)).toBeDisabled();
    release();

    await expect.poll(() => alerts).toEqual(['alert: Company Profile submitted successfully!']);
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload).catch(() => 'navigating'),
      )
      .toBeUndefined();
    await expect(page.locator('form[data-hydrated="true"]')).toBeVisible();
    for (const name of Object.keys(LABELS) as Array<keyof Company>) await expect(field(page, name)).toHaveValue('');
    await expect(submitButton(page)).toHaveText('Submit');
    await expect(submitButton(page)).toBeDisabled();

    // It was stored: the same company name is now taken.
    await page.unroute('**/api/companies');
    await fillCompany(page, { ...newCompany(), companyName: company.companyName });
    await submitButton(page).click();
    await expectFieldError(field(page, 'companyName'), 'Company name already exists. Please use a different name.');
  });

  test('duplicates show under their fields in the spec’s order: email, then name, then phone', async ({ page }) => {
    const alerts = collectAlerts(page);
    const existing = newCompany();
    await openForm(page);
    await registerThroughApi(page, existing);
    const fresh = newCompany();

    await fillCompany(page, existing);
    await submitButton(page).click();
    await expectFieldError(field(page, 'contactPersonEmail'), 'Email already exists. Please use a different email.');
    await expect(field(page, 'contactPersonEmail')).toBeFocused();
    await expect(submitButton(page)).toBeEnabled();

    await field(page, 'contactPersonEmail').fill(fresh.contactPersonEmail);
    await expectNoFieldError(field(page, 'contactPersonEmail'));
    await submitButton(page).click();
    await expectFieldError(field(page, 'companyName'), 'Company name already exists. Please use a different name.');
    // A message on the company name holds Submit back until the name changes.
    await expect(submitButton(page)).toBeDisabled();

    await field(page, 'companyName').fill(fresh.companyName);
    await submitButton(page).click();
    await expectFieldError(
      field(page, 'phoneNumber'),
      'Phone number already exists. Please use a different phone number.',
    );
    expect(alerts).toEqual([]);

    await field(page, 'phoneNumber').fill(fresh.phoneNumber);
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Company Profile submitted successfully!']);
  });

  test('a failed submission alerts "Error submitting form. Please try again." and re-enables Submit', async ({
    page,
  }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    await fillCompany(page, newCompany());
    await page.route('**/api/companies', (route) => route.abort('connectionreset'));
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Error submitting form. Please try again.']);
    await expect(submitButton(page)).toHaveText('Submit');
    await expect(submitButton(page)).toBeEnabled();

    // Too many registrations from one network: the alert, and the server's reason on the page.
    await page.route('**/api/companies', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '3600' },
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            status: 'RESOURCE_EXHAUSTED',
            message: 'Too many registrations have been sent from your network. Please try again in an hour.',
          },
        }),
      }),
    );
    await submitButton(page).click();
    await expect.poll(() => alerts).toHaveLength(2);
    expect(alerts[1]).toBe('alert: Error submitting form. Please try again.');
    await expect(page.getByRole('alert')).toHaveText(
      'Too many registrations have been sent from your network. Please try again in an hour.',
    );
    await expect(submitButton(page)).toBeEnabled();
  });

  test('the server refuses what a tampered form would send, under the right field', async ({ page }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    await fillCompany(page, newCompany());
    // Remove the browser's checks by swapping the chosen file after the check ran.
    await licenseInput(page).setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: png() });
    await page.route('**/api/companies', async (route) => {
      const body = route.request().postDataBuffer()!;
      const tampered = Buffer.from(body.toString('latin1').replace('\x89PNG\r\n\x1a\n', 'GIF89a\x01\x00'), 'latin1');
      await route.continue({ postData: tampered });
    });
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Error submitting form. Please try again.']);
    await expectFieldError(licenseInput(page), COMPANY_MESSAGES.fileUnsupported);
  });

  test('the stored license is no public file: only admins may download it', async ({ page }) => {
    const { company } = await registerThroughApi(page, newCompany());
    expect(company.commercialLicenseUrl).toBeNull();
    const withFile = await page.request.post('/api/companies', {
      multipart: { ...newCompany(), commercialLicense: { name: 'l.png', mimeType: 'image/png', buffer: png() } },
    });
    const created = (await withFile.json()) as { id: string; company: { commercialLicenseUrl: string } };
    expect(created.company.commercialLicenseUrl).toBe(`/api/admin/companies/${created.id}/license`);
    expect((await page.request.get(created.company.commercialLicenseUrl)).status()).toBe(401);
    for (const path of [
      `/commercialLicenses/${created.id}.png`,
      `/files/commercialLicenses/${created.id}.png`,
      `/data/files/commercialLicenses/${created.id}.png`,
    ]) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(404);
      expect(res.headers()['content-type']).toContain('text/html');
    }
  });

  test('the optional NZBN sits right below the company name, is checked as it is typed and is sent', async ({
    page,
  }) => {
    const alerts = collectAlerts(page);
    await openForm(page);
    const nzbn = nzbnInput(page);
    await expect(nzbn).toBeVisible();
    await expect(nzbn).toHaveAccessibleDescription(NZBN_TEXT.hint);
    await expect(nzbn).not.toHaveAttribute('aria-required', 'true');
    // Below the company name on the screen, and next after it in the form (and so in the tab order).
    const nameBox = (await field(page, 'companyName').boundingBox())!;
    const nzbnBox = (await nzbn.boundingBox())!;
    expect(nzbnBox.y).toBeGreaterThan(nameBox.y + nameBox.height);
    expect(nzbnBox.x).toBeCloseTo(nameBox.x, 0);
    const names = await page
      .locator('form[data-register-form] input')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).name));
    expect(names.indexOf('nzbn')).toBe(names.indexOf('companyName') + 1);

    // A wrong check digit says so in words; a number of the wrong shape has the general message.
    await nzbn.fill('9429 0345 8166 1');
    await expectFieldError(nzbn, COMPANY_MESSAGES.nzbnCheckDigit);
    for (const wrong of ['942904639392', '4006381333931']) {
      await nzbn.fill(wrong);
      await expectFieldError(nzbn, COMPANY_MESSAGES.nzbnInvalid);
    }
    await nzbn.fill('');
    await expectNoFieldError(nzbn);

    const number = newNzbn();
    await fillCompany(page, newCompany());
    await nzbn.fill(spaced(number));
    await expectNoFieldError(nzbn);
    await submitButton(page).click();
    await expect.poll(() => alerts).toEqual(['alert: Company Profile submitted successfully!']);
    await expect(page.locator('form[data-hydrated="true"]')).toBeVisible();
    await expect(nzbn).toHaveValue('');

    // It was stored: another application with the same number is told so under the field.
    await fillCompany(page, newCompany());
    await nzbn.fill(number);
    await submitButton(page).click();
    await expectFieldError(nzbn, COMPANY_MESSAGES.duplicateNzbn);
    await expect(nzbn).toBeFocused();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`passes axe (WCAG 2.2 A/AA) and fits the screen on ${name}, empty and with errors`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(viewport);
      await openForm(page);
      await expectNoAxeViolations(page);
      await field(page, 'companyName').fill('x');
      await field(page, 'companyName').fill('');
      await field(page, 'phoneNumber').fill('12');
      await field(page, 'contactPersonEmail').fill('mere@');
      await licenseInput(page).setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: GIF });
      await expectFieldError(licenseInput(page), COMPANY_MESSAGES.fileUnsupported);
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: testInfo.outputPath(`register-${name}.png`), fullPage: true });
    });
  }
});

test.describe('partner registration without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('sends the application with its licence and the page says it was submitted', async ({ page }) => {
    const company = newCompany();
    await page.goto('/register');
    // The script's gated Submit gives way to a plain one: exactly one Submit, and it is enabled.
    await expect(submitButton(page)).toHaveCount(1);
    await expect(submitButton(page)).toBeEnabled();
    for (const [name, value] of Object.entries(company)) await field(page, name as keyof Company).fill(value);
    await licenseInput(page).setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: png(40_000) });
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/register\?submitted=1$/);
    await expect(page.getByRole('status')).toHaveText('Company Profile submitted successfully!');
    await expect(field(page, 'companyName')).toHaveValue('');
    await expectNextSteps(page, company.companyName);
  });

  test('answers invalid fields on the page, under each field, with the text kept; fixing them submits', async ({
    page,
  }) => {
    const company = newCompany();
    await page.goto('/register');
    for (const [name, value] of Object.entries(company)) await field(page, name as keyof Company).fill(value);
    await field(page, 'companyName').fill('Ki');
    await field(page, 'contactPersonEmail').fill('mere@');
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/register$/);
    await expectFieldError(field(page, 'companyName'), 'Company name must be at least 3 characters');
    await expectFieldError(field(page, 'contactPersonEmail'), 'Invalid email format');
    await expect(page.getByRole('alert')).toContainText('Error submitting form. Please try again.');
    await expect(field(page, 'address')).toHaveValue(company.address);
    await expect(field(page, 'contactPersonEmail')).toHaveValue('mere@');

    await field(page, 'companyName').fill(company.companyName);
    await field(page, 'contactPersonEmail').fill(company.contactPersonEmail);
    await submitButton(page).click();
    await expect(page.getByRole('status')).toHaveText('Company Profile submitted successfully!');
  });

  test('answers a wrong NZBN under its field with the server’s message, and takes a valid one', async ({ page }) => {
    const company = newCompany();
    await page.goto('/register');
    await expect(nzbnInput(page)).toHaveAccessibleDescription(NZBN_TEXT.hint);
    for (const [name, value] of Object.entries(company)) await field(page, name as keyof Company).fill(value);
    await nzbnInput(page).fill('9429 0345 8166 1');
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/register$/);
    await expectFieldError(nzbnInput(page), COMPANY_MESSAGES.nzbnCheckDigit);
    await expect(nzbnInput(page)).toHaveValue('9429 0345 8166 1');
    await expect(field(page, 'companyName')).toHaveValue(company.companyName);

    await nzbnInput(page).fill(spaced(newNzbn()));
    await submitButton(page).click();
    await expect(page.getByRole('status')).toHaveText('Company Profile submitted successfully!');
  });

  test('takes phone numbers with spaces, dashes and +64', async ({ page }) => {
    const company = newCompany();
    const digits = company.phoneNumber.slice(3);
    await page.goto('/register');
    for (const [name, value] of Object.entries(company)) await field(page, name as keyof Company).fill(value);
    await field(page, 'phoneNumber').fill(`+64 22-${digits}`);
    await field(page, 'contactPersonPhoneNumber').fill(`027 ${digits.slice(0, 4)} ${digits.slice(4)}`);
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/register\?submitted=1$/);
  });

  test('answers a licence that is not a JPG, PNG or PDF under its field and asks for the file again', async ({
    page,
  }) => {
    await page.goto('/register');
    for (const [name, value] of Object.entries(newCompany())) await field(page, name as keyof Company).fill(value);
    await licenseInput(page).setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: GIF });
    await submitButton(page).click();
    await expectFieldError(licenseInput(page), COMPANY_MESSAGES.fileUnsupported);
    await expect(page.getByText('Please choose the file again.')).toBeVisible();
  });

  test('sends a PDF licence, which the admin sees from its first page', async ({ page, browser }) => {
    const company = newCompany();
    await page.goto('/register');
    await expect(licenseInput(page)).toHaveAccessibleDescription(LICENCE_FIELD_TEXT.hint);
    for (const [name, value] of Object.entries(company)) await field(page, name as keyof Company).fill(value);
    await licenseInput(page).setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: PDF });
    await submitButton(page).click();
    await expect(page).toHaveURL(/\/register\?submitted=1$/);
    await expectAdminSeesPdf(browser, company.companyName);
  });
});

test.describe('the NZBN on the admin’s application page', () => {
  test('shows the number, or that none was given, and that it is not checked yet', async ({ page }) => {
    const number = newNzbn();
    const withNzbn = await registerThroughApi(page, { ...newCompany(), nzbn: spaced(number) });
    const without = await registerThroughApi(page, newCompany());
    const row = (label: string) =>
      page.locator('.admin-fields__row').filter({ has: page.getByText(label, { exact: true }) });

    await signInAt(page, `/admin/partners/${withNzbn.id}`, E2E_ADMIN);
    await expect(page).toHaveURL(new RegExp(`/admin/partners/${withNzbn.id}$`));
    await expect(row(NZBN_TEXT.adminLabel).locator('dd')).toHaveText(number);
    // 'Not checked', with why.
    await expect(row(NZBN_TEXT.checkLabel).locator('dd')).toHaveText(NZBN_TEXT.notCheckedNoKey);

    await page.goto(`/admin/partners/${without.id}`);
    await expect(row(NZBN_TEXT.adminLabel).locator('dd')).toHaveText('Not given');
    await expect(row(NZBN_TEXT.checkLabel).locator('dd')).toHaveText('Not checked: no NZBN was given.');
  });

  test('one status badge; approving mails the licence expiry and a status link that needs no account', async ({
    page,
    browser,
  }) => {
    const company = newCompany();
    const { id } = await registerThroughApi(page, company);
    await signInAt(page, `/admin/partners/${id}`, E2E_ADMIN);
    // Opened, it is in review: one badge says so (not 'Pending' beside 'In review').
    await page.reload();
    await expect(page.locator('.admin-badges .badge')).toHaveText(['In review']);
    await page.getByLabel(LICENCE_TEXT.expiresLabel).fill('2099-12-31');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('.admin-badges .badge')).toHaveText(['Verified']);
    const mail = await waitForMail(
      process.env.E2E_DATA_DIR!,
      company.contactPersonEmail,
      'Your Bagspace partner application is approved',
    );
    expect(mail.text).toContain('The commercial licence we hold for you expires on Thu 31 Dec 2099.');
    expect(mail.text).not.toMatch(/\/support|license/i);
    const link = linkIn(mail, `${new URL(page.url()).origin}/partners/status/`);

    // The applicant, signed in nowhere and without JavaScript, reads it.
    const applicant = await browser.newContext({ javaScriptEnabled: false });
    const status = await applicant.newPage();
    await status.goto(link);
    await expect(status.getByRole('heading', { level: 1, name: 'Your partner application' })).toBeVisible();
    await expect(status.getByText('Approved', { exact: true }).first()).toBeVisible();
    await expect(status.getByText('Your licence expires on Thu 31 Dec 2099')).toBeVisible();
    await expect(status.locator('main')).not.toContainText(/license/i);
    await applicant.close();
  });
});
