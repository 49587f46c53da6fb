import { RESET_PASSWORD_TOKEN_HOURS, VERIFY_EMAIL_TOKEN_HOURS } from '../../../contracts/auth.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';

/** The account messages. Links are built from PUBLIC_BASE_URL, never from a request's Host (AUTH-07). */
export interface AccountMailContext {
  companyName: string;
  publicBaseUrl: string;
}

const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`);

export function verifyEmailMail(ctx: AccountMailContext, to: string, token: string): MailMessage {
  const url = `${ctx.publicBaseUrl}/verify-email?token=${token}`;
  return {
    to,
    subject: `Confirm your email address for ${ctx.companyName}`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Confirm your email address',
      paragraphs: [
        `Welcome to ${ctx.companyName}! Please confirm that ${to} is your email address, so you can sign in and contact our support team.`,
      ],
      action: { label: 'Confirm my email address', url },
      notes: [
        `The link works once and expires in ${hours(VERIFY_EMAIL_TOKEN_HOURS)}.`,
        `If you did not create a ${ctx.companyName} account, you can ignore this message.`,
      ],
    }),
  };
}

export function resetPasswordMail(ctx: AccountMailContext, to: string, token: string): MailMessage {
  const url = `${ctx.publicBaseUrl}/reset-password?token=${token}`;
  return {
    to,
    subject: `Reset your ${ctx.companyName} password`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Reset your password',
      paragraphs: [`We received a request to reset the password of the ${ctx.companyName} account for ${to}.`],
      action: { label: 'Choose a new password', url },
      notes: [
        `The link works once and expires in ${hours(RESET_PASSWORD_TOKEN_HOURS)}. Choosing a new password signs you out on every device.`,
        'If you did not ask for this, you can ignore this message: your password stays the same.',
      ],
    }),
  };
}

/** Sent instead of a second account, so sign-up answers the same whether or not the email is taken. */
export function alreadyRegisteredMail(ctx: AccountMailContext, to: string): MailMessage {
  return {
    to,
    subject: `You already have a ${ctx.companyName} account`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'You already have an account',
      paragraphs: [
        `Someone, probably you, tried to create a ${ctx.companyName} account for ${to}. This address already has an account, so nothing was changed.`,
        `To sign in, go to ${ctx.publicBaseUrl}/support. If you have forgotten your password, you can choose a new one:`,
      ],
      action: { label: 'Reset my password', url: `${ctx.publicBaseUrl}/forgot-password` },
      notes: ['If this was not you, you can ignore this message.'],
    }),
  };
}

export function passwordChangedMail(ctx: AccountMailContext, to: string): MailMessage {
  return {
    to,
    subject: `Your ${ctx.companyName} password was changed`,
    ...renderMail({
      companyName: ctx.companyName,
      heading: 'Your password was changed',
      paragraphs: [
        `The password of the ${ctx.companyName} account for ${to} was just changed, and other devices were signed out.`,
        'If this was not you, reset your password now and contact our support team.',
      ],
      action: { label: 'Reset my password', url: `${ctx.publicBaseUrl}/forgot-password` },
    }),
  };
}
