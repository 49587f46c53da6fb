import { data, redirect } from 'react-router';
import type { z } from 'zod';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { ReplySchema, SUPPORT_TEXT } from '../../../contracts/support.ts';
import { newClientId } from '../../lib/client-id.ts';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

/**
 * The server side of a ticket page (the user's and the admin console's): its thread read through
 * our own API and its reply form's action, both in process as this visitor (cookie, address), so
 * who may read or answer a ticket is decided by the API alone, exactly as for the JavaScript version.
 */
type Context = { get(key: typeof requestContext): RequestContextValue };

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

export async function loadTicketPage<S extends z.ZodType>(
  context: Context,
  options: { allowed: boolean; api: string; schema: S },
) {
  const page = (value: Omit<TicketPageData<z.output<S>>, 'clientId'>, status = 200) =>
    data<TicketPageData<z.output<S>>>({ ...value, clientId: newClientId() }, { status });
  if (!options.allowed) return page({ thread: null, missing: false });
  const answer = await context.get(requestContext).services.callApi('GET', options.api);
  // 400 is an id that cannot be one (too long): it does not exist either.
  if (answer.status === 404 || answer.status === 400) return page({ thread: null, missing: true }, 404);
  const thread = options.schema.safeParse(answer.body);
  return page({ thread: answer.status === 200 && thread.success ? thread.data : null, missing: false });
}

/** A reply the page sends back: what was typed (never lost), why it was not sent, and its id for a retry. */
export interface ReplyFormResult {
  messageBody: string;
  clientId: string;
  error: string;
  /** The ticket was closed: no reply will be taken. */
  closed: boolean;
  /** It was the console's internal-note box (intent=note), not the reply box. */
  note: boolean;
}

/**
 * The reply form sent without JavaScript (or before it loaded): the endpoint the JavaScript version
 * calls takes it, then the page is loaded again (303, so a reload sends nothing twice) at the new
 * message. A refusal answers the page with the message and the text kept.
 */
export async function replyFormAction(request: Request, context: Context, options: { api: string; page: string }) {
  if (isMultipart(request)) return replyWithFiles(request, context, options);
  const form = await request.formData();
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const messageBody = field('messageBody');
  const clientId = field('clientId');
  const note = field('intent') === 'note';
  const refuse = (error: string, status: number, closed = false) =>
    data<ReplyFormResult>({ messageBody, clientId, error, closed, note }, { status });

  const parsed = ReplySchema.safeParse({ messageBody, ...(clientId ? { clientId } : {}) });
  if (!parsed.success) {
    return refuse(
      messageBody.trim() === ''
        ? SUPPORT_TEXT.replyEmpty
        : (parsed.error.issues[0]?.message ?? SUPPORT_TEXT.replyFailed),
      400,
    );
  }
  const answer = await context.get(requestContext).services.callApi('POST', options.api, parsed.data);
  if (answer.status === 200) {
    const id = (answer.body as { message?: { id?: unknown } } | null)?.message?.id;
    // The fragment scrolls the thread to the new message, which the page's script does with JavaScript.
    return redirect(typeof id === 'number' ? `${options.page}#message-${id}` : options.page, 303);
  }
  if (answer.status === 409) return refuse(SUPPORT_TEXT.replyRejected, 409, true);
  const error = ErrorBodySchema.safeParse(answer.body);
  return refuse(error.success ? error.data.error.message : SUPPORT_TEXT.replyFailed, answer.status);
}

/** A form sent as multipart/form-data: a reply (or a new ticket) that may carry files. */
export const isMultipart = (request: Request) =>
  (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/**
 * The reply form with files, sent without JavaScript: the body streams on to the same endpoint as
 * it arrives (files are never held here); a refusal keeps the text (the browser must be asked for
 * the files again) and says why, in the endpoint's words.
 */
async function replyWithFiles(request: Request, context: Context, options: { api: string; page: string }) {
  const answer = await context.get(requestContext).services.forwardMultipart(options.api, request);
  const messageBody = answer.fields.messageBody ?? '';
  const clientId = answer.fields.clientId ?? '';
  if (answer.status === 200) {
    const id = (answer.body as { message?: { id?: unknown } } | null)?.message?.id;
    return redirect(typeof id === 'number' ? `${options.page}#message-${id}` : options.page, 303);
  }
  const error = ErrorBodySchema.safeParse(answer.body);
  // Sent empty, with no file: said as the form without files says it.
  const empty = answer.status === 400 && messageBody.trim() === '' && error.data?.error.fields?.messageBody;
  const message = empty ? SUPPORT_TEXT.replyEmpty : error.success ? error.data.error.message : SUPPORT_TEXT.replyFailed;
  return data<ReplyFormResult>(
    { messageBody, clientId, error: message, closed: answer.status === 409, note: false },
    { status: answer.status },
  );
}
