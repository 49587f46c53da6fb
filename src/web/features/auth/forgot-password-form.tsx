import { useState } from 'react';
import { Link } from 'react-router';
import { EmailRequestSchema } from '../../../contracts/auth.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { AuthCard, EmailInput, FormActions, FormError, SuccessPanel, useAuthForm } from './auth-form.tsx';
import '../../styles/auth.css';

export function ForgotPasswordForm({ result }: { result?: ApiFormResult }) {
  const [sent, setSent] = useState<string | null>(result?.ok ? result.message : null);
  const form = useAuthForm({
    schema: EmailRequestSchema,
    url: '/api/auth/forgot-password',
    body: (values) => values,
    onSuccess: (data: { message: string }) => setSent(data.message),
    initial: result,
  });
  return (
    <AuthCard
      eyebrow="Account"
      title="Forgot your password?"
      lead="Enter the email address of your account and we will send you a link to choose a new password."
    >
      {sent ? (
        <SuccessPanel title="Check your inbox">
          <p>{sent}</p>
        </SuccessPanel>
      ) : (
        <form className="form" method="post" noValidate onSubmit={form.onSubmit} aria-label="Reset your password">
          <EmailInput defaultValue={result?.values.email} error={form.fields.email} />
          <FormError message={form.error} />
          <FormActions busy={form.busy} label="Send reset link" busyLabel="Sending…" />
        </form>
      )}
      <p className="auth-card__footer">
        Remembered it? <Link to="/support">Sign in</Link>
      </p>
    </AuthCard>
  );
}
