import { z } from './zod.ts';
import { CLAIM_KIND_VALUES, CLAIM_OUTCOMES, CLAIM_STATES } from './claims.ts';
import { DATA_EXPORT_FORMAT } from './privacy.ts';

/**
 * The zod schemas of privacy.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in privacy.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
const MessageSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** 'system': a line the system wrote into the thread (an auto-close), not a person's message (since /2). */
  from: z.enum(['you', 'support', 'system']),
  text: z.string(),
  attachments: z.array(
    z.object({ id: z.uuid(), name: z.string(), kind: z.string(), size: z.number().int(), sentAt: z.string() }),
  ),
});

/** An amount of money: in cents, and in New Zealand dollars as a plain decimal ('1200.50'). */
const MoneySchema = z.object({ cents: z.number().int(), nzd: z.string() });

/**
 * The claim an Incident Report opened (since /3): what the person told us and what became of it.
 * Never the traveller (who they are, what they were told or answered) or who decided it.
 */
const ClaimSchema = z.object({
  kind: z.enum(CLAIM_KIND_VALUES),
  deliveryReference: z.string(),
  /** Null when none was given. */
  itemValue: MoneySchema.nullable(),
  /** The day it was delivered (or was due), 'YYYY-MM-DD'; null when none was given. */
  deliveredOn: z.string().nullable(),
  state: z.enum(CLAIM_STATES),
  createdAt: z.string(),
  /** The decision as it stands (an appeal's, once decided); null before one. */
  decision: z
    .object({
      outcome: z.enum(CLAIM_OUTCOMES),
      amount: MoneySchema,
      reason: z.string().nullable(),
      decidedAt: z.string(),
    })
    .nullable(),
  appeal: z.object({ reason: z.string(), at: z.string() }).nullable(),
});

export const DataExportSchema = z.object({
  format: z.literal(DATA_EXPORT_FORMAT),
  exportedAt: z.string(),
  account: z.object({
    email: z.string(),
    /** The name the person gave (null when none). */
    name: z.string().nullable(),
    emailVerified: z.boolean(),
    role: z.enum(['user', 'admin']),
    memberSince: z.string(),
    disabled: z.boolean(),
  }),
  sessions: z.array(
    z.object({
      createdAt: z.string(),
      lastSeenAt: z.string(),
      expiresAt: z.string(),
      /** What the browser said it was, as it said it (null when it said nothing). */
      userAgent: z.string().nullable(),
      /** The network the sign-in came from, never the full address: "203.0.113.0/24". */
      ipPrefix: z.string().nullable(),
    }),
  ),
  notificationOptOuts: z.array(z.object({ kind: z.string(), since: z.string() })),
  tickets: z.array(
    z.object({
      ticketNo: z.number().int(),
      reason: z.string(),
      open: z.boolean(),
      createdAt: z.string(),
      closedAt: z.string().nullable(),
      rating: z.object({ good: z.boolean(), comment: z.string().nullable(), ratedAt: z.string() }).nullable(),
      /** Null when the ticket is not a claim. */
      claim: ClaimSchema.nullable(),
      messages: z.array(MessageSchema),
    }),
  ),
  partnerApplications: z.array(z.record(z.string(), z.unknown())),
  auditEntries: z.array(
    z.object({
      at: z.string(),
      action: z.string(),
      /** 'you': the team did something to your account; 'by you': you did it (as an admin). */
      about: z.enum(['you', 'by you']),
      target: z.string(),
      /** Only for entries about you: what an entry by you records may be other people's data. */
      details: z.unknown(),
    }),
  ),
});
export type DataExport = z.infer<typeof DataExportSchema>;
