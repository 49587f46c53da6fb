import { convert } from 'html-to-text';
import type { ParsedMail } from 'mailparser';
import { readMail as parse } from './read-mail.ts';
import { inboundApi } from '../../../contracts/api/inbound.ts';
import { ATTACHMENT_LIMITS, ATTACHMENT_TYPES, detectAttachmentKind } from '../../../contracts/attachments.ts';
import { pathOf } from '../../../contracts/endpoint.ts';
import {
  INBOUND_REASONS,
  INBOUND_TEXT,
  type InboundReason,
  type InboundViewState,
  undecidedText,
} from '../../../contracts/inbound.ts';
import type { InboundMail, InboundMailRead } from '../../../contracts/inbound.schemas.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { iso, isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { MailPoster } from './inbound.post.ts';
import type { SideConversations } from '../side-conversations/index.ts';
import { filesOfMail, mailFileName } from '../../mail/mail-files.ts';
import type { InboundRepository } from './inbound.repository.ts';
import { newWords } from './reply-text.ts';

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

/** The reason's words; a mail held as undecided also says after how many tries, and why. */
function reasonText(reason: string | null, details: Record<string, unknown> | null): string | null {
  if (!reason) return null;
  if (reason === 'undecided') {
    const tries = typeof details?.tries === 'number' ? details.tries : 0;
    return undecidedText(tries, typeof details?.why === 'string' ? details.why : undefined);
  }
  return INBOUND_REASONS[reason as InboundReason] ?? reason;
}

/** A reply address's token is a credential: shown as reply+…, never in full, wherever a mail is shown. */
const maskReplyTokens = (text: string) => text.replace(/reply\+[0-9a-f]{48}@/gi, 'reply+…@');

/** A mail's words as text: its text part, or its HTML converted to text (a mail's markup is never ours to render). */
const textOf = (parsed: ParsedMail) =>
  parsed.text?.trim() || (typeof parsed.html === 'string' ? convert(parsed.html, { wordwrap: false }) : '') || '';

const addressesOf = (field: ParsedMail['to']) =>
  Array.isArray(field) ? field.map((a) => a.text).join(', ') : (field?.text ?? '');

/** The header section as received (up to the first empty line), read as UTF-8. */
function headerSection(raw: Buffer): string {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const end = [crlf, lf].filter((i) => i >= 0).reduce((a, b) => Math.min(a, b), raw.length);
  return raw.subarray(0, end).toString('utf8').replace(/\r\n/g, '\n');
}

/**
 * A held mail's file as it is served: its type by its first bytes when it is one we know (a photo,
 * a PDF), else application/octet-stream whatever the mail says; its name without a path or control
 * characters. Always a download (sendStoredFile's rules: nosniff, sandboxing CSP, no cache).
 */
function servedFile(file: ParsedMail['attachments'][number]) {
  const kind = detectAttachmentKind(file.content.subarray(0, ATTACHMENT_LIMITS.sniffBytes));
  return {
    name: mailFileName(file.filename),
    contentType: kind ? ATTACHMENT_TYPES[kind].contentType : 'application/octet-stream',
  };
}

type ListedRow = Awaited<ReturnType<InboundRepository['list']>>[number];

function listed(r: ListedRow): InboundMail {
  return {
    id: Number(r.id),
    receivedAt: iso(r.receivedAt),
    via: r.via as 'smtp' | 'imap',
    from: r.from,
    subject: r.subject,
    state: (r.state === 'processing' ? 'received' : r.state) as InboundViewState,
    reason: r.reason,
    reasonText: reasonText(r.reason, r.details),
    ticketId: r.ticketId,
    ticketNo: r.ticketNo === null ? null : Number(r.ticketNo),
    size: Number(r.size),
    decidedAt: r.decidedAt ? iso(r.decidedAt) : null,
    decidedBy: r.decidedBy,
  };
}

export function createInboundService(deps: {
  repository: InboundRepository;
  postMail: MailPoster;
  sideConversations: Pick<SideConversations, 'postFromMail'>;
  audit: AuditService;
}) {
  const { repository, postMail, audit } = deps;

  /** A held reply to a side conversation: posted there (only its new words), never into the ticket. */
  async function postToSide(
    actor: AuditActor,
    id: number,
    held: { raw: Buffer; ticketId: string | null; sideConversationId: string },
  ) {
    if (!held.ticketId) throw new AppError('ABORTED', INBOUND_TEXT.noTicket);
    const parsed = await parse(held.raw);
    const words = newWords({ text: parsed.text ?? null, html: parsed.html, subject: parsed.subject ?? null }).text;
    const files = filesOfMail(parsed);
    if (words.trim() === '' && files.length === 0) throw new AppError('ABORTED', INBOUND_TEXT.nothingToPost);
    const posted = await deps.sideConversations.postFromMail({
      conversationId: held.sideConversationId,
      ticketId: held.ticketId,
      inboundId: id,
      words,
      files,
      expect: 'held',
      details: { postedBy: 'admin' },
      decidedBy: actor.userId,
    });
    if (!posted) throw new AppError('ABORTED', INBOUND_TEXT.notHeld);
    await audit.record({
      actor,
      action: 'mail.post',
      targetType: 'mail',
      targetId: id,
      details: { ticketId: held.ticketId, sideId: held.sideConversationId },
    });
    return { ticketId: held.ticketId };
  }

  return {
    async list(filter: {
      state?: InboundViewState;
      ticketId?: string;
    }): Promise<{ mails: InboundMail[]; counts: Record<string, number> }> {
      const [rows, counts] = await Promise.all([
        repository.list({ state: filter.state, ticketId: filter.ticketId, limit: 200 }),
        repository.countByState(),
      ]);
      return { mails: rows.map(listed), counts };
    },

    /**
     * One mail opened on the Incoming view, so an admin reads a held mail before posting or
     * discarding it: its words as text, its header section (reply tokens masked) and its files.
     */
    async read(id: number): Promise<InboundMailRead> {
      const row = await repository.findMail(id);
      if (!row?.raw) throw new AppError('NOT_FOUND', INBOUND_TEXT.notFound);
      const parsed = await parse(row.raw);
      return {
        ...listed(row),
        to: maskReplyTokens(addressesOf(parsed.to)),
        date: parsed.date ? parsed.date.toISOString() : null,
        text: textOf(parsed),
        headers: maskReplyTokens(headerSection(row.raw)),
        attachments: parsed.attachments.map((file, index) => ({
          index,
          ...servedFile(file),
          size: file.size,
          url: pathOf(inboundApi.file, { params: { inboundId: id, fileIndex: index } }),
        })),
      };
    },

    /** A file of a received mail, by its place among the mail's files. */
    async file(id: number, index: number) {
      const row = await repository.findHeld(id);
      const file = row?.raw ? (await parse(row.raw)).attachments[index] : undefined;
      if (!file) throw new AppError('NOT_FOUND', INBOUND_TEXT.fileNotFound);
      return { ...servedFile(file), body: file.content };
    },

    /**
     * Posts a held mail as the person it would have posted as, with only its new words, into its
     * ticket (or a new General ticket when it belonged to none). The admin vouches for the sender.
     */
    async post(actor: AuditActor, id: number): Promise<{ ticketId: string }> {
      const held = await repository.findHeld(id);
      if (!held) throw new AppError('NOT_FOUND', INBOUND_TEXT.notFound);
      if (held.state !== 'held' || !held.raw) throw new AppError('ABORTED', INBOUND_TEXT.notHeld);
      if (held.sideConversationId)
        return postToSide(actor, id, { ...held, raw: held.raw, sideConversationId: held.sideConversationId });
      const author = held.userId ? await repository.findAccount(held.userId) : null;
      if (!author) throw new AppError('ABORTED', INBOUND_TEXT.noTicket);
      const parsed = await parse(held.raw);
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
      const parsed = await parse(raw);
      return {
        from: parsed.from?.text ?? '',
        to: maskReplyTokens(addressesOf(parsed.to)),
        subject: parsed.subject ?? '',
        date: parsed.date ? parsed.date.toISOString() : null,
        text: textOf(parsed),
        attachments: parsed.attachments.map((a) => ({ name: a.filename ?? 'file', size: a.size })),
      };
    },
  };
}

export type InboundService = ReturnType<typeof createInboundService>;
