import { expect, test } from '@playwright/test';
import { INTEGRATION_TEXT as T } from '../../src/contracts/integrations.ts';
import { signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations, watchPage } from './support.ts';

/**
 * The console's Integrations (docs/integrations.md) in Chromium, with JavaScript and without: a key
 * is made and its secret shown once (gone after a reload, the last four characters listed), the
 * key works against the API, and a webhook endpoint is added and its signing secret shown.
 */
const ADMIN = teamAdmin('integrations');

for (const javaScriptEnabled of [true, false]) {
  test(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}: a key shown once, and a webhook endpoint`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const suffix = `${test.info().repeatEachIndex}-${javaScriptEnabled ? 'js' : 'no-js'}`;
    const context = await browser.newContext({ baseURL, javaScriptEnabled });
    const page = await context.newPage();
    const watched = watchPage(page, baseURL!);
    await signInAt(page, '/admin/integrations', ADMIN);
    await expect(page.getByRole('heading', { name: T.title, level: 1 })).toBeVisible();

    const form = page.getByRole('form', { name: T.createKey });
    await form.getByRole('button', { name: T.createKey }).click();
    await expect(form.getByText(T.nameRequired)).toBeVisible();
    await form.getByRole('textbox', { name: T.keyName }).fill(`App ${suffix}`);
    await form.getByRole('checkbox', { name: /tickets:read/ }).check();
    await form.getByRole('button', { name: T.createKey }).click();
    await expect(page.getByText(T.keyCreated)).toBeVisible();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).toMatch(/^bsk_[A-Za-z0-9_-]{43}$/);
    const read = await request.get(`/api/app/partners`, { headers: { authorization: `Bearer ${secret}` } });
    expect(read.status()).toBe(403);
    const tickets = await request.get(`/api/app/tickets?userEmail=${encodeURIComponent(ADMIN.email)}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(tickets.status()).toBe(200);
    // Opened again (a reload would send the form again, as any browser does after a post).
    await page.goto('/admin/integrations');
    await expect(page.getByTestId('new-key')).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(`App ${suffix}`) })).toContainText(`…${secret.slice(-4)}`);

    const hook = page.getByRole('form', { name: T.addWebhook });
    await hook.getByRole('textbox', { name: T.url }).fill(`https://app.example.com/hooks/${suffix}`);
    await hook.getByRole('button', { name: T.addWebhook }).click();
    await expect(
      page.getByRole('heading', { name: `https://app.example.com/hooks/${suffix}`, level: 1 }),
    ).toBeVisible();
    await page.getByRole('button', { name: T.showSecret }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    await page.screenshot({ path: test.info().outputPath('webhook.png'), fullPage: true });
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    // The refused empty form answers 400 (the browser logs it); nothing else may go wrong.
    expect(watched.problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
    expect(watched.foreign).toEqual([]);
    await context.close();
  });
}
