import { authApi } from '../../contracts/api/accounts.ts';
import { ResetPasswordFormSchema } from '../../contracts/auth.schemas.ts';
import { ResetPasswordForm } from '../features/auth/reset-password-form.tsx';
import { invalid, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/reset-password';

/**
 * The form, with the link's token: from its hidden field, or from the address the page posts to
 * (a form sent before the page's JavaScript ran). Sent on to the reset endpoint as this visitor.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const token = values.token || new URL(request.url).searchParams.get('token') || '';
  const parsed = ResetPasswordFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, {});
  const { password } = parsed.data;
  const reset = await context
    .get(requestContext)
    .services.api.call(authApi.resetPassword, { body: { token, password } });
  return reset.ok ? succeeded(reset.data.message) : refused(reset, {});
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Choose a new password | {company}',
    description: 'Choose a new password for your {company} account.',
    path: '/reset-password',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  return <ResetPasswordForm result={actionData} />;
}
