import { newZealandDate, ZONE } from '../../calendar/business-calendar.ts';
import { longDate } from '../../../contracts/dates.ts';
import { DUE_TEXT, dueWords, type TargetKind } from '../../../contracts/due-times.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { type TicketMailTo, teamMailNote } from '../notifications/index.ts';

/**
 * The service levels' mail (docs/decisions/108-service-levels.md): the team's warning before a
 * ticket's due time and once it has passed, and the customer's nudge before an answered ticket
 * closes itself. Plain text and HTML with the same words; times in New Zealand time; subjects hold
 * only the ticket number, our fixed reasons and times.
 */
export interface ServiceLevelMailContext {
  companyName: string;
  publicBaseUrl: string;
  /** Set when replies by mail are received (REPLY_DOMAIN): the mail says answering it works. */
  replyDomain?: string | undefined;
}

const CLOCK = new Intl.DateTimeFormat('en-NZ', { timeZone: ZONE, hour: 'numeric', minute: '2-digit' });
const SHORT_DAY = new Intl.DateTimeFormat('en-NZ', {
  timeZone: ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/** '10:30 am' on the day of `now` (New Zealand), else '10:30 am, Mon 30 Nov'. */
export function dueClock(at: Date, now: Date): string {
  const clock = CLOCK.format(at);
  return newZealandDate(at) === newZealandDate(now) ? clock : `${clock}, ${SHORT_DAY.format(at).replace(',', '')}`;
}

/** 'first response', 'next response', 'resolution'. */
export const targetWords = (kind: TargetKind) => DUE_TEXT.targetOf(kind).toLowerCase();

/** 'Ticket #1004 (Incident Report) is due in 30 min' / '… is late: first response was due at 10:30 am'. */
export function serviceLevelWarningMail(
  ctx: ServiceLevelMailContext,
  to: TicketMailTo,
  warning: { target: TargetKind; moment: 'soon' | 'missed'; dueAt: Date; now: Date },
): MailMessage {
  const { ticket } = to;
  const what = targetWords(warning.target);
  const at = dueClock(warning.dueAt, warning.now);
  const name = `Ticket #${ticket.ticketNo} (${ticket.reason})`;
  const subject =
    warning.moment === 'soon'
      ? `${name} is ${dueWords(warning.dueAt, warning.now)}`
      : `${name} is late: ${what} was due at ${at}`;
  const paragraphs =
    warning.moment === 'soon'
      ? [
          `The ${what} on ticket #${ticket.ticketNo} (${ticket.reason}) is due at ${at} (New Zealand time).`,
          'It is still waiting on us: an answer to the customer stops the clock.',
        ]
      : [
          `The ${what} on ticket #${ticket.ticketNo} (${ticket.reason}) was due at ${at} (New Zealand time), and the ticket is still waiting on us.`,
          'Answer the customer as soon as you can.',
        ];
  return {
    to: to.to,
    subject,
    ...renderMail({
      companyName: ctx.companyName,
      heading: subject,
      paragraphs,
      action: { label: 'Open it in the console', url: `${ctx.publicBaseUrl}/admin/support/${ticket.id}` },
      notes: [teamMailNote(ctx, to)],
    }),
  };
}

/** The customer's one mail before an answered ticket closes itself: when, and how to keep it open. */
export function autoCloseNudgeMail(
  ctx: ServiceLevelMailContext,
  to: TicketMailTo,
  close: { closesAt: Date },
): MailMessage {
  const { ticket } = to;
  const day = longDate(close.closesAt);
  const subject = `Ticket #${ticket.ticketNo} will close on ${day}`;
  return {
    to: to.to,
    subject,
    ...renderMail({
      companyName: ctx.companyName,
      heading: subject,
      paragraphs: [
        `We answered your ticket #${ticket.ticketNo} (${ticket.reason}) and have not heard back from you. If you do not reply, it will close by itself at ${CLOCK.format(close.closesAt)} on ${day} (New Zealand time).`,
        ctx.replyDomain
          ? 'To keep it open, reply to this mail or write to us on the ticket’s page.'
          : 'To keep it open, write to us on the ticket’s page.',
        'Once it is closed you can still read it, and start a new ticket if you need more help.',
      ],
      action: { label: 'Open the ticket', url: `${ctx.publicBaseUrl}/support/ticket/${ticket.id}` },
      notes: [
        `You get this mail because you have a support ticket with us. To stop mails about your tickets closing, open ${to.unsubscribeUrl}, or choose which mails you get at ${ctx.publicBaseUrl}/account/notifications.`,
      ],
    }),
  };
}
