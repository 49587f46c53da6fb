import { type ReactNode, useState } from 'react';
import { Form, useNavigation, useRouteLoaderData } from 'react-router';
import { secondFactorApi } from '../../../contracts/api/second-factor.ts';
import { ENROL_TOTP, SECOND_FACTOR_MESSAGES } from '../../../contracts/second-factor.ts';
import type { PasskeyAttestationSchema, TotpEnrolment } from '../../../contracts/second-factor.schemas.ts';
import type { z } from '../../../contracts/zod.ts';
import { InputField } from '../../components/ui/field.tsx';
import { api } from '../../lib/api-client.ts';
import { useFormCheck } from '../../lib/form.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import type { RootData } from '../../lib/page-meta.ts';
import { AuthCard, FormError } from './auth-form.tsx';
import type { CodesResult, EnrolmentOffer } from './second-factor-enrolment-action.ts';
import '../../styles/second-factor.css';

/**
 * What an admin sees in place of the console until their session passed a second factor
 * (docs/product.md §2.15): an authenticator app (QR code, the secret as text, one code to confirm,
 * a form posted to /admin) or, with JavaScript, a passkey. Then the ten recovery codes, once.
 */
export function EnrolmentScreen({ offer, result }: { offer: EnrolmentOffer; result?: CodesResult | undefined }) {
  const [passkeyCodes, setCodes] = useState<string[] | null>(null);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const hydrated = useHydrated();
  const codes = result?.recoveryCodes ?? passkeyCodes;
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
      {/* A passkey is a ceremony of the browser's JavaScript: offered once the page is hydrated, so
          a visitor without JavaScript (or a click before hydration) never meets a button that does nothing. */}
      {hydrated ? (
        <>
          <h2 className="enrol__heading">Or a passkey</h2>
          <p>Use this device&apos;s screen lock or a security key instead of codes.</p>
          <FormError message={passkeyError} />
          <button type="button" className="button button--ghost" onClick={() => void addPasskey()}>
            Use a passkey
          </button>
        </>
      ) : null}
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

/** The confirm form's schema, loaded when the form is first used (useFormCheck). */
const loadTotpConfirmFormSchema = () =>
  import('../../../contracts/second-factor.schemas.ts').then((m) => m.TotpConfirmFormSchema);

/**
 * The authenticator app confirmed with one code: a form posted to `action` (the page's own action
 * takes `intent=enrol-totp`); `result` is its answer. `children` go beside Confirm.
 */
export function TotpConfirmForm({
  action,
  factorId,
  result,
  children,
}: {
  action: string;
  factorId: string;
  result?: CodesResult | undefined;
  children?: ReactNode;
}) {
  const mine = result?.form === ENROL_TOTP ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(loadTotpConfirmFormSchema, mine);
  const busy = useNavigation().state === 'submitting';
  return (
    <Form
      ref={formRef}
      className="form"
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      aria-label="Confirm your authenticator app"
    >
      <input type="hidden" name="intent" value={ENROL_TOTP} />
      <input type="hidden" name="factorId" value={factorId} />
      <InputField
        label="Code from the app"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        required
        error={errors.code ?? errors.factorId}
      />
      <FormError message={mine && !mine.ok ? mine.message : null} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          Confirm
        </button>
        {children}
      </div>
    </Form>
  );
}

/**
 * Registers a passkey of this device (the browser asks for its screen lock); answers new recovery
 * codes. A ceremony of the browser's own, so it calls the API from here rather than through a form.
 */
export async function registerPasskey(): Promise<
  { ok: true; recoveryCodes: string[] } | { ok: false; message: string }
> {
  const options = await api.call(secondFactorApi.passkeyRegistrationOptions);
  if (!options.ok) return { ok: false, message: options.message };
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response: z.input<typeof PasskeyAttestationSchema>;
  try {
    response = (await startRegistration({ optionsJSON: options.data.options as never })) as z.input<
      typeof PasskeyAttestationSchema
    >;
  } catch {
    return { ok: false, message: SECOND_FACTOR_MESSAGES.passkeyRegisterFailed };
  }
  const registered = await api.call(secondFactorApi.registerPasskey, { body: { response } });
  return registered.ok
    ? { ok: true, recoveryCodes: registered.data.recoveryCodes }
    : { ok: false, message: registered.message };
}

/** The name the downloaded codes are saved under. */
export const RECOVERY_CODES_FILE = 'bagspace-recovery-codes.txt';

/** The downloaded file: what the codes are for, then one code a line. */
function recoveryCodesFile(codes: string[], company: string): string {
  return [
    `Recovery codes for the ${company} admin console`,
    'Each code signs you in once, in place of your authenticator app or passkey.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The ten recovery codes, shown once: each on one line (the list wraps between codes, never inside
 * one), with Download (.txt), a data: link the server renders, so it works without JavaScript and
 * nothing is stored to serve it, and Copy once the page's script runs (the clipboard needs it).
 */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  const hydrated = useHydrated();
  const company = useRouteLoaderData<RootData>('root')?.site.companyName ?? 'Bagspace';
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }

  return (
    <div className="recovery-codes">
      <ol className="enrol__codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className="recovery-codes__actions">
        {hydrated ? (
          <button type="button" className="button button--ghost" onClick={() => void copy()}>
            Copy
          </button>
        ) : null}
        <a
          className="button button--ghost"
          download={RECOVERY_CODES_FILE}
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesFile(codes, company))}`}
        >
          Download (.txt)
        </a>
      </p>
      {hydrated ? (
        <p className="recovery-codes__status" role="status">
          {copied === 'yes'
            ? 'The codes are copied.'
            : copied === 'no'
              ? 'The codes could not be copied: select them, or download them.'
              : ''}
        </p>
      ) : null}
    </div>
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
