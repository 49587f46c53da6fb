import { CLAIM_KIND_VALUES, CLAIM_OUTCOMES } from './claims.ts';
import { z } from './zod.ts';

/**
 * The zod schema of the report's claims (report-claims.ts, which holds their words and needs no
 * zod: docs/decisions/119-schemas-stay-on-the-server.md).
 */

const Count = z.number().int().nonnegative();

export const ClaimsFigureSchema = z.object({
  /** Claims made in the range. */
  made: Count,
  /** Every kind, in CLAIM_KINDS' order, none left out. */
  kinds: z.array(z.object({ kind: z.enum(CLAIM_KIND_VALUES), count: Count })),
  /** Claims with at least one decision. */
  decided: Count,
  /** The decided claims by their first decision, every outcome, none left out. */
  outcomes: z.array(z.object({ outcome: z.enum(CLAIM_OUTCOMES), count: Count })),
  /** The current amounts of the claims upheld in full or in part, in cents. */
  paidCents: Count,
  /** The item values given with the claims, in cents. */
  claimedCents: Count,
  /** Working days from the claim's day to its first decision's (see the file's comment): nearest rank. */
  medianDecisionDays: z.number().int().nullable(),
  p90DecisionDays: z.number().int().nullable(),
});
