import { type FormEvent, useState } from 'react';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import {
  DOCUMENT_LIMITS,
  DocumentInputSchema,
  type HostedDocumentDto,
  LEGAL_LINK_MAX,
  LegalLinksInputSchema,
} from '../../contracts/content-admin.ts';
import { LEGAL_DOCUMENT_LABELS, type LegalLinks } from '../../contracts/content.ts';
import { formatNzDateTime } from '../../contracts/support.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { requestJson } from '../lib/api-client.ts';
import { Notice } from '../features/admin/notice.tsx';
import { InputField, TextAreaField } from '../components/ui/field.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-legal';
import { focusFirstInvalid } from '../lib/focus-invalid.ts';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.legal} | ${ADMIN_TEXT.title}`);

type Legal = { links: LegalLinks | null; documents: HostedDocumentDto[] };
type Result = { tone: 'success' | 'error'; text: string };

function fieldErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of issues) found[String(issue.path[0])] ??= issue.message;
  return found;
}

function LinksForm({ links }: { links: LegalLinks | null }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Result | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setResult(null);
    const parsed = LegalLinksInputSchema.safeParse({ terms: data.get('terms'), privacy: data.get('privacy') });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setSaving(true);
    const res = await requestJson<LegalLinks>('PUT', '/api/admin/settings/legal-links', parsed.data);
    setSaving(false);
    if (res.ok) setResult({ tone: 'success', text: 'Saved. The legal page shows these links now.' });
    else if (Object.keys(res.fields).length > 0) {
      setErrors(res.fields);
      focusFirstInvalid(form);
    } else setResult({ tone: 'error', text: res.message });
  }

  const hint = 'An https:// address, or a path on this site that starts with /';
  return (
    <form className="form form-card" aria-labelledby="links-title" noValidate onSubmit={(e) => void submit(e)}>
      <h2 id="links-title" className="admin-section__title">
        Links on the legal page
      </h2>
      <InputField
        label={`${LEGAL_DOCUMENT_LABELS.terms} link`}
        name="terms"
        defaultValue={links?.terms ?? ''}
        maxLength={LEGAL_LINK_MAX}
        hint={hint}
        error={errors.terms}
        required
        inputMode="url"
      />
      <InputField
        label={`${LEGAL_DOCUMENT_LABELS.privacy} link`}
        name="privacy"
        defaultValue={links?.privacy ?? ''}
        maxLength={LEGAL_LINK_MAX}
        hint={hint}
        error={errors.privacy}
        required
        inputMode="url"
      />
      {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <a href="/legal" target="_blank" rel="noopener">
          See the legal page
        </a>
      </div>
    </form>
  );
}

function DocumentForm({ document }: { document: HostedDocumentDto }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Result | null>(null);
  const [saving, setSaving] = useState(false);
  const [updatedAt, setUpdatedAt] = useState(document.updatedAt);
  const titleId = `document-${document.slug}-title`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setResult(null);
    const parsed = DocumentInputSchema.safeParse({ title: data.get('title'), body: data.get('body') });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setSaving(true);
    const res = await requestJson<{ document: HostedDocumentDto }>(
      'PUT',
      `/api/admin/documents/${document.slug}`,
      parsed.data,
    );
    setSaving(false);
    if (res.ok) {
      setUpdatedAt(res.data.document.updatedAt);
      setResult({ tone: 'success', text: `Saved. ${document.path} shows the new text now.` });
    } else if (Object.keys(res.fields).length > 0) {
      setErrors(res.fields);
      focusFirstInvalid(form);
    } else setResult({ tone: 'error', text: res.message });
  }

  return (
    <form className="form form-card" aria-labelledby={titleId} noValidate onSubmit={(e) => void submit(e)}>
      <h2 id={titleId} className="admin-section__title">
        Our {LEGAL_DOCUMENT_LABELS[document.slug]}
      </h2>
      <p className="field__hint">
        Served at <a href={document.path}>{document.path}</a> · last changed {formatNzDateTime(updatedAt)}
      </p>
      <InputField
        label="Title"
        name="title"
        defaultValue={document.title}
        maxLength={DOCUMENT_LIMITS.titleMax}
        required
        error={errors.title}
      />
      <TextAreaField
        label="Text"
        name="body"
        defaultValue={document.body}
        maxLength={DOCUMENT_LIMITS.bodyMax}
        required
        rows={14}
        className="admin-document__text"
        hint="Plain text. A blank line starts a new paragraph; a line starting with “## ” is a heading."
        error={errors.body}
      />
      {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** /admin/legal: the Terms and Privacy links (https or our own origin only) and our own documents. */
export default function AdminLegal() {
  const { state, reload } = useApiData<Legal>('/api/admin/legal');
  return (
    <section className="admin-page" aria-labelledby="legal-title">
      <div className="admin-page__header">
        <h1 id="legal-title">{ADMIN_TEXT.nav.legal}</h1>
      </div>
      <LoadState state={state} onRetry={reload}>
        {({ links, documents }) => (
          <div className="admin-stack">
            <LinksForm links={links} />
            {documents.map((document) => (
              <DocumentForm key={document.slug} document={document} />
            ))}
          </div>
        )}
      </LoadState>
    </section>
  );
}
