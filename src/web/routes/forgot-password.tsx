import { ForgotPasswordForm } from '../features/auth/forgot-password-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/forgot-password';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Forgot your password? | {company}',
    description: 'Get a link to choose a new password for your {company} account.',
    path: '/forgot-password',
  });

export default function ForgotPassword() {
  return <ForgotPasswordForm />;
}
