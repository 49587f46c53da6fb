import { useState } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH, ResetPasswordFormSchema } from '../../../contracts/auth.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { AuthCard, ConfirmPasswordInput, FormActions, FormError, SuccessPanel, useAuthForm } from './auth-form.tsx';
import { useOneTimeToken } from './one-time-token.ts';
import { InputField } from '../../components/ui/field.tsx';
import '../../styles/auth.css';

export function ResetPasswordForm({ result }: { result?: ApiFormResult }) {
  const token = useOneTimeToken();
  const [done, setDone] = useState<string | null>(result?.ok ? result.message : null);
  const form = useAuthForm({
    schema: ResetPasswordFormSchema,
    url: '/api/auth/reset-password',
    body: ({ password }) => ({ token, password }),
    onSuccess: (data: { message: string }) => setDone(data.message),
    initial: result,
  });
  return (
    <AuthCard
      eyebrow="Account"
      title="Choose a new password"
      lead="Choosing a new password signs you out on every device."
    >
      {done ? (
        <SuccessPanel title="Password changed">
          <p>{done}</p>
          <p>
            <Link to="/support">Sign in to support</Link>
          </p>
        </SuccessPanel>
      ) : (
        <form className="form" method="post" noValidate onSubmit={form.onSubmit} aria-label="Choose a new password">
          <InputField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            error={form.fields.password}
          />
          <ConfirmPasswordInput label="Confirm new password" error={form.fields.confirmPassword} />
          <FormError message={form.error ?? form.fields.token ?? null} />
          {form.error || form.fields.token ? (
            <p>
              <Link to="/forgot-password">Ask for a new reset link</Link>
            </p>
          ) : null}
          <FormActions busy={form.busy} label="Set new password" busyLabel="Saving…" />
        </form>
      )}
    </AuthCard>
  );
}
