import { Link, useFetcher } from 'react-router';
import { authApi } from '../../contracts/api/accounts.ts';
import { AUTH_MESSAGES } from '../../contracts/auth.ts';
import { AuthCard, FormError, SuccessPanel } from '../features/auth/auth-form.tsx';
import { useOneTimeToken } from '../features/auth/one-time-token.ts';
import { type FormResult, readForm, refused, succeeded } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/confirm-email';
import '../styles/auth.css';

/**
 * The page an email-change link opens (/confirm-email?token=…). Only its button spends the link,
 * so a mail scanner that fetches the address cannot; the form posts to this page's action, which
 * calls the confirming endpoint in process. The token travels in the form (the address bar loses it
 * once the page has loaded; with JavaScript a fetcher sends the form, so it does not come back),
 * and this page sends no Referer to other sites.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const token = values.token || new URL(request.url).searchParams.get('token') || '';
  const confirmed = await context
    .get(requestContext)
    .services.api.call(authApi.confirmEmailChange, { body: { token } });
  return confirmed.ok ? succeeded(confirmed.data.message) : refused(confirmed, {});
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
  const fetcher = useFetcher<FormResult>();
  const result = fetcher.data ?? actionData;
  if (result?.ok) {
    return (
      <AuthCard eyebrow="Account" title="Email address changed">
        <SuccessPanel title="Your new address is confirmed">
          <p>{result.message}</p>
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
      {token || result ? (
        <fetcher.Form method="post" className="form" aria-label="Confirm your new email address">
          <input type="hidden" name="token" value={token} />
          <FormError
            message={result ? (result.message ?? Object.values(result.fields)[0] ?? AUTH_MESSAGES.tokenInvalid) : null}
          />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={fetcher.state !== 'idle'}>
              Confirm my new email address
            </button>
          </div>
        </fetcher.Form>
      ) : (
        <FormError message={AUTH_MESSAGES.tokenInvalid} />
      )}
    </AuthCard>
  );
}
