import { data, Form, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  SAVED_REPLY_BODY_MAX,
  SAVED_REPLY_TEXT,
  SAVED_REPLY_TITLE_MAX,
  type SavedReply,
  SavedReplyListSchema,
} from '../../contracts/desk.ts';
import { ErrorBodySchema } from '../../contracts/errors.ts';
import { InputField, TextAreaField } from '../components/ui/field.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { textField } from '../features/support/desk-actions.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-saved-replies';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.savedReplies} | ${ADMIN_TEXT.title}`);

/** The list, read on the server (admins only: the layout refuses others). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const done = new URL(request.url).searchParams.get('done');
  if (!user?.emailVerified || user.role !== 'admin') return { savedReplies: [] as SavedReply[], done: null };
  const answer = await services.callApi('GET', '/api/admin/support/saved-replies');
  const list = SavedReplyListSchema.safeParse(answer.body);
  return { savedReplies: list.success ? list.data.savedReplies : [], done };
}

/** What a refused form sends back: which form, what was typed (kept), and why, field by field. */
interface Refused {
  id: string;
  title: string;
  body: string;
  error: string;
  fields: Record<string, string>;
}

/** Add, save and delete: plain forms posted here, sent on to the API as this admin, then the list again. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = textField(form, 'intent');
  const id = textField(form, 'id');
  const title = textField(form, 'title');
  const body = textField(form, 'body');
  const { callApi } = context.get(requestContext).services;
  const url = `/api/admin/support/saved-replies${id ? `/${encodeURIComponent(id)}` : ''}`;
  const answer =
    intent === 'delete'
      ? await callApi('DELETE', url)
      : await callApi(intent === 'save' ? 'PUT' : 'POST', url, { title, body });
  if (answer.status === 200) {
    const done =
      intent === 'delete'
        ? SAVED_REPLY_TEXT.deleted(title)
        : intent === 'save'
          ? SAVED_REPLY_TEXT.saved(title.trim())
          : SAVED_REPLY_TEXT.added(title.trim());
    return redirect(`/admin/saved-replies?${new URLSearchParams({ done })}`, 303);
  }
  const error = ErrorBodySchema.safeParse(answer.body);
  const fields = error.success ? (error.data.error.fields ?? {}) : {};
  return data<Refused>(
    { id, title, body, fields, error: error.success ? error.data.error.message : 'Not saved. Please try again.' },
    { status: answer.status },
  );
}

function SavedReplyForm({ reply, refused }: { reply?: SavedReply; refused?: Refused | undefined }) {
  const busy = useNavigation().state === 'submitting';
  const mine = refused && refused.id === (reply?.id ?? '') ? refused : undefined;
  const fieldError = (name: string) =>
    mine ? (mine.fields[name] ?? mine.fields[`body.${name}`] ?? undefined) : undefined;
  return (
    <Form method="post" className="saved-reply-form">
      <input type="hidden" name="id" value={reply?.id ?? ''} />
      <InputField
        label={SAVED_REPLY_TEXT.titleLabel}
        name="title"
        maxLength={SAVED_REPLY_TITLE_MAX}
        defaultValue={mine?.title ?? reply?.title ?? ''}
        error={fieldError('title')}
        required
      />
      <TextAreaField
        label={SAVED_REPLY_TEXT.bodyLabel}
        name="body"
        rows={4}
        maxLength={SAVED_REPLY_BODY_MAX}
        defaultValue={mine?.body ?? reply?.body ?? ''}
        error={fieldError('body')}
        required
      />
      {mine && Object.keys(mine.fields).length === 0 ? <Notice tone="error">{mine.error}</Notice> : null}
      <p className="saved-reply-form__actions">
        <button
          type="submit"
          name="intent"
          value={reply ? 'save' : 'add'}
          className="button button--primary"
          disabled={busy}
        >
          {reply ? SAVED_REPLY_TEXT.save : SAVED_REPLY_TEXT.add}
        </button>
        {reply ? (
          <button
            type="submit"
            name="intent"
            value="delete"
            formNoValidate
            className="button button--ghost"
            disabled={busy}
          >
            {SAVED_REPLY_TEXT.delete}
          </button>
        ) : null}
      </p>
    </Form>
  );
}

/** /admin/saved-replies: the team's saved replies; add, edit, delete. */
export default function AdminSavedReplies({ loaderData, actionData }: Route.ComponentProps) {
  const { savedReplies, done } = loaderData;
  return (
    <section className="admin-page" aria-labelledby="saved-replies-title">
      <div className="admin-page__header">
        <h1 id="saved-replies-title">{SAVED_REPLY_TEXT.title}</h1>
      </div>
      <p>{SAVED_REPLY_TEXT.intro}</p>
      {done && !actionData ? <Notice tone="success">{done}</Notice> : null}
      {savedReplies.length === 0 ? <p className="empty-state">{SAVED_REPLY_TEXT.empty}</p> : null}
      <ul className="saved-replies">
        {savedReplies.map((reply) => (
          <li key={reply.id} className="saved-replies__item">
            <details open={actionData?.id === reply.id}>
              <summary>{reply.title}</summary>
              <SavedReplyForm reply={reply} refused={actionData} />
            </details>
          </li>
        ))}
      </ul>
      <h2>{SAVED_REPLY_TEXT.add}</h2>
      <SavedReplyForm key={done ?? 'new'} refused={actionData} />
    </section>
  );
}
