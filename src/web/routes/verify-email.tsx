import { authApi } from '../../contracts/api/accounts.ts';
import { EmailRequestSchema } from '../../contracts/auth.schemas.ts';
import { RESEND_FORM, VerifyEmail } from '../features/auth/verify-email.tsx';
import { invalid, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/verify-email';

/**
 * Confirming: the link's token, from the page's own post (the address still holds ?token=) or the
 * field the page sends; or, when the link did not work, a new one mailed (`intent=resend`).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  if (values.intent === RESEND_FORM) {
    const kept = { email: values.email ?? '' };
    const parsed = EmailRequestSchema.safeParse(values);
    if (!parsed.success) return invalid(parsed.error, kept, RESEND_FORM);
    const sent = await api.call(authApi.resendVerification, { body: parsed.data });
    return sent.ok ? succeeded(sent.data.message, RESEND_FORM) : refused(sent, kept, RESEND_FORM);
  }
  const token = values.token || new URL(request.url).searchParams.get('token') || '';
  const verified = await api.call(authApi.verifyEmail, { body: { token } });
  return verified.ok ? succeeded(verified.data.message) : refused(verified, {});
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
