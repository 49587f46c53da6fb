import { useState } from 'react';
import { Link } from 'react-router';
import { ChangePasswordFormSchema, PASSWORD_MIN_LENGTH } from '../../../contracts/auth.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { AuthCard, ConfirmPasswordInput, FormActions, FormError, SuccessPanel, useAuthForm } from './auth-form.tsx';
import { InputField } from '../../components/ui/field.tsx';
import '../../styles/auth.css';

export function ChangePasswordForm({ email, result }: { email: string; result?: ApiFormResult }) {
  const [done, setDone] = useState<string | null>(result?.ok ? result.message : null);
  const form = useAuthForm({
    schema: ChangePasswordFormSchema,
    url: '/api/auth/change-password',
    body: ({ currentPassword, newPassword }) => ({ currentPassword, newPassword }),
    onSuccess: (data: { message: string }) => setDone(data.message),
    initial: result,
  });
  return (
    <AuthCard
      eyebrow="Account"
      title="Change your password"
      lead={
        <>
          Signed in as <strong>{email}</strong>.
        </>
      }
    >
      {done ? (
        <SuccessPanel title="Password changed">
          <p>{done}</p>
          <p>
            <Link to="/support">Back to support</Link>
          </p>
        </SuccessPanel>
      ) : (
        <form className="form" method="post" noValidate onSubmit={form.onSubmit} aria-label="Change your password">
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <InputField
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={form.fields.currentPassword}
          />
          <InputField
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters. Other devices will be signed out.`}
            error={form.fields.newPassword}
          />
          <ConfirmPasswordInput label="Confirm new password" error={form.fields.confirmPassword} />
          <FormError message={form.error} />
          <FormActions busy={form.busy} label="Change password" busyLabel="Saving…" />
        </form>
      )}
    </AuthCard>
  );
}
