import { expect, type Page, test } from '@playwright/test';
import { CLAIM_OUTCOME_TEXT, CLAIM_STATE_TEXT, CLAIM_TEXT } from '../../src/contracts/claims.ts';
import { linkIn, waitForMails } from '../helpers/mail.ts';
import { jpegWithGps, pdf } from '../helpers/attachment-files.ts';
import { adminApi, hydrated, signInAt, verifiedAccount } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectFitsScreen, expectNoAxeViolations, VIEWPORTS } from './support.ts';

/**
 * A sender reports a damaged item in Chromium (docs/decisions/152-incident-claims.md): the incident's
 * fields show once Incident Report is chosen (and are always there without JavaScript); a damaged
 * item without a photo is refused in words and nothing typed is lost; with one, the claim opens.
 */
async function claimOf(baseURL: string, ticketId: string) {
  const api = await adminApi(baseURL);
  const claim = (await (await api.get(`/api/admin/support/tickets/${ticketId}/claim`)).json()).claim;
  await api.dispose();
  return claim;
}

// An admin of this spec's own (its own one-time codes: second-factor.ts).
const ADMIN = teamAdmin('claims');

const ticketIdOf = (page: Page) => /\/support\/ticket\/([0-9a-f-]{36})/.exec(page.url())![1]!;

test('with JavaScript: the incident’s fields come with Incident Report; a damaged item needs its photo', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const user = await verifiedAccount(request);
  await signInAt(page, '/support/create-ticket?reason=Incident&delivery=BGS-5150', user);
  await hydrated(page);
  const fields = page.getByRole('group', { name: CLAIM_TEXT.legend });
  // The app's link chose the reason and the delivery.
  await expect(fields).toBeVisible();
  await expect(page.getByLabel(CLAIM_TEXT.delivery)).toHaveValue('BGS-5150');
  await page.getByLabel('Reason').selectOption('General');
  await expect(fields).toBeHidden();
  await page.getByLabel('Reason').selectOption('Incident');
  await expect(fields).toBeVisible();
  await page.getByLabel(CLAIM_TEXT.kind).selectOption('damaged');
  await page.getByLabel(CLAIM_TEXT.value).fill('ten dollars');
  await page.getByLabel(CLAIM_TEXT.deliveredOn).focus();
  await expect(page.getByText(CLAIM_TEXT.valueInvalid)).toBeVisible();
  await page.getByLabel(CLAIM_TEXT.value).fill('149.95');
  await expect(page.getByText(CLAIM_TEXT.valueInvalid)).toBeHidden();
  await page.getByLabel('Message').fill('The speaker arrived with a cracked case.');
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    await expectFitsScreen(page, `the Contact us form with its incident fields at ${viewport.width} px`);
    await expectNoAxeViolations(page);
  }

  // No photo: refused, in words; everything typed stays.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(CLAIM_TEXT.photoRequired);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByLabel(CLAIM_TEXT.value)).toHaveValue('149.95');
  await expect(page.getByLabel('Message')).toHaveValue('The speaker arrived with a cracked case.');

  await page
    .getByLabel('Attach files')
    .setInputFiles([{ name: 'speaker.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps() }]);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/support\/ticket\//, { timeout: 15_000 });
  expect(await claimOf(baseURL!, ticketIdOf(page))).toMatchObject({
    kind: 'damaged',
    deliveryReference: 'BGS-5150',
    itemValueCents: 14995,
    evidence: 1,
    state: 'submitted',
  });
});

test('without JavaScript: the same claim is a real form post, refused and kept, then opened', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.phone, javaScriptEnabled: false });
  const page = await context.newPage();
  const user = await verifiedAccount(request);
  await signInAt(page, '/support/create-ticket', user);
  await expect(page.getByRole('group', { name: CLAIM_TEXT.legend })).toBeVisible();
  await page.getByLabel('Reason').selectOption('Incident');
  await page.getByLabel('Message').fill('My guitar arrived with a snapped neck.');
  await page.getByLabel(CLAIM_TEXT.kind).selectOption('damaged');
  await page.getByLabel(CLAIM_TEXT.delivery).fill('BGS-5151');
  await page.getByLabel(CLAIM_TEXT.value).fill('$1,250');
  await page
    .getByLabel('Attach files')
    .setInputFiles([{ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: pdf() }]);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(CLAIM_TEXT.photoRequired).first()).toBeVisible();
  await expect(page.getByLabel(CLAIM_TEXT.delivery)).toHaveValue('BGS-5151');
  await expect(page.getByLabel(CLAIM_TEXT.value)).toHaveValue('$1,250');
  await expect(page.getByLabel('Message')).toHaveValue('My guitar arrived with a snapped neck.');
  await expectFitsScreen(page, 'the refused claim without JavaScript');

  await page
    .getByLabel('Attach files')
    .setInputFiles([{ name: 'neck.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps() }]);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/\/support\/ticket\//, { timeout: 15_000 });
  expect(await claimOf(baseURL!, ticketIdOf(page))).toMatchObject({
    kind: 'damaged',
    deliveryReference: 'BGS-5151',
    itemValueCents: 125000,
    evidence: 1,
  });
  await context.close();
});

test('staff read the claim beside the ticket and decide it; the page shows the decision', async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: user })).status()).toBe(200);
  const opened = await request.post('/api/support/tickets', {
    data: {
      reason: 'Incident',
      message: 'My parcel never came.',
      claimKind: 'lost',
      deliveryReference: 'BGS-5152',
      itemValue: '80',
      deliveredOn: '2026-11-30',
    },
  });
  expect(opened.status()).toBe(201);
  const { ticketId } = (await opened.json()) as { ticketId: string };
  await signInAt(page, `/admin/support/${ticketId}`, ADMIN);
  await hydrated(page);
  const panel = page.getByRole('region', { name: CLAIM_TEXT.panelTitle });
  await expect(panel).toContainText('BGS-5152');
  await expect(panel).toContainText('$80.00');
  await expect(panel).toContainText('30 November 2026');
  for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    await panel.scrollIntoViewIfNeeded();
    await expectFitsScreen(page, `the claim at ${viewport.width} px`);
    await expectNoAxeViolations(page);
  }
  if (process.env.CLAIM_SCREENSHOTS)
    await panel.screenshot({ path: `${process.env.CLAIM_SCREENSHOTS}/claim-panel.png` });
  const form = panel.getByRole('form', { name: CLAIM_TEXT.decide });
  await form.getByLabel(CLAIM_TEXT.outcome).selectOption('part');
  await form.getByLabel(CLAIM_TEXT.amount).fill('90');
  await form.getByRole('button', { name: CLAIM_TEXT.decide }).click();
  await expect(form.getByText(CLAIM_TEXT.amountOverValue('$80.00'))).toBeVisible();
  await form.getByLabel(CLAIM_TEXT.amount).fill('55.50');
  await form.getByRole('button', { name: CLAIM_TEXT.decide }).click();
  await expect(panel).toContainText('Upheld in part: $55.50');
  await expect(panel.getByRole('form', { name: CLAIM_TEXT.decide })).toHaveCount(0);
});

test('the traveller is asked from the panel, answers from the mail’s link with a photo, and the sender appeals', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const sender = await verifiedAccount(request);
  const traveller = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: sender })).status()).toBe(200);
  const opened = await request.post('/api/support/tickets', {
    data: {
      reason: 'Incident',
      message: 'Only for the team: my drone never came.',
      claimKind: 'lost',
      deliveryReference: 'BGS-5153',
      itemValue: '400',
    },
  });
  const { ticketId } = (await opened.json()) as { ticketId: string };

  // Staff ask the traveller from the claim's panel.
  await signInAt(page, `/admin/support/${ticketId}`, ADMIN);
  await hydrated(page);
  const panel = page.getByRole('region', { name: CLAIM_TEXT.panelTitle });
  await panel.getByText(CLAIM_TEXT.askTraveller, { exact: true }).first().click();
  const ask = panel.getByRole('form', { name: CLAIM_TEXT.askTraveller });
  await ask.getByLabel(CLAIM_TEXT.travellerEmail).fill(traveller.email);
  await ask.getByLabel(CLAIM_TEXT.travellerStatement).fill('When and where did you hand over the drone?');
  await ask.getByRole('button', { name: CLAIM_TEXT.askTraveller }).click();
  await expect(panel).toContainText(CLAIM_STATE_TEXT['with-traveller']);

  // The traveller follows the mail's link, signs in and answers with a photo.
  // (Their first mail was the address's confirmation.)
  const mails = await waitForMails(process.env.E2E_DATA_DIR!, traveller.email, 2);
  const link = linkIn(
    mails.find((m) => m.subject === CLAIM_TEXT.travellerMail('BGS-5153'))!,
    'http://localhost',
  );
  const travellerContext = await browser.newContext();
  const theirs = await travellerContext.newPage();
  await signInAt(theirs, new URL(link).pathname, traveller);
  await expect(theirs.getByRole('heading', { name: CLAIM_TEXT.travellerTitle })).toBeVisible();
  await expect(theirs.getByText('When and where did you hand over the drone?')).toBeVisible();
  await expect(theirs.getByText('my drone never came')).toHaveCount(0);
  await expectNoAxeViolations(theirs);
  if (process.env.CLAIM_SCREENSHOTS)
    await theirs.screenshot({ path: `${process.env.CLAIM_SCREENSHOTS}/traveller-page.png`, fullPage: true });
  await theirs
    .getByRole('textbox', { name: CLAIM_TEXT.travellerAnswer })
    .fill('At Christchurch airport on Monday, sealed.');
  await theirs
    .getByLabel(CLAIM_TEXT.travellerFiles)
    .setInputFiles({ name: 'handover.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps() });
  await theirs.getByRole('button', { name: CLAIM_TEXT.sendAnswer }).click();
  await expect(theirs.getByText(CLAIM_TEXT.answerSent)).toBeVisible();
  await travellerContext.close();

  // Staff see the answer as a note; the claim is back with them.
  await page.reload();
  await expect(page.getByText('At Christchurch airport on Monday, sealed.')).toBeVisible();
  await expect(panel).toContainText(CLAIM_STATE_TEXT.submitted);
  if (process.env.CLAIM_SCREENSHOTS)
    await panel.screenshot({ path: `${process.env.CLAIM_SCREENSHOTS}/claim-answered.png` });
  const decide = panel.getByRole('form', { name: CLAIM_TEXT.decide });
  await decide.getByLabel(CLAIM_TEXT.outcome).selectOption('declined');
  await decide.getByLabel(CLAIM_TEXT.reason).fill('It was handed over sealed.');
  await decide.getByRole('button', { name: CLAIM_TEXT.decide }).click();
  await expect(panel).toContainText(CLAIM_OUTCOME_TEXT.declined);

  // The sender appeals on their ticket's page.
  const senderContext = await browser.newContext();
  const senders = await senderContext.newPage();
  await signInAt(senders, `/support/ticket/${ticketId}`, sender);
  const appeal = senders.getByRole('form', { name: CLAIM_TEXT.appeal });
  await expect(senders.getByText('At Christchurch airport')).toHaveCount(0);
  await appeal.getByRole('textbox', { name: CLAIM_TEXT.appealReason }).fill('The seal was broken when it came.');
  await appeal.getByRole('button', { name: CLAIM_TEXT.appeal }).click();
  await expect(senders.getByText(CLAIM_TEXT.appealed)).toBeVisible();
  await expectNoAxeViolations(senders);
  if (process.env.CLAIM_SCREENSHOTS)
    await senders.screenshot({ path: `${process.env.CLAIM_SCREENSHOTS}/sender-appealed.png`, fullPage: true });
  await senderContext.close();
});

test('without JavaScript: staff ask the traveller, the traveller answers with a photo, the sender appeals', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const sender = await verifiedAccount(request);
  const traveller = await verifiedAccount(request);
  expect((await request.post('/api/auth/login', { data: sender })).status()).toBe(200);
  const opened = await request.post('/api/support/tickets', {
    data: {
      reason: 'Incident',
      message: 'My kayak paddle never came.',
      claimKind: 'lost',
      deliveryReference: 'BGS-5154',
      itemValue: '90',
    },
  });
  const { ticketId } = (await opened.json()) as { ticketId: string };
  const noScript = () => browser.newContext({ baseURL, viewport: VIEWPORTS.phone, javaScriptEnabled: false });

  const staffContext = await noScript();
  const staff = await staffContext.newPage();
  await signInAt(staff, `/admin/support/${ticketId}`, ADMIN);
  const panel = staff.getByRole('region', { name: CLAIM_TEXT.panelTitle });
  await panel.getByText(CLAIM_TEXT.askTraveller, { exact: true }).first().click();
  const ask = panel.getByRole('form', { name: CLAIM_TEXT.askTraveller });
  await ask.getByLabel(CLAIM_TEXT.travellerEmail).fill(traveller.email);
  await ask.getByLabel(CLAIM_TEXT.travellerStatement).fill('Did the paddle fit in your bag?');
  await ask.getByRole('button', { name: CLAIM_TEXT.askTraveller }).click();
  await expect(panel).toContainText(CLAIM_STATE_TEXT['with-traveller']);

  const mails = await waitForMails(process.env.E2E_DATA_DIR!, traveller.email, 2);
  const link = linkIn(
    mails.find((m) => m.subject === CLAIM_TEXT.travellerMail('BGS-5154'))!,
    'http://localhost',
  );
  const travellerContext = await noScript();
  const theirs = await travellerContext.newPage();
  await signInAt(theirs, new URL(link).pathname, traveller);
  // Sent empty: the page comes back with why.
  await theirs.getByRole('button', { name: CLAIM_TEXT.sendAnswer }).click();
  await expect(theirs.getByRole('heading', { name: CLAIM_TEXT.travellerTitle })).toBeVisible();
  await theirs
    .getByRole('textbox', { name: CLAIM_TEXT.travellerAnswer })
    .fill('It fitted; I gave it over at Queenstown.');
  await theirs
    .getByLabel(CLAIM_TEXT.travellerFiles)
    .setInputFiles({ name: 'paddle.jpg', mimeType: 'image/jpeg', buffer: await jpegWithGps() });
  await theirs.getByRole('button', { name: CLAIM_TEXT.sendAnswer }).click();
  await expect(theirs.getByText(CLAIM_TEXT.answerSent)).toBeVisible();
  await expectFitsScreen(theirs, 'the traveller’s answered claim without JavaScript');
  await travellerContext.close();

  await staff.reload();
  await expect(staff.getByText('It fitted; I gave it over at Queenstown.')).toBeVisible();
  const decide = panel.getByRole('form', { name: CLAIM_TEXT.decide });
  await decide.getByLabel(CLAIM_TEXT.outcome).selectOption('part');
  await decide.getByLabel(CLAIM_TEXT.amount).fill('45');
  await decide.getByRole('button', { name: CLAIM_TEXT.decide }).click();
  await expect(panel).toContainText('Upheld in part: $45.00');
  await staffContext.close();

  const senderContext = await noScript();
  const senders = await senderContext.newPage();
  await signInAt(senders, `/support/ticket/${ticketId}`, sender);
  const appeal = senders.getByRole('form', { name: CLAIM_TEXT.appeal });
  await appeal.getByRole('textbox', { name: CLAIM_TEXT.appealReason }).fill('It cost $90, not $45.');
  await appeal.getByRole('button', { name: CLAIM_TEXT.appeal }).click();
  await expect(senders.getByText(CLAIM_TEXT.appealed)).toBeVisible();
  await senderContext.close();
});
