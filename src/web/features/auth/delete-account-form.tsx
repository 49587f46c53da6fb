import { useState } from 'react';
import { Link } from 'react-router';
import {
  DELETION_TEXT,
  type DeleteAccountResult,
  DeleteAccountBodySchema,
  type DeletionInfo,
} from '../../../contracts/account-deletion.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { AuthCard, FormError, SignInFirst, SuccessPanel, useAuthForm } from './auth-form.tsx';
import { announceSignOut, reportSessionLost } from '../../lib/session-events.ts';
import { InputField } from '../../components/ui/field.tsx';
import '../../styles/auth.css';
import '../../styles/account-delete.css';

/**
 * /account/delete (docs/product.md §2.14): what happens and when, the password, and the danger
 * button. A plain form posted to its page without JavaScript; in the app, the same API call.
 */
export function DeleteAccountForm({
  email,
  info,
  result,
}: {
  /** Null when signed out (the page asks to sign in, unless it has just closed the account). */
  email: string | null;
  info: DeletionInfo | null;
  result?: ApiFormResult;
}) {
  const [done, setDone] = useState<string | null>(result?.ok ? result.message : null);
  const form = useAuthForm({
    schema: DeleteAccountBodySchema,
    url: '/api/account/delete',
    body: ({ password }) => ({ password }),
    onSuccess: (answer: DeleteAccountResult) => {
      setDone(answer.message);
      // Signed out everywhere: other tabs and this page's header show it at once.
      announceSignOut();
      reportSessionLost();
    },
    initial: result,
  });
  if (done) {
    return (
      <AuthCard eyebrow="Account" title={DELETION_TEXT.closedTitle}>
        <SuccessPanel title="Signed out everywhere">
          <p>{done}</p>
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
          Signed in as <strong>{email}</strong>.
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
            Want a copy first? <a href="/api/account/export">Download my data</a> before you delete.
          </li>
        </ul>
      </div>
      <form className="form" method="post" noValidate onSubmit={form.onSubmit} aria-label={DELETION_TEXT.title}>
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <InputField
          label={DELETION_TEXT.passwordLabel}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          hint="To confirm it is you."
          error={form.fields.password}
        />
        <FormError message={form.error} />
        <div className="form__actions">
          <button type="submit" className="button button--danger" disabled={form.busy}>
            {form.busy ? 'Deleting…' : DELETION_TEXT.button}
          </button>
          <Link to="/account" className="button button--ghost">
            Keep my account
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}
