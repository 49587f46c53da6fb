import { expect, type Locator, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { ATTACHMENT_TEXT } from '../../src/contracts/attachments.ts';
import { jpegWithGps, pdf, png } from '../helpers/attachment-files.ts';
import { hydrated, signInAt, verifiedAccount } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';

/** A user shows us what went wrong with a photo: from the new-ticket form, the reply box (chosen, dropped, pasted). */

// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('files');
const bubbles = (page: Page) => page.getByRole('log', { name: 'Messages' }).locator('.thread__list > li');
/** An image that is on screen and decoded (its thumbnail was served and is a real picture). */
const expectShown = async (image: Locator) => {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
};

test('a photo from the new-ticket form and files from the reply box reach the admin', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  // Files chosen, dropped and pasted, thumbnails made by the server, a second browser and a live
  // answer: more than the default time on a loaded 2-core machine.
  test.setTimeout(120_000);
  const user = await verifiedAccount(request);
  await signInAt(page, '/support/create-ticket', user);
  // Wait for the form, then for its hydration (a choice made before it would be reset by React
  // taking over the select).
  await expect(page.getByLabel('Reason')).toBeVisible();
  await hydrated(page);
  await page.getByLabel('Reason').selectOption('Incident');
  await page.getByLabel('Message').fill('My suitcase arrived with a broken wheel.');
  const photo = await jpegWithGps(1600, 1200);
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'wheel.jpg', mimeType: 'image/jpeg', buffer: photo }]);
  // The chosen file is listed with a preview, and can be removed.
  await expect(page.getByRole('list', { name: ATTACHMENT_TEXT.attachments })).toContainText('wheel.jpg');
  // A file that is not a photo or a PDF is refused at once, in words.
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'fake.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('GIF89a not really a photo') }]);
  await expect(page.getByRole('alert')).toHaveText(ATTACHMENT_TEXT.unsupported('fake.jpg'));
  await expect(page.getByRole('listitem').filter({ hasText: 'fake.jpg' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Submit' }).click();

  // Opened, or the reason it was not, in the message box.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.waitForURL(/\/support\/ticket\//, { timeout: 15_000 });
  await hydrated(page);
  const first = bubbles(page).first();
  await expect(first).toContainText('broken wheel');
  await expectShown(first.getByRole('img', { name: 'wheel.jpg' }));
  // The thumbnail opens the full photo, without its GPS tags.
  const fullUrl = await first.getByRole('link', { name: ATTACHMENT_TEXT.openImage('wheel.jpg') }).getAttribute('href');
  const full = await page.request.get(fullUrl!);
  expect(full.headers()['content-type']).toBe('image/jpeg');
  expect((await sharp(await full.body()).metadata()).exif).toBeUndefined();

  // From the reply box: a PDF chosen, a photo dropped, a screenshot pasted, sent as one message with a progress bar.
  await page.evaluate(() => {
    const w = window as unknown as { sawProgress: boolean };
    w.sawProgress = false;
    new MutationObserver(() => {
      if (document.querySelector('.reply-box progress')) w.sawProgress = true;
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: pdf(4_000_000) }]);
  const box = page.locator('form.reply-box');
  const images = {
    dropped: (await png(300, 200)).toString('base64'),
    pasted: (await png(200, 120)).toString('base64'),
  };
  await box.evaluate((form, files) => {
    const transfer = (name: string, base64: string) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'image/png' }));
      return data;
    };
    const dropped = transfer('dropped.png', files.dropped);
    form.dispatchEvent(new DragEvent('dragover', { dataTransfer: dropped, bubbles: true, cancelable: true }));
    form.dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }));
    form.querySelector('textarea')!.dispatchEvent(
      new ClipboardEvent('paste', {
        clipboardData: transfer('image.png', files.pasted),
        bubbles: true,
        cancelable: true,
      }),
    );
  }, images);
  const chosen = box.getByRole('list', { name: ATTACHMENT_TEXT.attachments });
  await expect(chosen.getByRole('listitem')).toHaveText([/receipt\.pdf/, /dropped\.png/, /image\.png/]);
  await chosen.getByRole('button', { name: ATTACHMENT_TEXT.remove('image.png') }).click();
  await expect(chosen.getByRole('listitem')).toHaveCount(2);
  await page.getByPlaceholder('Write a message').fill('The receipt, and the wheel up close.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(page)).toHaveCount(2);
  const second = bubbles(page).nth(1);
  await expect(second.getByRole('link', { name: /receipt\.pdf/ })).toBeVisible();
  await expectShown(second.getByRole('img', { name: 'dropped.png' }));
  expect(await page.evaluate(() => (window as unknown as { sawProgress: boolean }).sawProgress)).toBe(true);
  await expect(box.getByRole('list', { name: ATTACHMENT_TEXT.attachments })).toHaveCount(0);

  // A message can be only files.
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'another.png', mimeType: 'image/png', buffer: await png() }]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(page)).toHaveCount(3);
  await expectShown(bubbles(page).nth(2).getByRole('img', { name: 'another.png' }));

  // The admin sees the photos and the PDF.
  const ticketPath = new URL(page.url()).pathname.replace('/support/ticket/', '/admin/support/');
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signInAt(adminPage, ticketPath, ADMIN);
  await hydrated(adminPage);
  await expectShown(bubbles(adminPage).first().getByRole('img', { name: 'wheel.jpg' }));
  await expectShown(bubbles(adminPage).nth(1).getByRole('img', { name: 'dropped.png' }));
  const download = adminPage.waitForEvent('download', { timeout: 30_000 });
  await bubbles(adminPage)
    .nth(1)
    .getByRole('link', { name: /receipt\.pdf/ })
    .click();
  expect((await download).suggestedFilename()).toBe('receipt.pdf');
  // And answers with a file the user sees live.
  await adminPage
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'claim-form.pdf', mimeType: 'application/pdf', buffer: pdf() }]);
  await adminPage.getByPlaceholder('Write a message').fill('Please fill in this claim form.');
  await adminPage.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(page).last()).toContainText('Please fill in this claim form.');
  await expect(
    bubbles(page)
      .last()
      .getByRole('link', { name: /claim-form\.pdf/ }),
  ).toBeVisible();
  await admin.close();
});

test('without JavaScript, the new-ticket form and the reply box send files too', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await verifiedAccount(request);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAt(page, '/support/create-ticket', user);
  await page.getByLabel('Reason').selectOption('Incident');
  await page.getByLabel('Message').fill('The zip of my bag is torn.');
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'zip.png', mimeType: 'image/png', buffer: await png() }]);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/support\/ticket\//);
  await expect(bubbles(page).first().getByRole('img', { name: 'zip.png' })).toBeVisible();

  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([{ name: 'more.pdf', mimeType: 'application/pdf', buffer: pdf() }]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(bubbles(page)).toHaveCount(2);
  await expect(
    bubbles(page)
      .nth(1)
      .getByRole('link', { name: /more\.pdf/ }),
  ).toBeVisible();

  // A refused file comes back with why, and the text kept.
  await page.getByLabel('Your message').fill('One more');
  await page
    .getByLabel(ATTACHMENT_TEXT.attach)
    .setInputFiles([
      { name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<html><script>alert(1)</script>') },
    ]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert').filter({ hasText: ATTACHMENT_TEXT.unsupported('page.html') })).toBeVisible();
  await expect(page.getByLabel('Your message')).toHaveValue('One more');
  await expect(bubbles(page)).toHaveCount(2);
  await context.close();
});
