import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { InputField } from '../../components/ui/field.tsx';
import { type z } from 'zod';
import { fieldErrors } from '../../../contracts/auth.ts';
import type { ApiFormResult } from './api-form-action.ts';
import { type ApiResult, postJson } from '../../lib/api-client.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

/**
 * What every account form does: check the fields with the shared schema, post them, and show the
 * server's field messages under the fields or its message above the button.
 */
export function useAuthForm<S extends z.ZodType, R>(options: {
  schema: S;
  url: string;
  /** The API body made from the checked form values (e.g. without the confirmation). */
  body(values: z.output<S>): unknown;
  onSuccess(data: R, values: z.output<S>): void;
  /** The answer of the page's action, when the form was sent without JavaScript (api-form-action.ts). */
  initial?: ApiFormResult;
}) {
  const [fields, setFields] = useState<Record<string, string>>(
    options.initial && !options.initial.ok ? options.initial.fields : {},
  );
  const [error, setError] = useState<string | null>(
    options.initial && !options.initial.ok ? options.initial.message : null,
  );
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries(new FormData(form).entries());
    const parsed = options.schema.safeParse(values);
    if (!parsed.success) {
      setFields(fieldErrors(parsed.error));
      setError(null);
      focusFirstInvalid(form);
      return;
    }
    setFields({});
    setError(null);
    setBusy(true);
    const result: ApiResult<R> = await postJson<R>(options.url, options.body(parsed.data));
    setBusy(false);
    if (result.ok) {
      options.onSuccess(result.data, parsed.data);
    } else if (Object.keys(result.fields).length > 0) {
      setFields(result.fields);
      focusFirstInvalid(form);
    } else {
      setError(result.message);
    }
  }

  return { fields, error, busy, onSubmit };
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      <p>{message}</p>
    </div>
  );
}

/** The frame of the account pages: a centred card with a heading. */
export function AuthCard({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow: string;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="auth-page">
      <div className="form-card auth-card">
        <header className="auth-card__header">
          <p className="eyebrow">{eyebrow}</p>
          <h1 className="auth-card__title">{title}</h1>
          {lead ? <p className="auth-card__lead">{lead}</p> : null}
        </header>
        {children}
      </div>
    </div>
  );
}

/** An account page opened while signed out: its title, and the way to sign in. */
export function SignInFirst({ title }: { title: string }) {
  return (
    <AuthCard eyebrow="Account" title={title} lead="Please sign in first.">
      <p>
        <Link to="/support" className="button button--primary">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export function SuccessPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="alert alert--success auth-success" role="status">
      <div>
        <p className="auth-success__title">{title}</p>
        {children}
      </div>
    </div>
  );
}

/** The email field of the account forms. */
export function EmailInput({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  return (
    <InputField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      inputMode="email"
      required
      defaultValue={defaultValue}
      error={error}
    />
  );
}

/** The second entry of a new password. */
export function ConfirmPasswordInput({ label, error }: { label: string; error?: string }) {
  return (
    <InputField
      label={label}
      name="confirmPassword"
      type="password"
      autoComplete="new-password"
      required
      error={error}
    />
  );
}

/** A form's submit button, which says what it is doing while the request runs. */
export function FormActions({ busy = false, label, busyLabel }: { busy?: boolean; label: string; busyLabel?: string }) {
  return (
    <div className="form__actions">
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy && busyLabel ? busyLabel : label}
      </button>
    </div>
  );
}
