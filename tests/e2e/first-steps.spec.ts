import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { generateSecret } from 'otplib';
import { FIRST_STEPS_TEXT } from '../../src/contracts/admin.ts';
import { SAVED_REPLY_TEXT } from '../../src/contracts/desk.ts';
import { BUSINESS_HOURS_TEXT, CALENDAR_TEXT } from '../../src/contracts/service-levels.ts';
import { freePort } from '../helpers/ports.ts';
import { createUserWithCli, ROOT, type ServerProcess, startServer } from '../helpers/server-process.ts';
import { newEmail, newPassword, signInAt } from './fixtures.ts';
import { registerAdminSecret } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * A new console's first steps on /admin, with JavaScript and without: the list a team sees on its
 * first day, and a step ticked once it is done through its page. The shared e2e server's console
 * has long done all four (other specs' admins, saved replies and answers), so this file starts a
 * server of its own on an empty data directory, as `npm start` does.
 */
const ADMIN = { email: newEmail('first-steps'), password: newPassword() };
const ADMIN_SECRET = generateSecret();
registerAdminSecret(ADMIN.email, ADMIN_SECRET);

let server: ServerProcess | undefined;
let baseURL = '';
let dataDir = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  dataDir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'e2e-first-steps-'));
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: baseURL,
  };
  await createUserWithCli(env, ADMIN.email, ADMIN.password, ['--admin', '--totp-secret', ADMIN_SECRET]);
  server = startServer(env, { script: 'scripts/start.js' });
  expect(await server.ready).toBe(baseURL);
});

test.afterAll(async () => {
  const code = await server?.stop();
  expect(code, server?.output()).toBe(0);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function consoleHome(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  await signInAt(page, '/admin', ADMIN);
  return { context, page };
}

const firstSteps = (page: Page) => page.getByRole('region', { name: FIRST_STEPS_TEXT.title });
/** A step's line: its link and its Done or To do. */
const stepOf = (page: Page, key: keyof typeof FIRST_STEPS_TEXT.steps) =>
  firstSteps(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: FIRST_STEPS_TEXT.steps[key].label }) });

test('a new console lists its first steps, and saving the business hours ticks one (JavaScript on)', async ({
  browser,
}) => {
  const { context, page } = await consoleHome(browser, true);
  await expect(firstSteps(page)).toContainText(FIRST_STEPS_TEXT.progress(0, 4));
  for (const key of ['businessHours', 'teammate', 'savedReply', 'testTicket'] as const)
    await expect(stepOf(page, key)).toContainText(FIRST_STEPS_TEXT.toDo);
  await expectNoAxeViolations(page);

  await stepOf(page, 'businessHours').getByRole('link').click();
  await expect(page).toHaveURL(/\/admin\/business-hours$/);
  await page.getByRole('button', { name: BUSINESS_HOURS_TEXT.saveHours }).click();
  await expect(page.getByText(CALENDAR_TEXT.saved)).toBeVisible();
  await page.goto('/admin');
  await expect(stepOf(page, 'businessHours')).toContainText(FIRST_STEPS_TEXT.done);
  await expect(firstSteps(page)).toContainText(FIRST_STEPS_TEXT.progress(1, 4));
  await context.close();
});

test('without JavaScript the list is the same page, and a saved reply ticks its step', async ({ browser }) => {
  const { context, page } = await consoleHome(browser, false);
  await expect(stepOf(page, 'businessHours')).toContainText(FIRST_STEPS_TEXT.done);
  await expect(stepOf(page, 'savedReply')).toContainText(FIRST_STEPS_TEXT.toDo);

  await stepOf(page, 'savedReply').getByRole('link').click();
  await expect(page).toHaveURL(/\/admin\/saved-replies$/);
  await page.getByLabel(SAVED_REPLY_TEXT.titleLabel).fill('Where is my parcel');
  await page.getByLabel(SAVED_REPLY_TEXT.bodyLabel).fill('Your parcel is on its way: ticket {{ticket.number}}.');
  await page.getByRole('button', { name: SAVED_REPLY_TEXT.add }).click();
  await expect(page.getByText('Where is my parcel').first()).toBeVisible();
  await page.goto('/admin');
  await expect(stepOf(page, 'savedReply')).toContainText(FIRST_STEPS_TEXT.done);
  await expect(firstSteps(page)).toContainText(FIRST_STEPS_TEXT.progress(2, 4));
  await context.close();
});
