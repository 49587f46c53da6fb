import { ResetPasswordForm } from '../features/auth/reset-password-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/reset-password';

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Choose a new password | {company}',
    description: 'Choose a new password for your {company} account.',
    path: '/reset-password',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function ResetPassword() {
  return <ResetPasswordForm />;
}
