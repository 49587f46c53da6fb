import { expect, type Page, test } from '@playwright/test';
import { CHANGES_MESSAGES, CHANGES_TEXT } from '../../src/contracts/partner-changes.ts';
import { APPLICATION_STATUS_TEXT as TEXT } from '../../src/contracts/partner-status.ts';
import { linkIn, waitForMail } from '../helpers/mail.ts';
import { apply, newCompany, realPng } from './companies.ts';
import { signInOnLoginScreen } from './fixtures.ts';
import { teamAdmin } from './second-factor.ts';
import { expectNoAxeViolations } from './support.ts';

/**
 * Changes requested, the whole loop (docs/decisions/113-changes-requested.md): an admin opens an
 * application (In review) and asks for a new licence with a note; the applicant follows the mailed
 * link, is refused without a file, sends one, and sees the application back In review with its new
 * review date; the admin sees it, and approves it. The console with JavaScript and without it; the
 * applicant's page is plain HTML either way.
 */

const dataDir = process.env.E2E_DATA_DIR!;
const ADMIN = teamAdmin('partner-changes');
const NOTE = 'The bottom half of the photo is blurred.';
const ASKED = 'Your Bagspace partner application: a few changes needed';

const stateOf = (page: Page) => page.getByRole('region', { name: TEXT.stateLabel });

for (const javaScriptEnabled of [true, false]) {
  test(`an admin asks for a new licence and the applicant sends it (console JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const company = newCompany();
    const companyId = await apply(request, company, realPng());

    // The admin opens it: In review. Asking with no reason is refused at the reasons.
    const console = await browser.newContext({ baseURL: baseURL!, javaScriptEnabled });
    const admin = await console.newPage();
    await admin.goto(`/admin/partners/${companyId}`);
    await signInOnLoginScreen(admin, ADMIN.email, ADMIN.password);
    await expect(admin.getByRole('heading', { level: 1, name: company.companyName })).toBeVisible();
    await expect(admin.getByText(CHANGES_TEXT.stageLabels.in_review, { exact: true })).toBeVisible();
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
    await expect(admin.getByText(CHANGES_TEXT.stageLabels.in_review, { exact: true })).toBeVisible();
    await expect(admin.getByRole('region', { name: CHANGES_TEXT.stageLabels.changes_requested })).toHaveCount(0);
    await expect(admin.getByText(CHANGES_TEXT.resubmittedLabel, { exact: true })).toBeVisible();
    await console.close();
  });
}
