import { useState } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH, SignupFormSchema } from '../../../contracts/auth.ts';
import type { ApiFormResult } from './api-form-action.ts';
import {
  AuthCard,
  ConfirmPasswordInput,
  EmailInput,
  FormActions,
  FormError,
  SuccessPanel,
  useAuthForm,
} from './auth-form.tsx';
import { InputField } from '../../components/ui/field.tsx';
import '../../styles/auth.css';

export function SignupForm({ result }: { result?: ApiFormResult }) {
  const [sent, setSent] = useState<{ email: string; message: string } | null>(
    result?.ok ? { email: result.values.email ?? '', message: result.message ?? '' } : null,
  );
  const form = useAuthForm({
    schema: SignupFormSchema,
    url: '/api/auth/signup',
    body: ({ email, password }) => ({ email, password }),
    onSuccess: (data: { message: string }, values) => setSent({ email: values.email, message: data.message }),
    initial: result,
  });

  return (
    <AuthCard
      eyebrow="Create an account"
      title="Join and get support"
      lead="One account lets you contact our support team. We will email you a link to confirm your address."
    >
      {sent ? (
        <SuccessPanel title="Check your inbox">
          <p>{sent.message}</p>
          <p>
            We sent it to <strong>{sent.email}</strong>. Once confirmed, <Link to="/support">sign in to support</Link>.
          </p>
        </SuccessPanel>
      ) : (
        <form className="form" method="post" noValidate onSubmit={form.onSubmit} aria-label="Create an account">
          <EmailInput defaultValue={result?.values.email} error={form.fields.email} />
          <InputField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a strong, memorable password.`}
            error={form.fields.password}
          />
          <ConfirmPasswordInput label="Confirm password" error={form.fields.confirmPassword} />
          <FormError message={form.error} />
          <FormActions busy={form.busy} label="Create account" busyLabel="Creating account…" />
        </form>
      )}
      <p className="auth-card__footer">
        Already have an account? <Link to="/support">Sign in</Link>
      </p>
    </AuthCard>
  );
}
