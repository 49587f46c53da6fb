import { data, Form, Link, redirect, redirectDocument, useNavigation } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../contracts/auth.ts';
import { SETUP_TEXT } from '../../contracts/setup.ts';
import { SetupFormSchema } from '../../contracts/setup.schemas.ts';
import { InputField } from '../components/ui/field.tsx';
import { AuthCard, ConfirmPasswordInput, FormActions, FormError, SuccessPanel } from '../features/auth/auth-form.tsx';
import { type FormResult, invalid, keepValues, readForm, useFormCheck } from '../lib/form.ts';
import { rootDataFrom } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/setup';
import '../styles/auth.css';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadSetupFormSchema = () => import('../../contracts/setup.schemas.ts').then((m) => m.SetupFormSchema);

/**
 * /setup?token=…: the first admin, created in the browser from the one-time link the server prints
 * while the database has no admin (docs/operations.md). A form handled by this route's action, which
 * signs the new admin in and opens /admin, where a second factor is set up before anything else.
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
  const values = await readForm(request);
  const kept = keepValues(values, ['password', 'confirmPassword']);
  const parsed = SetupFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, kept);
  const { email, password } = parsed.data;
  const outcome = await context.get(requestContext).services.setup.createFirstAdmin({ token, email, password });
  // A new document, as after signing in: every part of the page (the navigation too) is the signed-in one.
  if (outcome.ok && outcome.setCookie)
    return redirectDocument('/admin', { status: 303, headers: { 'set-cookie': outcome.setCookie } });
  if (outcome.ok) return redirect('/setup?done=1', 303);
  // A field's message shows under its field; a refused link, above the button.
  const named = Object.keys(outcome.fields).length > 0;
  return data<FormResult>(
    { ok: false, message: named ? null : outcome.message, fields: outcome.fields, values: kept },
    { status: 400 },
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `${SETUP_TEXT.title} | ${rootDataFrom(matches)?.site.companyName ?? 'Bagspace'}` },
  { name: 'robots', content: 'noindex' },
];

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const { errors, onSubmit, formRef } = useFormCheck(loadSetupFormSchema, actionData);
  const busy = useNavigation().state === 'submitting';
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
  return (
    <AuthCard eyebrow="Setup" title={SETUP_TEXT.title} lead={SETUP_TEXT.intro}>
      <Form ref={formRef} className="form" method="post" noValidate onSubmit={onSubmit} aria-label={SETUP_TEXT.title}>
        <InputField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={actionData?.values.email ?? ''}
          error={errors.email}
        />
        <InputField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={errors.password}
        />
        <ConfirmPasswordInput label="Confirm password" error={errors.confirmPassword} />
        <FormError message={actionData?.message ?? null} />
        <FormActions busy={busy} label={SETUP_TEXT.submit} />
      </Form>
    </AuthCard>
  );
}
