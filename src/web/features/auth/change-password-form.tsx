import { Form, Link, useNavigation } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../contracts/auth.ts';
import { InputField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { AuthCard, ConfirmPasswordInput, FormActions, FormError, SuccessPanel } from './auth-form.tsx';
import '../../styles/auth.css';
import { Email } from '../../components/ui/email.tsx';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadChangePasswordFormSchema = () =>
  import('../../../contracts/auth.schemas.ts').then((m) => m.ChangePasswordFormSchema);

/** /account/password: a form posted to the page's action (routes/account-password.tsx); `result` is its answer. */
export function ChangePasswordForm({ email, result }: { email: string; result?: FormResult | undefined }) {
  const { errors, onSubmit, formRef } = useFormCheck(loadChangePasswordFormSchema, result);
  const busy = useNavigation().state === 'submitting';
  return (
    <AuthCard
      eyebrow="Account"
      title="Change your password"
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
      {result?.ok ? (
        <SuccessPanel title="Password changed">
          <p>{result.message}</p>
          <p>
            <Link to="/support">Back to support</Link>
          </p>
        </SuccessPanel>
      ) : (
        <Form
          ref={formRef}
          className="form"
          method="post"
          noValidate
          onSubmit={onSubmit}
          aria-label="Change your password"
        >
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <InputField
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={errors.currentPassword}
          />
          <InputField
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters. Other devices will be signed out.`}
            error={errors.newPassword}
          />
          <ConfirmPasswordInput label="Confirm new password" error={errors.confirmPassword} />
          <FormError message={result?.message ?? null} />
          <FormActions busy={busy} label="Change password" busyLabel="Saving…" />
        </Form>
      )}
    </AuthCard>
  );
}
