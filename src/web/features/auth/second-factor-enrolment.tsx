import { type ReactNode, useState } from 'react';
import { SECOND_FACTOR_MESSAGES, type RecoveryCodes, type TotpEnrolment } from '../../../contracts/second-factor.ts';
import { InputField } from '../../components/ui/field.tsx';
import { postJson } from '../../lib/api-client.ts';
import { AuthCard, FormError } from './auth-form.tsx';
import type { EnrolmentActionData, EnrolmentOffer } from './second-factor-enrolment-action.ts';
import '../../styles/second-factor.css';

/**
 * What an admin sees in place of the console until their session passed a second factor
 * (docs/product.md §2.15): an authenticator app (QR code, the secret as text, one code to confirm;
 * a plain form) or, with JavaScript, a passkey. Then the ten recovery codes, once.
 */
export function EnrolmentScreen({ offer, result }: { offer: EnrolmentOffer; result?: EnrolmentActionData }) {
  const [codes, setCodes] = useState<string[] | null>(result?.recoveryCodes ?? null);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  if (codes) return <RecoveryCodesScreen codes={codes} />;
  if (!offer.ok) {
    return (
      <AuthCard eyebrow="Admin console" title="Second factor">
        <FormError message={offer.message} />
        <p>
          <a href="/sign-out">Sign out</a>
        </p>
      </AuthCard>
    );
  }
  const { totp } = offer;

  async function addPasskey() {
    setPasskeyError(null);
    const registered = await registerPasskey();
    if (!registered.ok) return setPasskeyError(registered.message);
    setCodes(registered.recoveryCodes);
  }

  return (
    <AuthCard
      eyebrow="Admin console"
      title="Set up a second factor"
      lead={`${SECOND_FACTOR_MESSAGES.enrolRequired} From now on, signing in to the console asks for it after your password.`}
    >
      <h2 className="enrol__heading">Authenticator app</h2>
      <TotpKey totp={totp} />
      <TotpConfirmForm action="/admin" factorId={totp.factorId} result={result} />
      <h2 className="enrol__heading">Or a passkey</h2>
      <p>Use this device&apos;s screen lock or a security key instead of codes.</p>
      <FormError message={passkeyError} />
      <button type="button" className="button button--ghost" onClick={() => void addPasskey()}>
        Use a passkey
      </button>
    </AuthCard>
  );
}

/** The authenticator app's secret: a QR code, and the key as text for typing. */
export function TotpKey({ totp }: { totp: TotpEnrolment }) {
  return (
    <>
      <p>Scan this QR code with your authenticator app, or type the key below into it.</p>
      <div
        className="enrol__qr"
        role="img"
        aria-label="QR code for your authenticator app"
        // Drawn on the server by the qrcode library from our own otpauth:// address: plain SVG paths.
        dangerouslySetInnerHTML={{ __html: totp.qrSvg }}
      />
      <p>
        Key:{' '}
        <code className="enrol__secret" data-testid="totp-secret">
          {totp.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </p>
    </>
  );
}

/**
 * The authenticator app confirmed with one code: a plain form posted to `action` (the page's own
 * action takes `intent=enrol-totp`). `children` go beside Confirm.
 */
export function TotpConfirmForm({
  action,
  factorId,
  result,
  children,
}: {
  action: string;
  factorId: string;
  result?: EnrolmentActionData | undefined;
  children?: ReactNode;
}) {
  return (
    <form className="form" method="post" action={action} noValidate aria-label="Confirm your authenticator app">
      <input type="hidden" name="intent" value="enrol-totp" />
      <input type="hidden" name="factorId" value={factorId} />
      <InputField
        label="Code from the app"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        required
        error={result?.fields.code}
      />
      <FormError message={result?.message ?? null} />
      <div className="form__actions">
        <button type="submit" className="button button--primary">
          Confirm
        </button>
        {children}
      </div>
    </form>
  );
}

/** Registers a passkey of this device (the browser asks for its screen lock); answers new recovery codes. */
export async function registerPasskey(): Promise<
  { ok: true; recoveryCodes: string[] } | { ok: false; message: string }
> {
  const options = await postJson<{ options: unknown }>('/api/admin/second-factor/passkey/options', {});
  if (!options.ok) return { ok: false, message: options.message };
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: options.data.options as never });
  } catch {
    return { ok: false, message: SECOND_FACTOR_MESSAGES.passkeyRegisterFailed };
  }
  const registered = await postJson<RecoveryCodes>('/api/admin/second-factor/passkey', { response });
  return registered.ok
    ? { ok: true, recoveryCodes: registered.data.recoveryCodes }
    : { ok: false, message: registered.message };
}

/** The ten recovery codes, shown once. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <ol className="enrol__codes" aria-label="Recovery codes">
      {codes.map((code) => (
        <li key={code}>
          <code>{code}</code>
        </li>
      ))}
    </ol>
  );
}

function RecoveryCodesScreen({ codes }: { codes: string[] }) {
  return (
    <AuthCard eyebrow="Admin console" title="Your recovery codes" lead={SECOND_FACTOR_MESSAGES.enrolled}>
      <p>
        Keep these ten codes somewhere safe, away from your phone. Each one signs you in once if you lose your
        authenticator app or passkey. They are shown only now.
      </p>
      <RecoveryCodeList codes={codes} />
      <p>
        <a className="button button--primary" href="/admin">
          I have saved them: open the console
        </a>
      </p>
    </AuthCard>
  );
}
