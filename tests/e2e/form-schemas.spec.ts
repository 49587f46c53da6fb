import { expect, test } from '@playwright/test';
import { AUTH_MESSAGES } from '../../src/contracts/auth.ts';
import { LABEL_TEXT } from '../../src/contracts/labels.ts';
import { hydrated, newPassword, signInAt, signInToTickets, verifiedAccount } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';

/**
 * Decision 119 in Chromium: a customer's page loads no zod and no schema on its first visit; its
 * form loads its schema when first used, and a submit that comes before the schema is held, checked
 * and only then sent, so a form the schema refuses never reaches the server. Decision 159: the
 * console's pages too.
 */
const isSchemaFile = (url: string) => /\/assets\/(zod|[\w-]+\.schemas)-[\w-]+\.js$/.test(new URL(url).pathname);

test('the password form loads its schema when used, and an empty form is refused before anything is sent', async ({
  page,
  request,
}) => {
  const user = await verifiedAccount(request);
  await signInToTickets(page, user);
  const scripts: string[] = [];
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
    if (r.method() === 'POST') posts.push(r.url());
  });

  await page.goto('/account/password');
  await hydrated(page);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter(isSchemaFile)).toEqual([]);

  // Submit at once, nothing typed: the click is the form's first use, so the submit waits for the
  // schema, which refuses it in the browser.
  const schemaLoaded = page.waitForRequest((r) => isSchemaFile(r.url()));
  await page.getByRole('button', { name: 'Change password' }).click();
  await schemaLoaded;
  await expect(page.getByText(AUTH_MESSAGES.currentPasswordRequired)).toBeVisible();
  await expect(page.getByLabel('Current password')).toBeFocused();
  expect(posts).toEqual([]);

  // A form the schema accepts goes to the server, which answers for what only it can know.
  const next = newPassword();
  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password').fill(next);
  const sent = page.waitForRequest((r) => r.method() === 'POST');
  await page.getByRole('button', { name: 'Change password' }).click();
  expect(new URL((await sent).url()).pathname).toMatch(/^\/account\/password/);
  await expect(page.getByText(AUTH_MESSAGES.currentPasswordWrong)).toBeVisible();
});

test('a console page loads no schema until its form is used; an empty label is refused before anything is sent', async ({
  page,
}) => {
  await signInAt(page, '/admin', teamAdmin('schemas'));
  const scripts: string[] = [];
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
    if (r.method() === 'POST') posts.push(r.url());
  });

  await page.goto('/admin/labels');
  await hydrated(page);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter(isSchemaFile)).toEqual([]);

  const add = page.getByRole('form', { name: LABEL_TEXT.add });
  const schemaLoaded = page.waitForRequest((r) => isSchemaFile(r.url()));
  await add.getByRole('button', { name: LABEL_TEXT.add }).click();
  await schemaLoaded;
  await expect(add.getByText(LABEL_TEXT.nameRequired)).toBeVisible();
  await expect(add.getByLabel(LABEL_TEXT.nameLabel)).toBeFocused();
  expect(posts).toEqual([]);
});
