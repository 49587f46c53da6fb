import { redirect } from 'react-router';
import { partnersApi } from '../../contracts/api/partners.ts';
import { APPLICATION_STATUS_TEXT as TEXT } from '../../contracts/partner-status.ts';
import { StatusLinkRequestSchema } from '../../contracts/partner-status.schemas.ts';
import { InputField } from '../components/ui/field.tsx';
import { FormError } from '../features/auth/auth-form.tsx';
import { type FormResult, invalid, readForm, refused } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { PageHandle } from '../lib/static-page.ts';
import type { Route } from './+types/partner-status-find';
import '../styles/partner-status.css';

/**
 * /partners/status: an applicant who lost the link to their application (or applied before links
 * were mailed) asks for a new one by the contact email they gave (docs/decisions/113-changes-requested.md).
 * Server-rendered HTML with a plain form; the answer is the same whether or not an application uses
 * the address.
 */
export const handle: PageHandle = { hydrate: false };

export function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get('sent') === '1' };
}

/** The form: checked with its schema, sent on as this visitor, then this page again saying what happens (303). */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const kept = { email: values.email ?? '' };
  const parsed = StatusLinkRequestSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, kept);
  const sent = await context.get(requestContext).services.api.call(partnersApi.statusLink, { body: parsed.data });
  return sent.ok ? redirect('/partners/status?sent=1', 303) : refused(sent, kept);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: `${TEXT.findTitle} | {company}`,
    description: 'Get a new private link to your partner application by email.',
    path: '/partners/status',
  });

export default function PartnerStatusFind({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as FormResult | undefined;
  const errors = result && !result.ok ? result.fields : {};
  const formError = result && !result.ok ? result.message : null;
  return (
    <div className="page page--narrow partner-status">
      <header className="page__header">
        <p className="eyebrow">Partners</p>
        <h1>{TEXT.findTitle}</h1>
      </header>
      {loaderData.sent && !result ? (
        <div className="alert alert--success" role="status">
          <p>{TEXT.findSent}</p>
        </div>
      ) : null}
      <p>{TEXT.findIntro}</p>
      <form method="post" className="form form-card" aria-labelledby="find-title" noValidate>
        <h2 id="find-title" className="visually-hidden">
          {TEXT.findTitle}
        </h2>
        <InputField
          label={TEXT.findEmailLabel}
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={result?.values.email ?? ''}
          error={errors.email}
        />
        <FormError message={formError} />
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {TEXT.findSubmit}
          </button>
        </div>
      </form>
    </div>
  );
}

export function headers() {
  return { 'Cache-Control': 'no-store' };
}
