import { convert } from 'html-to-text';
import { simpleParser } from 'mailparser';
import {
  INBOUND_REASONS,
  INBOUND_TEXT,
  type InboundReason,
  type InboundViewState,
} from '../../../contracts/inbound.ts';
import type { InboundMail } from '../../../contracts/inbound.schemas.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { iso, isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { MailPoster } from './inbound.post.ts';
import type { InboundRepository } from './inbound.repository.ts';

/**
 * The admin's side of mail that comes in (the Mail page's Incoming view: list, post or discard a
 * held mail, each audited) and "Show the whole mail" for a message that came by mail.
 */
/** Why an admin's Post did not post, in their words. */
const NOT_POSTED = {
  'no-words': INBOUND_TEXT.nothingToPost,
  closed: SUPPORT_TEXT.replyRejected,
  'not-a-party': INBOUND_TEXT.notAParty,
} as const;

export function createInboundService(deps: {
  repository: InboundRepository;
  postMail: MailPoster;
  audit: AuditService;
}) {
  const { repository, postMail, audit } = deps;

  return {
    async list(filter: {
      state?: InboundViewState;
    }): Promise<{ mails: InboundMail[]; counts: Record<string, number> }> {
      const [rows, counts] = await Promise.all([
        repository.list({ state: filter.state, limit: 200 }),
        repository.countByState(),
      ]);
      const mails = rows.map((r) => ({
        id: Number(r.id),
        receivedAt: iso(r.receivedAt),
        via: r.via as 'smtp' | 'imap',
        from: r.from,
        subject: r.subject,
        state: (r.state === 'processing' ? 'received' : r.state) as InboundViewState,
        reason: r.reason,
        reasonText: r.reason ? (INBOUND_REASONS[r.reason as InboundReason] ?? r.reason) : null,
        ticketId: r.ticketId,
        ticketNo: r.ticketNo === null ? null : Number(r.ticketNo),
        size: Number(r.size),
        decidedAt: r.decidedAt ? iso(r.decidedAt) : null,
        decidedBy: r.decidedBy,
      }));
      return { mails, counts };
    },

    /**
     * Posts a held mail as the person it would have posted as, with only its new words, into its
     * ticket (or a new General ticket when it belonged to none). The admin vouches for the sender.
     */
    async post(actor: AuditActor, id: number): Promise<{ ticketId: string }> {
      const held = await repository.findHeld(id);
      if (!held) throw new AppError('NOT_FOUND', INBOUND_TEXT.notFound);
      if (held.state !== 'held' || !held.raw) throw new AppError('ABORTED', INBOUND_TEXT.notHeld);
      const author = held.userId ? await repository.findAccount(held.userId) : null;
      if (!author) throw new AppError('ABORTED', INBOUND_TEXT.noTicket);
      const parsed = await simpleParser(held.raw, { skipImageLinks: true, skipTextToHtml: true });
      const result = await postMail({ inboundId: id, parsed, author, ticketId: held.ticketId });
      if (!result.posted) throw new AppError('ABORTED', NOT_POSTED[result.why]);
      await repository.recordDecider(id, actor.userId);
      await audit.record({
        actor,
        action: 'mail.post',
        targetType: 'mail',
        targetId: id,
        details: { ticketId: result.ticketId, messageId: result.messageId },
      });
      return { ticketId: result.ticketId };
    },

    async discard(actor: AuditActor, id: number): Promise<void> {
      if (!(await repository.findHeld(id))) throw new AppError('NOT_FOUND', INBOUND_TEXT.notFound);
      if (!(await repository.discardHeld(id, actor.userId))) throw new AppError('ABORTED', INBOUND_TEXT.notHeld);
      await audit.record({ actor, action: 'mail.discard', targetType: 'mail', targetId: id, details: {} });
    },

    /**
     * The whole mail behind a message posted from it, as text (never its HTML: a mail's markup is
     * not ours to render). The ticket's owner sees their own; an admin any.
     */
    async wholeMail(viewer: { userId: string; admin: boolean }, ticketId: string, messageId: number) {
      const raw = isUuid(ticketId)
        ? await repository.findRawOfMessage(ticketId, messageId, viewer.admin ? null : viewer.userId)
        : null;
      if (!raw) throw new AppError('NOT_FOUND', INBOUND_TEXT.notFound);
      const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
      const text =
        parsed.text?.trim() || (typeof parsed.html === 'string' ? convert(parsed.html, { wordwrap: false }) : '') || '';
      return {
        from: parsed.from?.text ?? '',
        // A reply address's token is a credential: shown as reply+…, never in full.
        to: (Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '')).replace(
          /reply\+[0-9a-f]{48}@/gi,
          'reply+…@',
        ),
        subject: parsed.subject ?? '',
        date: parsed.date ? parsed.date.toISOString() : null,
        text,
        attachments: parsed.attachments.map((a) => ({ name: a.filename ?? 'file', size: a.size })),
      };
    },
  };
}

export type InboundService = ReturnType<typeof createInboundService>;
