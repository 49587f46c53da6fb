import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { InputField } from '../../components/ui/field.tsx';

/**
 * The pieces of the account pages (docs/product.md §2.8). Their forms post to the page's action
 * and show its answer (lib/form.ts): the fields' messages under the fields, a sentence above the button.
 */
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
