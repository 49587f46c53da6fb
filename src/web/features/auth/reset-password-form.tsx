import { Link, useFetcher } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../contracts/auth.ts';
import { InputField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';
import { AuthCard, ConfirmPasswordInput, FormActions, FormError, SuccessPanel } from './auth-form.tsx';
import { useOneTimeToken } from './one-time-token.ts';
import '../../styles/auth.css';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadResetPasswordFormSchema = () =>
  import('../../../contracts/auth.schemas.ts').then((m) => m.ResetPasswordFormSchema);

/**
 * /reset-password?token=…: the new password, posted to the page's action with the link's token.
 * With JavaScript a fetcher sends it, so the token, once out of the address bar, stays out of it;
 * without, the page posts to its own address. `result` is the answer the page was rendered with.
 */
export function ResetPasswordForm({ result: served }: { result?: FormResult | undefined }) {
  const token = useOneTimeToken();
  const fetcher = useFetcher<FormResult>();
  const result = fetcher.data ?? served;
  const { errors, onSubmit, formRef } = useFormCheck(loadResetPasswordFormSchema, result);
  const refusal = result && !result.ok ? (result.message ?? result.fields.token ?? null) : null;
  return (
    <AuthCard
      eyebrow="Account"
      title="Choose a new password"
      lead="Choosing a new password signs you out on every device."
    >
      {result?.ok ? (
        <SuccessPanel title="Password changed">
          <p>{result.message}</p>
          <p>
            <Link to="/support">Sign in to support</Link>
          </p>
        </SuccessPanel>
      ) : (
        <fetcher.Form
          ref={formRef}
          className="form"
          method="post"
          noValidate
          onSubmit={onSubmit}
          aria-label="Choose a new password"
        >
          <input type="hidden" name="token" value={token} />
          <InputField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            error={errors.password}
          />
          <ConfirmPasswordInput label="Confirm new password" error={errors.confirmPassword} />
          <FormError message={refusal} />
          {refusal ? (
            <p>
              <Link to="/forgot-password">Ask for a new reset link</Link>
            </p>
          ) : null}
          <FormActions busy={fetcher.state !== 'idle'} label="Set new password" busyLabel="Saving…" />
        </fetcher.Form>
      )}
    </AuthCard>
  );
}
