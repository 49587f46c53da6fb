import { useState } from 'react';
import { Link } from 'react-router';
import { EmailRequestSchema } from '../../../contracts/auth.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { AuthCard, FormError, SuccessPanel, useAuthForm } from './auth-form.tsx';
import { TextField } from './text-field.tsx';
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
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            defaultValue={result?.values.email}
            error={form.fields.email}
          />
          <FormError message={form.error} />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={form.busy}>
              {form.busy ? 'Sending…' : 'Send reset link'}
            </button>
          </div>
        </form>
      )}
      <p className="auth-card__footer">
        Remembered it? <Link to="/support">Sign in</Link>
      </p>
    </AuthCard>
  );
}
