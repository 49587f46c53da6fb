import { CLAIM_PERIODS, CLAIM_TEXT, centsOf, formatNzd } from '../../../contracts/claims.ts';
import type { Claim, DecideClaim } from '../../../contracts/claims.schemas.ts';
import { shownEmail } from '../../../contracts/account-deletion.ts';
import { iso, isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../clock.ts';
import { newZealandDate } from '../../calendar/business-calendar.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { ClaimRow, ClaimsRepository } from './claims.repository.ts';

export function toClaimDto(row: ClaimRow, now: Date): Claim {
  const dueAt = row.due_at === null ? null : iso(row.due_at);
  return {
    id: row.id,
    ticketId: row.ticket_id,
    kind: row.kind as Claim['kind'],
    deliveryReference: row.delivery_reference,
    itemValueCents: row.item_value_cents === null ? null : Number(row.item_value_cents),
    deliveredOn: row.delivered_on,
    windowEndsOn: row.window_ends_on,
    claimedLate: row.window_ends_on !== null && newZealandDate(new Date(iso(row.created_at))) > row.window_ends_on,
    state: row.state as Claim['state'],
    stateSince: iso(row.state_since),
    dueAt,
    late: dueAt !== null && Date.parse(dueAt) < now.getTime(),
    version: row.version,
    evidence: Number(row.evidence),
    decision:
      row.outcome && row.decided_at
        ? {
            outcome: row.outcome,
            amountCents: Number(row.amount_cents ?? 0),
            reason: row.decision_reason,
            decidedBy: row.decided_by_email === null ? null : shownEmail(row.decided_by_email),
            decidedAt: iso(row.decided_at),
          }
        : null,
  };
}

const claimMissing = () => new AppError('NOT_FOUND', CLAIM_TEXT.claimMissing);

/**
 * Incident claims (docs/decisions/152-incident-claims.md): read and decided by the team. A decision
 * is made against the version of the claim its maker read; the same decision sent again (a retry,
 * a replay) answers with the claim as it is and decides nothing twice.
 */
export function createClaimsService(deps: { repository: ClaimsRepository; audit: AuditService; clock: Clock }) {
  const { repository, audit, clock } = deps;

  async function find(ticketId: string): Promise<ClaimRow | null> {
    return isUuid(ticketId) ? repository.findByTicket(ticketId) : null;
  }

  return {
    async claim(ticketId: string): Promise<Claim | null> {
      const row = await find(ticketId);
      return row ? toClaimDto(row, clock.now()) : null;
    },

    async decide(actor: AuditActor, ticketId: string, body: DecideClaim): Promise<Claim> {
      const row = await find(ticketId);
      if (!row) throw claimMissing();
      const value = row.item_value_cents === null ? null : Number(row.item_value_cents);
      let amountCents = 0;
      if (body.outcome === 'upheld') {
        if (value === null) {
          throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.upheldWithoutValue, {
            fields: { outcome: CLAIM_TEXT.upheldWithoutValue },
          });
        }
        amountCents = value;
      } else if (body.outcome === 'part') {
        // (The schema refused a part without an amount of more than nothing.)
        amountCents = body.amount === undefined ? 0 : (centsOf(body.amount) ?? 0);
        if (value !== null && amountCents > value) {
          const message = CLAIM_TEXT.amountOverValue(formatNzd(value));
          throw new AppError('INVALID_ARGUMENT', message, { fields: { amount: message } });
        }
      }
      const reason = body.outcome === 'declined' || body.reason ? (body.reason ?? null) : null;
      const decided = await repository.decide({
        ticketId: row.ticket_id,
        seenVersion: body.seenVersion,
        outcome: body.outcome,
        amountCents,
        reason,
        decidedBy: actor.userId,
        now: clock.now(),
        periods: CLAIM_PERIODS,
      });
      const now = await find(ticketId);
      if (!now) throw claimMissing();
      if (!decided) {
        // The same decision again (a retry of one that was stored): the claim as it is, nothing new.
        const same =
          now.version === body.seenVersion + 1 &&
          now.decided_by === actor.userId &&
          now.outcome === body.outcome &&
          Number(now.amount_cents) === amountCents;
        if (same) return toClaimDto(now, clock.now());
        throw new AppError(
          'ABORTED',
          now.version === body.seenVersion ? CLAIM_TEXT.notDecidable : CLAIM_TEXT.alreadyDecided,
        );
      }
      await audit.record({
        actor,
        action: 'claim.decide',
        targetType: 'ticket',
        targetId: row.ticket_id,
        details: {
          ticketNo: row.ticket_no,
          outcome: body.outcome,
          amountCents,
          ...(reason ? { reason } : {}),
          version: decided.version,
        },
      });
      return toClaimDto(now, clock.now());
    },
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;
