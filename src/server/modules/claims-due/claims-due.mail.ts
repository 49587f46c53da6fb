import { claimKindLabel } from '../../../contracts/claims.ts';
import { formatNzDueTime } from '../../../contracts/dates.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { type TicketMailTo, teamMailNote } from '../notifications/index.ts';
import type { TeamWaitState, WarnedClaim } from './claims-due.repository.ts';

/**
 * The team's warning about a claim's due time (docs/decisions/152-incident-claims.md), once per
 * due time: before it (within SLA_WARNING_MINUTES) or once it has passed. Plain text and HTML with
 * the same words; times in New Zealand time; the subject holds only the ticket number, the kind and
 * the time, never the delivery or anything the sender wrote.
 */
export interface ClaimDueMailContext {
  companyName: string;
  publicBaseUrl: string;
}

/** What the claim waits for in each state the team answers for. */
const WAITS_FOR: Readonly<Record<TeamWaitState, string>> = {
  submitted: 'a decision',
  'with-traveller': 'the traveller’s answer',
  appealed: 'the appeal’s decision',
};

/** What to do about it, once it is late or nearly so. */
const NEXT_STEP: Readonly<Record<TeamWaitState, string>> = {
  submitted: 'Decide it on the ticket’s page, or ask the sender or the traveller for what you need.',
  'with-traveller': 'Chase the traveller, or decide the claim without their answer.',
  appealed: 'Someone other than who made the first decision decides the appeal, on the ticket’s page.',
};

/** 'Claim on ticket #1004 (Damaged): a decision is due Tue 5 Jan, 10:30' / '… is late: a decision was due …'. */
export function claimDueMail(
  ctx: ClaimDueMailContext,
  to: TicketMailTo,
  warning: { claim: WarnedClaim; now: Date },
): MailMessage {
  const { ticket } = to;
  const { claim, now } = warning;
  const what = WAITS_FOR[claim.state];
  const at = formatNzDueTime(claim.dueAt);
  const late = now.getTime() >= claim.dueAt.getTime();
  const name = `Claim on ticket #${ticket.ticketNo} (${claimKindLabel(claim.kind)})`;
  const subject = late ? `${name} is late: ${what} was due ${at}` : `${name}: ${what} is due ${at}`;
  const about = `The claim on ticket #${ticket.ticketNo} (${claimKindLabel(claim.kind)}, delivery ${claim.deliveryReference})`;
  const paragraphs = [
    late
      ? `${about} waited for ${what} until ${at} (New Zealand time), and it is still waiting.`
      : `${about} waits for ${what}, due ${at} (New Zealand time).`,
    NEXT_STEP[claim.state],
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
