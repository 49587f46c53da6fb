import { useState } from 'react';
import { authApi } from '../../../contracts/api/accounts.ts';
import { secondFactorApi } from '../../../contracts/api/second-factor.ts';
import { SECOND_FACTOR_MESSAGES } from '../../../contracts/second-factor.ts';
import type { PasskeyAssertion } from '../../../contracts/second-factor.schemas.ts';
import { InputField } from '../../components/ui/field.tsx';
import { api } from '../../lib/api-client.ts';

/**
 * The login screen's second step for admins (docs/product.md §2.15): the code from the
 * authenticator app or a recovery code, sent with the email and password (a plain form field, so
 * it works without JavaScript).
 */
export function OtpField({ error }: { error?: string | undefined }) {
  return (
    <InputField
      label="One-time code"
      name="otp"
      autoComplete="one-time-code"
      inputMode="text"
      hint="Admins: the 6-digit code from your authenticator app, or one of your recovery codes."
      error={error}
    />
  );
}

/**
 * With JavaScript, the other way past the code: 'Use a passkey', below the code's form and its Login
 * button (never between the code and Login). Its failure is told on the code's field (`onError`).
 */
export function PasskeyButton({
  passkey,
  onError,
}: {
  /** Signs in with a passkey; answers an error message, or null once signed in. */
  passkey: () => Promise<string | null>;
  onError: (message: string | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <p className="auth-card__passkey">
      <button
        type="button"
        className="button button--ghost"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          onError(null);
          void passkey().then((message) => {
            setBusy(false);
            onError(message);
          });
        }}
      >
        Use a passkey
      </button>
    </p>
  );
}

/**
 * A passkey sign-in: the password first (for the challenge), then the browser's passkey dialog. A
 * ceremony of the browser's own, so it calls the API from here rather than through a page's form.
 */
export async function signInWithPasskey(email: string, password: string): Promise<string | null> {
  const options = await api.call(secondFactorApi.passkeySignInOptions, { body: { email, password } });
  if (!options.ok) return options.fields.otp ?? options.message;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let passkey: PasskeyAssertion;
  try {
    passkey = (await startAuthentication({ optionsJSON: options.data.options as never })) as PasskeyAssertion;
  } catch {
    return SECOND_FACTOR_MESSAGES.passkeyFailed;
  }
  const result = await api.call(authApi.login, { body: { email, password, passkey } });
  if (!result.ok) return result.fields.otp ?? result.message;
  window.location.reload();
  return null;
}
