import { ResetPasswordFormSchema } from '../../contracts/auth.ts';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { ResetPasswordForm } from '../features/auth/reset-password-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/reset-password';

/** The form sent without JavaScript (to this page's address, which still holds ?token=). */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: ResetPasswordFormSchema,
    api: '/api/auth/reset-password',
    body: ({ password }, query) => ({ token: query.get('token') ?? '', password }),
  });
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
