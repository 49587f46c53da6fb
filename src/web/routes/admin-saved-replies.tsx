import { Form, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { labelsApi } from '../../contracts/api/labels.ts';
import { deskApi } from '../../contracts/api/support.ts';
import {
  hasMacroActions,
  MACRO_ACTION_TEXT,
  MACRO_NOTE_MAX,
  type MacroActions,
} from '../../contracts/macro-actions.ts';
import { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TEXT, SAVED_REPLY_TITLE_MAX } from '../../contracts/desk.ts';
import { type SavedReply, SavedReplyBodySchema } from '../../contracts/desk.schemas.ts';
import { InputField, SelectField, TextAreaField } from '../components/ui/field.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { type FormResult, invalid, readForm, refused, tickedNames, useFormCheck } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-saved-replies';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.savedReplies} | ${ADMIN_TEXT.title}`);

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadSavedReplyBodySchema = () => import('../../contracts/desk.schemas.ts').then((m) => m.SavedReplyBodySchema);

/** The list, read on the server (admins only: the layout refuses others). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const done = new URL(request.url).searchParams.get('done');
  const none = { savedReplies: [] as SavedReply[], done: null, labels: [] as Choice[], agents: [] as Choice[] };
  if (!user?.emailVerified || user.role !== 'admin') return none;
  // The macro actions choose among the team's labels and admins.
  const [list, labels, agents] = await Promise.all([
    services.api.call(deskApi.savedReplies),
    services.api.call(labelsApi.list),
    services.api.call(deskApi.agents),
  ]);
  return {
    savedReplies: list.ok ? list.data.savedReplies : [],
    done,
    labels: labels.ok ? labels.data.labels.map(({ id, name }) => ({ id, name })) : [],
    agents: agents.ok ? agents.data.agents.map(({ id, email }) => ({ id, name: email })) : [],
  };
}

interface Choice {
  id: string;
  name: string;
}

/** The form's fields as the API's body: the macro's actions from their own fields (decision 145). */
function bodyOf(values: Record<string, string>) {
  const labelIds = tickedNames(values, 'label-');
  const actions: MacroActions = {
    ...(values.status === 'close' || values.status === 'reopen' ? { status: values.status } : {}),
    ...(values.assignee ? { assignee: values.assignee } : {}),
    ...(labelIds.length > 0 ? { labelIds } : {}),
    ...(values.note?.trim() ? { note: values.note } : {}),
  };
  return { title: values.title, body: values.body, actions };
}

/** The form of a new saved reply; an existing one's form is its id. */
const NEW = 'new';

/**
 * Add, save and delete: forms posted here, checked with the saved reply's schema, sent on to the API
 * as this admin, then the list again with what was done.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  const id = values.id ?? '';
  const form = id || NEW;
  const done = (message: string) => redirect(`/admin/saved-replies?${new URLSearchParams({ done: message })}`, 303);
  if (values.intent === 'delete') {
    const deleted = await api.call(deskApi.deleteSavedReply, { params: { savedReplyId: id } });
    return deleted.ok ? done(SAVED_REPLY_TEXT.deleted(deleted.data.savedReply.title)) : refused(deleted, values, form);
  }
  const parsed = SavedReplyBodySchema.safeParse(bodyOf(values));
  if (!parsed.success) return invalid(parsed.error, values, form);
  const saved =
    values.intent === 'save'
      ? await api.call(deskApi.updateSavedReply, { params: { savedReplyId: id }, body: parsed.data })
      : await api.call(deskApi.createSavedReply, { body: parsed.data });
  if (!saved.ok) return refused(saved, values, form);
  const title = saved.data.savedReply.title;
  return done(values.intent === 'save' ? SAVED_REPLY_TEXT.saved(title) : SAVED_REPLY_TEXT.added(title));
}

/** A macro's actions (decision 145): each left as it is unless chosen. */
function MacroFields({
  formId,
  actions,
  kept,
  errors,
  labels,
  agents,
}: {
  formId: string;
  actions: MacroActions;
  kept: Record<string, string> | undefined;
  errors: Record<string, string | undefined>;
  labels: Choice[];
  agents: Choice[];
}) {
  const ticked = new Set(kept ? tickedNames(kept, 'label-') : (actions.labelIds ?? []));
  return (
    <fieldset className="saved-reply-form__macro">
      <legend>{MACRO_ACTION_TEXT.legend}</legend>
      <SelectField label={MACRO_ACTION_TEXT.status} name="status" defaultValue={kept?.status ?? actions.status ?? ''}>
        <option value="">{MACRO_ACTION_TEXT.keep}</option>
        <option value="close">{MACRO_ACTION_TEXT.close}</option>
        <option value="reopen">{MACRO_ACTION_TEXT.reopen}</option>
      </SelectField>
      <SelectField
        label={MACRO_ACTION_TEXT.assignee}
        name="assignee"
        defaultValue={kept?.assignee ?? actions.assignee ?? ''}
        error={errors['actions.assignee']}
      >
        <option value="">{MACRO_ACTION_TEXT.keep}</option>
        <option value="me">{MACRO_ACTION_TEXT.assignMe}</option>
        <option value="nobody">{MACRO_ACTION_TEXT.unassign}</option>
        {agents.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
      </SelectField>
      {labels.length > 0 ? (
        <fieldset className="saved-reply-form__labels">
          <legend>{MACRO_ACTION_TEXT.labels}</legend>
          {labels.map((label) => (
            <label key={label.id} className="checkbox">
              <input type="checkbox" name={`label-${label.id}`} defaultChecked={ticked.has(label.id)} /> {label.name}
            </label>
          ))}
          {errors['actions.labelIds'] ? <Notice tone="error">{errors['actions.labelIds']}</Notice> : null}
        </fieldset>
      ) : null}
      <TextAreaField
        label={MACRO_ACTION_TEXT.note}
        hint={MACRO_ACTION_TEXT.noteHint}
        name="note"
        id={`${formId}-note`}
        rows={2}
        maxLength={MACRO_NOTE_MAX}
        defaultValue={kept?.note ?? actions.note ?? ''}
        error={errors['actions.note']}
      />
    </fieldset>
  );
}

function SavedReplyForm({
  reply,
  result,
  labels,
  agents,
}: {
  reply?: SavedReply;
  result?: FormResult | undefined;
  labels: Choice[];
  agents: Choice[];
}) {
  const busy = useNavigation().state === 'submitting';
  const formId = reply?.id ?? NEW;
  const mine = result?.form === formId ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(loadSavedReplyBodySchema, mine);
  return (
    <Form
      method="post"
      className="saved-reply-form"
      ref={formRef}
      noValidate
      onSubmit={(event) => {
        // Delete takes the reply as it is stored, whatever is typed in its fields.
        if ((event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'delete') return;
        onSubmit(event);
      }}
    >
      <input type="hidden" name="id" value={reply?.id ?? ''} />
      <InputField
        label={SAVED_REPLY_TEXT.titleLabel}
        name="title"
        maxLength={SAVED_REPLY_TITLE_MAX}
        defaultValue={mine?.values.title ?? reply?.title ?? ''}
        error={errors.title}
        required
      />
      <TextAreaField
        label={SAVED_REPLY_TEXT.bodyLabel}
        name="body"
        rows={4}
        maxLength={SAVED_REPLY_BODY_MAX}
        defaultValue={mine?.values.body ?? reply?.body ?? ''}
        error={errors.body}
        required
      />
      <MacroFields
        formId={formId}
        actions={reply?.actions ?? {}}
        kept={mine?.values}
        errors={mine?.fields ?? {}}
        labels={labels}
        agents={agents}
      />
      {mine?.message ? <Notice tone="error">{mine.message}</Notice> : null}
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
  const { savedReplies, done, labels, agents } = loaderData;
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
            <details open={actionData?.form === reply.id}>
              <summary>
                {reply.title}
                {hasMacroActions(reply.actions) ? <span className="badge">{MACRO_ACTION_TEXT.badge}</span> : null}
              </summary>
              <SavedReplyForm reply={reply} result={actionData} labels={labels} agents={agents} />
            </details>
          </li>
        ))}
      </ul>
      <h2>{SAVED_REPLY_TEXT.add}</h2>
      <SavedReplyForm key={done ?? NEW} result={actionData} labels={labels} agents={agents} />
    </section>
  );
}
