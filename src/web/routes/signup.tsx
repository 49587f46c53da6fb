import { authApi } from '../../contracts/api/accounts.ts';
import { SignupFormSchema } from '../../contracts/auth.schemas.ts';
import { SignupForm } from '../features/auth/signup-form.tsx';
import { invalid, keepValues, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/signup';

const SECRETS = ['password', 'confirmPassword'];

/** The form: checked with its schema, then sent on to the sign-up endpoint as this visitor. */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const kept = keepValues(values, SECRETS);
  const parsed = SignupFormSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, kept);
  const { email, password, name } = parsed.data;
  const sent = await context
    .get(requestContext)
    .services.api.call(authApi.signup, { body: { email, password, ...(name ? { name } : {}) } });
  // The success panel says where the link went: the address as typed.
  return sent.ok ? { ...succeeded(sent.data.message), values: { email: kept.email ?? email } } : refused(sent, kept);
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
