/**
 * Incident claims (docs/decisions/152-incident-claims.md; the law staff read: docs/carriage-law.md): an Incident Report about
 * a delivery that went wrong, asked for well (what happened, which delivery, what the item is worth,
 * a photo when it was damaged) and followed through states whose waits are counted in working days
 * of the team's calendar. Every word a person reads of a claim lives here, or in claims-customer.ts
 * (what the customer's pages show, given here too).
 */

import { CLAIM_CUSTOMER_TEXT, CLAIM_LIMITS } from './claims-customer.ts';

export * from './claims-customer.ts';

/** The periods of a claim's waits, in working days of the team's calendar (settings; these are the defaults). */
export const CLAIM_PERIODS = {
  /** A claim is made within this many working days of the delivery (Bagspace's own policy). */
  claimWindowDays: 7,
  /** The traveller answers within this many working days of being asked. */
  travellerAnswerDays: 2,
  /** The team decides within this many working days of the claim (or of the last answer it waited for). */
  decisionDays: 5,
  /** A decision may be appealed within this many working days. */
  appealWindowDays: 10,
  /** An appeal is decided (by someone else) within this many working days. */
  appealDecisionDays: 5,
} as const;
export type ClaimPeriodName = keyof typeof CLAIM_PERIODS;
export const CLAIM_PERIOD_NAMES = Object.keys(CLAIM_PERIODS) as ClaimPeriodName[];

/**
 * The most working days each period may be set to (at least one): past these a setting is a typing
 * slip, and the database counts a wait at most that many weeks (and two months) ahead.
 */
export const CLAIM_PERIOD_MOST: Readonly<Record<ClaimPeriodName, number>> = {
  claimWindowDays: 60,
  travellerAnswerDays: 20,
  decisionDays: 30,
  appealWindowDays: 60,
  appealDecisionDays: 30,
};

/**
 * An amount of dollars as an API client or a form sends it (a number of dollars, or text as people
 * type it), in cents; null when it is not one (a negative or endless number, text that is no amount).
 */
export function centsOf(value: string | number): number | null {
  if (typeof value === 'string') return parseNzdCents(value);
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : null;
}

/**
 * What a person typed as an amount in dollars ('120', '120.5', '$1,200.50'), in cents; null when it
 * is not one.
 */
export function parseNzdCents(text: string): number | null {
  const plain = text
    .trim()
    .replace(/^(NZ)?\$\s*/i, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(plain)) return null;
  const [dollars, cents = ''] = plain.split('.');
  return Number(dollars) * 100 + Number(cents.padEnd(2, '0'));
}

export const CLAIM_TEXT = {
  ...CLAIM_CUSTOMER_TEXT,

  // The console's panel.
  panelTitle: 'Claim',
  state: 'State',
  due: 'Due',
  noDue: 'Nothing due',
  windowLate: (lastDay: string) => `Claimed after the window, which ended on ${lastDay}.`,
  windowKept: (lastDay: string) => `Claimed within the window (it ended on ${lastDay}).`,
  noDeliveryDay: 'No delivery day given: the window cannot be checked.',
  evidence: (count: number) => (count === 1 ? '1 file with the claim' : `${count} files with the claim`),
  decide: 'Decide',
  outcome: 'Decision',
  chooseOutcome: 'Choose a decision',
  amount: 'Amount to pay (NZD)',
  amountHint: 'For a claim upheld in part: what we pay.',
  reason: 'Reason',
  reasonHint: 'For a declined claim: why, in words the customer reads.',
  reasonRequired: 'Say why the claim is declined.',
  outcomeRequired: 'Choose a decision: upheld in full, in part, or declined.',
  amountRequired: 'Enter the amount we pay, in dollars.',
  amountOverValue: (value: string) => `The amount is more than the item’s value (${value}).`,
  decided: 'The decision is recorded and sent to the app.',
  alreadyDecided:
    'This claim was decided while you were looking at it. Read the decision, then decide again if needed.',
  notDecidable: 'This claim is not waiting for a decision.',
  decidedBy: (who: string, when: string) => `Decided by ${who} on ${when}`,
  claimMissing: 'This ticket has no claim.',
  upheldWithoutValue: 'This claim has no item value: uphold it in part, with the amount we pay.',
  lateWord: 'Late',
  decisions: 'Decisions',
  appealDecision: 'Decided on appeal',

  // Asking the sender for more (the question goes in the ticket's reply).
  waitForSender: 'Wait for the sender',
  waitForSenderHint: 'Ask in your reply what you need; the claim comes back to you when they answer.',
  waitingForSender: 'Waiting for the sender’s answer. The claim comes back when they reply.',
  notWaitable: 'Only a claim waiting on the team can wait for the sender.',

  // Asking the traveller.
  askTraveller: 'Ask the traveller',
  travellerEmail: 'Traveller’s email',
  travellerName: 'Traveller’s name',
  travellerStatement: 'What the traveller reads',
  travellerStatementHint:
    'The claim in your words: the traveller reads this, never the sender’s ticket. Leave out what they need not know.',
  travellerEmailRequired: 'Enter the traveller’s email address.',
  travellerEmailInvalid: 'Enter the traveller’s email address, like name@example.com.',
  statementRequired: 'Write what the traveller should answer.',
  statementTooLong: `What the traveller reads is at most ${CLAIM_LIMITS.reasonMax} characters.`,
  travellerAsked: (email: string) => `Asked ${email}; the answer comes to this ticket as a note.`,
  travellerAskedOn: (email: string, when: string) => `Asked ${email} on ${when}`,
  travellerAnsweredOn: (when: string) => `Answered on ${when} (the note in the thread)`,
  travellerNotAskable: 'The traveller can be asked only while the claim waits on the team.',
  travellerIsSender: 'The traveller cannot be the sender who made the claim.',
  travellerMail: (reference: string) => `A claim about delivery ${reference}: your answer, please`,

  // A partner company's leg: the carriage law (docs/carriage-law.md).
  carrier: 'Carried by a partner company',
  carrierHint: 'For a leg a partner company carried, the carriage law’s notice and limit apply.',
  noCarrier: 'No partner company',
  noticeSentOn: 'Notice of the claim given on',
  noticeSentOnHint: 'The day we gave the partner company written notice of the claim.',
  saveCarrier: 'Save',
  carrierSaved: 'Saved.',
  carrierMissing: 'That partner company no longer exists.',
  noticeFuture: 'The notice day cannot be after today.',
  noticeBy: (day: string) => `Written notice to the carrier by ${day}: 30 days after delivery (s 274).`,
  actionBy: (day: string) => `Court proceedings by ${day}: 12 months after the carriage ended (ss 278–279).`,
  limitNote: 'Unless the contract says otherwise, a carrier’s liability is at most $2,000 for each unit of goods.',
  lawNote: 'Contract and Commercial Law Act 2017, Part 5: carriage of goods.',

  // The periods, a setting of the Business hours page (/admin/business-hours#claim-periods).
  periodsTitle: 'Claim periods',
  periodsLead: 'How long each wait of a claim lasts, in working days: the days the business hours above are open.',
  periodsNote: 'A change applies to waits that start after it: a claim already waiting keeps its due time.',
  periodLabels: {
    claimWindowDays: 'Window to claim',
    travellerAnswerDays: 'Traveller’s answer',
    decisionDays: 'Decision',
    appealWindowDays: 'Window to appeal',
    appealDecisionDays: 'Decision on appeal',
  } satisfies Record<ClaimPeriodName, string>,
  periodHints: {
    claimWindowDays: 'A claim is made within this many working days of the delivery; a later one is shown as late.',
    travellerAnswerDays: 'The traveller answers within this many working days of being asked.',
    decisionDays: 'The team decides within this many working days of the claim, or of the answer it waited for.',
    appealWindowDays: 'A decision may be appealed within this many working days of it.',
    appealDecisionDays: 'An appeal is decided, by someone else, within this many working days.',
  } satisfies Record<ClaimPeriodName, string>,
  workingDays: 'working days',
  periodInvalid: (most: number) => `Enter a whole number of working days, from 1 to ${most}.`,
  savePeriods: 'Save claim periods',
  periodsSaved: 'Claim periods saved. Waits that start from now on use them.',
  periodChange: (label: string, before: number, after: number) => `${label}: ${before} → ${after} working days`,
} as const;
