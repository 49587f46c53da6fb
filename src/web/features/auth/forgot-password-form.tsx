import { Form, Link, useNavigation } from 'react-router';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { AuthCard, EmailInput, FormActions, FormError, SuccessPanel } from './auth-form.tsx';
import '../../styles/auth.css';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadEmailRequestSchema = () => import('../../../contracts/auth.schemas.ts').then((m) => m.EmailRequestSchema);

/** /forgot-password: a form posted to the page's action (routes/forgot-password.tsx); `result` is its answer. */
export function ForgotPasswordForm({ result }: { result?: FormResult | undefined }) {
  const { errors, onSubmit, formRef } = useFormCheck(loadEmailRequestSchema, result);
  const busy = useNavigation().state === 'submitting';
  return (
    <AuthCard
      eyebrow="Account"
      title="Forgot your password?"
      lead="Enter the email address of your account and we will send you a link to choose a new password."
    >
      {result?.ok ? (
        <SuccessPanel title="Check your inbox">
          <p>{result.message}</p>
        </SuccessPanel>
      ) : (
        <Form
          ref={formRef}
          className="form"
          method="post"
          noValidate
          onSubmit={onSubmit}
          aria-label="Reset your password"
        >
          <EmailInput defaultValue={result?.values.email} error={errors.email} />
          <FormError message={result?.message ?? null} />
          <FormActions busy={busy} label="Send reset link" busyLabel="Sending…" />
        </Form>
      )}
      <p className="auth-card__footer">
        Remembered it? <Link to="/support">Sign in</Link>
      </p>
    </AuthCard>
  );
}
