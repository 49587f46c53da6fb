import { data, Link, redirect } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../contracts/auth.ts';
import { SETUP_TEXT } from '../../contracts/setup.ts';
import { AuthCard, ConfirmPasswordInput, FormActions, FormError, SuccessPanel } from '../features/auth/auth-form.tsx';
import { InputField } from '../components/ui/field.tsx';
import { rootDataFrom } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/setup';
import '../styles/auth.css';

/**
 * /setup?token=…: the first admin, created in the browser from the one-time link the server prints
 * while the database has no admin (docs/operations.md). A plain form handled by this route's action.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  if (query.get('done') === '1') return { state: 'done' as const };
  const token = query.get('token') ?? '';
  const usable = await context.get(requestContext).services.setup.isUsable(token);
  return usable ? { state: 'form' as const } : data({ state: 'invalid' as const }, { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const form = await request.formData();
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (password !== String(form.get('confirmPassword') ?? '')) {
    return data({ email, message: null, fields: { confirmPassword: SETUP_TEXT.passwordsDiffer } }, { status: 400 });
  }
  const outcome = await context.get(requestContext).services.setup.createFirstAdmin({ token, email, password });
  if (outcome.ok) return redirect('/setup?done=1', 303);
  // A field's message shows under its field; a refused link, above the button.
  const hasFields = Object.keys(outcome.fields).length > 0;
  return data({ email, message: hasFields ? null : outcome.message, fields: outcome.fields }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `${SETUP_TEXT.title} | ${rootDataFrom(matches)?.site.companyName ?? 'Bagspace'}` },
  { name: 'robots', content: 'noindex' },
];

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === 'done') {
    return (
      <AuthCard eyebrow="Setup" title={SETUP_TEXT.title}>
        <SuccessPanel title={SETUP_TEXT.done}>
          <p>
            <Link to="/admin">{SETUP_TEXT.signIn}</Link>
          </p>
        </SuccessPanel>
      </AuthCard>
    );
  }
  if (loaderData.state === 'invalid') {
    return (
      <AuthCard eyebrow="Setup" title={SETUP_TEXT.title}>
        <FormError message={SETUP_TEXT.linkInvalid} />
      </AuthCard>
    );
  }
  const fields: Record<string, string> = actionData?.fields ?? {};
  return (
    <AuthCard eyebrow="Setup" title={SETUP_TEXT.title} lead={SETUP_TEXT.intro}>
      <form className="form" method="post" noValidate aria-label={SETUP_TEXT.title}>
        <InputField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={actionData?.email ?? ''}
          error={fields.email}
        />
        <InputField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={fields.password}
        />
        <ConfirmPasswordInput label="Confirm password" error={fields.confirmPassword} />
        <FormError message={actionData?.message ?? null} />
        <FormActions label={SETUP_TEXT.submit} />
      </form>
    </AuthCard>
  );
}
