import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { FIXTURE_REFERENCES } from '../../scripts/delivery-app.ts';
import { DELIVERY_TEXT } from '../../src/contracts/delivery-card.ts';
import { adminApi, customerTicket, hydrated, signIn } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';

/**
 * The delivery on the ticket (docs/decisions/151-delivery-card.md): staff give a ticket its delivery
 * reference and see what the app says of it; the page never waits for the app, and says in words
 * when the app is slow, failing or knows no such delivery. The app is the stand-in global-setup.ts
 * starts (scripts/delivery-app.ts).
 */

const ADMIN = teamAdmin('delivery');
const dataDir = process.env.E2E_DATA_DIR!;
/** One sign-in for the whole file (an admin's code is one per 30 s): its tests share a worker. */
test.describe.configure({ mode: 'default' });

let session: string | undefined;
/** A context signed in as this spec's admin, with JavaScript on or off. */
async function staffPage(browser: Browser, baseURL: string, javaScriptEnabled = true): Promise<Page> {
  if (!session) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await signIn(page, ADMIN.email, ADMIN.password);
    session = `${dataDir}/delivery-session-${randomBytes(4).toString('hex')}.json`;
    await context.storageState({ path: session });
    await context.close();
  }
  const context = await browser.newContext({ baseURL, javaScriptEnabled, storageState: session });
  return context.newPage();
}

/** A customer's ticket, given this delivery reference by the team through the API. */
async function ticketWith(request: APIRequestContext, baseURL: string, reference: string | null) {
  const ticket = await customerTicket(request, 'Where is my delivery? It has not come.');
  if (reference) {
    const admin = await adminApi(baseURL);
    const set = await admin.put(`/api/admin/support/tickets/${ticket.ticketId}/delivery-reference`, {
      data: { deliveryReference: reference },
    });
    expect(set.status(), await set.text()).toBe(200);
    await admin.dispose();
  }
  return ticket;
}

/** A reference the stand-in treats as `prefix`, that no earlier look kept an answer for. */
const fresh = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

test('staff give a ticket its delivery reference and the card shows its route and photos', async ({
  browser,
  request,
  baseURL,
}) => {
  const { ticketId } = await ticketWith(request, baseURL!, null);
  const page = await staffPage(browser, baseURL!);
  await page.goto(`/admin/support/${ticketId}`);
  await hydrated(page);
  const field = page.getByLabel(DELIVERY_TEXT.reference);
  const save = page.getByRole('button', { name: DELIVERY_TEXT.save });

  // A reference with a space is refused beside the field, the text kept.
  await field.fill('BGS 1001');
  await save.click();
  await expect(page.getByText(DELIVERY_TEXT.referenceCharacters)).toBeVisible();
  await expect(field).toHaveValue('BGS 1001');

  await field.fill(` ${FIXTURE_REFERENCES.delivered} `);
  await save.click();
  const card = page.getByTestId('delivery-card');
  await expect(card.getByText('Auckland → Wellington')).toBeVisible();
  await expect(card.getByText('Delivered', { exact: true }).first()).toBeVisible();
  await expect(card.getByText('Sam Wilson')).toBeVisible();
  await expect(field).toHaveValue(FIXTURE_REFERENCES.delivered);
  const photo = card.getByRole('link', { name: /At pickup/ });
  await expect(photo).toHaveAttribute('href', 'https://photos.bagspace.example/handover/BGS-1001/pickup.jpg');
  await expect(photo).toHaveAttribute('target', '_blank');
  await expect(photo).toHaveAttribute('rel', /\bnoopener\b/);
  await expect(card.getByRole('link', { name: /At delivery/ })).toBeVisible();
  await page.context().close();
});

test('a slow app holds up nothing: the ticket shows at once, then the card says it could not load', async ({
  browser,
  request,
  baseURL,
}) => {
  const { ticketId, ticketNo } = await ticketWith(request, baseURL!, fresh(FIXTURE_REFERENCES.slow));
  const page = await staffPage(browser, baseURL!);
  // The streamed card comes with inline scripts: each must carry the page's nonce (docs/design.md §5).
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const started = Date.now();
  // Not waiting for the page's load event: the document ends only once the card is in it.
  await page.goto(`/admin/support/${ticketId}`, { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: `Ticket #${ticketNo}` })).toBeVisible();
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByText('Where is my delivery? It has not come.'),
  ).toBeVisible();
  // The rest of the page is there while the card still waits for the app.
  await expect(page.getByText(DELIVERY_TEXT.loading)).toBeVisible();
  const shown = Date.now() - started;
  // In the page's section: React holds the streamed card in a hidden element until it reveals it.
  const card = page.getByRole('region', { name: DELIVERY_TEXT.cardTitle }).getByTestId('delivery-card');
  await expect(card.getByText(DELIVERY_TEXT.unavailable)).toBeVisible();
  const gaveUp = Date.now() - started;
  await expect(page.getByText(DELIVERY_TEXT.loading)).toBeHidden();
  console.log(`delivery card, slow app: ticket shown after ${shown} ms, the card gave up after ${gaveUp} ms`);
  // The app then takes the page over as usual, the card included.
  await hydrated(page);
  await expect(card.getByText(DELIVERY_TEXT.unavailable)).toBeVisible();
  expect(refused).toEqual([]);
  await page.context().close();
});

test('an app that fails, and a delivery the app does not know, are said in words', async ({
  browser,
  request,
  baseURL,
}) => {
  const failing = await ticketWith(request, baseURL!, fresh(FIXTURE_REFERENCES.failing));
  const unknownReference = fresh('BGS-NOPE');
  const unknown = await ticketWith(request, baseURL!, unknownReference);
  const page = await staffPage(browser, baseURL!);
  // The card as it stands in the page's section: while the page streams, React also holds the
  // streamed card in a hidden element until it reveals it (under load, for a while; a strict
  // locator over the whole page then found two).
  const card = page.getByRole('region', { name: DELIVERY_TEXT.cardTitle }).getByTestId('delivery-card');
  await page.goto(`/admin/support/${failing.ticketId}`);
  await expect(card.getByText(DELIVERY_TEXT.unavailable)).toBeVisible();
  await page.goto(`/admin/support/${unknown.ticketId}`);
  await expect(card.getByText(DELIVERY_TEXT.unknown(unknownReference))).toBeVisible();
  await page.context().close();
});

test('without JavaScript the reference form works and the card is one link away', async ({
  browser,
  request,
  baseURL,
}) => {
  const { ticketId } = await ticketWith(request, baseURL!, null);
  const page = await staffPage(browser, baseURL!, false);
  await page.goto(`/admin/support/${ticketId}`);
  const field = page.getByLabel(DELIVERY_TEXT.reference);
  await field.fill('x'.repeat(65));
  await page.getByRole('button', { name: DELIVERY_TEXT.save }).click();
  await expect(page.getByText(DELIVERY_TEXT.referenceTooLong)).toBeVisible();

  await page.getByLabel(DELIVERY_TEXT.reference).fill(FIXTURE_REFERENCES.inTransit);
  await page.getByRole('button', { name: DELIVERY_TEXT.save }).click();
  await expect(page.getByLabel(DELIVERY_TEXT.reference)).toHaveValue(FIXTURE_REFERENCES.inTransit);
  // Without the page's script the streamed card cannot take the fallback's place: its link can.
  await page.getByRole('link', { name: DELIVERY_TEXT.openOnItsOwn }).click();
  await expect(
    page.getByRole('heading', { name: DELIVERY_TEXT.ownPageTitle(FIXTURE_REFERENCES.inTransit) }),
  ).toBeVisible();
  await expect(page.getByText('Christchurch → Dunedin')).toBeVisible();
  await page.getByRole('link', { name: DELIVERY_TEXT.backToTicket }).click();
  await expect(page.getByLabel(DELIVERY_TEXT.reference)).toHaveValue(FIXTURE_REFERENCES.inTransit);
  await page.context().close();
});
