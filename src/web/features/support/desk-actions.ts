import { data, redirect } from 'react-router';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { requestContext, type RequestContextValue } from '../../lib/request-context.ts';

type Context = { get(key: typeof requestContext): RequestContextValue };

/** A desk action the page refused: why, in the words the API gave. */
export interface DeskActionResult {
  intent: string;
  error: string;
}

/**
 * The buttons of a ticket page that are not the reply box (close, reopen, assign, rate): each is a
 * plain form posted to its page with an `intent`, sent on to our own API as this visitor, then the
 * page again (303). With JavaScript, React Router posts the same form and reloads the page's data.
 */
export async function deskFormAction(
  context: Context,
  options: { intent: string; api: string; body: unknown; page: string },
) {
  const answer = await context.get(requestContext).services.callApi('POST', options.api, options.body);
  if (answer.status === 200) return redirect(options.page, 303);
  const error = ErrorBodySchema.safeParse(answer.body);
  const fields = error.success ? Object.values(error.data.error.fields ?? {}) : [];
  return data<DeskActionResult>(
    {
      intent: options.intent,
      error: fields[0] ?? (error.success ? error.data.error.message : 'Something went wrong. Please try again.'),
    },
    { status: answer.status },
  );
}

/** A form field as text ('' when missing or a file). */
export function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
