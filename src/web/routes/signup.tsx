import { SignupForm } from '../features/auth/signup-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/signup';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Create an account | {company}',
    description: 'Create a {company} account to contact our support team.',
    path: '/signup',
  });

export default function Signup() {
  return <SignupForm />;
}
