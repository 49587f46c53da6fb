import { data, redirect } from 'react-router';
import type { ApiResult } from '../../../contracts/endpoint.ts';
import type { Message } from '../../../contracts/support.schemas.ts';
import { sendOrSay } from '../../lib/callable.ts';
import { newClientId } from '../../lib/client-id.ts';
import { type FormResult, readForm } from '../../lib/form.ts';

/**
 * The server side of a ticket page (the user's and the admin console's): its thread read through
 * our own API and its reply form's action, both in process as this visitor (services.api), so who
 * may read or answer a ticket is decided by the API alone, for the page's script and without it.
 */
export interface TicketPageData<T> {
  /**
   * The ticket with its messages; null when nobody who may read it is signed in (the layout shows
   * its login screen or refusal instead) or the read failed (the live stream then fills the page).
   */
  thread: T | null;
  /** The API does not know the ticket for this visitor (or it is someone else's). */
  missing: boolean;
  /** The reply form's id, so a form sent twice (a double click without JavaScript) is stored once. */
  clientId: string;
}

/**
 * The page's thread. `address`: the ticket the page's URL names and the page of a ticket; when the
 * API answers with another ticket (the one it was merged into, docs/decisions/116-ticket-merge.md),
 * the page goes there (302: an undone merge gives the old address back).
 */
export async function loadTicketPage<T extends { ticket: { id: string } }>(
  allowed: boolean,
  read: () => Promise<ApiResult<T>>,
  address?: { ticketId: string; pageOf: (ticketId: string) => string },
) {
  const page = (value: Omit<TicketPageData<T>, 'clientId'>, status = 200) =>
    data<TicketPageData<T>>({ ...value, clientId: newClientId() }, { status });
  if (!allowed) return page({ thread: null, missing: false });
  const answer = await read();
  // 400 is an id that cannot be one (too long): it does not exist either.
  if (!answer.ok && (answer.status === 404 || answer.status === 400)) return page({ thread: null, missing: true }, 404);
  if (answer.ok && address && answer.data.ticket.id !== address.ticketId)
    throw redirect(address.pageOf(answer.data.ticket.id), 302);
  return page({ thread: answer.ok ? answer.data : null, missing: false });
}

/** Which box a reply form is: the reply box, or the console's internal note. */
export type ReplyForm = 'reply' | 'note';

/**
 * What the reply box's action answers: the one form result (its `values` are the text, never lost,
 * and the form's id for a retry), with the message stored, or whether the ticket was closed.
 */
export interface ReplyResult<M extends Message = Message> extends FormResult {
  form: ReplyForm;
  /** The message stored, for the page's script to show at once (the live stream brings it too). */
  sent?: M;
  /** The ticket was closed: no reply will be taken. */
  closed?: boolean;
  /**
   * The console's write was stopped: the ticket changed since the version it was written against
   * (docs/decisions/140-stale-writes-stopped.md). The page shows what changed since then.
   */
  stale?: { seenVersion: number };
}

/** The field the page's script adds: answer in place (the thread stays), not with the page again. */
export const IN_PLACE = 'inPlace';

/** A form sent as multipart/form-data: a reply (or a new ticket) that may carry files. */
export const isMultipart = (request: Request) =>
  (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/** What the reply box says when the server cannot be reached (the text stays in the box). */
export const REPLY_UNREACHABLE = 'Your message was not sent: check your connection and press Send again.';

/**
 * The ticket pages' `clientAction`: their forms go to the server action as they are; one the page's
 * script could not deliver says so in its place (the reply box keeps its text), not the error page.
 */
export async function ticketClientAction<T>(request: Request, serverAction: () => Promise<T>) {
  const values = await readForm(request.clone());
  const form = values.intent === 'note' ? 'note' : (values.intent ?? 'reply');
  return sendOrSay(serverAction, (message) =>
    // A failure status: the page's data is not read again either (it could not be).
    data<FormResult>(
      {
        ok: false,
        message: form === 'reply' || form === 'note' ? REPLY_UNREACHABLE : message,
        fields: {},
        values: { messageBody: values.messageBody ?? '', clientId: values.clientId ?? '' },
        form,
      },
      { status: 503 },
    ),
  );
}
