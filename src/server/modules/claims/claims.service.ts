import { CLAIM_TEXT, centsOf, formatNzd } from '../../../contracts/claims.ts';
import type {
  AskTraveller,
  CarrierNotice,
  Claim,
  DecideClaim,
  SenderClaim,
  TravellerClaim,
} from '../../../contracts/claims.schemas.ts';
import { shownEmail } from '../../../contracts/account-deletion.ts';
import { formatNzDueTime } from '../../../contracts/dates.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { iso, isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../clock.ts';
import { newZealandDate } from '../../calendar/business-calendar.ts';
import { greetingFor, renderMail } from '../../mail/layout.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import { type ClaimRow, type ClaimsRepository, createClaimsRepository } from './claims.repository.ts';

const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

/** A calendar day n days (or months) after another (YYYY-MM-DD, no time zone involved). */
function dayAfter(day: string, by: { days?: number; months?: number }): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (by.days) d.setUTCDate(d.getUTCDate() + by.days);
  if (by.months) d.setUTCMonth(d.getUTCMonth() + by.months);
  return d.toISOString().slice(0, 10);
}

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
    decisions: row.decisions.map((d) => ({
      outcome: d.outcome,
      amountCents: Number(d.amount_cents),
      reason: d.reason,
      decidedBy: d.decided_by_email === null ? null : shownEmail(d.decided_by_email),
      decidedAt: iso(d.decided_at),
    })),
    traveller:
      row.traveller_email && row.traveller_asked_at
        ? {
            email: row.traveller_email,
            name: row.traveller_name,
            statement: row.traveller_statement ?? '',
            askedAt: iso(row.traveller_asked_at),
            answeredAt: isoOrNull(row.traveller_answered_at),
            messageId: row.traveller_message_id === null ? null : Number(row.traveller_message_id),
          }
        : null,
    appeal: row.appealed_at ? { at: iso(row.appealed_at), reason: row.appeal_reason ?? '' } : null,
    closedAt: isoOrNull(row.closed_at),
    carrier:
      row.carrier_company_id && row.carrier_name !== null
        ? {
            companyId: row.carrier_company_id,
            companyName: row.carrier_name,
            noticeSentOn: row.notice_sent_on,
            // The carriage law's clocks run from delivery (s 274's 30 days; ss 278-279's 12 months).
            noticeBy: row.delivered_on ? dayAfter(row.delivered_on, { days: 30 }) : null,
            actionBy: row.delivered_on ? dayAfter(row.delivered_on, { months: 12 }) : null,
          }
        : null,
  };
}

/** What the traveller reads: the claim's statement, never the sender's ticket. */
function toTravellerDto(row: ClaimRow): TravellerClaim {
  return {
    id: row.id,
    kind: row.kind as TravellerClaim['kind'],
    deliveryReference: row.delivery_reference,
    deliveredOn: row.delivered_on,
    statement: row.traveller_statement ?? '',
    askedAt: iso(row.traveller_asked_at ?? row.created_at),
    dueAt: row.state === 'with-traveller' ? isoOrNull(row.due_at) : null,
    answeredAt: isoOrNull(row.traveller_answered_at),
    answerable: row.state === 'with-traveller' && row.traveller_answered_at === null,
  };
}

/** What the sender reads of their claim: its state, its decision and whether it can be appealed. */
function toSenderDto(row: ClaimRow, now: Date): SenderClaim {
  const dueAt = isoOrNull(row.due_at);
  return {
    kind: row.kind as SenderClaim['kind'],
    deliveryReference: row.delivery_reference,
    state: row.state as SenderClaim['state'],
    decision:
      row.outcome && row.decided_at
        ? {
            outcome: row.outcome,
            amountCents: Number(row.amount_cents ?? 0),
            reason: row.decision_reason,
            decidedAt: iso(row.decided_at),
          }
        : null,
    appealUntil:
      row.state === 'decided' && row.appealed_at === null && dueAt !== null && Date.parse(dueAt) > now.getTime()
        ? dueAt
        : null,
    appeal: row.appealed_at ? { at: iso(row.appealed_at), reason: row.appeal_reason ?? '' } : null,
  };
}

const claimMissing = () => new AppError('NOT_FOUND', CLAIM_TEXT.claimMissing);

/**
 * Incident claims (docs/decisions/152-incident-claims.md): read and decided by the team. A decision
 * is made against the version of the claim its maker read; the same decision sent again (a retry,
 * a replay) answers with the claim as it is and decides nothing twice.
 */
export function createClaimsService(deps: {
  db: AppDatabase;
  repository: ClaimsRepository;
  audit: AuditService;
  clock: Clock;
  outbox: Outbox;
  site: { companyName: string; publicBaseUrl: string };
}) {
  const { db, repository, audit, clock, outbox, site } = deps;

  async function find(ticketId: string): Promise<ClaimRow | null> {
    return isUuid(ticketId) ? repository.findByTicket(ticketId) : null;
  }

  /** The claim as it is after a change, or why the change was not made (it moved on since the form was read). */
  async function changed(ticketId: string, done: boolean, refusal: string): Promise<Claim> {
    const row = await find(ticketId);
    if (!row) throw claimMissing();
    if (!done) throw new AppError('ABORTED', refusal);
    return toClaimDto(row, clock.now());
  }

  /** The traveller's claim, for the account at the address asked (anyone else: not found). */
  async function asTraveller(claimId: string, email: string): Promise<ClaimRow> {
    const row = isUuid(claimId) ? await repository.findById(claimId) : null;
    if (!row || row.traveller_email === null || row.traveller_email.toLowerCase() !== email.toLowerCase()) {
      throw new AppError('NOT_FOUND', CLAIM_TEXT.travellerMissing);
    }
    return row;
  }

  return {
    async claim(ticketId: string): Promise<Claim | null> {
      const row = await find(ticketId);
      return row ? toClaimDto(row, clock.now()) : null;
    },

    /** The partner companies a claim's leg may have been carried by (none are read for a ticket without a claim). */
    carriers: () => repository.carriers(),

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
        audit: { actorEmail: actor.email, ticketNo: row.ticket_no },
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
        if (row.state === 'appealed' && row.version === body.seenVersion && row.decided_by === actor.userId) {
          throw new AppError('PERMISSION_DENIED', CLAIM_TEXT.appealByOther);
        }
        throw new AppError(
          'ABORTED',
          now.version === body.seenVersion ? CLAIM_TEXT.notDecidable : CLAIM_TEXT.alreadyDecided,
        );
      }
      return toClaimDto(now, clock.now());
    },

    /** The claim waits for the sender's answer to what staff asked in a reply. */
    async waitForSender(actor: AuditActor, ticketId: string, seenVersion: number): Promise<Claim> {
      const row = await find(ticketId);
      if (!row) throw claimMissing();
      const done = await repository.waitForSender(row.ticket_id, seenVersion, clock.now());
      if (done) {
        await audit.record({
          actor,
          action: 'claim.wait-for-sender',
          targetType: 'ticket',
          targetId: row.ticket_id,
          details: { ticketNo: row.ticket_no },
        });
      }
      return changed(ticketId, done, row.version === seenVersion ? CLAIM_TEXT.notWaitable : CLAIM_TEXT.alreadyDecided);
    },

    /**
     * Asks the delivery's traveller: the claim waits for their answer, and the mail with the link to
     * their page is recorded in the same transaction (so an asked traveller is always mailed).
     */
    async askTraveller(actor: AuditActor, ticketId: string, body: AskTraveller): Promise<Claim> {
      const row = await find(ticketId);
      if (!row) throw claimMissing();
      const email = body.email.trim().toLowerCase();
      if (row.owner_email !== null && row.owner_email.toLowerCase() === email) {
        throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.travellerIsSender, {
          fields: { email: CLAIM_TEXT.travellerIsSender },
        });
      }
      const now = clock.now();
      const asked = await inTransaction(db, async (tx) => {
        const claim = await createClaimsRepository(tx).askTraveller({
          ticketId: row.ticket_id,
          seenVersion: body.seenVersion,
          email,
          name: body.name ?? null,
          statement: body.statement,
          now,
        });
        if (!claim) return null;
        const after = await createClaimsRepository(tx).findByTicket(row.ticket_id);
        const due = after?.due_at ? formatNzDueTime(iso(after.due_at)) : null;
        await outbox.enqueue(tx, {
          kind: 'claim-traveller',
          to: email,
          subject: CLAIM_TEXT.travellerMail(row.delivery_reference),
          ...renderMail({
            companyName: site.companyName,
            heading: CLAIM_TEXT.travellerTitle,
            greeting: greetingFor(body.name),
            paragraphs: [
              CLAIM_TEXT.travellerLead(row.delivery_reference),
              ...(due ? [CLAIM_TEXT.answerDue(`${due} (New Zealand time)`)] : []),
            ],
            quotes: [body.statement],
            action: { label: 'Answer the claim', url: `${site.publicBaseUrl}/support/claims/${claim.id}` },
            notes: [`Sign in with the account of this address (${email}) to answer.`],
          }),
        });
        return claim;
      });
      if (asked) {
        outbox.wake();
        await audit.record({
          actor,
          action: 'claim.ask-traveller',
          targetType: 'ticket',
          targetId: row.ticket_id,
          details: { ticketNo: row.ticket_no, email },
        });
      }
      return changed(
        ticketId,
        asked !== null,
        row.version === body.seenVersion ? CLAIM_TEXT.travellerNotAskable : CLAIM_TEXT.alreadyDecided,
      );
    },

    /** The partner company that carried a leg, and the day notice of the claim was given to it. */
    async setCarrier(actor: AuditActor, ticketId: string, body: CarrierNotice): Promise<Claim> {
      const row = await find(ticketId);
      if (!row) throw claimMissing();
      if (body.noticeSentOn && body.noticeSentOn > newZealandDate(clock.now())) {
        throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.noticeFuture, {
          fields: { noticeSentOn: CLAIM_TEXT.noticeFuture },
        });
      }
      const companyId = body.companyId ?? null;
      const saved = await repository.setCarrier({
        ticketId: row.ticket_id,
        seenVersion: body.seenVersion,
        companyId,
        noticeSentOn: companyId === null ? null : (body.noticeSentOn ?? null),
      });
      if (saved === 'no-company') {
        throw new AppError('INVALID_ARGUMENT', CLAIM_TEXT.carrierMissing, {
          fields: { companyId: CLAIM_TEXT.carrierMissing },
        });
      }
      if (saved === 'saved') {
        await audit.record({
          actor,
          action: 'claim.carrier',
          targetType: 'ticket',
          targetId: row.ticket_id,
          details: { ticketNo: row.ticket_no, companyId, noticeSentOn: body.noticeSentOn ?? null },
        });
      }
      return changed(ticketId, saved === 'saved', CLAIM_TEXT.alreadyDecided);
    },

    /** The claim a traveller was asked about, as they read it. */
    async travellerClaim(user: { email: string }, claimId: string): Promise<TravellerClaim> {
      return toTravellerDto(await asTraveller(claimId, user.email));
    },

    /** Before the traveller's first file is read: the claim still waits for their answer. */
    async mayAnswer(user: { email: string }, claimId: string): Promise<void> {
      if (!toTravellerDto(await asTraveller(claimId, user.email)).answerable) {
        throw new AppError('ABORTED', CLAIM_TEXT.notAnswerable);
      }
    },

    /** The traveller's answer, once: a note on the ticket with its files; the claim goes back to the team. */
    async answer(
      user: { userId: string; email: string },
      claimId: string,
      input: { message: string; attachmentIds?: string[] },
    ): Promise<TravellerClaim> {
      await asTraveller(claimId, user.email);
      const answered = await repository.answer({
        claimId,
        userId: user.userId,
        email: user.email,
        body: input.message,
        attachmentIds: input.attachmentIds ?? [],
        now: clock.now(),
      });
      if (!answered) throw new AppError('ABORTED', CLAIM_TEXT.notAnswerable);
      return toTravellerDto(await asTraveller(claimId, user.email));
    },

    /** The sender's own claim (null when their ticket has none; someone else's ticket: not found). */
    async senderClaim(userId: string, ticketId: string): Promise<SenderClaim | null> {
      const row = await find(ticketId);
      if (row && row.owner_id !== userId) return null;
      return row ? toSenderDto(row, clock.now()) : null;
    },

    /** The sender appeals the decision, once, within its window. */
    async appeal(userId: string, ticketId: string, reason: string): Promise<SenderClaim> {
      const row = await find(ticketId);
      if (!row || row.owner_id !== userId) throw claimMissing();
      if (!(await repository.appeal({ ticketId: row.ticket_id, ownerId: userId, reason, now: clock.now() }))) {
        throw new AppError('ABORTED', CLAIM_TEXT.notAppealable);
      }
      const after = await find(ticketId);
      if (!after) throw claimMissing();
      return toSenderDto(after, clock.now());
    },
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;
