import { useEffect } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { privacyApi } from '../../../contracts/api/privacy.ts';
import { DELETION_TEXT } from '../../../contracts/account-deletion.ts';
import type { DeletionInfo } from '../../../contracts/account-deletion.schemas.ts';
import { pathOf } from '../../../contracts/endpoint.ts';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { AuthCard, FormError, SignInFirst, SuccessPanel } from './auth-form.tsx';
import { announceSignOut } from '../../lib/session-events.ts';
import { InputField } from '../../components/ui/field.tsx';
import '../../styles/auth.css';
import '../../styles/account-delete.css';
import { Email } from '../../components/ui/email.tsx';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadDeleteAccountBodySchema = () =>
  import('../../../contracts/account-deletion.schemas.ts').then((m) => m.DeleteAccountBodySchema);

/**
 * /account/delete (docs/product.md §2.14): what happens and when, the password, and the danger
 * button. A form posted to its page's action, with JavaScript or without.
 */
export function DeleteAccountForm({
  email,
  info,
  result,
}: {
  /** Null when signed out (the page asks to sign in, unless it has just closed the account). */
  email: string | null;
  info: DeletionInfo | null;
  result?: FormResult | undefined;
}) {
  const check = useFormCheck(loadDeleteAccountBodySchema, result);
  const busy = useNavigation().state === 'submitting';
  const closed = result?.ok ? (result.message ?? '') : null;
  // Signed out everywhere: other tabs show it at once (this one reads its data again after the action).
  useEffect(() => {
    if (closed !== null) announceSignOut();
  }, [closed]);
  if (closed !== null) {
    return (
      <AuthCard eyebrow="Account" title={DELETION_TEXT.closedTitle}>
        <SuccessPanel title="Signed out everywhere">
          <p>{closed}</p>
          <p>We have sent a confirmation to your email address.</p>
          <p>
            <Link to="/">Back to the home page</Link>
          </p>
        </SuccessPanel>
      </AuthCard>
    );
  }
  if (!email || !info) return <SignInFirst title={DELETION_TEXT.title} />;
  const days = info.eraseAfterDays === 1 ? '1 day' : `${info.eraseAfterDays} days`;
  return (
    <AuthCard
      eyebrow="Account"
      title={DELETION_TEXT.title}
      lead={
        <>
          Signed in as{' '}
          <strong>
            <Email address={email} />
          </strong>
          .
        </>
      }
    >
      <div className="delete-account__facts">
        <h2 className="delete-account__heading">What happens</h2>
        <ul>
          <li>Your account is closed at once: you are signed out on every device and cannot sign in again.</li>
          <li>Our support team is told, as a Deactivation ticket, and we email you a confirmation.</li>
          <li>
            {info.eraseAfterDays === 0 ? (
              <>Your personal data is erased straight away</>
            ) : (
              <>
                After {days}, on <strong>{info.eraseOn}</strong>, your personal data is erased
              </>
            )}
            : your email address and password, your tickets with their messages and files, your ratings and your mail
            settings. If the team needs a ticket’s messages for the record, they stay, shown as from ‘Deleted user’,
            without your files.
          </li>
          <li>
            Want a copy first? <a href={pathOf(privacyApi.exportData)}>Download my data</a> before you delete.
          </li>
        </ul>
      </div>
      <Form
        method="post"
        className="form"
        noValidate
        onSubmit={check.onSubmit}
        ref={check.formRef}
        aria-label={DELETION_TEXT.title}
      >
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <InputField
          label={DELETION_TEXT.passwordLabel}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          hint="To confirm it is you."
          error={check.errors.password}
        />
        <FormError message={result && !result.ok ? result.message : null} />
        <div className="form__actions">
          <button type="submit" className="button button--danger" disabled={busy}>
            {busy ? 'Deleting…' : DELETION_TEXT.button}
          </button>
          <Link to="/account" className="button button--ghost">
            Keep my account
          </Link>
        </div>
      </Form>
    </AuthCard>
  );
}
