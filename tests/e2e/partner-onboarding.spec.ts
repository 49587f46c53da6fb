import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { ADMIN_TEXT } from '../../src/contracts/admin.ts';
import { CHANGES_MESSAGES, CHANGES_TEXT } from '../../src/contracts/partner-changes.ts';
import { LICENCE_NEVER, LICENCE_TEXT } from '../../src/contracts/partner-review.ts';
import { socketUrl } from '../../src/server/db/local-socket.ts';
import { APPLICATION_STATUS_TEXT as TEXT } from '../../src/contracts/partner-status.ts';
import { linkIn, waitForMail } from '../helpers/mail.ts';
import { apply, newCompany, realPng } from './companies.ts';
import { signInAt } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * Partner onboarding, the whole loop (docs/decisions/113-changes-requested.md, 115-licence-expiry.md):
 * an admin opens an application (In review) and asks for a new licence with a note; the applicant
 * follows the mailed link, is refused without a file, sends one, and sees the application back In
 * review with its new review date; the admin approves it with the licence's expiry date; the
 * 30-day reminder and, at the date, the on-hold mail come with links; the partner sends a new
 * licence from that link; the admin accepts it (one that does not expire) and the partner is active
 * again. With JavaScript and without it.
 */

const dataDir = process.env.E2E_DATA_DIR!;
const ADMIN = teamAdmin('partner-onboarding');
const NOTE = 'The bottom half of the photo is blurred.';
const ASKED = 'Your Bagspace partner application: a few changes needed';

const REMINDED = 'Your Bagspace partner licence expires in 30 days';
const HELD = 'Your Bagspace partnership is on hold: licence expired';

const stateOf = (page: Page) => page.getByRole('region', { name: TEXT.stateLabel });

/** New Zealand's date `days` from today ('YYYY-MM-DD'). */
const nzDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date(Date.now() + days * 86_400_000));

/** Moves the licence's expiry date in the running server's database (served on its local socket). */
async function moveExpiry(companyId: string, date: string) {
  const client = new pg.Client({ connectionString: socketUrl(dataDir) });
  await client.connect();
  try {
    const moved = await client.query('update companies set license_expires_on = $2 where id = $1', [companyId, date]);
    expect(moved.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

for (const javaScriptEnabled of [true, false]) {
  test(`the whole onboarding loop: changes asked and sent, approved with an expiry, reminded, on hold, a new licence, active again (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const company = newCompany();
    const companyId = await apply(request, company, realPng());

    // The admin opens it: In review. Asking with no reason is refused at the reasons.
    const console = await browser.newContext({ baseURL: baseURL!, javaScriptEnabled });
    const admin = await console.newPage();
    await signInAt(admin, `/admin/partners/${companyId}`, ADMIN);
    await expect(admin.getByRole('heading', { level: 1, name: company.companyName })).toBeVisible();
    await expect(admin.locator('.admin-badges .badge')).toHaveText([CHANGES_TEXT.stageLabels.in_review]);
    await admin.getByRole('button', { name: CHANGES_TEXT.button }).click();
    const form = admin.getByRole('form', { name: CHANGES_TEXT.formTitle });
    await expect(form).toBeVisible();
    await form.getByRole('button', { name: CHANGES_TEXT.send }).click();
    await expect(admin.getByText(CHANGES_MESSAGES.reasonRequired)).toBeVisible();
    // (axe runs in the page, so only where scripts may run.)
    if (javaScriptEnabled) await expectNoAxeViolations(admin);

    // Licence unreadable, with a note.
    await admin.getByRole('checkbox', { name: CHANGES_TEXT.reasons['license-unreadable'] }).check();
    await admin.getByRole('textbox', { name: CHANGES_TEXT.noteLabel }).fill(NOTE);
    await admin.getByRole('button', { name: CHANGES_TEXT.send }).click();
    await expect(admin.getByText(CHANGES_TEXT.requested(true))).toBeVisible();
    const requested = admin.getByRole('region', { name: CHANGES_TEXT.stageLabels.changes_requested });
    await expect(requested).toContainText(CHANGES_TEXT.reasons['license-unreadable']);
    await expect(requested).toContainText(NOTE);
    await expect(admin.getByRole('button', { name: CHANGES_TEXT.button })).toHaveCount(0);

    // The applicant follows the new link in the mail (the page is plain HTML: no JavaScript needed).
    const mail = await waitForMail(dataDir, company.contactPersonEmail, ASKED);
    expect(mail.text).toContain(NOTE);
    const link = linkIn(mail, `${baseURL}/partners/status/`);
    const applicantContext = await browser.newContext({ baseURL: baseURL!, javaScriptEnabled });
    const applicant = await applicantContext.newPage();
    await applicant.goto(link);
    await expect(stateOf(applicant)).toContainText(TEXT.states['changes-requested']);
    const due = applicant.getByRole('region', { name: CHANGES_TEXT.dueHeading });
    await expect(due).toContainText(CHANGES_TEXT.applicantReasons['license-unreadable']);
    await expect(due).toContainText(NOTE);
    if (javaScriptEnabled) await expectNoAxeViolations(applicant);
    // Sent without a file, the server refuses it in words (with scripts, the browser's own check of
    // the required field is taken away first, as an old browser would not have it).
    if (javaScriptEnabled) {
      await applicant.evaluate(() => document.querySelector('input[type=file]')?.removeAttribute('required'));
      await applicant.getByRole('button', { name: CHANGES_TEXT.submit }).click();
      await expect(applicant.getByText(CHANGES_MESSAGES.licenseRequired)).toBeVisible();
    }
    await applicant
      .getByLabel(CHANGES_TEXT.licenseLabel)
      .setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: realPng() });
    await applicant.getByRole('button', { name: CHANGES_TEXT.submit }).click();
    await expect(applicant).toHaveURL(/\?sent=changes$/);
    await expect(
      applicant.getByText(/Thank you\. We have your changes and will review them by \w{3} \d{1,2} \w{3}\./),
    ).toBeVisible();
    await expect(stateOf(applicant)).toContainText(TEXT.states['in-review']);
    await expect(applicant.getByRole('region', { name: TEXT.historyHeading })).toContainText(TEXT.events.resubmitted);
    if (javaScriptEnabled) await expectNoAxeViolations(applicant);
    await applicantContext.close();

    // The admin sees it back in review, the request gone, and approves it.
    await admin.reload();
    await expect(admin.locator('.admin-badges .badge')).toHaveText([CHANGES_TEXT.stageLabels.in_review]);
    await expect(admin.getByRole('region', { name: CHANGES_TEXT.stageLabels.changes_requested })).toHaveCount(0);
    await expect(admin.getByText(CHANGES_TEXT.resubmittedLabel, { exact: true })).toBeVisible();

    // The admin approves it with the licence's expiry date, forty days ahead.
    await admin.getByLabel(LICENCE_TEXT.expiresLabel).fill(nzDate(40));
    await admin.getByRole('button', { name: ADMIN_TEXT.approve }).click();
    await expect(admin.getByText(/^Approved\./)).toBeVisible();

    // Thirty days before the date, a reminder with a link to send the new licence. (The server's
    // clock is the real one: the date is moved in its database, and its worker runs every second.)
    await moveExpiry(companyId, nzDate(30));
    const reminder = await waitForMail(dataDir, company.contactPersonEmail, REMINDED, 30_000);
    expect(linkIn(reminder, `${baseURL}/partners/status/`)).toBeTruthy();
    // The date comes: on hold, and a mail saying so, with its own link.
    await moveExpiry(companyId, nzDate(0));
    const held = await waitForMail(dataDir, company.contactPersonEmail, HELD, 30_000);
    const renewalContext = await browser.newContext({ baseURL: baseURL!, javaScriptEnabled });
    const partner = await renewalContext.newPage();
    await partner.goto(linkIn(held, `${baseURL}/partners/status/`));
    await expect(stateOf(partner)).toContainText(TEXT.states['on-hold']);
    await expect(stateOf(partner)).toContainText(TEXT.licenseHold);
    await partner
      .getByLabel(CHANGES_TEXT.licenseLabel)
      .setInputFiles({ name: 'new-licence.png', mimeType: 'image/png', buffer: realPng() });
    await partner.getByRole('button', { name: CHANGES_TEXT.renewalSubmit }).click();
    await expect(partner).toHaveURL(/\?sent=renewal$/);
    await expect(partner.getByText(CHANGES_TEXT.renewalSent)).toBeVisible();
    if (javaScriptEnabled) await expectNoAxeViolations(partner);

    // The admin accepts the new licence, one that does not expire: active again.
    await admin.reload();
    const renewal = admin.getByRole('region', { name: LICENCE_TEXT.renewalHeading });
    await expect(renewal.getByText(/^New licence sent on /)).toBeVisible();
    await renewal.getByRole('checkbox', { name: LICENCE_TEXT.neverLabel }).check();
    await renewal.getByRole('button', { name: LICENCE_TEXT.accept }).click();
    await expect(admin.getByText(LICENCE_TEXT.accepted)).toBeVisible();
    await expect(admin.getByText(LICENCE_TEXT.expires(LICENCE_NEVER))).toBeVisible();
    await partner.reload();
    await expect(stateOf(partner)).toContainText(TEXT.states.approved);
    await expect(stateOf(partner)).toContainText(TEXT.licenseNeverExpires);
    await expect(partner.getByRole('region', { name: TEXT.historyHeading })).toContainText(
      TEXT.events.license_accepted,
    );
    await renewalContext.close();
    await console.close();
  });
}
