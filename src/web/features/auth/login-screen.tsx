import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { AUTH_MESSAGES, fieldErrors, LoginRequestSchema, type LoginResponse } from '../../../contracts/auth.ts';
import { MessageBox } from '../../components/ui/message-box.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { postJson } from '../../lib/api-client.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';
import { AuthCard } from './auth-form.tsx';
import { ResendVerification, type ResendState } from './resend-verification.tsx';
import type { SignInActionData } from './sign-in-action.ts';
import { InputField } from '../../components/ui/field.tsx';
import { OtpField, signInWithPasskey } from './otp-field.tsx';
import { SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import '../../styles/auth.css';

type Failure = { kind: 'error' | 'throttled'; message: string } | { kind: 'unverified'; email: string };

/**
 * The login screen of every /support route (docs/product.md §2): Email, Password, Login; a blocking spinner
 * while signing in; failures in a message box with an error icon and a Close button.
 */
export function LoginScreen({
  signedInUnverified,
  area = '/support',
  result,
}: {
  signedInUnverified?: string;
  /** Where the form posts without JavaScript: the area's own address, whose action signs in. */
  area?: '/support' | '/admin';
  /** The answer of that action (a form sent before the page's JavaScript ran, or without it). */
  result?: SignInActionData;
}) {
  const location = useLocation();
  const [fields, setFields] = useState<Record<string, string>>(result?.fields ?? {});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(
    signedInUnverified ? { kind: 'unverified', email: signedInUnverified } : null,
  );
  // A refusal the server rendered is shown in the card itself, where it reads without JavaScript
  // (the message box is a modal <dialog>, which only a script can open).
  const [serverMessage, setServerMessage] = useState<string | null>(
    result && !result.unverified ? result.message : null,
  );
  const [serverUnverified, setServerUnverified] = useState<string | null>(result?.unverified ? result.email : null);
  const [resend, setResend] = useState<ResendState>(
    result?.resend
      ? { state: result.resend.ok ? 'done' : 'failed', message: result.resend.message }
      : { state: 'idle' },
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const otpRef = useRef<HTMLInputElement>(null);
  // An admin's second step (docs/product.md §2.15): always offered on /admin, elsewhere once the server asks.
  const [otpAsked, setOtpAsked] = useState(Boolean(result?.otp));
  const showOtp = area === '/admin' || otpAsked;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // A user whose address is (no longer) verified is signed out at once (docs/product.md §6).
  useEffect(() => {
    if (signedInUnverified) void postJson('/api/auth/logout');
  }, [signedInUnverified]);

  // The code step after a right password sent without JavaScript: the form posts to the page's
  // action with its ticket (the password is not on the page to send to the API).
  const ticket = result?.ticket;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (ticket) return;
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const otp = String(form.get('otp') ?? '').trim();
    const parsed = LoginRequestSchema.safeParse({
      email: form.get('email'),
      password: form.get('password'),
      ...(otp ? { otp } : {}),
    });
    if (!parsed.success) {
      setFields(fieldErrors(parsed.error));
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setFields({});
    setServerMessage(null);
    setServerUnverified(null);
    setBusy(true);
    const result = await postJson<LoginResponse>('/api/auth/login', {
      email: parsed.data.email,
      password: parsed.data.password,
      ...(parsed.data.otp ? { otp: parsed.data.otp } : {}),
    });
    if (result.ok) {
      // Every part of the page (navigation included) is rendered again for the signed-in user.
      window.location.reload();
      return;
    }
    setBusy(false);
    setResend({ state: 'idle' });
    if (result.status === 403 && result.message === AUTH_MESSAGES.unverified) {
      setFailure({ kind: 'unverified', email: parsed.data.email });
    } else if (result.fields.otp !== undefined && result.status !== 429) {
      // The password was right; the code is needed or was wrong: its field says which.
      setOtpAsked(true);
      setFields({ otp: result.fields.otp });
      requestAnimationFrame(() => otpRef.current?.focus());
    } else if (result.status === 400 && Object.keys(result.fields).length > 0) {
      setFields(result.fields);
      focusFirstInvalid(formElement);
    } else {
      setFailure({ kind: result.status === 429 ? 'throttled' : 'error', message: result.message });
    }
  }

  async function sendVerification(email: string) {
    // With JavaScript the form stays on the page: the answer replaces the button.
    setResend({ state: 'sending' });
    const result = await postJson<{ message: string }>('/api/auth/resend-verification', { email });
    setResend(
      result.ok ? { state: 'done', message: result.data.message } : { state: 'failed', message: result.message },
    );
  }

  function passkeySignIn() {
    const form = new FormData(formRef.current ?? undefined);
    return signInWithPasskey(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
  }

  const close = () => {
    setFailure(null);
    emailRef.current?.focus();
  };

  return (
    <>
      <AuthCard
        eyebrow="Support"
        title="Sign in to get help"
        lead="Sign in with a verified email address to see your tickets and chat with our team."
      >
        {serverMessage ? (
          <div className="alert alert--error" role="alert">
            <p>{serverMessage}</p>
          </div>
        ) : null}
        {serverUnverified !== null ? (
          <>
            <div className="alert alert--error" role="alert">
              <p>{AUTH_MESSAGES.unverified}</p>
            </div>
            <div>
              <ResendVerification
                area={area}
                email={serverUnverified}
                resend={resend}
                onSend={(email) => void sendVerification(email)}
              />
            </div>
          </>
        ) : null}
        <form
          ref={formRef}
          className="form"
          method="post"
          action={area}
          noValidate
          onSubmit={onSubmit}
          inert={busy}
          aria-label="Sign in"
        >
          <input type="hidden" name="returnTo" value={location.pathname + location.search} />
          {ticket ? (
            <>
              <input type="hidden" name="ticket" value={ticket} />
              <input type="hidden" name="email" value={result.email} />
              <p className="auth-card__step">
                {M.passwordAccepted(result.email)} <a href={area}>{M.notYou}</a>
              </p>
            </>
          ) : (
            <>
              <InputField
                ref={emailRef}
                label="Email"
                name="email"
                type="email"
                autoComplete="username"
                inputMode="email"
                required
                defaultValue={result?.email}
                error={fields.email}
              />
              <InputField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={fields.password}
              />
            </>
          )}
          {showOtp ? (
            <OtpField
              error={fields.otp}
              inputRef={otpRef}
              passkey={hydrated && otpAsked && !ticket ? () => passkeySignIn() : undefined}
            />
          ) : null}
          <div className="form__actions auth-card__actions">
            <button type="submit" className="button button--primary auth-card__submit" disabled={busy}>
              Login
            </button>
            <Link to="/forgot-password" className="auth-card__aside">
              Forgot your password?
            </Link>
          </div>
        </form>
        <p className="auth-card__footer">
          New here? <Link to="/signup">Create an account</Link>
        </p>
      </AuthCard>

      {busy ? <Spinner label="Signing in…" /> : null}

      <MessageBox
        open={failure !== null}
        title={
          failure?.kind === 'unverified'
            ? 'Email not verified'
            : failure?.kind === 'throttled'
              ? 'Please wait'
              : 'Sign-in failed'
        }
        message={failure?.kind === 'unverified' ? AUTH_MESSAGES.unverified : (failure?.message ?? '')}
        onClose={close}
        returnFocus={() => emailRef.current}
      >
        {failure?.kind === 'unverified' ? (
          <ResendVerification
            area={area}
            email={failure.email}
            resend={resend}
            onSend={(email) => void sendVerification(email)}
          />
        ) : null}
      </MessageBox>
    </>
  );
}
