import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page, request as playwrightRequest } from '@playwright/test';
import { linkIn, tokenFrom, waitForMails } from '../support/mail.ts';

/** Accounts for browser tests, made the way a person makes them: sign up, confirm from the mail. */
export const newEmail = (label: string) => `${label}-${randomBytes(5).toString('hex')}@example.nz`;
export const newPassword = () => `Harbour-${randomBytes(5).toString('hex')}-kite`;

export async function verifiedAccount(request: APIRequestContext) {
  const email = newEmail('e2e');
  const password = newPassword();
  expect((await request.post('/api/auth/signup', { data: { email, password } })).status()).toBe(202);
  const [mail] = await waitForMails(process.env.E2E_DATA_DIR!, email);
  const token = tokenFrom(linkIn(mail!, 'http://localhost'));
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  return { email, password };
}

export async function signInOnLoginScreen(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** An API client signed in as the admin the e2e server was started with (made by the CLI). */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const res = await api.post('/api/auth/login', {
    data: { email: process.env.E2E_ADMIN_EMAIL, password: process.env.E2E_ADMIN_PASSWORD },
  });
  expect(res.status()).toBe(200);
  return api;
}
