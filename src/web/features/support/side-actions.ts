import { data, redirect } from 'react-router';
import { sideApi } from '../../../contracts/api/side-conversations.ts';
import type { ServerApiClient } from '../../../contracts/web-context.ts';
import { tickedNames } from '../../lib/form.ts';
import type { SideFormResult } from './side-conversations.tsx';

export const SIDE_INTENTS = ['side-start', 'side-reply', 'side-close'] as const;
type SideIntent = (typeof SIDE_INTENTS)[number];

export const isSideIntent = (intent: string): intent is SideIntent =>
  (SIDE_INTENTS as readonly string[]).includes(intent);

/** The ticket's messages ticked to be quoted: the start form's `include-<id>` boxes. */
const included = (values: Record<string, string>) =>
  tickedNames(values, 'include-')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);

/**
 * The side conversations' forms on the console's ticket page (docs/decisions/138-side-conversations.md),
 * sent on to our own API as this visitor: then the page again (303), or the refusal with what was
 * typed, so the form shows it again with the API's words.
 */
export async function sideAction(
  api: ServerApiClient,
  intent: SideIntent,
  values: Record<string, string>,
  options: { ticketId: string; page: string },
) {
  const sideId = values.sideId ?? '';
  const result =
    intent === 'side-start'
      ? await api.call(sideApi.start, {
          params: { ticketId: options.ticketId },
          body: {
            to: values.to ?? '',
            subject: values.subject ?? '',
            messageBody: values.messageBody ?? '',
            includeMessageIds: included(values),
            // The ticket's files ticked to go with the mail: the start form's `attach-<id>` boxes.
            includeAttachmentIds: tickedNames(values, 'attach-'),
          },
        })
      : intent === 'side-reply'
        ? await api.call(sideApi.reply, { params: { sideId }, body: { messageBody: values.messageBody ?? '' } })
        : await api.call(sideApi.close, { params: { sideId } });
  if (result.ok) return redirect(options.page, 303);
  const fieldsSaidIt = Object.keys(result.fields).length > 0;
  return data<SideFormResult>(
    {
      ok: false,
      message: fieldsSaidIt ? null : result.fromServer ? result.message : 'Something went wrong. Please try again.',
      fields: result.fields,
      values,
      form: intent,
      ...(sideId ? { sideId } : {}),
    },
    { status: result.status || 500 },
  );
}
