import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { MailContext } from '../../shared-services.ts';

/** The confirmation sent when a person deletes their account (recorded with the request itself). */
export function accountDeletionMail(
  ctx: MailContext,
  to: string,
  dates: { requestedOn: string; eraseOn: string; ticketNo: number },
): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} account is closed`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your account is closed',
      paragraphs: [
        `On ${dates.requestedOn} you asked us to delete the ${ctx.companyName} account for ${to}. It is closed now: you have been signed out everywhere and can no longer sign in.`,
        `Your personal data will be erased on ${dates.eraseOn}: your email address, your password, and your tickets with their messages and files. Our support team recorded your request as ticket #${dates.ticketNo}.`,
      ],
      notes: [
        'If you did not ask for this, write to our support team from the Contact page of our website before that date.',
      ],
    }),
  };
}
