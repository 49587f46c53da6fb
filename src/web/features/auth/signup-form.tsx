import { Form, Link, useNavigation } from 'react-router';
import { ACCOUNT_MESSAGES } from '../../../contracts/account.ts';
import { PASSWORD_MIN_LENGTH } from '../../../contracts/auth.ts';
import { InputField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { AuthCard, ConfirmPasswordInput, EmailInput, FormActions, FormError, SuccessPanel } from './auth-form.tsx';
import '../../styles/auth.css';
import { Email } from '../../components/ui/email.tsx';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadSignupFormSchema = () => import('../../../contracts/auth.schemas.ts').then((m) => m.SignupFormSchema);

/** /signup: a form posted to the page's action (routes/signup.tsx); `result` is its answer. */
export function SignupForm({ result }: { result?: FormResult | undefined }) {
  const { errors, onSubmit, formRef } = useFormCheck(loadSignupFormSchema, result);
  const busy = useNavigation().state === 'submitting';

  return (
    <AuthCard
      eyebrow="Create an account"
      title="Join and get support"
      lead="One account lets you contact our support team. We will email you a link to confirm your address."
    >
      {result?.ok ? (
        <SuccessPanel title="Check your inbox">
          <p>{result.message}</p>
          <p>
            We sent it to{' '}
            <strong>
              <Email address={result.values.email ?? ''} />
            </strong>
            . Once confirmed, <Link to="/support">sign in to support</Link>.
          </p>
        </SuccessPanel>
      ) : (
        <Form
          ref={formRef}
          className="form"
          method="post"
          noValidate
          onSubmit={onSubmit}
          aria-label="Create an account"
        >
          <InputField
            label={ACCOUNT_MESSAGES.nameLabel}
            name="name"
            type="text"
            autoComplete="name"
            hint={ACCOUNT_MESSAGES.nameHint}
            defaultValue={result?.values.name}
            error={errors.name}
          />
          <EmailInput defaultValue={result?.values.email} error={errors.email} />
          <InputField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a strong, memorable password.`}
            error={errors.password}
          />
          <ConfirmPasswordInput label="Confirm password" error={errors.confirmPassword} />
          <FormError message={result?.message ?? null} />
          <FormActions busy={busy} label="Create account" busyLabel="Creating account…" />
        </Form>
      )}
      <p className="auth-card__footer">
        Already have an account? <Link to="/support">Sign in</Link>
      </p>
    </AuthCard>
  );
}
