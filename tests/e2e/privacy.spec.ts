import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { DATA_EXPORT_FORMAT, PRIVACY_TEXT } from '../../src/contracts/privacy.ts';
import type { DataExport } from '../../src/contracts/privacy.schemas.ts';
import { SUPPORT_TEXT } from '../../src/contracts/support.ts';
import { openTicketByCallable, signInToTickets, verifiedAccount } from './fixtures.ts';

/** A person takes their data with one click. */
test('Download my data saves a JSON file with the person’s account and tickets', async ({ page, request }) => {
  const user = await verifiedAccount(request);
  await signInToTickets(page, user);
  await openTicketByCallable(page, 'Deactivation', 'Please send me what you hold, then delete it.');

  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByRole('link', { name: PRIVACY_TEXT.downloadData }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(fs.readFileSync((await file.path())!, 'utf8')) as DataExport;
  expect(data.format).toBe(DATA_EXPORT_FORMAT);
  expect(data.account.email).toBe(user.email);
  expect(data.tickets.map((t) => t.messages[0]!.text)).toEqual(['Please send me what you hold, then delete it.']);
  // The page stayed where it was.
  await expect(page.getByRole('heading', { name: SUPPORT_TEXT.listTitle })).toBeVisible();
});
