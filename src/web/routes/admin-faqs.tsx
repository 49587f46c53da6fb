import { Form, redirect, useLocation, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { contentAdminApi } from '../../contracts/api/content.ts';
import { FaqInputSchema } from '../../contracts/content-admin.schemas.ts';
import { FAQ_TYPE_LABELS, FAQ_TYPES, parseFaqType } from '../../contracts/content.ts';
import { FaqForm } from '../features/admin/faq-form.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { invalid, readForm, refused } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-faqs';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.faqs} | ${ADMIN_TEXT.title}`);

const TYPE_OPTIONS = FAQ_TYPES.map((value) => ({ value, label: FAQ_TYPE_LABELS[value].button }));

/** The entries of the chosen type, and what the address says is open: an entry's edit form or its delete step. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const type = parseFaqType(query.get('type'));
  const read = await context.get(requestContext).services.api.call(contentAdminApi.listFaqs, { query: { type } });
  return {
    type,
    faqs: read.ok ? read.data.faqs : [],
    failed: read.ok ? null : read.message,
    editing: Number(query.get('edit')) || null,
    deleting: Number(query.get('delete')) || null,
    done: query.get('done'),
  };
}

/** Add, save, delete and move: each a form posted here and sent on to the API as this admin; then the list again. */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  const page = parseFaqType(values.page ?? null);
  const done = (message: string) => redirect(`/admin/faqs?${new URLSearchParams({ type: page, done: message })}`, 303);
  const id = Number(values.id);
  const form = values.form ?? values.intent ?? '';

  if (values.intent === 'create' || values.intent === 'update') {
    const parsed = FaqInputSchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, values, form);
    const saved =
      values.intent === 'create'
        ? await api.call(contentAdminApi.createFaq, { body: parsed.data })
        : await api.call(contentAdminApi.updateFaq, { params: { faqId: id }, body: parsed.data });
    if (!saved.ok) return refused(saved, values, form);
    const verb = values.intent === 'create' ? 'Added' : 'Saved';
    const moved = parsed.data.type === page ? '' : ` It is now under ${FAQ_TYPE_LABELS[parsed.data.type].title}.`;
    return done(`${verb} “${parsed.data.title}”.${moved}`);
  }

  if (values.intent === 'delete') {
    const deleted = await api.call(contentAdminApi.deleteFaq, { params: { faqId: id } });
    return deleted.ok ? done(`Deleted “${deleted.data.faq.title}”.`) : refused(deleted, values, form);
  }

  if (values.intent === 'up' || values.intent === 'down') {
    // The order as it is now, with this entry swapped with its neighbour.
    const list = await api.call(contentAdminApi.listFaqs, { query: { type: page } });
    if (!list.ok) return refused(list, values, form);
    const ids = list.data.faqs.map((faq) => faq.id);
    const at = ids.indexOf(id);
    const to = at + (values.intent === 'up' ? -1 : 1);
    if (at < 0 || to < 0 || to >= ids.length) return done('That entry has moved since; here is the list as it is now.');
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    const moved = await api.call(contentAdminApi.reorderFaqs, { body: { type: page, ids } });
    return moved.ok ? done(`Moved “${list.data.faqs[at]!.title}” ${values.intent}.`) : refused(moved, values, form);
  }
  return done('Nothing was changed.');
}

/** A button that opens a step of the page (edit, delete) through the address: it works without JavaScript too. */
function StepButton({
  type,
  step,
  id,
  children,
  className,
}: {
  type: string;
  step?: 'edit' | 'delete';
  id?: number;
  children: React.ReactNode;
  className: string;
}) {
  return (
    <Form method="get" className="admin-inline-form" preventScrollReset>
      <input type="hidden" name="type" value={type} />
      {step ? <input type="hidden" name={step} value={id} /> : null}
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}

/** /admin/faqs: the public FAQ entries of each type; add, edit, delete, reorder. */
export default function AdminFaqs({ loaderData, actionData }: Route.ComponentProps) {
  const { type, faqs, failed, editing, deleting, done } = loaderData;
  const busy = useNavigation().state !== 'idle';
  // A new address after each change: the add form starts empty again.
  const location = useLocation();
  const small = 'button button--ghost admin-button--small';
  const listed = `/admin/faqs?type=${type}`;

  return (
    <section className="admin-page" aria-labelledby="faqs-title">
      <div className="admin-page__header">
        <h1 id="faqs-title">{ADMIN_TEXT.nav.faqs}</h1>
        <a href={`/faqs?type=${type}`} target="_blank" rel="noopener">
          See the public {FAQ_TYPE_LABELS[type].title} page
        </a>
      </div>
      <SwitchButtons name="type" label="FAQ type" options={TYPE_OPTIONS} value={type} />
      {done ? <Notice tone="success">{done}</Notice> : null}
      {failed ? <Notice tone="error">{failed}</Notice> : null}
      {actionData?.message && !['add', String(editing)].includes(actionData.form ?? '') ? (
        <Notice tone="error">{actionData.message}</Notice>
      ) : null}
      <h2 className="admin-section__title">{FAQ_TYPE_LABELS[type].title}</h2>
      {faqs.length === 0 ? (
        <p className="empty-state">There are no entries of this type yet.</p>
      ) : (
        <ol className="admin-faq-list" aria-label={`${FAQ_TYPE_LABELS[type].title} entries, in public order`}>
          {faqs.map((faq, index) => (
            <li key={faq.id} className="admin-faq">
              {editing === faq.id ? (
                <FaqForm
                  label={`Edit “${faq.title}”`}
                  formId={String(faq.id)}
                  initial={faq}
                  result={actionData}
                  cancelTo={listed}
                />
              ) : (
                <>
                  <h3 className="admin-faq__title">{faq.title}</h3>
                  <p className="admin-faq__content">{faq.content}</p>
                  {deleting === faq.id ? (
                    <div className="admin-confirm" role="group" aria-label={`Delete “${faq.title}”?`}>
                      <p>Delete this entry? It disappears from the public page at once.</p>
                      <Form method="post" className="admin-inline-form">
                        <input type="hidden" name="intent" value="delete" />
                        <input type="hidden" name="page" value={type} />
                        <input type="hidden" name="id" value={faq.id} />
                        <button
                          type="submit"
                          className="button button--primary admin-button--danger-solid"
                          disabled={busy}
                        >
                          Yes, delete it
                        </button>
                      </Form>
                      <StepButton type={type} className="button button--ghost">
                        Keep it
                      </StepButton>
                    </div>
                  ) : (
                    <div className="admin-row-actions">
                      <StepButton type={type} step="edit" id={faq.id} className={small}>
                        Edit<span className="visually-hidden"> “{faq.title}”</span>
                      </StepButton>
                      {(['up', 'down'] as const).map((direction) => (
                        <Form key={direction} method="post" className="admin-inline-form" preventScrollReset>
                          <input type="hidden" name="intent" value={direction} />
                          <input type="hidden" name="page" value={type} />
                          <input type="hidden" name="id" value={faq.id} />
                          <button
                            type="submit"
                            className={small}
                            disabled={busy || index === (direction === 'up' ? 0 : faqs.length - 1)}
                          >
                            Move {direction}
                            <span className="visually-hidden"> “{faq.title}”</span>
                          </button>
                        </Form>
                      ))}
                      <StepButton type={type} step="delete" id={faq.id} className={`${small} admin-button--danger`}>
                        Delete<span className="visually-hidden"> “{faq.title}”</span>
                      </StepButton>
                    </div>
                  )}
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      <section className="form-card admin-add" aria-labelledby="faq-add-title">
        <h2 id="faq-add-title" className="admin-section__title">
          Add an entry
        </h2>
        <FaqForm
          key={`${type}-${location.key}`}
          label="Add an entry"
          formId="add"
          initial={{ type, title: '', content: '' }}
          result={actionData}
        />
      </section>
    </section>
  );
}
