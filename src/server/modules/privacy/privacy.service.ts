import type { ClaimKind, ClaimOutcome, ClaimState } from '../../../contracts/claims.ts';
import { DATA_EXPORT_FORMAT } from '../../../contracts/privacy.ts';
import type { DataExport } from '../../../contracts/privacy.schemas.ts';
import { iso } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { CollectedData, PrivacyRepository } from './privacy.repository.ts';

const APPLICATION_STATUS = ['pending', 'approved', 'rejected'] as const;

type ExportedClaim = NonNullable<DataExport['tickets'][number]['claim']>;

/** Cents, and dollars as a plain decimal: 120050 → { cents: 120050, nzd: '1200.50' }. */
const money = (cents: number) => ({ cents, nzd: (cents / 100).toFixed(2) });

function toExportedClaim(claim: CollectedData['claims'][number]): ExportedClaim {
  return {
    kind: claim.kind as ClaimKind,
    deliveryReference: claim.deliveryReference,
    itemValue: claim.itemValueCents === null ? null : money(claim.itemValueCents),
    deliveredOn: claim.deliveredOn,
    state: claim.state as ClaimState,
    createdAt: iso(claim.createdAt),
    decision:
      claim.outcome === null || claim.decidedAt === null
        ? null
        : {
            outcome: claim.outcome as ClaimOutcome,
            amount: money(claim.amountCents ?? 0),
            reason: claim.decisionReason,
            decidedAt: iso(claim.decidedAt),
          },
    appeal: claim.appealedAt === null ? null : { reason: claim.appealReason ?? '', at: iso(claim.appealedAt) },
  };
}

/** Shapes what the repository collected into the documented export (docs/data-export.md). */
export function toDataExport(userId: string, data: CollectedData, now = new Date()): DataExport {
  const filesByMessage = new Map<number, DataExport['tickets'][number]['messages'][number]['attachments']>();
  for (const file of data.files) {
    if (file.messageId === null) continue;
    const list = filesByMessage.get(file.messageId) ?? [];
    list.push({ id: file.id, name: file.name, kind: file.kind, size: file.size, sentAt: iso(file.sentAt) });
    filesByMessage.set(file.messageId, list);
  }
  const claimsByTicket = new Map(data.claims.map((claim) => [claim.ticketId, toExportedClaim(claim)]));
  return {
    format: DATA_EXPORT_FORMAT,
    exportedAt: iso(now),
    account: {
      email: data.account.email,
      name: data.account.name,
      emailVerified: data.account.emailVerifiedAt !== null,
      role: data.account.role === 'admin' ? 'admin' : 'user',
      memberSince: iso(data.account.createdAt),
      disabled: data.account.disabledAt !== null,
    },
    sessions: data.sessions.map((s) => ({
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
      userAgent: s.userAgent,
      ipPrefix: s.ipPrefix,
    })),
    notificationOptOuts: data.optOuts.map((o) => ({ kind: o.kind, since: iso(o.at) })),
    tickets: data.tickets.map((ticket) => ({
      ticketNo: ticket.ticketNo,
      reason: ticket.reason,
      open: ticket.open,
      createdAt: iso(ticket.createdAt),
      closedAt: ticket.closedAt ? iso(ticket.closedAt) : null,
      rating:
        ticket.good === null || ticket.ratedAt === null
          ? null
          : { good: ticket.good, comment: ticket.comment, ratedAt: iso(ticket.ratedAt) },
      claim: claimsByTicket.get(ticket.id) ?? null,
      messages: data.messages
        .filter((m) => m.ticketId === ticket.id)
        .map((m) => ({
          id: m.id,
          at: iso(m.at),
          from: m.systemEvent !== null ? ('system' as const) : m.admin ? ('support' as const) : ('you' as const),
          text: m.text,
          attachments: filesByMessage.get(m.id) ?? [],
        })),
    })),
    partnerApplications: data.applications.map(({ verified, createdAt, lastUpdated, ...rest }) => ({
      ...rest,
      status: APPLICATION_STATUS[verified] ?? 'pending',
      createdAt: iso(createdAt),
      lastUpdated: iso(lastUpdated),
    })),
    auditEntries: data.audit.map((entry) => {
      const aboutYou = entry.targetType === 'user' && entry.targetId === userId;
      return {
        at: iso(entry.at),
        action: entry.action,
        about: aboutYou ? ('you' as const) : ('by you' as const),
        target: entry.targetType,
        details: aboutYou ? (entry.details ?? null) : null,
      };
    }),
  };
}

export function createPrivacyService({ repository }: { repository: PrivacyRepository }) {
  return {
    /** Everything held about the person, as one JSON document. */
    async exportData(userId: string): Promise<DataExport> {
      const data = await repository.collect(userId);
      if (!data) throw new AppError('NOT_FOUND', 'This account no longer exists.');
      return toDataExport(userId, data);
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
