import { DeleteAccountBodySchema, type DeletionInfo, DeletionInfoSchema } from '../../contracts/account-deletion.ts';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { DeleteAccountForm } from '../features/auth/delete-account-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/account-delete';

export async function loader({ context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  if (!user) return { email: null, info: null };
  const answer = await services.callApi('GET', '/api/account/delete');
  const info = DeletionInfoSchema.safeParse(answer.body);
  return { email: user.email, info: info.success ? (info.data as DeletionInfo) : null };
}

/** The form sent without JavaScript: the same rules and answer as POST /api/account/delete. */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: DeleteAccountBodySchema,
    api: '/api/account/delete',
    body: ({ password }) => ({ password }),
  });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Delete my account | {company}',
    description: 'Close your {company} account and have your personal data erased.',
    path: '/account/delete',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function AccountDelete({ loaderData, actionData }: Route.ComponentProps) {
  // After deleting, the session is gone (email null): the form shows the action's answer.
  return <DeleteAccountForm email={loaderData.email} info={loaderData.info} result={actionData} />;
}
