import { Form, useNavigation } from 'react-router';
import { InputField } from '../../components/ui/field.tsx';
import { Email } from '../../components/ui/email.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadChangeEmailRequestSchema = () =>
  import('../../../contracts/account.schemas.ts').then((m) => m.ChangeEmailRequestSchema);

/**
 * Changing the email address: the new address and the current password, posted to /account
 * (works without JavaScript). The change waits for the link mailed to the new address.
 */
export function ChangeEmailForm({
  email,
  pendingEmail,
  result,
}: {
  email: string;
  pendingEmail: string | null;
  /** The action's answer, when it was this form's. */
  result: FormResult | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'change-email';
  const { errors, onSubmit, formRef } = useFormCheck(loadChangeEmailRequestSchema, result);

  return (
    <section className="account-section" aria-labelledby="account-email-title" id="email">
      <h2 id="account-email-title" className="account-section__title">
        Change your email address
      </h2>
      <p className="account-section__lead">
        We mail a link to the new address; the change happens when you follow it. Until then you sign in with{' '}
        <strong>
          <Email address={email} />
        </strong>
        , and we tell that address about the change too.
      </p>
      {pendingEmail ? (
        <div className="alert alert--info" role="status">
          <p>
            Waiting for confirmation from{' '}
            <strong>
              <Email address={pendingEmail} />
            </strong>
            : follow the link in the mail we sent there.
          </p>
        </div>
      ) : null}
      {/* A new pending address (a success) starts the form afresh. */}
      <Form
        key={pendingEmail ?? ''}
        ref={formRef}
        method="post"
        action="/account"
        className="form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Change your email address"
      >
        <input type="hidden" name="intent" value="change-email" />
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <InputField
          label="New email address"
          name="newEmail"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          defaultValue={result?.values.newEmail}
          error={errors.newEmail}
        />
        <InputField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={errors.currentPassword}
        />
        {result?.message ? (
          <div className="alert alert--error" role="alert">
            <p>{result.message}</p>
          </div>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send confirmation link'}
          </button>
        </div>
      </Form>
    </section>
  );
}
