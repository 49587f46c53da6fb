import { Form, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { contentAdminApi } from '../../contracts/api/content.ts';
import { DOCUMENT_LIMITS, LEGAL_LINK_MAX } from '../../contracts/content-admin.ts';
import {
  DocumentInputSchema,
  DocumentParamsSchema,
  type HostedDocumentDto,
  LegalLinksInputSchema,
} from '../../contracts/content-admin.schemas.ts';
import { LEGAL_DOCUMENT_LABELS, type LegalLinks } from '../../contracts/content.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import type { RouteHandle } from '../../contracts/web-context.ts';
import { Notice } from '../features/admin/notice.tsx';
import { InputField, TextAreaField } from '../components/ui/field.tsx';
import { type FormResult, invalid, readForm, refused, succeeded, useFormCheck } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-legal';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.legal} | ${ADMIN_TEXT.title}`);

/** A document of 200,000 characters, each up to 12 bytes once form-encoded (the endpoint enforces the exact limit). */
export const handle: RouteHandle = { formBytes: 3 * 1024 * 1024 };

/** The links and our documents, as they are now. */
export async function loader({ context }: Route.LoaderArgs) {
  const read = await context.get(requestContext).services.api.call(contentAdminApi.legal);
  return read.ok ? { ...read.data, failed: null } : { links: null, documents: [], failed: read.message };
}

/** Saving the links or one document: the form's schema, then the endpoint as this admin. */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  if (values.form === 'links') {
    const parsed = LegalLinksInputSchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, values, 'links');
    const saved = await api.call(contentAdminApi.saveLegalLinks, { body: parsed.data });
    return saved.ok
      ? succeeded('Saved. The legal page shows these links now.', 'links')
      : refused(saved, values, 'links');
  }
  const slug = DocumentParamsSchema.safeParse({ slug: values.form });
  if (!slug.success) return invalid(slug.error, values, values.form);
  const parsed = DocumentInputSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values, slug.data.slug);
  const saved = await api.call(contentAdminApi.saveDocument, { params: slug.data, body: parsed.data });
  return saved.ok
    ? succeeded(`Saved. ${saved.data.document.path} shows the new text now.`, slug.data.slug)
    : refused(saved, values, slug.data.slug);
}

/** The notice under a form: its own success, or a refusal that names no field. */
function FormNotice({ result }: { result: FormResult | undefined }) {
  if (!result?.message) return null;
  return <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice>;
}

/** The forms' schemas, loaded when a form is first used (useFormCheck). */
const schemas = () => import('../../contracts/content-admin.schemas.ts');
const loadLegalLinksInputSchema = () => schemas().then((m) => m.LegalLinksInputSchema);
const loadDocumentInputSchema = () => schemas().then((m) => m.DocumentInputSchema);

function LinksForm({ links, result }: { links: LegalLinks | null; result: FormResult | undefined }) {
  const mine = result?.form === 'links' ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(loadLegalLinksInputSchema, mine);
  const saving = useNavigation().formData?.get('form') === 'links';

  const hint = 'An https:// address, or a path on this site that starts with /';
  return (
    <Form
      method="post"
      ref={formRef}
      className="form form-card"
      aria-labelledby="links-title"
      noValidate
      onSubmit={onSubmit}
    >
      <input type="hidden" name="form" value="links" />
      <h2 id="links-title" className="admin-section__title">
        Links on the legal page
      </h2>
      <InputField
        label={`${LEGAL_DOCUMENT_LABELS.terms} link`}
        name="terms"
        defaultValue={mine?.values.terms ?? links?.terms ?? ''}
        maxLength={LEGAL_LINK_MAX}
        hint={hint}
        error={errors.terms}
        required
        inputMode="url"
      />
      <InputField
        label={`${LEGAL_DOCUMENT_LABELS.privacy} link`}
        name="privacy"
        defaultValue={mine?.values.privacy ?? links?.privacy ?? ''}
        maxLength={LEGAL_LINK_MAX}
        hint={hint}
        error={errors.privacy}
        required
        inputMode="url"
      />
      <FormNotice result={mine} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <a href="/legal" target="_blank" rel="noopener">
          See the legal page
        </a>
      </div>
    </Form>
  );
}

function DocumentForm({ document, result }: { document: HostedDocumentDto; result: FormResult | undefined }) {
  const mine = result?.form === document.slug ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(loadDocumentInputSchema, mine);
  const saving = useNavigation().formData?.get('form') === document.slug;
  const titleId = `document-${document.slug}-title`;

  return (
    <Form
      method="post"
      ref={formRef}
      className="form form-card"
      aria-labelledby={titleId}
      noValidate
      onSubmit={onSubmit}
    >
      <input type="hidden" name="form" value={document.slug} />
      <h2 id={titleId} className="admin-section__title">
        Our {LEGAL_DOCUMENT_LABELS[document.slug]}
      </h2>
      <p className="field__hint">
        Served at <a href={document.path}>{document.path}</a> · last changed {formatNzDateTime(document.updatedAt)}
      </p>
      <InputField
        label="Title"
        name="title"
        defaultValue={mine?.values.title ?? document.title}
        maxLength={DOCUMENT_LIMITS.titleMax}
        required
        error={errors.title}
      />
      <TextAreaField
        label="Text"
        name="body"
        defaultValue={mine?.values.body ?? document.body}
        maxLength={DOCUMENT_LIMITS.bodyMax}
        required
        rows={14}
        className="admin-document__text"
        hint="Plain text. A blank line starts a new paragraph; a line starting with “## ” is a heading."
        error={errors.body}
      />
      <FormNotice result={mine} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </Form>
  );
}

/** /admin/legal: the Terms and Privacy links (https or our own origin only) and our own documents. */
export default function AdminLegal({ loaderData, actionData }: Route.ComponentProps) {
  const { links, documents, failed } = loaderData;
  return (
    <section className="admin-page" aria-labelledby="legal-title">
      <div className="admin-page__header">
        <h1 id="legal-title">{ADMIN_TEXT.nav.legal}</h1>
      </div>
      {failed ? (
        <Notice tone="error">{failed}</Notice>
      ) : (
        <div className="admin-stack">
          <LinksForm links={links} result={actionData} />
          {documents.map((document) => (
            <DocumentForm key={document.slug} document={document} result={actionData} />
          ))}
        </div>
      )}
    </section>
  );
}
