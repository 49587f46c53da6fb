import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AUTH_MESSAGES } from '../../../contracts/auth.ts';
import { InlineSpinner } from '../../components/ui/spinner.tsx';
import { postJson } from '../../lib/api-client.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { AuthCard, EmailInput, FormActions, FormError, SuccessPanel, useAuthForm } from './auth-form.tsx';
import { EmailRequestSchema } from '../../../contracts/auth.ts';
import { useOneTimeToken } from './one-time-token.ts';
import '../../styles/auth.css';

type State = { step: 'checking' } | { step: 'verified'; message: string } | { step: 'failed'; message: string };

/**
 * The page a verification link opens. Only this page's POST uses the token, so a mail scanner that
 * fetches the link (a GET) cannot spend it.
 */
export function VerifyEmail({ result }: { result?: ApiFormResult }) {
  const token = useOneTimeToken();
  const [state, setState] = useState<State>(
    result
      ? result.ok
        ? { step: 'verified', message: result.message ?? '' }
        : { step: 'failed', message: result.message ?? AUTH_MESSAGES.tokenInvalid }
      : { step: 'checking' },
  );
  const started = useRef(false);

  useEffect(() => {
    if (started.current || result) return;
    started.current = true;
    if (!token) {
      setState({ step: 'failed', message: AUTH_MESSAGES.tokenInvalid });
      return;
    }
    void postJson<{ message: string }>('/api/auth/verify-email', { token }).then((result) =>
      setState(
        result.ok ? { step: 'verified', message: result.data.message } : { step: 'failed', message: result.message },
      ),
    );
  }, [token, result]);

  return (
    <AuthCard eyebrow="Account" title="Confirm your email address">
      {state.step === 'checking' ? (
        <>
          <InlineSpinner label="Confirming your email address…" />
          {/* Without JavaScript the link is confirmed by this button (a link checker's GET never spends it). */}
          <noscript>
            <form method="post" className="form">
              <div className="form__actions">
                <button type="submit" className="button button--primary">
                  Confirm my email address
                </button>
              </div>
            </form>
          </noscript>
        </>
      ) : null}
      {state.step === 'verified' ? (
        <SuccessPanel title="Email address confirmed">
          <p>{state.message}</p>
          <p>
            <Link to="/support" className="button button--primary">
              Sign in to support
            </Link>
          </p>
        </SuccessPanel>
      ) : null}
      {state.step === 'failed' ? <ResendVerification message={state.message} /> : null}
    </AuthCard>
  );
}

function ResendVerification({ message }: { message: string }) {
  const [sent, setSent] = useState<string | null>(null);
  const form = useAuthForm({
    schema: EmailRequestSchema,
    url: '/api/auth/resend-verification',
    body: (values) => values,
    onSuccess: (data: { message: string }) => setSent(data.message),
  });
  return (
    <>
      <div className="alert alert--error" role="alert">
        <p>{message}</p>
      </div>
      {sent ? (
        <SuccessPanel title="Check your inbox">
          <p>{sent}</p>
        </SuccessPanel>
      ) : (
        <form
          className="form auth-card__section"
          method="post"
          noValidate
          onSubmit={form.onSubmit}
          aria-label="Send a new verification link"
        >
          <EmailInput error={form.fields.email} />
          <FormError message={form.error} />
          <FormActions busy={form.busy} label="Send a new link" busyLabel="Sending…" />
        </form>
      )}
    </>
  );
}
