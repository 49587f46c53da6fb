import { privacyApi } from '../../contracts/api/privacy.ts';
import { DeleteAccountBodySchema } from '../../contracts/account-deletion.schemas.ts';
import { DeleteAccountForm } from '../features/auth/delete-account-form.tsx';
import { invalid, keepValues, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/account-delete';

export async function loader({ context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  if (!user) return { email: null, info: null };
  const info = await services.api.call(privacyApi.deletionInfo);
  return { email: user.email, info: info.ok ? info.data : null };
}

/**
 * The password, checked with the form's schema, then privacyApi.deleteAccount as this visitor: it
 * closes the account and clears the session cookie, which goes on to the browser with this answer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const kept = keepValues(values);
  const parsed = DeleteAccountBodySchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, kept);
  const { api } = context.get(requestContext).services;
  const deleted = await api.call(privacyApi.deleteAccount, { body: { password: parsed.data.password } });
  // Signed out: the root and the header read who is signed in again with this answer (lib/revalidate.ts).
  return deleted.ok ? { ...succeeded(deleted.data.message), signedOut: true } : refused(deleted, kept);
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
