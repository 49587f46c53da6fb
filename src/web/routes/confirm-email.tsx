import { Link } from 'react-router';
import { z } from 'zod';
import { AUTH_MESSAGES } from '../../contracts/auth.ts';
import { apiFormAction } from '../features/auth/api-form-action.ts';
import { AuthCard, FormError, SuccessPanel } from '../features/auth/auth-form.tsx';
import { useOneTimeToken } from '../features/auth/one-time-token.ts';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/confirm-email';
import '../styles/auth.css';

/**
 * The page an email-change link opens (/confirm-email?token=…). Only its button spends the link,
 * so a mail scanner that fetches the address cannot; it works the same without JavaScript (the
 * form posts to this page's action, which calls POST /api/auth/confirm-email-change in process).
 * The token travels in the form (the address bar loses it once the page has loaded), and this
 * page sends no Referer to other sites.
 */
export function action({ request, context }: Route.ActionArgs) {
  return apiFormAction(request, context, {
    schema: z.object({ token: z.string().optional() }),
    api: '/api/auth/confirm-email-change',
    body: (values, query) => ({ token: values.token || query.get('token') || '' }),
  });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: 'Confirm your new email address | {company}',
    description: 'Confirm the new email address of your {company} account.',
    path: '/confirm-email',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function ConfirmEmail({ actionData }: Route.ComponentProps) {
  const token = useOneTimeToken();
  if (actionData?.ok) {
    return (
      <AuthCard eyebrow="Account" title="Email address changed">
        <SuccessPanel title="Your new address is confirmed">
          <p>{actionData.message}</p>
          <p>
            <Link to="/account" className="button button--primary">
              Go to your account
            </Link>
          </p>
        </SuccessPanel>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      eyebrow="Account"
      title="Confirm your new email address"
      lead="Confirm to make this address the one your account signs in with."
    >
      {token || actionData ? (
        <form method="post" className="form" aria-label="Confirm your new email address">
          <input type="hidden" name="token" value={token} />
          <FormError message={actionData ? (actionData.message ?? AUTH_MESSAGES.tokenInvalid) : null} />
          <div className="form__actions">
            <button type="submit" className="button button--primary">
              Confirm my new email address
            </button>
          </div>
        </form>
      ) : (
        <FormError message={AUTH_MESSAGES.tokenInvalid} />
      )}
    </AuthCard>
  );
}
