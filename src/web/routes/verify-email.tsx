import { VerifyEmail } from '../features/auth/verify-email.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/verify-email';

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Confirm your email address | {company}',
    description: 'Confirm the email address of your {company} account.',
    path: '/verify-email',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function VerifyEmailRoute() {
  return <VerifyEmail />;
}
