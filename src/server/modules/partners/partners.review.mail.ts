import { renderMail } from '../../mail/layout.ts';
import { LICENCE_NEVER, licenceDay } from '../../../contracts/partner-review.ts';
import { APPLICATION_STATUS_TEXT } from '../../../contracts/partner-status.ts';
import type { MailMessage } from '../../mail/mailer.ts';

/**
 * The mails to an applicant: received, approved, rejected. Subjects carry only our own name: what the applicant typed
 * (company name, and the admin's reason) goes in the body, escaped by the layout, never into a
 * header (IN-06).
 */
export interface ReviewMailContext {
  companyName: string;
  publicBaseUrl: string;
}

/**
 * The approval: it states the licence's expiry (when the console recorded one) and links to
 * the applicant's private status page, which needs no account, never to the support pages, which do.
 */
export function approvalMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  licence: { expiresOn: string | null; statusUrl: string },
): MailMessage {
  const expiry =
    licence.expiresOn === null
      ? []
      : licence.expiresOn === LICENCE_NEVER
        ? ['The commercial licence we hold for you does not expire.']
        : [
            `The commercial licence we hold for you expires on ${licenceDay(licence.expiresOn)}. We will remind you 30, 14 and 3 days before then; send us the renewed licence on your application page.`,
          ];
  return {
    to,
    subject: `Your ${ctx.companyName} partner application is approved`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your partner application is approved',
      paragraphs: [
        `Good news: we have approved the application of ${applicant} to become a ${ctx.companyName} logistics partner.`,
        ...expiry,
        'Our partnerships team will contact you shortly about the next steps.',
        'You can see your application, its history and your licence expiry at any time through this private link (no account needed; please keep it to yourself):',
      ],
      action: { label: APPLICATION_STATUS_TEXT.mailButton, url: licence.statusUrl },
    }),
  };
}

export function rejectionMail(ctx: ReviewMailContext, to: string, applicant: string, reason: string): MailMessage {
  return {
    to,
    subject: `About your ${ctx.companyName} partner application`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'We could not approve your partner application',
      paragraphs: [
        `Thank you for applying. We have reviewed the application of ${applicant} and cannot approve it at this time.`,
        `The reason: ${reason}`,
        'You are welcome to apply again, with the same company details, once this is resolved:',
      ],
      action: { label: 'Apply again', url: `${ctx.publicBaseUrl}/register` },
    }),
  };
}

/** `statusUrl`: the applicant's private status page (docs/decisions/112-application-status-page.md). */
export function partnerReceivedMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  statusUrl: string,
): MailMessage {
  return {
    to,
    subject: `We received your ${ctx.companyName} partner application`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'We received your partner application',
      paragraphs: [
        `Thank you for applying to become a ${ctx.companyName} logistics partner. We have received the application of ${applicant}.`,
        'What happens next: our team checks the company details and the commercial licence you sent. We will email this address once the application is approved, or to tell you why we could not approve it.',
        'You do not need to do anything now, and there is no need to apply again.',
        'You can see your application, its status and when we will review it at any time through this private link (no account needed; please keep it to yourself):',
      ],
      action: { label: APPLICATION_STATUS_TEXT.mailButton, url: statusUrl },
      notes: [`Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`],
    }),
  };
}

/** A new link to the status page, asked for on /partners/status (the old one lost, or never sent). */
export function partnerLinkMail(ctx: ReviewMailContext, to: string, applicant: string, statusUrl: string): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} partner application link`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your partner application link',
      paragraphs: [
        `Someone asked for a link to the partner application of ${applicant}, made with this email address.`,
        'Here it is: a private link to see the application, its status and its history (no account needed; please keep it to yourself). Earlier links keep working.',
      ],
      action: { label: APPLICATION_STATUS_TEXT.linkMailButton, url: statusUrl },
      notes: [
        'If you did not ask for it, you can ignore this email: nobody else receives the link.',
        `Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`,
      ],
    }),
  };
}

// --- Licence expiry (docs/decisions/115-licence-expiry.md) ----------------------------------------------

/**
 * Where the partner sends the new licence: a fresh private link to the status page (each mail makes
 * its own, docs/decisions/113-changes-requested.md).
 */
const SEND_NEW_LICENCE =
  'Send us your new licence on your application page (a private link; please keep it to yourself):';
const sendButton = (statusUrl: string) => ({ label: 'Send a new licence', url: statusUrl });

/** 30, 14 or 3 days before the licence's expiry date. */
export function licenceReminderMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  expiresOn: string,
  daysBefore: number,
  statusUrl: string,
): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} partner licence expires in ${daysBefore} days`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: `Your commercial licence expires in ${daysBefore} days`,
      paragraphs: [
        `The commercial licence we hold for ${applicant} expires on ${licenceDay(expiresOn)}.`,
        'When it expires, your partnership is put on hold until we accept a new licence.',
        SEND_NEW_LICENCE,
      ],
      action: sendButton(statusUrl),
      notes: [`Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`],
    }),
  };
}

/** On the expiry date: the partner is on hold. */
export function licenceExpiredMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  expiresOn: string,
  statusUrl: string,
): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} partnership is on hold: licence expired`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your partnership is on hold',
      paragraphs: [
        `The commercial licence we hold for ${applicant} expired on ${licenceDay(expiresOn)}, so your partnership is on hold.`,
        `It becomes active again once we accept a new licence. ${SEND_NEW_LICENCE}`,
      ],
      action: sendButton(statusUrl),
      notes: [`Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`],
    }),
  };
}

export function licenceAcceptedMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  expiresOn: string,
): MailMessage {
  return {
    to,
    subject: `Your new ${ctx.companyName} partner licence is accepted`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your new licence is accepted',
      paragraphs: [
        expiresOn === LICENCE_NEVER
          ? `We have accepted the new commercial licence of ${applicant}. It does not expire.`
          : `We have accepted the new commercial licence of ${applicant}. It expires on ${licenceDay(expiresOn)}; we will remind you before then.`,
        'If your partnership was on hold, it is active again.',
      ],
      notes: [`Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`],
    }),
  };
}

export function licenceRefusedMail(
  ctx: ReviewMailContext,
  to: string,
  applicant: string,
  reason: string,
  statusUrl: string,
): MailMessage {
  return {
    to,
    subject: `About your new ${ctx.companyName} partner licence`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'We could not accept your new licence',
      paragraphs: [
        `We have looked at the new commercial licence of ${applicant} and could not accept it.`,
        `The reason: ${reason}`,
        SEND_NEW_LICENCE,
      ],
      action: sendButton(statusUrl),
      notes: [`Questions? Reach us through our support page: ${ctx.publicBaseUrl}/support`],
    }),
  };
}
