import fs from 'node:fs';
import { request } from '@playwright/test';
import { adminFactorFile, currentStep, totpAt } from './second-factor.ts';

/**
 * After the server started (Playwright starts the webServer first): the e2e admin, made by the CLI,
 * sets up its authenticator app through the API as a first visit to the console does, and keeps
 * the session that passed it for the specs' API clients.
 */
export default async function globalSetup() {
  const baseURL = `http://localhost:${process.env.E2E_PORT ?? 4310}`;
  const api = await request.newContext({ baseURL });
  const email = process.env.E2E_ADMIN_EMAIL!;
  const signIn = await api.post('/api/auth/login', {
    data: { email, password: process.env.E2E_ADMIN_PASSWORD, session: 'token' },
  });
  if (signIn.status() !== 200) throw new Error(`e2e admin sign-in: ${signIn.status()} ${await signIn.text()}`);
  const token = ((await signIn.json()) as { session: { token: string } }).session.token;
  const headers = { authorization: `Bearer ${token}` };
  const offer = await api.post('/api/admin/second-factor/totp', { headers, data: {} });
  if (offer.status() !== 200) throw new Error(`e2e admin enrolment: ${offer.status()} ${await offer.text()}`);
  const { factorId, secret } = (await offer.json()) as { factorId: string; secret: string };
  const enrolledStep = currentStep();
  const confirmed = await api.post('/api/admin/second-factor/totp/confirm', {
    headers,
    data: { factorId, code: await totpAt(secret, enrolledStep) },
  });
  if (confirmed.status() !== 200)
    throw new Error(`e2e admin confirmation: ${confirmed.status()} ${await confirmed.text()}`);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
  fs.writeFileSync(adminFactorFile(), JSON.stringify({ secret, recoveryCodes, enrolledStep, token }));
  await api.dispose();
}
