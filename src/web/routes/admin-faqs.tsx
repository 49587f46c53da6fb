import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { type FaqInput } from '../../contracts/content-admin.ts';
import { type Faq, FAQ_TYPE_LABELS, FAQ_TYPES, parseFaqType } from '../../contracts/content.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { requestJson } from '../lib/api-client.ts';
import { FaqForm } from '../features/admin/faq-form.tsx';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-faqs';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.faqs} | ${ADMIN_TEXT.title}`);

const TYPE_OPTIONS = FAQ_TYPES.map((value) => ({ value, label: FAQ_TYPE_LABELS[value].button }));
type Result = { tone: 'success' | 'error'; text: string };

/** /admin/faqs: the public FAQ entries of each type; add, edit, delete, reorder. */
export default function AdminFaqs() {
  const [params] = useSearchParams();
  const type = parseFaqType(params.get('type'));
  const { state, reload, replace } = useApiData<{ faqs: Faq[] }>(`/api/admin/faqs?type=${type}`);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function save(method: 'POST' | 'PUT', url: string, input: FaqInput, done: string) {
    setResult(null);
    const res = await requestJson<{ faq: Faq }>(method, url, input);
    if (!res.ok) {
      if (Object.keys(res.fields).length > 0) return { saved: false, fields: res.fields };
      setResult({ tone: 'error', text: res.message });
      return { saved: false };
    }
    setEditing(null);
    setResult({
      tone: 'success',
      text: input.type === type ? done : `${done} It is now under ${FAQ_TYPE_LABELS[input.type].title}.`,
    });
    reload();
    return { saved: true };
  }

  async function remove(faq: Faq) {
    setBusy(true);
    const res = await requestJson<{ faq: Faq }>('DELETE', `/api/admin/faqs/${faq.id}`);
    setBusy(false);
    setDeleting(null);
    setResult(res.ok ? { tone: 'success', text: `Deleted “${faq.title}”.` } : { tone: 'error', text: res.message });
    reload();
  }

  async function move(faqs: Faq[], index: number, by: -1 | 1) {
    const ids = faqs.map((f) => f.id);
    [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
    setBusy(true);
    const res = await requestJson<{ faqs: Faq[] }>('POST', '/api/admin/faqs/reorder', { type, ids });
    setBusy(false);
    if (res.ok) {
      replace(res.data);
      setResult({ tone: 'success', text: `Moved “${faqs[index]!.title}” ${by < 0 ? 'up' : 'down'}.` });
    } else {
      setResult({ tone: 'error', text: res.message });
      reload();
    }
  }

  return (
    <section className="admin-page" aria-labelledby="faqs-title">
      <div className="admin-page__header">
        <h1 id="faqs-title">{ADMIN_TEXT.nav.faqs}</h1>
        <a href={`/faqs?type=${type}`} target="_blank" rel="noopener">
          See the public {FAQ_TYPE_LABELS[type].title} page
        </a>
      </div>
      <SwitchButtons name="type" label="FAQ type" options={TYPE_OPTIONS} value={type} />
      {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      <h2 className="admin-section__title">{FAQ_TYPE_LABELS[type].title}</h2>
      <LoadState state={state} onRetry={reload}>
        {({ faqs }) =>
          faqs.length === 0 ? (
            <p className="empty-state">There are no entries of this type yet.</p>
          ) : (
            <ol className="admin-faq-list" aria-label={`${FAQ_TYPE_LABELS[type].title} entries, in public order`}>
              {faqs.map((faq, index) => (
                <li key={faq.id} className="admin-faq">
                  {editing === faq.id ? (
                    <FaqForm
                      label={`Edit “${faq.title}”`}
                      initial={faq}
                      onSave={(input) => save('PUT', `/api/admin/faqs/${faq.id}`, input, `Saved “${input.title}”.`)}
                      onCancel={() => setEditing(null)}
                    />
                  ) : (
                    <>
                      <h3 className="admin-faq__title">{faq.title}</h3>
                      <p className="admin-faq__content">{faq.content}</p>
                      {deleting === faq.id ? (
                        <div className="admin-confirm" role="group" aria-label={`Delete “${faq.title}”?`}>
                          <p>Delete this entry? It disappears from the public page at once.</p>
                          <button
                            type="button"
                            className="button button--primary admin-button--danger-solid"
                            disabled={busy}
                            onClick={() => void remove(faq)}
                          >
                            Yes, delete it
                          </button>
                          <button type="button" className="button button--ghost" onClick={() => setDeleting(null)}>
                            Keep it
                          </button>
                        </div>
                      ) : (
                        <div className="admin-row-actions">
                          <button
                            type="button"
                            className="button button--ghost admin-button--small"
                            onClick={() => setEditing(faq.id)}
                          >
                            Edit<span className="visually-hidden"> “{faq.title}”</span>
                          </button>
                          <button
                            type="button"
                            className="button button--ghost admin-button--small"
                            disabled={busy || index === 0}
                            onClick={() => void move(faqs, index, -1)}
                          >
                            Move up<span className="visually-hidden"> “{faq.title}”</span>
                          </button>
                          <button
                            type="button"
                            className="button button--ghost admin-button--small"
                            disabled={busy || index === faqs.length - 1}
                            onClick={() => void move(faqs, index, 1)}
                          >
                            Move down<span className="visually-hidden"> “{faq.title}”</span>
                          </button>
                          <button
                            type="button"
                            className="button button--ghost admin-button--small admin-button--danger"
                            onClick={() => setDeleting(faq.id)}
                          >
                            Delete<span className="visually-hidden"> “{faq.title}”</span>
                          </button>
                        </div>
                      )}
                    </>
                  )}
                </li>
              ))}
            </ol>
          )
        }
      </LoadState>
      <section className="form-card admin-add" aria-labelledby="faq-add-title">
        <h2 id="faq-add-title" className="admin-section__title">
          Add an entry
        </h2>
        <FaqForm
          key={type}
          label="Add an entry"
          initial={{ type, title: '', content: '' }}
          onSave={(input) => save('POST', '/api/admin/faqs', input, `Added “${input.title}”.`)}
        />
      </section>
    </section>
  );
}
