import { CHANGES_TEXT } from '../../../contracts/partner-changes.ts';
import type { RequestedChanges } from '../../../contracts/partner-changes.schemas.ts';
import { APPLICATION_STATUS_TEXT } from '../../../contracts/partner-status.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ReviewMailContext } from './partners.review.mail.ts';

/**
 * Changes requested (docs/decisions/113-changes-requested.md): what the admin asked for, in the
 * applicant's words, and a new private link to the status page where they send it. What the
 * applicant typed and the admin's note go in the body, escaped by the layout, never in a header.
 */
export function changesRequestedMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  changes: RequestedChanges,
  statusUrl: string,
): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} partner application: a few changes needed`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'We need a few changes to your partner application',
      paragraphs: [
        `Thank you for applying. Before we can decide on the application of ${applicant}, we need the following:`,
        ...changes.reasons.map((reason) => CHANGES_TEXT.applicantReasons[reason]),
        ...(changes.note ? [`${CHANGES_TEXT.noteHeading}: ${changes.note}`] : []),
        'Send only what is asked through your application page (no need to apply again); we review it again as soon as it arrives:',
      ],
      action: { label: APPLICATION_STATUS_TEXT.mailButton, url: statusUrl },
      notes: [`Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`],
    }),
  };
}
