import { SignupFormSchema } from '../../contracts/auth.ts';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { SignupForm } from '../features/auth/signup-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/signup';

/** The form sent without JavaScript: the same rules and answer as POST /api/auth/signup. */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: SignupFormSchema,
    api: '/api/auth/signup',
    body: ({ email, password }) => ({ email, password }),
    keep: ['email'],
  });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Create an account | {company}',
    description: 'Create a {company} account to contact our support team.',
    path: '/signup',
  });

export default function Signup({ actionData }: Route.ComponentProps) {
  return <SignupForm result={actionData} />;
}
