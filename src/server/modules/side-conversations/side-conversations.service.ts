import { convert } from 'html-to-text';
import { ATTACHMENT_TYPES, type AttachmentKind } from '../../../contracts/attachments.ts';
import { MESSAGE_MAX_LENGTH } from '../../../contracts/support.ts';
import { SIDE_LIMITS, SIDE_TEXT } from '../../../contracts/side-conversations.ts';
import type { SideConversation, StartSideBody } from '../../../contracts/side-conversations.schemas.ts';
import { formatNzDateTime } from '../../../contracts/dates.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { iso, isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { renderMail, supportFrom } from '../../mail/layout.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { createReplyToken, replyAddress } from '../../mail/threading.ts';
import { hashToken } from '../../security/tokens.ts';
import type { MailContext } from '../../shared-services.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import {
  createSideRepository,
  type SideFile,
  type SideMessageRow,
  type SideRow,
} from './side-conversations.repository.ts';

/**
 * Side conversations (docs/decisions/138-side-conversations.md): staff write by mail, from a
 * ticket, to someone who is not its customer. Each conversation has a reply address of its own; its
 * mail is recorded in the outbox in the transaction that stores the message, from the support
 * address in the agent's name, as the customer's mail is (decision 136). Replies come back through
 * the inbound worker (`postFromMail`). Every change is audited and announced to the team's pages.
 */
const CUT_NOTE = '\n\n[…the rest is in the whole mail]';
const cut = (text: string) =>
  text.length > MESSAGE_MAX_LENGTH ? text.slice(0, MESSAGE_MAX_LENGTH - CUT_NOTE.length) + CUT_NOTE : text;

const notFound = () => new AppError('NOT_FOUND', SIDE_TEXT.notFound);

/** The thread root of a side conversation's mail: its own, so a mail program never mixes it with the ticket's. */
export const sideThreadId = (id: string, domain: string) => `<side-${id}@${domain}>`;

function toDto(row: SideRow, messages: SideMessageRow[]): SideConversation {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    counterpart: row.counterpart,
    subject: row.subject,
    state: row.state,
    createdBy: row.created_by_email,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    messages: messages
      .filter((m) => m.conversation_id === row.id)
      .map((m) => ({
        id: Number(m.id),
        direction: m.direction,
        authorEmail: m.author_email,
        body: m.body,
        byEmail: m.inbound_mail_id !== null,
        inboundId: m.inbound_mail_id === null ? null : Number(m.inbound_mail_id),
        files: m.files ?? [],
        createdAt: iso(m.created_at),
      })),
  };
}

export function createSideService(deps: { db: AppDatabase; outbox: Outbox; mail: MailContext; audit: AuditService }) {
  const { db, outbox, mail, audit } = deps;
  const repository = createSideRepository(db);
  const domain = new URL(mail.publicBaseUrl).hostname;

  async function read(id: string): Promise<SideConversation> {
    const row = isUuid(id) ? await repository.findConversation(id) : null;
    if (!row) throw notFound();
    const { messages } = await repository.listForTicket(row.ticket_id);
    return toDto(row, messages);
  }

  /** Records one outgoing message and its mail in `tx`; the conversation must not be closed. */
  async function send(
    tx: AppDatabase,
    input: {
      conversationId: string;
      ticketId: string;
      to: string;
      subject: string;
      body: string;
      quotes: string[];
      /** Files of the ticket the mail carries (read from storage when it is sent). */
      files: Array<{ name: string; size: number; kind: string; storage_key: string }>;
      actor: AuditActor;
    },
  ) {
    const txRepository = createSideRepository(tx);
    const messageId = await txRepository.insertOutgoing({
      conversationId: input.conversationId,
      authorId: input.actor.userId,
      body: input.body,
      files: input.files.map((f) => ({ name: f.name, size: f.size })),
    });
    if (messageId === null) throw new AppError('ABORTED', SIDE_TEXT.isClosed);
    const root = sideThreadId(input.conversationId, domain);
    // Each mail gets a reply address of its own (only hashes are kept), all of them this conversation's.
    let replyTo: string | null = null;
    if (mail.replyDomain) {
      const token = createReplyToken();
      await txRepository.insertToken(input.conversationId, hashToken(token));
      replyTo = replyAddress(token, mail.replyDomain);
    }
    const agent = await txRepository.agentName(input.actor.userId);
    const mailId = await outbox.enqueue(tx, {
      to: input.to,
      subject: input.subject,
      ...renderMail({
        companyName: mail.companyName,
        heading: input.subject,
        paragraphs: input.body.split(/\r?\n\s*\r?\n/),
        quotes: input.quotes,
      }),
      kind: 'side-conversation',
      ticketId: input.ticketId,
      attachments: input.files.map((f) => ({
        name: f.name,
        contentType: ATTACHMENT_TYPES[f.kind as AttachmentKind].contentType,
        storageKey: f.storage_key,
      })),
      headers: {
        From: supportFrom(mail.companyName, mail.supportAddress, agent),
        'In-Reply-To': root,
        References: root,
        // Its own reply address: a reply posts into this conversation and nowhere else.
        ...(replyTo ? { 'Reply-To': replyTo } : {}),
      },
    });
    await txRepository.setMailMessageId(messageId, mailId);
    return messageId;
  }

  return {
    async list(ticketId: string): Promise<SideConversation[]> {
      if (!isUuid(ticketId) || !(await repository.findTicket(ticketId))) throw notFound();
      const { conversations, messages } = await repository.listForTicket(ticketId);
      return conversations.map((row) => toDto(row, messages));
    },

    async start(actor: AuditActor, ticketId: string, body: StartSideBody): Promise<SideConversation> {
      const ticket = isUuid(ticketId) ? await repository.findTicket(ticketId) : null;
      if (!ticket) throw notFound();
      // The customer is written to in the ticket itself, where they can read it.
      if (body.to === ticket.owner_email.toLowerCase())
        throw new AppError('INVALID_ARGUMENT', SIDE_TEXT.ownAddress, { fields: { to: SIDE_TEXT.ownAddress } });
      const included = await repository.quotable(ticket.id, body.includeMessageIds ?? []);
      const quotes = included.map(
        (m) => `${m.admin ? 'Our team' : 'The customer'}, ${formatNzDateTime(iso(m.timestamp))}:\n${m.message_body}`,
      );
      const wanted = [...new Set(body.includeAttachmentIds ?? [])];
      const files = await repository.attachable(ticket.id, wanted);
      const refuse = (message: string) =>
        new AppError('INVALID_ARGUMENT', message, { fields: { includeAttachmentIds: message } });
      if (files.length < wanted.length) throw refuse(SIDE_TEXT.fileMissing);
      if (files.reduce((sum, f) => sum + Number(f.size), 0) > SIDE_LIMITS.includedBytes)
        throw refuse(SIDE_TEXT.filesTooLarge);
      const id = await inTransaction(db, async (tx) => {
        const conversationId = await createSideRepository(tx).insertConversation({
          ticketId: ticket.id,
          counterpart: body.to,
          subject: body.subject,
          createdBy: actor.userId,
        });
        await send(tx, {
          conversationId,
          ticketId: ticket.id,
          to: body.to,
          subject: body.subject,
          body: body.messageBody,
          quotes: quotes.length > 0 ? [`${SIDE_TEXT.included}\n\n${quotes.join('\n\n')}`] : [],
          files: files.map((f) => ({ ...f, size: Number(f.size) })),
          actor,
        });
        return conversationId;
      });
      outbox.wake();
      await repository.announce(ticket.id);
      await audit.record({
        actor,
        action: 'ticket.side-start',
        targetType: 'ticket',
        targetId: ticket.id,
        details: {
          ticketNo: ticket.ticket_no,
          sideId: id,
          counterpart: body.to,
          subject: body.subject,
          ...(files.length > 0 ? { files: files.map((f) => f.name) } : {}),
        },
      });
      return read(id);
    },

    async reply(actor: AuditActor, sideId: string, messageBody: string): Promise<SideConversation> {
      const row = isUuid(sideId) ? await repository.findConversation(sideId) : null;
      if (!row) throw notFound();
      if (row.state === 'closed') throw new AppError('ABORTED', SIDE_TEXT.isClosed);
      await inTransaction(db, (tx) =>
        send(tx, {
          conversationId: row.id,
          ticketId: row.ticket_id,
          to: row.counterpart,
          subject: /^re:/i.test(row.subject) ? row.subject : `Re: ${row.subject}`,
          body: messageBody,
          quotes: [],
          files: [],
          actor,
        }),
      );
      outbox.wake();
      await repository.announce(row.ticket_id);
      const ticket = await repository.findTicket(row.ticket_id);
      await audit.record({
        actor,
        action: 'ticket.side-reply',
        targetType: 'ticket',
        targetId: row.ticket_id,
        details: { ticketNo: ticket?.ticket_no ?? null, sideId: row.id, counterpart: row.counterpart },
      });
      return read(row.id);
    },

    async close(actor: AuditActor, sideId: string): Promise<SideConversation> {
      const row = isUuid(sideId) ? await repository.findConversation(sideId) : null;
      if (!row) throw notFound();
      const closed = await repository.close(row.id);
      if (closed) {
        await repository.announce(row.ticket_id);
        const ticket = await repository.findTicket(row.ticket_id);
        await audit.record({
          actor,
          action: 'ticket.side-close',
          targetType: 'ticket',
          targetId: row.ticket_id,
          details: { ticketNo: ticket?.ticket_no ?? null, sideId: row.id, counterpart: row.counterpart },
        });
      }
      return read(row.id);
    },

    /** The whole mail behind a reply, as text (never its HTML: a mail's markup is not ours to render). */
    async wholeMail(sideId: string, messageId: number) {
      const raw = isUuid(sideId) ? await repository.findRawOfMessage(sideId, messageId) : null;
      if (!raw) throw notFound();
      const { simpleParser } = await import('mailparser');
      const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
      const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
      return {
        from: parsed.from?.text ?? '',
        // A reply address's token is a credential: never shown in full.
        to: to.replace(/reply\+[0-9a-f]{48}@/gi, 'reply+…@'),
        subject: parsed.subject ?? '',
        date: parsed.date ? parsed.date.toISOString() : null,
        text:
          parsed.text?.trim() ||
          (typeof parsed.html === 'string' ? convert(parsed.html, { wordwrap: false }) : '') ||
          '',
        attachments: parsed.attachments.map((a) => ({ name: a.filename ?? 'file', size: a.size })),
      };
    },

    findByTokenHash: (tokenHash: string) => repository.findByTokenHash(tokenHash),

    /**
     * Posts a reply that came by mail: only its new words (the caller trims them with `newWords`),
     * cut to a message's length. Null: the mail was not in the state expected (another try posted
     * it, or took it over); then the message an earlier try posted, if any, is `earlier`.
     */
    async postFromMail(input: {
      conversationId: string;
      ticketId: string;
      inboundId: number;
      words: string;
      /** Its files (`filesOfMail`), listed on the message and read from the kept mail. */
      files: SideFile[];
      expect: 'processing' | 'held';
      details: Record<string, unknown>;
      decidedBy?: string | null;
    }): Promise<{ messageId: number; earlier: boolean } | null> {
      // One statement: the message, the mail marked posted, the conversation answered.
      const posted = await repository.postFromMail({
        conversationId: input.conversationId,
        ticketId: input.ticketId,
        inboundId: input.inboundId,
        body: cut(input.words),
        files: input.files,
        expect: input.expect,
        details: input.details,
        decidedBy: input.decidedBy ?? null,
      });
      if (posted) {
        await repository.announce(input.ticketId);
        return { messageId: posted.messageId, earlier: false };
      }
      const earlier = await repository.findPostedFrom(input.inboundId);
      return earlier === null ? null : { messageId: earlier, earlier: true };
    },
  };
}

export type SideService = ReturnType<typeof createSideService>;
