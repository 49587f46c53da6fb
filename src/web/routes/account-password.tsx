import { authApi } from '../../contracts/api/accounts.ts';
import { ChangePasswordFormSchema } from '../../contracts/auth.schemas.ts';
import { SignInFirst } from '../features/auth/auth-form.tsx';
import { ChangePasswordForm } from '../features/auth/change-password-form.tsx';
import { invalid, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/account-password';

export function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return { email: user?.email ?? null };
}

/** The form: checked with its schema, then sent on to the change-password endpoint as this visitor. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = ChangePasswordFormSchema.safeParse(await readForm(request));
  if (!parsed.success) return invalid(parsed.error, {});
  const { currentPassword, newPassword } = parsed.data;
  const changed = await context
    .get(requestContext)
    .services.api.call(authApi.changePassword, { body: { currentPassword, newPassword } });
  return changed.ok ? succeeded(changed.data.message) : refused(changed, {});
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Change your password | {company}',
    description: 'Change the password of your {company} account.',
    path: '/account/password',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function AccountPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.email) {
    return <SignInFirst title="Change your password" />;
  }
  return <ChangePasswordForm email={loaderData.email} result={actionData} />;
}
