import { data, Link, redirect, useRouteLoaderData } from 'react-router';
import { partnersApi } from '../../contracts/api/partners.ts';
import {
  COMPANY_MESSAGES,
  COMPANY_TEXT_FIELDS,
  LICENSE_FIELD,
  REGISTRATION_FORM_MAX_BYTES,
  STATUS_LINK_COOKIE,
  statusLinkCookie,
} from '../../contracts/companies.ts';
import { STATUS_TOKEN_PATTERN, statusPagePath } from '../../contracts/partner-status.ts';
import { RegistrationForm, type RegistrationNotice } from '../features/register/registration-form.tsx';
import type { FormResult } from '../lib/form.ts';
import { pageMeta, type RootData } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import { enhancedPage } from '../lib/static-page.ts';
import '../styles/register.css';
import type { Route } from './+types/register';

// The page does not hydrate: the form is server-rendered and its own script (enhance.ts) adds the
// live validation (docs/decisions/092-register-without-hydration.md).
export const handle = enhancedPage('register', { formBytes: REGISTRATION_FORM_MAX_BYTES });

export async function loader({ context, request }: Route.LoaderArgs) {
  // The companies/links document is read once on this page and not shown (docs/product.md §3, §7); a failed
  // read is only logged, by the service.
  await context.get(requestContext).services.findCompanyLinks();
  // After an application (the script's, after its alert, or the plain form's), the page says so and
  // what happens next, with the status link this browser was given.
  if (new URL(request.url).searchParams.get('submitted') !== '1') return { submitted: false, statusPath: null };
  const token = statusTokenIn(request.headers.get('cookie'));
  // This answer is this browser's alone: it always sets a cookie (the link kept, or none), so the
  // server never keeps it for the next visitor (page-cache.ts keeps no page that sets one), and no-store.
  return data(
    { submitted: true, statusPath: token ? statusPagePath(token) : null },
    {
      headers: [
        ['Set-Cookie', token ? statusLinkCookie(token) : statusLinkCookie('', 0)],
        ['Cache-Control', 'no-store'],
      ],
    },
  );
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const merged = new Headers(actionHeaders);
  for (const [name, value] of loaderHeaders) merged.append(name, value);
  return merged;
}

/** The status token this browser holds from its application, if a well-formed one. */
function statusTokenIn(cookies: string | null): string | null {
  for (const part of (cookies ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === STATUS_LINK_COOKIE && value && STATUS_TOKEN_PATTERN.test(value)) return value;
  }
  return null;
}

const FORM_FIELDS = new Set<string>([...COMPANY_TEXT_FIELDS, LICENSE_FIELD]);

/**
 * The form posted without JavaScript: it goes on, as it streams in, to the registration endpoint the
 * script calls, so the rules, limits and messages are the same. Success redirects (303) to the page
 * with its message; a refusal answers the page with the messages under the fields and the text kept
 * (a browser cannot be given the file back, and the page asks for it again).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { result, fields } = await context.get(requestContext).services.api.forward(partnersApi.register, {}, request);
  if (result.ok) {
    const token = result.data.statusPath.split('/').at(-1)!;
    return redirect('/register?submitted=1', { status: 303, headers: { 'Set-Cookie': statusLinkCookie(token) } });
  }

  const values: Record<string, string> = {};
  for (const field of COMPANY_TEXT_FIELDS) if (field in fields) values[field] = fields[field]!;
  const answered = result.fromServer && result.status < 500;
  const errors: Record<string, string> = {};
  if (answered) {
    for (const [name, message] of Object.entries(result.fields)) if (FORM_FIELDS.has(name)) errors[name] = message;
  }
  const hasFields = Object.keys(errors).length > 0;
  // Duplicates are answered under their fields only (docs/product.md §8); any other failure also says the
  // spec's failure message, with the server's reason (the form's own line, '_') when no field carries it.
  const duplicate = result.status === 409 && hasFields;
  return data<FormResult>(
    {
      ok: false,
      message: duplicate ? null : COMPANY_MESSAGES.submitFailed,
      fields: { ...errors, ...(answered && !hasFields ? { _: result.message } : {}) },
      values,
    },
    { status: result.status >= 400 ? result.status : 500 },
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Logistic Company Partner Registration | {company}',
    description:
      'Apply to become a {company} logistics partner: tell us about your company and upload your commercial licence.',
    path: '/register',
  });

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const companyName = useRouteLoaderData<RootData>('root')?.site.companyName ?? 'Bagspace';
  const result = actionData;
  const { _: reason, ...errors } = result?.fields ?? {};
  const notice: RegistrationNotice | null = result
    ? result.message
      ? { kind: 'error', lines: [result.message, ...(reason ? [reason] : [])] }
      : null
    : loaderData.submitted
      ? { kind: 'success', lines: [COMPANY_MESSAGES.submitted], statusPath: loaderData.statusPath }
      : null;
  return (
    <div className="page register">
      <header className="page__header register__header">
        <p className="eyebrow">Partners</p>
        <h1 id="register-title">Logistic Company Partner Registration</h1>
        <p className="register__lead">
          Deliver with {companyName}. Tell us about your company and who we should talk to, and add a copy of your
          commercial licence. Our partnerships team reviews every application.
        </p>
      </header>
      <div className="register__layout">
        <RegistrationForm values={result?.values ?? {}} errors={errors} notice={notice} />
        <aside className="register__aside" aria-labelledby="register-next">
          <h2 id="register-next" className="register__aside-title">
            What happens next
          </h2>
          <ol className="register-steps">
            <li>We check your details and your commercial licence.</li>
            <li>We contact the person you name here, by phone or email.</li>
            <li>Once approved, your company can take on deliveries through {companyName}.</li>
          </ol>
          <p className="register__aside-more">
            Questions first? Read our <Link to="/faqs">FAQ&apos;s</Link> or the{' '}
            <Link to="/legal">Terms and Conditions</Link>.
          </p>
        </aside>
      </div>
    </div>
  );
}
