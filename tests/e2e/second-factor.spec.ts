import fs from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { SECOND_FACTOR_MESSAGES } from '../../src/contracts/second-factor.ts';
import { adminApi, newAdminAccount } from './fixtures.ts';
import { confirmAuthenticatorApp, currentStep, totpAt } from './second-factor.ts';
import { VIEWPORTS } from './support.ts';

/**
 * docs/product.md §2.15 in Chromium: a new admin's first visit to the console sets up an
 * authenticator app (the code computed here from the secret the page shows) or a passkey (Chromium's
 * virtual authenticator over CDP); then every sign-in asks for it, and a recovery code works once.
 */
let admin: APIRequestContext;
test.beforeAll(async ({ baseURL }) => {
  admin = await adminApi(baseURL!);
});
test.afterAll(async () => admin?.dispose());

/** A verified account made admin by the e2e admin (Users → Roles). */
const newAdmin = (request: APIRequestContext) => newAdminAccount(request, admin);

async function signIn(page: Page, email: string, password: string, otp?: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  if (otp !== undefined) await page.getByLabel('One-time code').fill(otp);
  await page.getByRole('button', { name: 'Login' }).click();
}

const consoleOpen = (page: Page) =>
  expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.title })).toBeVisible();

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.goto('/admin');
  await expect(page.getByLabel('One-time code')).toBeVisible();
}

test('a new admin sets up an authenticator app, then signs in with a code and with a recovery code', async ({
  page,
  request,
}) => {
  const account = await newAdmin(request);
  await page.goto('/admin');
  await signIn(page, account.email, account.password);
  await expect(page.getByRole('heading', { name: 'Set up a second factor' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // The console stays shut meanwhile: its API refuses this session.
  const shut = await page.request.get('/api/admin/audit');
  expect([shut.status(), ((await shut.json()) as { error: { message: string } }).error.message]).toEqual([
    403,
    SECOND_FACTOR_MESSAGES.enrolRequired,
  ]);

  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(SECOND_FACTOR_MESSAGES.codeWrong)).toBeVisible();
  const step = currentStep();
  await page.getByLabel('Code from the app').fill(await totpAt(secret, step));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = await codes.allInnerTexts();
  await page.getByRole('link', { name: 'I have saved them: open the console' }).click();
  await consoleOpen(page);

  // The password alone no longer opens it: the code field says what is missing.
  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page.getByText(SECOND_FACTOR_MESSAGES.otpRequired)).toBeVisible();
  await signIn(page, account.email, account.password, await totpAt(secret, step + 1));
  await consoleOpen(page);

  await signOut(page);
  await signIn(page, account.email, account.password, recovery[0]!);
  await consoleOpen(page);
  // A recovery code works once.
  await signOut(page);
  await signIn(page, account.email, account.password, recovery[0]!);
  await expect(page.getByText(SECOND_FACTOR_MESSAGES.otpWrong)).toBeVisible();
});

/** Chromium's virtual authenticator: a passkey of "this device" that says yes at once. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** A new admin who set up a passkey on their first visit; the console is open. */
async function passkeyAdmin(page: Page, request: APIRequestContext) {
  await virtualAuthenticator(page);
  const account = await newAdmin(request);
  await page.goto('/admin');
  await signIn(page, account.email, account.password);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('link', { name: 'I have saved them: open the console' }).click();
  await consoleOpen(page);
  return account;
}

test('a new admin sets up a passkey, then signs in with it', async ({ page, request }) => {
  const account = await passkeyAdmin(page, request);
  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page.getByText(SECOND_FACTOR_MESSAGES.otpRequired)).toBeVisible();
  // The passkey is the other way past the code: below the code and its Login button, not between them.
  const passkey = page.getByRole('button', { name: 'Use a passkey' });
  const [loginBox, passkeyBox] = [
    await page.getByRole('button', { name: 'Login' }).boundingBox(),
    await passkey.boundingBox(),
  ];
  expect(passkeyBox!.y).toBeGreaterThanOrEqual(loginBox!.y + loginBox!.height);
  await passkey.click();
  await consoleOpen(page);
});

test('on Sign-in security an admin adds an authenticator app, removes the passkey (never the last factor) and renews the recovery codes', async ({
  page,
  request,
}) => {
  const account = await passkeyAdmin(page, request);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: ADMIN_TEXT.nav.security }).click();
  await expect(page.getByRole('heading', { level: 1, name: ADMIN_TEXT.nav.security })).toBeVisible();
  await expect(page.getByText('10 of 10 left.')).toBeVisible();

  await page.getByRole('link', { name: 'Add an authenticator app' }).click();
  await confirmAuthenticatorApp(page);
  await page.getByRole('link', { name: 'I have saved them' }).click();

  await page.getByRole('button', { name: 'Remove Passkey (Passkey)' }).click();
  await expect(page.getByRole('status').getByText(SECOND_FACTOR_MESSAGES.removed('Passkey'))).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await page.getByRole('button', { name: 'Remove Authenticator app (Authenticator app)' }).click();
  await expect(page.getByRole('alert').getByText(SECOND_FACTOR_MESSAGES.lastFactor)).toBeVisible();

  await page.getByRole('button', { name: 'Get new recovery codes' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = await codes.allInnerTexts();
  await page.getByRole('link', { name: 'I have saved them' }).click();
  await expect(page.getByText('10 of 10 left.')).toBeVisible();

  // The passkey is gone from the account: signing in takes a new recovery code.
  await signOut(page);
  await signIn(page, account.email, account.password, recovery[0]!);
  await consoleOpen(page);
});

/**
 * Each recovery code on one line at a phone's and a desktop's width: the box of every code is one
 * line high (no break inside it) and within the page (no sideways scrolling).
 */
async function expectCodesOnOneLine(page: Page) {
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    const codes = page.getByRole('list', { name: 'Recovery codes' }).locator('code');
    await expect(codes).toHaveCount(10);
    const lineHeight = await codes.first().evaluate((code) => parseFloat(getComputedStyle(code).fontSize) * 1.8);
    for (const code of await codes.all()) {
      const box = (await code.boundingBox())!;
      expect(box.height, `${await code.innerText()} at ${viewport.width} px`).toBeLessThan(lineHeight);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(await code.evaluate((element) => element.getClientRects().length)).toBe(1);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  }
}

/** Download (.txt): a file of that name holding every code shown. */
async function expectDownloadHolds(page: Page, codes: string[]) {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download (.txt)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('bagspace-recovery-codes.txt');
  const text = fs.readFileSync((await file.path())!, 'utf8');
  for (const code of codes) expect(text).toContain(code);
}

test('recovery codes stay on one line at 390 and 1280 px, copy to the clipboard and download as a .txt', async ({
  page,
  request,
  baseURL,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  const account = await newAdmin(request);
  await page.goto('/admin');
  await signIn(page, account.email, account.password);
  const { recoveryCodes } = await confirmAuthenticatorApp(page);
  await expectCodesOnOneLine(page);

  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('status').getByText('The codes are copied.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split('\n')).toEqual(recoveryCodes);
  await expectDownloadHolds(page, recoveryCodes);

  // The same on Sign-in security's new codes.
  await page.getByRole('link', { name: 'I have saved them: open the console' }).click();
  await consoleOpen(page);
  await page.goto('/admin/security');
  await page.getByRole('button', { name: 'Get new recovery codes' }).click();
  const renewed = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(renewed).toHaveCount(10);
  const newCodes = await renewed.allInnerTexts();
  expect(newCodes).not.toEqual(recoveryCodes);
  await expectCodesOnOneLine(page);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('status').getByText('The codes are copied.')).toBeVisible();
  expect((await page.evaluate(() => navigator.clipboard.readText())).split('\n')).toEqual(newCodes);
  await expectDownloadHolds(page, newCodes);
});

test('without JavaScript the recovery codes download as a .txt, and no Copy button shows', async ({
  browser,
  request,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const account = await newAdmin(request);
    await page.goto('/admin');
    await signIn(page, account.email, account.password);
    const { recoveryCodes } = await confirmAuthenticatorApp(page);
    await expectCodesOnOneLine(page);
    await expect(page.getByRole('button', { name: 'Copy' })).toHaveCount(0);
    await expectDownloadHolds(page, recoveryCodes);
  } finally {
    await context.close();
  }
});
