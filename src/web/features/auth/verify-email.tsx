import { useEffect, useRef, useState } from 'react';
import { Form, Link, useFetcher } from 'react-router';
import { AUTH_MESSAGES } from '../../../contracts/auth.ts';
import { InlineSpinner } from '../../components/ui/spinner.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { AuthCard, EmailInput, FormActions, FormError, SuccessPanel } from './auth-form.tsx';
import { useOneTimeToken } from './one-time-token.ts';
import '../../styles/auth.css';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadEmailRequestSchema = () => import('../../../contracts/auth.schemas.ts').then((m) => m.EmailRequestSchema);

/** The page's second form: a new link, when this one did not work. */
export const RESEND_FORM = 'resend';

/**
 * The page a verification link opens. Only this page's POST uses the token, so a mail scanner that
 * fetches the link (a GET) cannot spend it. With JavaScript the page posts it to its action at
 * once (a fetcher: the address bar stays without the token); without, its button does.
 * `result` is the answer the page was rendered with (a form sent without JavaScript).
 */
export function VerifyEmail({ result: served }: { result?: FormResult | undefined }) {
  const token = useOneTimeToken();
  const confirm = useFetcher<FormResult>();
  const [noToken, setNoToken] = useState(false);
  const verified = confirm.data ?? (served?.form === RESEND_FORM ? undefined : served);

  // Once, when the page opens (unless it is itself the answer to the button).
  const started = useRef(false);
  useEffect(() => {
    if (started.current || served) return;
    started.current = true;
    if (token) void confirm.submit({ token }, { method: 'post' });
    else setNoToken(true);
  }, [served, token, confirm]);

  const failed = verified
    ? verified.ok
      ? null
      : (verified.message ?? Object.values(verified.fields)[0] ?? AUTH_MESSAGES.tokenInvalid)
    : served?.form === RESEND_FORM || noToken
      ? AUTH_MESSAGES.tokenInvalid
      : null;

  return (
    <AuthCard eyebrow="Account" title="Confirm your email address">
      {!verified && failed === null ? (
        <>
          <InlineSpinner label="Confirming your email address…" />
          {/* Without JavaScript the link is confirmed by this button (a link checker's GET never spends it). */}
          <noscript>
            <Form method="post" className="form">
              <div className="form__actions">
                <button type="submit" className="button button--primary">
                  Confirm my email address
                </button>
              </div>
            </Form>
          </noscript>
        </>
      ) : null}
      {verified?.ok ? (
        <SuccessPanel title="Email address confirmed">
          <p>{verified.message}</p>
          <p>
            <Link to="/support" className="button button--primary">
              Sign in to support
            </Link>
          </p>
        </SuccessPanel>
      ) : null}
      {failed !== null ? (
        <ResendVerification message={failed} served={served?.form === RESEND_FORM ? served : undefined} />
      ) : null}
    </AuthCard>
  );
}

function ResendVerification({ message, served }: { message: string; served: FormResult | undefined }) {
  const fetcher = useFetcher<FormResult>();
  const result = fetcher.data ?? served;
  const { errors, onSubmit, formRef } = useFormCheck(loadEmailRequestSchema, result);
  return (
    <>
      <div className="alert alert--error" role="alert">
        <p>{message}</p>
      </div>
      {result?.ok ? (
        <SuccessPanel title="Check your inbox">
          <p>{result.message}</p>
        </SuccessPanel>
      ) : (
        <fetcher.Form
          ref={formRef}
          className="form auth-card__section"
          method="post"
          action="/verify-email"
          noValidate
          onSubmit={onSubmit}
          aria-label="Send a new verification link"
        >
          <input type="hidden" name="intent" value={RESEND_FORM} />
          <EmailInput defaultValue={result?.values.email} error={errors.email} />
          <FormError message={result?.message ?? null} />
          <FormActions busy={fetcher.state !== 'idle'} label="Send a new link" busyLabel="Sending…" />
        </fetcher.Form>
      )}
    </>
  );
}
