/**
 * What the customer's pages need of incident claims (docs/decisions/152-incident-claims.md): the
 * kinds, states, outcomes and limits, and the words of the Incident Report's fields, the
 * traveller's page and the sender's view. Apart from claims.ts, whose staff words (the console's
 * panel, the carriage law, the periods) a customer's page does not load; claims.ts gives all of
 * this too, and CLAIM_TEXT there holds these words with the staff's.
 */

export const CLAIM_KINDS = [
  { value: 'lost', label: 'Lost' },
  { value: 'damaged', label: 'Damaged' },
  { value: 'late', label: 'Late' },
  { value: 'not-as-described', label: 'Not as described' },
  { value: 'other', label: 'Something else' },
] as const;
export const CLAIM_KIND_VALUES = ['lost', 'damaged', 'late', 'not-as-described', 'other'] as const;
export type ClaimKind = (typeof CLAIM_KIND_VALUES)[number];

/** Kinds where what the item is worth decides the claim: its value must be given. */
export const KINDS_NEEDING_VALUE: readonly ClaimKind[] = ['lost', 'damaged', 'not-as-described'];

export const claimKindLabel = (kind: string): string => CLAIM_KINDS.find((k) => k.value === kind)?.label ?? kind;

/**
 * submitted → information-requested → with-traveller → decided → appealed (once) → closed. A claim
 * may skip a state (decided straight from submitted); an appeal goes back to a decision.
 */
export const CLAIM_STATES = [
  'submitted',
  'information-requested',
  'with-traveller',
  'decided',
  'appealed',
  'closed',
] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

export const CLAIM_STATE_TEXT: Readonly<Record<ClaimState, string>> = {
  submitted: 'Submitted',
  'information-requested': 'Information requested',
  'with-traveller': 'With the traveller',
  decided: 'Decided',
  appealed: 'Appealed',
  closed: 'Closed',
};

export const CLAIM_OUTCOMES = ['upheld', 'part', 'declined'] as const;
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

export const CLAIM_OUTCOME_TEXT: Readonly<Record<ClaimOutcome, string>> = {
  upheld: 'Upheld in full',
  part: 'Upheld in part',
  declined: 'Declined',
};

export const CLAIM_LIMITS = {
  /** Files with the claim's first message (the attachment rules of a message apply to each). */
  evidenceFiles: 10,
  /** NZD 100,000 in cents: anything larger is a typing slip, refused in words. */
  maxValueCents: 10_000_000,
  referenceMax: 64,
  reasonMax: 2000,
  answerMax: 5000,
  nameMax: 100,
} as const;

/** The largest Contact us form with a claim's files: ten of 10 MB and the text around them. */
export const CLAIM_FORM_MAX_BYTES = CLAIM_LIMITS.evidenceFiles * 10_485_760 + 1024 * 1024;

/** Cents as dollars for people: 12050 → '$120.50'. */
export const formatNzd = (cents: number): string =>
  `$${(cents / 100).toLocaleString('en-NZ', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const CLAIM_CUSTOMER_TEXT = {
  legend: 'About the incident',
  lead: 'For an Incident Report about a delivery: tell us what happened, and we open a claim.',
  kind: 'What happened',
  chooseKind: 'Choose what happened',
  delivery: 'Delivery reference',
  deliveryHint: 'The delivery’s reference in the app, for example BGS-1042.',
  value: 'Item value (NZD)',
  valueHint: 'What the item is worth in New Zealand dollars, for example 120 or 120.50.',
  deliveredOn: 'Delivered on',
  deliveredOnHint: 'The day it was delivered, or was due, if it never arrived.',
  evidenceHint: `With a claim, up to ${CLAIM_LIMITS.evidenceFiles} files; for a damaged item, at least one photo showing the packaging, the label and the item.`,
  deliveryRequired: 'Enter the delivery’s reference, as the app shows it.',
  deliveryTooLong: `A delivery reference is at most ${CLAIM_LIMITS.referenceMax} characters.`,
  deliveryInvalid: 'A delivery reference is letters, digits and - or _ only.',
  valueRequired: 'Enter what the item is worth, in dollars.',
  valueInvalid: 'Enter the value in dollars, for example 120 or 120.50.',
  valueTooLarge: 'That value is more than $100,000.00: check it, or tell us in the message.',
  deliveredOnInvalid: 'Enter the day as a date, for example 2026-12-01.',
  deliveredOnFuture: 'The delivery day cannot be after today.',
  dayTooEarly: 'Enter a day from 1900 on.',
  photoRequired: 'For a damaged item, attach at least one photo showing the packaging, the label and the item.',
  /** The app's API takes no files: its sender makes a damaged item's claim on the Contact us page. */
  photoRequiredOnPage: (link: string) =>
    `A claim for a damaged item needs at least one photo, and the app cannot send photos: make it on our Contact us page, ${link}, with a photo showing the packaging, the label and the item.`,
  tooManyFiles: `You can attach up to ${CLAIM_LIMITS.evidenceFiles} files to a claim.`,
  kindWithoutIncident: 'What happened is asked only for an Incident Report.',

  // The traveller's page.
  travellerTitle: 'A claim about your delivery',
  travellerLead: (reference: string) =>
    `The sender of delivery ${reference} made a claim. Tell us what happened from your side, with photos if you have them.`,
  travellerAnswer: 'Your answer',
  sendAnswer: 'Send your answer',
  travellerAnswerHint: 'What happened on your side: when you handed it over, its state, anything you saw.',
  travellerFiles: 'Photos or documents',
  travellerFilesHint: `Photos (JPEG, PNG, WebP) or PDFs, up to ${CLAIM_LIMITS.evidenceFiles} files of 10 MB each.`,
  answerRequired: 'Write your answer.',
  answerTooLong: `An answer is at most ${CLAIM_LIMITS.answerMax} characters.`,
  answerSent: 'Thank you. Your answer went to our team; they decide the claim and tell you.',
  answered: (when: string) => `You answered on ${when}. Thank you.`,
  answerDue: (when: string) => `Please answer by ${when}.`,
  notAnswerable: 'This claim is no longer waiting for your answer.',
  travellerMissing:
    'We could not find a claim for you at this address. Sign in with the account the email was sent to.',

  // The sender's view and appeal.
  senderTitle: 'Your claim',
  appeal: 'Appeal the decision',
  appealHint: (when: string) => `You can appeal once, until ${when}. Someone else in our team decides the appeal.`,
  appealReason: 'Why the decision is wrong',
  appealReasonRequired: 'Say why you think the decision is wrong.',
  appealed: 'Your appeal is with our team. Someone who did not make the first decision decides it.',
  appealSent: 'Your appeal is sent.',
  notAppealable: 'This decision can no longer be appealed.',
  appealByOther: 'An appeal is decided by someone other than who made the first decision.',
  closedWord: 'Closed',
} as const;
