import { EmailRequestSchema } from '../../contracts/auth.ts';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { ForgotPasswordForm } from '../features/auth/forgot-password-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/forgot-password';

/** The form sent without JavaScript: the same rules and answer as POST /api/auth/forgot-password. */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: EmailRequestSchema,
    api: '/api/auth/forgot-password',
    body: (values) => values,
    keep: ['email'],
  });
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
