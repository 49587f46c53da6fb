import {
  CLAIM_KIND_VALUES,
  CLAIM_LIMITS,
  CLAIM_OUTCOMES,
  CLAIM_PERIOD_MOST,
  type ClaimPeriodName,
  CLAIM_STATES,
  CLAIM_TEXT as T,
  KINDS_NEEDING_VALUE,
  centsOf,
} from './claims.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of claims.ts: the incident's fields of a new ticket (the Contact us form, its
 * JSON and the callable: the same flat fields everywhere), a claim as the console reads it, and a
 * decision.
 */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * A day a claim names ('YYYY-MM-DD'): the delivery, the notice to a carrier. From 1900 on: the
 * database has no year 0 (a day of year 0000 was a 500, found by the fuzzer), and nothing a claim is
 * about happened before then.
 */
const ClaimDay = z.iso
  .date({ error: T.deliveredOnInvalid })
  .refine((day) => day >= '1900-01-01', T.dayTooEarly)
  .optional();

export const IncidentFieldsShape = {
  claimKind: z.preprocess(blankToUndefined, z.enum(CLAIM_KIND_VALUES, { error: T.chooseKind }).optional()),
  deliveryReference: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(CLAIM_LIMITS.referenceMax, T.deliveryTooLong)
      .regex(/^[A-Za-z0-9_-]+$/, T.deliveryInvalid)
      .optional(),
  ),
  /** Dollars as typed ('120.50', '$1,200') or a number of dollars. */
  itemValue: z.preprocess(blankToUndefined, z.union([z.string().max(40), z.number()]).optional()),
  deliveredOn: z.preprocess(blankToUndefined, ClaimDay),
};

/** The claim an Incident Report opens, as the service takes it. */
export interface IncidentInput {
  kind: (typeof CLAIM_KIND_VALUES)[number];
  deliveryReference: string;
  itemValueCents: number | null;
  deliveredOn: string | null;
}

interface IncidentFields {
  reason?: string;
  claimKind?: (typeof CLAIM_KIND_VALUES)[number] | undefined;
  /** Null or empty is none (the app's endpoint reads an empty reference as null). */
  deliveryReference?: string | null | undefined;
  itemValue?: string | number | undefined;
  deliveredOn?: string | undefined;
}

/**
 * The incident's fields read into a claim (or none: no kind chosen, or not an Incident Report), each
 * problem added under its field's name. A kind sent with another reason is refused: the sender
 * meant a claim.
 */
export function readIncident(values: IncidentFields, ctx?: z.RefinementCtx): IncidentInput | null {
  // A kind that is not one of ours was refused by its own field.
  if (!values.claimKind || !(CLAIM_KIND_VALUES as readonly string[]).includes(values.claimKind)) return null;
  if (values.reason !== 'Incident') {
    ctx?.addIssue({ code: 'custom', path: ['claimKind'], message: T.kindWithoutIncident });
    return null;
  }
  // (Run as a check, the values may be as sent: a field of the wrong type has said so itself.)
  if (values.deliveryReference === undefined || values.deliveryReference === null || values.deliveryReference === '') {
    ctx?.addIssue({ code: 'custom', path: ['deliveryReference'], message: T.deliveryRequired });
  }
  let itemValueCents: number | null = null;
  if (values.itemValue !== undefined && typeof values.itemValue !== 'string' && typeof values.itemValue !== 'number') {
    // Refused by its own field.
  } else if (values.itemValue === undefined) {
    if (KINDS_NEEDING_VALUE.includes(values.claimKind)) {
      ctx?.addIssue({ code: 'custom', path: ['itemValue'], message: T.valueRequired });
    }
  } else {
    itemValueCents = centsOf(values.itemValue);
    if (itemValueCents === null) ctx?.addIssue({ code: 'custom', path: ['itemValue'], message: T.valueInvalid });
    else if (itemValueCents > CLAIM_LIMITS.maxValueCents) {
      ctx?.addIssue({ code: 'custom', path: ['itemValue'], message: T.valueTooLarge });
    }
  }
  return {
    kind: values.claimKind,
    deliveryReference: values.deliveryReference ?? '',
    itemValueCents,
    deliveredOn: values.deliveredOn ?? null,
  };
}

/**
 * The incident's checks, run whatever else the form got wrong (a missing message does not hide a
 * missing delivery), so each field says its problem at once.
 */
export const incidentCheck = z.superRefine<IncidentFields>((values, ctx) => void readIncident(values, ctx), {
  // Whatever else is wrong, as long as there is a form to read (not a missing or malformed body).
  when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
});

const DecisionSchema = z.object({
  outcome: z.enum(CLAIM_OUTCOMES),
  amountCents: z.number().int(),
  reason: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string(),
});

export const ClaimSchema = z.object({
  id: z.uuid(),
  ticketId: z.uuid(),
  kind: z.enum(CLAIM_KIND_VALUES),
  deliveryReference: z.string(),
  itemValueCents: z.number().int().nullable(),
  deliveredOn: z.string().nullable(),
  /** The last day of the window to claim, and whether the claim came after it. */
  windowEndsOn: z.string().nullable(),
  claimedLate: z.boolean(),
  state: z.enum(CLAIM_STATES),
  stateSince: z.string(),
  dueAt: z.string().nullable(),
  late: z.boolean(),
  version: z.number().int(),
  evidence: z.number().int(),
  decision: DecisionSchema.nullable(),
  /** Every decision, first first (a second one is the appeal's). */
  decisions: z.array(DecisionSchema),
  /** The traveller asked to answer, once asked. */
  traveller: z
    .object({
      email: z.string(),
      name: z.string().nullable(),
      statement: z.string(),
      askedAt: z.string(),
      answeredAt: z.string().nullable(),
      /** The note in the ticket's thread holding the answer and its files. */
      messageId: z.number().int().nullable(),
    })
    .nullable(),
  appeal: z.object({ at: z.string(), reason: z.string() }).nullable(),
  closedAt: z.string().nullable(),
  /** A leg carried by a partner company: the carriage law's notice (docs/carriage-law.md). */
  carrier: z
    .object({
      companyId: z.uuid(),
      companyName: z.string(),
      noticeSentOn: z.string().nullable(),
      /** 30 days after delivery (s 274) and 12 months after it (ss 278-279); null without a delivery day. */
      noticeBy: z.string().nullable(),
      actionBy: z.string().nullable(),
    })
    .nullable(),
});
export type Claim = z.infer<typeof ClaimSchema>;
export const ClaimResultSchema = z.object({
  claim: ClaimSchema.nullable(),
  /** The approved partner companies a leg may have been carried by (the carrier form's choices). */
  carriers: z.array(z.object({ id: z.uuid(), name: z.string() })),
});

export const ClaimParamsSchema = z.object({ ticketId: z.string().max(64) });

/** A decision, made against the version of the claim the person read. */
export const DecideClaimSchema = z
  .object({
    outcome: z.enum(CLAIM_OUTCOMES, { error: T.outcomeRequired }),
    amount: z.preprocess(blankToUndefined, z.union([z.string().max(40), z.number()]).optional()),
    reason: z.preprocess(blankToUndefined, z.string().trim().max(CLAIM_LIMITS.reasonMax).optional()),
    seenVersion: z.coerce.number().int().min(1),
  })
  .superRefine((value, ctx) => {
    if (value.outcome === 'declined' && !value.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: T.reasonRequired });
    }
    if (value.outcome === 'part') {
      const cents = value.amount === undefined ? null : centsOf(value.amount);
      if (cents === null || cents <= 0) ctx.addIssue({ code: 'custom', path: ['amount'], message: T.amountRequired });
    }
  });
export type DecideClaim = z.infer<typeof DecideClaimSchema>;

/** Staff write against the version they read (a stale form is a 409 in words). */
const SeenVersion = z.coerce.number().int().min(1);

export const WaitForSenderSchema = z.object({ seenVersion: SeenVersion });

/** The traveller of the delivery, asked by mail to answer on their page. */
export const AskTravellerSchema = z.object({
  // Trimmed before it is checked: an address pasted with a space or a line break around it is the same address.
  email: z.preprocess(
    blankToUndefined,
    z
      .string({ error: (issue) => (issue.input === undefined ? T.travellerEmailRequired : T.travellerEmailInvalid) })
      .trim()
      .max(254, T.travellerEmailInvalid)
      .pipe(z.email({ error: T.travellerEmailInvalid })),
  ),
  name: z.preprocess(blankToUndefined, z.string().trim().max(CLAIM_LIMITS.nameMax).optional()),
  statement: z.preprocess(
    blankToUndefined,
    z
      .string({ error: T.statementRequired })
      .trim()
      .min(1, T.statementRequired)
      .max(CLAIM_LIMITS.reasonMax, T.statementTooLong),
  ),
  seenVersion: SeenVersion,
});
export type AskTraveller = z.infer<typeof AskTravellerSchema>;

/** A partner company that carried a leg, and the day notice was given (blank: none). */
export const CarrierNoticeSchema = z.object({
  companyId: z.preprocess(blankToUndefined, z.uuid().optional()),
  noticeSentOn: z.preprocess(blankToUndefined, ClaimDay),
  seenVersion: SeenVersion,
});
export type CarrierNotice = z.infer<typeof CarrierNoticeSchema>;

/** The traveller's answer (a page's multipart form with files, or JSON). */
export const TravellerAnswerSchema = z.object({
  message: z.preprocess(
    blankToUndefined,
    z.string({ error: T.answerRequired }).trim().min(1, T.answerRequired).max(CLAIM_LIMITS.answerMax, T.answerTooLong),
  ),
});

export const TravellerClaimParamsSchema = z.object({ claimId: z.string().max(64) });

/** What the traveller reads: the claim's statement in staff's words, never the sender's ticket. */
export const TravellerClaimSchema = z.object({
  id: z.uuid(),
  kind: z.enum(CLAIM_KIND_VALUES),
  deliveryReference: z.string(),
  deliveredOn: z.string().nullable(),
  statement: z.string(),
  askedAt: z.string(),
  dueAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
  /** Still waiting for this traveller's answer. */
  answerable: z.boolean(),
});
export type TravellerClaim = z.infer<typeof TravellerClaimSchema>;
export const TravellerClaimResultSchema = z.object({ claim: TravellerClaimSchema });

/** What the sender reads of their claim on their ticket. */
export const SenderClaimSchema = z.object({
  kind: z.enum(CLAIM_KIND_VALUES),
  deliveryReference: z.string(),
  state: z.enum(CLAIM_STATES),
  decision: z
    .object({
      outcome: z.enum(CLAIM_OUTCOMES),
      amountCents: z.number().int(),
      reason: z.string().nullable(),
      decidedAt: z.string(),
    })
    .nullable(),
  /** Until when an appeal may be made; null when it cannot (not decided, already appealed, closed). */
  appealUntil: z.string().nullable(),
  appeal: z.object({ at: z.string(), reason: z.string() }).nullable(),
});
export type SenderClaim = z.infer<typeof SenderClaimSchema>;
export const SenderClaimResultSchema = z.object({ claim: SenderClaimSchema.nullable() });

export const AppealSchema = z.object({
  reason: z.preprocess(
    blankToUndefined,
    z.string({ error: T.appealReasonRequired }).trim().min(1, T.appealReasonRequired).max(CLAIM_LIMITS.reasonMax),
  ),
});

/** Working days of one period: a whole number from 1 to its most, refused in words under its field. */
const periodDays = (name: ClaimPeriodName) => {
  const message = T.periodInvalid(CLAIM_PERIOD_MOST[name]);
  return z
    .number({ error: message })
    .int({ error: message })
    .min(1, { error: message })
    .max(CLAIM_PERIOD_MOST[name], { error: message });
};

/** The periods of a claim's waits, in working days (the settings row `claims/periods`, all five kept). */
export const ClaimPeriodsSchema = z.object({
  claimWindowDays: periodDays('claimWindowDays'),
  travellerAnswerDays: periodDays('travellerAnswerDays'),
  decisionDays: periodDays('decisionDays'),
  appealWindowDays: periodDays('appealWindowDays'),
  appealDecisionDays: periodDays('appealDecisionDays'),
});
export type ClaimPeriods = z.infer<typeof ClaimPeriodsSchema>;

export const ClaimPeriodsResultSchema = z.object({ periods: ClaimPeriodsSchema });
