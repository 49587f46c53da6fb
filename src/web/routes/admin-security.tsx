import { useState } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { secondFactorApi } from '../../contracts/api/second-factor.ts';
import { ENROL_TOTP, RECOVERY_CODE_COUNT, SECOND_FACTOR_MESSAGES } from '../../contracts/second-factor.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { Notice } from '../features/admin/notice.tsx';
import {
  type CodesResult,
  confirmTotpAction,
  enrolmentOffer,
} from '../features/auth/second-factor-enrolment-action.ts';
import {
  RecoveryCodeList,
  registerPasskey,
  TotpConfirmForm,
  TotpKey,
} from '../features/auth/second-factor-enrolment.tsx';
import { readForm, refused } from '../lib/form.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/admin-security';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.security} | ${ADMIN_TEXT.title}`);

const KIND = { totp: 'Authenticator app', passkey: 'Passkey' } as const;
const NOT_DONE = 'Not saved. Please try again.';

/** The admin's factors and recovery codes left; with ?add=app, a new authenticator app's secret. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const query = new URL(request.url).searchParams;
  // The layout shows the login screen, "not allowed" or the first enrolment instead of this page.
  if (!user?.emailVerified || user.role !== 'admin' || user.secondFactorPending)
    return { status: null, done: null, offer: null };
  const status = await services.api.call(secondFactorApi.status);
  return {
    status: status.ok ? status.data : null,
    done: query.get('done'),
    offer: query.get('add') === 'app' ? await enrolmentOffer(services) : null,
  };
}

const answer = (refusal: { message: string; form: string }, status: number) =>
  data<CodesResult>({ ok: false, fields: {}, values: {}, ...refusal }, { status });

/** Remove a factor, new recovery codes, confirm a new app: forms posted here, sent on to the API as this admin. */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const { services } = context.get(requestContext);
  const form = values.intent ?? '';
  if (form === ENROL_TOTP) return confirmTotpAction(services, values);
  if (form === 'recovery-codes') {
    const renewed = await services.api.call(secondFactorApi.renewRecoveryCodes);
    if (!renewed.ok) return refused(renewed, {}, form);
    const { message, recoveryCodes } = renewed.data;
    return data<CodesResult>({ ok: true, message, fields: {}, values: {}, form, recoveryCodes });
  }
  if (form === 'remove') {
    const factorId = values.factorId ?? '';
    if (!factorId) return answer({ message: SECOND_FACTOR_MESSAGES.factorNotFound, form }, 404);
    const removed = await services.api.call(secondFactorApi.removeFactor, { params: { factorId } });
    if (removed.ok) return redirect(`/admin/security?${new URLSearchParams({ done: removed.data.message })}`, 303);
    return refused(removed, {}, form);
  }
  return answer({ message: NOT_DONE, form }, 400);
}

/** /admin/security: the admin's own second factors (add, remove) and recovery codes (renew). */
export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  const { status, done, offer } = loaderData;
  const busy = useNavigation().state === 'submitting';
  const hydrated = useHydrated();
  const [passkey, setPasskey] = useState<{ codes?: string[]; error?: string }>({});
  const result: CodesResult | undefined = actionData;
  const confirmed = result?.form === ENROL_TOTP ? result : undefined;
  const renewed = result?.form === 'recovery-codes' && result.ok ? result : undefined;
  // A refusal of the confirm form shows under its field; the others' above the list.
  const refusal = result && !result.ok && result.form !== ENROL_TOTP ? result : undefined;
  const newCodes = result?.recoveryCodes ?? passkey.codes;

  async function addPasskey() {
    setPasskey({});
    const registered = await registerPasskey();
    setPasskey(registered.ok ? { codes: registered.recoveryCodes } : { error: registered.message });
  }

  if (newCodes) {
    return (
      <section className="admin-page" aria-labelledby="security-title">
        <div className="admin-page__header">
          <h1 id="security-title">Your new recovery codes</h1>
        </div>
        <Notice tone="success">
          {renewed?.message ?? 'Your second factor is added. Here are new recovery codes.'}
        </Notice>
        <p>
          Keep these ten codes somewhere safe, away from your phone. Each one signs you in once if you lose your
          authenticator app or passkey. They are shown only now, and the codes you had before no longer work.
        </p>
        <RecoveryCodeList codes={newCodes} />
        <p>
          <a className="button button--primary" href="/admin/security">
            I have saved them
          </a>
        </p>
      </section>
    );
  }

  return (
    <section className="admin-page" aria-labelledby="security-title">
      <div className="admin-page__header">
        <h1 id="security-title">{ADMIN_TEXT.nav.security}</h1>
      </div>
      <p>
        Signing in to the console asks for your password, then for one of these. Keep more than one, so a lost phone
        does not lock you out.
      </p>
      {done && !actionData ? <Notice tone="success">{done}</Notice> : null}
      {refusal ? <Notice tone="error">{refusal.message ?? Object.values(refusal.fields)[0] ?? NOT_DONE}</Notice> : null}
      {status === null ? (
        <Notice tone="error">Your second factors could not be loaded. Please reload the page.</Notice>
      ) : null}

      <h2>Your second factors</h2>
      <ul className="factors">
        {(status?.factors ?? []).map((factor) => (
          <li key={factor.id} className="factors__item">
            <div className="factors__about">
              <strong>{factor.label}</strong>
              <span>{KIND[factor.kind]}</span>
              <span>
                Added {formatNzDateTime(factor.createdAt)}
                {' · '}
                {factor.lastUsedAt ? `last used ${formatNzDateTime(factor.lastUsedAt)}` : 'not used yet'}
              </span>
            </div>
            <Form method="post">
              <input type="hidden" name="factorId" value={factor.id} />
              <button
                type="submit"
                name="intent"
                value="remove"
                className="button button--ghost"
                aria-label={`Remove ${factor.label} (${KIND[factor.kind]})`}
                disabled={busy}
              >
                Remove
              </button>
            </Form>
          </li>
        ))}
      </ul>

      <h2>Add another</h2>
      {offer?.ok ? (
        <>
          <TotpKey totp={offer.totp} />
          <TotpConfirmForm action="/admin/security?add=app" factorId={offer.totp.factorId} result={confirmed}>
            <Link className="button button--ghost" to="/admin/security">
              Cancel
            </Link>
          </TotpConfirmForm>
        </>
      ) : (
        <p className="factors__add">
          <Link className="button button--ghost" to="/admin/security?add=app">
            Add an authenticator app
          </Link>
          {hydrated ? (
            <button type="button" className="button button--ghost" onClick={() => void addPasskey()}>
              Add a passkey
            </button>
          ) : null}
        </p>
      )}
      {offer && !offer.ok ? <Notice tone="error">{offer.message}</Notice> : null}
      {passkey.error ? <Notice tone="error">{passkey.error}</Notice> : null}

      <h2>Recovery codes</h2>
      <p>
        {status?.recoveryCodesLeft ?? 0} of {RECOVERY_CODE_COUNT} left. Each one signs you in once without your app or
        passkey. New codes replace all of them.
      </p>
      <Form method="post">
        <button type="submit" name="intent" value="recovery-codes" className="button button--ghost" disabled={busy}>
          Get new recovery codes
        </button>
      </Form>
    </section>
  );
}
