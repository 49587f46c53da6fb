import { expect, test } from '@playwright/test';
import { hydrated, openTicketByCallable, signIn, verifiedAccount } from './fixtures.ts';

/**
 * A ticket's times come with its page (src/contracts/dates.ts): the browser hydrates the thread
 * without building a date formatter (the first one loads the time-zone data, a long task on a
 * phone), shows the times the server wrote, and formats a time itself only for a message that
 * arrives later.
 */
test('a ticket hydrates with the times its server wrote, and formats only the ones that arrive later', async ({
  page,
  request,
}) => {
  const user = await verifiedAccount(request);
  await signIn(page, user.email, user.password);
  const { ticketId } = await openTicketByCallable(page, 'Incident', 'Where is my parcel?');
  for (const messageBody of ['It was due on Monday.', 'It is a blue box.']) {
    const sent = await page.request.post(`/api/support/tickets/${ticketId}/messages`, { data: { messageBody } });
    expect(sent.status()).toBe(200);
  }
  await page.addInitScript(() => {
    const Formatter = Intl.DateTimeFormat;
    const built: string[] = [];
    (window as unknown as { formattersBuilt: string[] }).formattersBuilt = built;
    Intl.DateTimeFormat = new Proxy(Formatter, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        built.push(JSON.stringify(args));
        return Reflect.construct(target, args) as object;
      },
      apply(target, self, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        built.push(JSON.stringify(args));
        return Reflect.apply(target, self, args) as Intl.DateTimeFormat;
      },
    });
  });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const served = await (await page.request.get(`/support/ticket/${ticketId}`)).text();
  const writtenByServer = [...served.matchAll(/<time dateTime="[^"]+">([^<]*)<\/time>/g)].map((m) => m[1]);
  expect(writtenByServer).toHaveLength(3);

  await page.goto(`/support/ticket/${ticketId}`);
  await hydrated(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const times = page.locator('.thread time');
  await expect(times).toHaveText(writtenByServer as string[]);
  const builtOnLoad = await page.evaluate(() => (window as unknown as { formattersBuilt: string[] }).formattersBuilt);
  expect(builtOnLoad).toEqual([]);
  // The element that carried them is gone once the app has read it.
  await expect(page.locator('#date-texts')).toHaveCount(0);

  // A message that arrives live gets its time from the browser's own formatter.
  const sent = await page.request.post(`/api/support/tickets/${ticketId}/messages`, {
    data: { messageBody: 'Found it, thanks!' },
  });
  expect(sent.status()).toBe(200);
  await expect(page.getByText('Found it, thanks!')).toBeVisible();
  await expect(times).toHaveCount(4);
  await expect(times.nth(3)).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}\s?[ap]m$/);
  const builtLater = await page.evaluate(() => (window as unknown as { formattersBuilt: string[] }).formattersBuilt);
  expect(builtLater.length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
