import { data, redirect } from 'react-router';
import type { ApiResult } from '../../../contracts/endpoint.ts';
import type { FormResult } from '../../lib/form.ts';

/**
 * The buttons of a ticket page that are not the reply box (close, reopen, assign, privacy, keep for
 * the record, rate): each is a form posted to its page with an `intent`, sent on to our own API as
 * this visitor, then the page again (303). A refusal is one sentence, in the API's words: its first
 * field message, or its message; the result's `form` is the intent.
 */
export function deskAction(result: ApiResult<unknown>, options: { intent: string; page: string }) {
  if (result.ok) return redirect(options.page, 303);
  const message =
    Object.values(result.fields)[0] ?? (result.fromServer ? result.message : 'Something went wrong. Please try again.');
  return data<FormResult>(
    { ok: false, message, fields: result.fields, values: {}, form: options.intent },
    { status: result.status || 500 },
  );
}
