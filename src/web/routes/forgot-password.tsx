import { authApi } from '../../contracts/api/accounts.ts';
import { EmailRequestSchema } from '../../contracts/auth.schemas.ts';
import { ForgotPasswordForm } from '../features/auth/forgot-password-form.tsx';
import { invalid, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/forgot-password';

/** The form: checked with its schema, then sent on to the reset-link endpoint as this visitor. */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const kept = { email: values.email ?? '' };
  const parsed = EmailRequestSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, kept);
  const sent = await context.get(requestContext).services.api.call(authApi.forgotPassword, { body: parsed.data });
  return sent.ok ? succeeded(sent.data.message) : refused(sent, kept);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Forgot your password? | {company}',
    description: 'Get a link to choose a new password for your {company} account.',
    path: '/forgot-password',
  });

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  return <ForgotPasswordForm result={actionData} />;
}
