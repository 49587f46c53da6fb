import { data, redirect } from 'react-router';
import type { ApiResult } from '../../../contracts/endpoint.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { type Message, ReplySchema } from '../../../contracts/support.schemas.ts';
import { succeeded } from '../../lib/form.ts';
import { IN_PLACE, type ReplyForm, type ReplyResult } from './ticket-page.ts';

/**
 * The reply form's actions for the ticket pages (the user's and the console's): server side only,
 * apart from ticket-page.ts, so the pages' own code never reaches the reply's schema (and zod;
 * docs/decisions/119-schemas-stay-on-the-server.md).
 */

const refuse = <M extends Message>(
  form: ReplyForm,
  values: { messageBody: string; clientId: string },
  message: string,
  status: number,
  closed = false,
  stale?: ReplyResult['stale'],
) =>
  data<ReplyResult<M>>(
    { ok: false, message, fields: {}, values, form, ...(closed ? { closed } : {}), ...(stale ? { stale } : {}) },
    { status },
  );

/** The version a console form was written against (its hidden `seenVersion`), when it has one. */
export const seenVersionOf = (values: Record<string, string>) => {
  const seen = Number(values.seenVersion);
  return values.seenVersion && Number.isSafeInteger(seen) && seen >= 0 ? seen : undefined;
};

/**
 * The reply box's form (a reply, or the console's note): sent on to its endpoint (`send`), then the
 * page again at the new message (303, so a reload sends nothing twice), or, for the page's script,
 * the message itself. A refusal answers with why and the text kept.
 */
/** Why the text was refused: its field's own words (a saved reply's question left in it, say) over the form's. */
const textRefusal = (result: { message: string; fields: Record<string, string> }) =>
  result.fields.messageBody ?? result.message;

export async function replyAction<M extends Message>(
  values: Record<string, string>,
  options: {
    form: ReplyForm;
    page: string;
    send(body: { messageBody: string; clientId?: string; seenVersion?: number }): Promise<ApiResult<{ message: M }>>;
  },
) {
  const kept = { messageBody: values.messageBody ?? '', clientId: values.clientId ?? '' };
  const seenVersion = seenVersionOf(values);
  const parsed = ReplySchema.safeParse({
    messageBody: kept.messageBody,
    ...(kept.clientId ? { clientId: kept.clientId } : {}),
  });
  if (!parsed.success) {
    const message =
      kept.messageBody.trim() === ''
        ? SUPPORT_TEXT.replyEmpty
        : (parsed.error.issues[0]?.message ?? SUPPORT_TEXT.replyFailed);
    return refuse<M>(options.form, kept, message, 400);
  }
  const answer = await options.send({ ...parsed.data, ...(seenVersion !== undefined ? { seenVersion } : {}) });
  if (answer.ok) {
    if (values[IN_PLACE]) return { ...succeeded(null, options.form), sent: answer.data.message };
    // The fragment scrolls the thread to the new message, which the page's script does with JavaScript.
    return redirect(`${options.page}#message-${answer.data.message.id}`, 303);
  }
  if (answer.status === 409) return refuse<M>(options.form, kept, SUPPORT_TEXT.replyRejected, 409, true);
  if (answer.status === 412 && seenVersion !== undefined)
    return refuse<M>(options.form, kept, answer.message, 412, false, { seenVersion });
  return refuse<M>(
    options.form,
    kept,
    answer.fromServer ? textRefusal(answer) : SUPPORT_TEXT.replyFailed,
    answer.status,
  );
}

/**
 * The reply form with files, sent without JavaScript (the page's script sends files itself, with a
 * progress bar): the body went on to the same endpoint as it arrived (services.api.forward, files
 * never held here); a refusal keeps the text (the browser must be asked for the files again) and
 * says why, in the endpoint's words.
 */
export function replyWithFilesAction<M extends Message>(
  forwarded: { result: ApiResult<{ message: M }>; fields: Record<string, string> },
  page: string,
) {
  const { result, fields } = forwarded;
  if (result.ok) return redirect(`${page}#message-${result.data.message.id}`, 303);
  const kept = { messageBody: fields.messageBody ?? '', clientId: fields.clientId ?? '' };
  // Sent empty, with no file: said as the form without files says it.
  const empty = result.status === 400 && kept.messageBody.trim() === '' && result.fields.messageBody;
  const message = empty ? SUPPORT_TEXT.replyEmpty : result.fromServer ? textRefusal(result) : SUPPORT_TEXT.replyFailed;
  const seenVersion = seenVersionOf(fields);
  const stale = result.status === 412 && seenVersion !== undefined ? { seenVersion } : undefined;
  return refuse<M>('reply', kept, message, result.status, result.status === 409, stale);
}
