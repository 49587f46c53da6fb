import { Form, Link, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { labelsApi } from '../../contracts/api/labels.ts';
import { LABEL_NAME_MAX, LABEL_TEXT } from '../../contracts/labels.ts';
import { LabelBodySchema } from '../../contracts/labels.schemas.ts';
import { InputField } from '../components/ui/field.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { type FormResult, invalid, readForm, refused, useFormCheck } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-labels';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${LABEL_TEXT.title} | ${ADMIN_TEXT.title}`);

/** The team's labels, read on the server (admins only: the layout refuses others). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const done = new URL(request.url).searchParams.get('done');
  if (!user?.emailVerified || user.role !== 'admin') return { labels: [], done: null };
  const list = await services.api.call(labelsApi.list);
  return { labels: list.ok ? list.data.labels : [], done };
}

/** The form of a new label; an existing one's form is its id. */
const NEW = 'new';

/**
 * Add, rename and remove (docs/decisions/141-labels.md): forms posted here, checked with the label's
 * schema, sent on to the API as this admin, then the list again with what was done.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  const id = values.id ?? '';
  const form = id || NEW;
  const done = (message: string) => redirect(`/admin/labels?${new URLSearchParams({ done: message })}`, 303);
  if (values.intent === 'remove') {
    const removed = await api.call(labelsApi.remove, { params: { labelId: id } });
    return removed.ok ? done(LABEL_TEXT.removed(removed.data.label.name)) : refused(removed, values, form);
  }
  const parsed = LabelBodySchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values, form);
  const saved =
    values.intent === 'rename'
      ? await api.call(labelsApi.rename, { params: { labelId: id }, body: parsed.data })
      : await api.call(labelsApi.create, { body: parsed.data });
  if (!saved.ok) return refused(saved, values, form);
  const name = saved.data.label.name;
  return done(values.intent === 'rename' ? LABEL_TEXT.renamed(name) : LABEL_TEXT.added(name));
}

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadLabelBodySchema = () => import('../../contracts/labels.schemas.ts').then((m) => m.LabelBodySchema);

function LabelForm({
  label,
  result,
}: {
  label?: { id: string; name: string; tickets: number };
  result?: FormResult | undefined;
}) {
  const busy = useNavigation().state === 'submitting';
  const formId = label?.id ?? NEW;
  const mine = result?.form === formId ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(loadLabelBodySchema, mine);
  return (
    <Form
      method="post"
      className="label-form"
      ref={formRef}
      noValidate
      aria-label={label ? label.name : LABEL_TEXT.add}
      onSubmit={(event) => {
        // Remove takes the label as it is stored, whatever is typed in its name.
        if ((event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'remove') return;
        onSubmit(event);
      }}
    >
      <input type="hidden" name="id" value={label?.id ?? ''} />
      <InputField
        label={LABEL_TEXT.nameLabel}
        name="name"
        maxLength={LABEL_NAME_MAX}
        defaultValue={mine?.values.name ?? label?.name ?? ''}
        error={errors.name}
        hint={label ? LABEL_TEXT.removeHint(label.tickets) : undefined}
        required
      />
      {mine?.message ? <Notice tone="error">{mine.message}</Notice> : null}
      <p className="label-form__actions">
        <button
          type="submit"
          name="intent"
          value={label ? 'rename' : 'add'}
          className="button button--primary"
          disabled={busy}
        >
          {label ? LABEL_TEXT.rename : LABEL_TEXT.add}
        </button>
        {label ? (
          <button
            type="submit"
            name="intent"
            value="remove"
            formNoValidate
            className="button button--ghost"
            disabled={busy}
          >
            {LABEL_TEXT.remove}
          </button>
        ) : null}
      </p>
    </Form>
  );
}

/** /admin/labels: the team's labels; add, rename, remove. */
export default function AdminLabels({ loaderData, actionData }: Route.ComponentProps) {
  const { labels, done } = loaderData;
  return (
    <section className="admin-page" aria-labelledby="labels-title">
      <p className="support-back">
        <Link to="/admin/support">{ADMIN_TEXT.nav.support}</Link>
      </p>
      <div className="admin-page__header">
        <h1 id="labels-title">{LABEL_TEXT.title}</h1>
      </div>
      <p>{LABEL_TEXT.intro}</p>
      {done && !actionData ? <Notice tone="success">{done}</Notice> : null}
      {labels.length === 0 ? <p className="empty-state">{LABEL_TEXT.none}</p> : null}
      <ul className="saved-replies">
        {labels.map((label) => (
          <li key={label.id} className="saved-replies__item">
            <details open={actionData?.form === label.id}>
              <summary>
                {label.name} ({label.tickets})
              </summary>
              <LabelForm label={label} result={actionData} />
            </details>
          </li>
        ))}
      </ul>
      <h2>{LABEL_TEXT.add}</h2>
      <LabelForm key={done ?? NEW} result={actionData} />
    </section>
  );
}
