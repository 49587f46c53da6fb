import { ChangePasswordFormSchema } from '../../contracts/auth.ts';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { SignInFirst } from '../features/auth/auth-form.tsx';
import { ChangePasswordForm } from '../features/auth/change-password-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/account-password';

export function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return { email: user?.email ?? null };
}

/** The form sent without JavaScript: the same rules and answer as POST /api/auth/change-password. */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: ChangePasswordFormSchema,
    api: '/api/auth/change-password',
    body: ({ currentPassword, newPassword }) => ({ currentPassword, newPassword }),
  });
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
