import { CHANGE_EMAIL_TOKEN_HOURS } from '../../../contracts/account.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { AccountMailContext } from './accounts.mail.ts';

/**
 * The mail of an email change: the link to the new address, and notices to the old one. Links are
 * built from PUBLIC_BASE_URL, never from a request's Host (AUTH-07).
 */

/** To the new address: following the link makes it the account's. */
export function changeEmailMail(ctx: AccountMailContext, to: string, token: string): MailMessage {
  return {
    to,
    subject: `Confirm your new email address for ${ctx.companyName}`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Confirm your new email address',
      paragraphs: [
        `Someone, probably you, asked to use ${to} as the email address of a ${ctx.companyName} account. The change happens only when you confirm it.`,
      ],
      action: { label: 'Confirm my new email address', url: `${ctx.publicBaseUrl}/confirm-email?token=${token}` },
      notes: [
        `The link works once and expires in ${CHANGE_EMAIL_TOKEN_HOURS} hours. Until then, the account signs in with its current address.`,
        'If you did not ask for this, you can ignore this message: nothing changes.',
      ],
    }),
  };
}

/** To the new address when it already has an account: the answer on the page is the same (no enumeration). */
export function changeEmailTakenMail(ctx: AccountMailContext, to: string): MailMessage {
  return {
    to,
    subject: `This address already has a ${ctx.companyName} account`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'This address already has an account',
      paragraphs: [
        `Someone asked to move another ${ctx.companyName} account to ${to}. This address already has an account of its own, so nothing was changed.`,
        'To use this address for the other account, delete or move this one first.',
      ],
      notes: ['If this was not you, you can ignore this message.'],
    }),
  };
}

/** To the old address when a change is asked for: the owner can stop a change they did not make. */
export function emailChangeRequestedMail(ctx: AccountMailContext, to: string, newEmail: string): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} email address may change`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your email address may change',
      paragraphs: [
        `Someone signed in to the ${ctx.companyName} account for ${to} asked to change its email address to ${newEmail}. It changes only when the link mailed to ${newEmail} is followed; until then you keep signing in with ${to}.`,
        'If this was not you, reset your password now: that signs everyone out. Then contact our support team.',
      ],
      action: { label: 'Reset my password', url: `${ctx.publicBaseUrl}/forgot-password` },
    }),
  };
}

/** To the old address once the change is confirmed. */
export function emailChangedMail(ctx: AccountMailContext, to: string, newEmail: string): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} email address was changed`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your email address was changed',
      paragraphs: [
        `The ${ctx.companyName} account that used ${to} now uses ${newEmail}: sign-in, notifications and password resets go to the new address. This address no longer belongs to the account.`,
        'If this was not you, contact our support team at once.',
      ],
      action: { label: 'Contact support', url: `${ctx.publicBaseUrl}/support` },
    }),
  };
}
