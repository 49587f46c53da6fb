import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useLocation, useRouteLoaderData } from 'react-router';
import { ADMIN_TEXT } from '../../../contracts/admin.ts';
import { AUTH_MESSAGES, OIDC_TEXT } from '../../../contracts/auth.ts';
import { SECOND_FACTOR_MESSAGES as M } from '../../../contracts/second-factor.ts';
import { InputField } from '../../components/ui/field.tsx';
import { MessageBox } from '../../components/ui/message-box.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useFormCheck } from '../../lib/form.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import type { RootData } from '../../lib/page-meta.ts';
import { AuthCard } from './auth-form.tsx';
import { OtpField, PasskeyButton, signInWithPasskey } from './otp-field.tsx';
import { ResendVerification } from './resend-verification.tsx';
import { SignInCodeSchema, SignInFormSchema, type SignInArea, type SignInResult } from './sign-in-action.ts';
import { RESEND_FORM } from './sign-in-forms.ts';
import '../../styles/auth.css';

type Failure = { kind: 'error' | 'throttled'; message: string } | { kind: 'unverified'; email: string };

/**
 * The console's own sign-in (/admin): for the team, so nothing of the customers' screen (no
 * sign-up link, no "get help"); the form, its messages and 'Forgot your password?' are the same.
 */
export const STAFF_SIGN_IN = {
  title: 'Staff sign-in',
  lead: (company: string) => `For the ${company} team only: sign in with your staff account to open the console.`,
} as const;

const isUnverified = (result: SignInResult | undefined) =>
  result !== undefined && !result.ok && result.message === AUTH_MESSAGES.unverified;

/**
 * The login screen of every /support route (docs/product.md §2): Email, Password, Login; a blocking spinner
 * while signing in; failures in a message box with an error icon and a Close button. On /admin the
 * same screen is the staff's (STAFF_SIGN_IN): its own heading and lead, and no 'Create an account'.
 *
 * The form posts to the area's own address (routes/support.tsx, routes/admin.tsx), whose action
 * signs in: with JavaScript through a fetcher (the page stays; a success loads the signed-in page),
 * without it as a plain form, whose answer (`result`) the server renders into the card, since the
 * message box is a modal <dialog> only a script can open.
 */
export function LoginScreen({
  signedInUnverified,
  area = '/support',
  result: served,
  provider,
}: {
  signedInUnverified?: string | undefined;
  area?: SignInArea;
  /** The console's sign-in with the company's identity provider (decision 148): its name, and why it last failed. */
  provider?: { name: string; refusal: string | null } | undefined;
  /** The answer of the area's action when the page itself was the answer (no JavaScript, or not yet). */
  result?: SignInResult | undefined;
}) {
  const location = useLocation();
  const hydrated = useHydrated();
  const staff = area === '/admin';
  const company = useRouteLoaderData<RootData>('root')?.site.companyName ?? 'Bagspace';
  const signIn = useFetcher<SignInResult>();
  const busy = signIn.state !== 'idle';
  const servedSignIn = served?.form === RESEND_FORM ? undefined : served;
  const result = signIn.data ?? servedSignIn;

  // The code step after a right password sent without JavaScript: the page holds a ticket for the
  // password (not on the page to send again). With JavaScript the password stays in its field, so
  // a code is sent with it and a ticket the action offers is not needed.
  const [codeStep, setCodeStep] = useState(Boolean(servedSignIn?.values.ticket));
  const ticket = codeStep ? result?.values.ticket : undefined;
  // An admin's second step (docs/product.md §2.15): always offered on /admin, elsewhere once the server asks.
  const [otpAsked, setOtpAsked] = useState(false);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  if (!otpAsked && result?.fields.otp !== undefined) setOtpAsked(true);
  const showOtp = area === '/admin' || otpAsked || ticket !== undefined;

  const check = useFormCheck(ticket ? SignInCodeSchema : SignInFormSchema, result);
  const [failure, setFailure] = useState<Failure | null>(
    signedInUnverified ? { kind: 'unverified', email: signedInUnverified } : null,
  );
  // Each refusal as unverified offers a new resend form (a fetcher of its own).
  const [attempt, setAttempt] = useState(0);
  const emailRef = useRef<HTMLInputElement>(null);

  // An answer to this page's own sending: a refusal that names no field shows in the message box.
  useEffect(() => {
    const answer = signIn.data;
    if (!answer || answer.ok) return;
    if (!answer.values.ticket) setCodeStep(false);
    if (isUnverified(answer)) {
      setAttempt((n) => n + 1);
      setFailure({ kind: 'unverified', email: answer.values.email ?? '' });
    } else if (answer.throttled || Object.keys(answer.fields).length === 0) {
      setFailure({
        kind: answer.throttled ? 'throttled' : 'error',
        message: answer.message ?? Object.values(answer.fields)[0] ?? '',
      });
    }
  }, [signIn.data]);

  // What the server rendered into the card: shown until this page sends the form itself.
  const fromPage = signIn.data ? undefined : served;
  const cardUnverified =
    fromPage && (fromPage.form === RESEND_FORM || isUnverified(fromPage)) ? (fromPage.values.email ?? '') : null;
  const cardMessage = fromPage && !fromPage.ok && cardUnverified === null ? fromPage.message : null;

  function passkeySignIn() {
    const form = new FormData(check.formRef.current ?? undefined);
    return signInWithPasskey(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
  }

  const close = () => {
    setFailure(null);
    emailRef.current?.focus();
  };

  return (
    <>
      <AuthCard
        eyebrow={staff ? ADMIN_TEXT.title : 'Support'}
        title={staff ? STAFF_SIGN_IN.title : 'Sign in to get help'}
        lead={
          staff
            ? STAFF_SIGN_IN.lead(company)
            : 'Sign in with a verified email address to see your tickets and chat with our team.'
        }
      >
        {provider && !ticket ? (
          <div className="auth-provider">
            {provider.refusal && !fromPage ? (
              <div className="alert alert--error" role="alert">
                <p>{provider.refusal}</p>
              </div>
            ) : null}
            {/* A plain link: the browser goes to the provider and comes back, with JavaScript or without. */}
            <a className="button button--primary auth-provider__button" href="/auth/oidc/start" data-discover="false">
              {OIDC_TEXT.button(provider.name)}
            </a>
            <p className="auth-provider__or">{OIDC_TEXT.or}</p>
          </div>
        ) : null}
        {cardMessage ? (
          <div className="alert alert--error" role="alert">
            <p>{cardMessage}</p>
          </div>
        ) : null}
        {cardUnverified !== null ? (
          <>
            <div className="alert alert--error" role="alert">
              <p>{AUTH_MESSAGES.unverified}</p>
            </div>
            <div>
              <ResendVerification
                area={area}
                email={cardUnverified}
                served={served?.form === RESEND_FORM ? served : undefined}
              />
            </div>
          </>
        ) : null}
        <signIn.Form
          ref={check.formRef}
          className="form"
          method="post"
          action={area}
          noValidate
          onSubmit={check.onSubmit}
          inert={busy}
          aria-label="Sign in"
        >
          <input type="hidden" name="returnTo" value={location.pathname + location.search} />
          {ticket ? (
            <>
              <input type="hidden" name="ticket" value={ticket} />
              <input type="hidden" name="email" value={result?.values.email ?? ''} />
              <p className="auth-card__step">
                {M.passwordAccepted(result?.values.email ?? '')} <a href={area}>{M.notYou}</a>
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
                defaultValue={(signIn.data ?? served)?.values.email}
                error={check.errors.email}
              />
              <InputField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={check.errors.password}
              />
            </>
          )}
          {showOtp ? <OtpField error={check.errors.otp ?? passkeyError ?? undefined} /> : null}
          <div className="form__actions auth-card__actions">
            <button type="submit" className="button button--primary auth-card__submit" disabled={busy}>
              Login
            </button>
            <Link to="/forgot-password" className="auth-card__aside">
              Forgot your password?
            </Link>
          </div>
          {showOtp && hydrated && otpAsked && !ticket ? (
            <PasskeyButton passkey={passkeySignIn} onError={setPasskeyError} />
          ) : null}
        </signIn.Form>
        {staff ? null : (
          <p className="auth-card__footer">
            New here? <Link to="/signup">Create an account</Link>
          </p>
        )}
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
        {failure?.kind === 'unverified' ? <ResendVerification key={attempt} area={area} email={failure.email} /> : null}
      </MessageBox>
    </>
  );
}
