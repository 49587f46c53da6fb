import { z } from 'zod';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { VerifyEmail } from '../features/auth/verify-email.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/verify-email';

/** Confirming without JavaScript: the button of the page posts here, with the link's ?token=. */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: z.object({}),
    api: '/api/auth/verify-email',
    body: (_values, query) => ({ token: query.get('token') ?? '' }),
  });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Confirm your email address | {company}',
    description: 'Confirm the email address of your {company} account.',
    path: '/verify-email',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function VerifyEmailRoute({ actionData }: Route.ComponentProps) {
  return <VerifyEmail result={actionData} />;
}
