import type { ParsedMail } from 'mailparser';
import { ATTACHMENT_LIMITS } from '../../../contracts/attachments.ts';
import { MESSAGE_MAX_LENGTH } from '../../../contracts/support.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import type { AttachmentsService } from '../attachments/attachments.service.ts';
import type { SupportRecords } from '../support/index.ts';
import { newWords } from './reply-text.ts';

/**
 * Posting a received mail, the one way both the inbound worker (a trusted mail) and an admin's
 * Post (a held one) do it: only the new words (cut to a message's length, the rest being in the
 * whole mail), the files through the attachment rules, as a reply in its ticket or as a new General
 * ticket with the subject as its first line. The client id `mail:<id>` makes a second attempt find
 * the first one's post instead of posting again; the statement that posts also marks the mail posted.
 */
const CUT_NOTE = '\n\n[…the rest is in the whole mail]';

export type MailPost =
  | {
      posted: true;
      ticketId: string;
      /** Null only when an earlier attempt opened the ticket (its row names the message). */
      messageId: number | null;
      /** An admin's answer (not the ticket's owner's words). */
      asAdmin: boolean;
      ticketNo: number | null;
      refusedFiles: Array<{ name: string; why: string }>;
    }
  /** No new words and no files; the ticket is closed (or gone); the author is not a party to it. */
  | { posted: false; why: 'no-words' | 'closed' | 'not-a-party'; ticketNo: number | null };

export interface MailAuthor {
  id: string;
  role: 'user' | 'admin';
}

const cut = (text: string) =>
  text.length > MESSAGE_MAX_LENGTH ? text.slice(0, MESSAGE_MAX_LENGTH - CUT_NOTE.length) + CUT_NOTE : text;

export function createMailPoster(deps: { db: AppDatabase; records: SupportRecords; attachments: AttachmentsService }) {
  const { db, records, attachments } = deps;

  /** The mail's files, stored as pending attachments of the author (at most a message's worth). */
  async function filesOf(parsed: ParsedMail, authorId: string) {
    const ids: string[] = [];
    const refused: Array<{ name: string; why: string }> = [];
    for (const file of parsed.attachments) {
      const name = file.filename ?? 'file';
      if (ids.length >= ATTACHMENT_LIMITS.filesPerMessage) {
        refused.push({ name, why: 'too many files' });
        continue;
      }
      try {
        ids.push(await attachments.receiveFile(authorId, name, file.content));
      } catch (error) {
        refused.push({ name, why: error instanceof Error ? error.message : String(error) });
      }
    }
    return { ids, refused };
  }

  return async function postMail(input: {
    inboundId: number;
    parsed: ParsedMail;
    author: MailAuthor;
    /** Its ticket, or null to open a new one. */
    ticketId: string | null;
    /**
     * A new ticket that carries on from this closed one, with its reason (decision 132): only the
     * new words are its first message (the subject is a reply's "Re: …").
     */
    follows?: { ticketId: string; reason: string };
    /** Work recorded in the same transaction as the new ticket (its mail): both exist, or neither. */
    onOpened?: (db: AppDatabase, opened: { ticketId: string; ticketNo: number }) => Promise<void>;
  }): Promise<MailPost> {
    const { parsed, author } = input;
    const clientId = `mail:${input.inboundId}`;
    const ticket = input.ticketId === null ? null : await records.findTicket(db, input.ticketId);
    if (input.ticketId !== null && !ticket) return { posted: false, why: 'closed', ticketNo: null };
    // Closed already: nothing to store (one that closes from here on is caught by the post itself).
    if (ticket && !ticket.open) return { posted: false, why: 'closed', ticketNo: ticket.ticketNo };
    const asAdmin = ticket !== null && ticket.ownerId !== author.id;
    if (asAdmin && author.role !== 'admin') return { posted: false, why: 'not-a-party', ticketNo: ticket.ticketNo };
    const words = newWords({ text: parsed.text ?? null, html: parsed.html, subject: parsed.subject ?? null }).text;
    const files = await filesOf(parsed, author.id);
    if (words.trim() === '' && files.ids.length === 0)
      return { posted: false, why: 'no-words', ticketNo: ticket?.ticketNo ?? null };
    const done = (ticketId: string, messageId: number | null, ticketNo: number | null): MailPost => ({
      posted: true,
      ticketId,
      messageId,
      asAdmin,
      ticketNo,
      refusedFiles: files.refused,
    });

    if (ticket === null) {
      const subject = input.follows ? '' : (parsed.subject ?? '').trim();
      const created = await inTransaction(db, async (txDb) => {
        const opened = await records.openTicketFromMail(txDb, {
          userId: author.id,
          message: cut(subject ? `${subject}\n\n${words}` : words),
          clientId,
          attachmentIds: files.ids,
          inboundMailId: input.inboundId,
          follows: input.follows,
        });
        if (opened && input.onOpened) await input.onOpened(txDb, opened);
        return opened;
      });
      if (created) return done(created.ticketId, created.messageId, created.ticketNo);
      // An earlier attempt opened it.
      await attachments.discard(files.ids);
      const earlier = await records.findTicketOpenedByMail(db, author.id, clientId);
      if (!earlier) throw new Error('a ticket from a mail stored nothing and no ticket has its client id');
      return done(earlier.ticketId, null, earlier.ticketNo);
    }

    const stored = await records.postFromMail(db, {
      ticketId: ticket.id,
      authorId: author.id,
      ownerId: asAdmin ? null : author.id,
      admin: asAdmin,
      body: cut(words),
      clientId,
      attachmentIds: files.ids,
      inboundMailId: input.inboundId,
    });
    if (stored) return done(ticket.id, stored.id, ticket.ticketNo);
    await attachments.discard(files.ids);
    const earlier = await records.findPosted(db, ticket.id, clientId, author.id);
    if (earlier) return done(ticket.id, earlier.id, ticket.ticketNo);
    return { posted: false, why: 'closed', ticketNo: ticket.ticketNo };
  };
}

export type MailPoster = ReturnType<typeof createMailPoster>;
