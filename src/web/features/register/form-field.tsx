import type { InputHTMLAttributes, ReactNode } from 'react';
import { fieldId } from './form-rules.ts';

interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'required'> {
  name: string;
  label: ReactNode;
  required?: boolean;
  hint?: string;
  error?: string | undefined;
}

/**
 * A labelled input with its hint and, under it, its error. The input points at both with
 * aria-describedby and says aria-invalid while the error shows.
 */
export function FormField({ name, label, required = false, hint, error, className, ...input }: FormFieldProps) {
  const id = fieldId(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : undefined, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        ) : (
          <>
            {' '}
            <span className="field__optional">(optional)</span>
          </>
        )}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        {...input}
        id={id}
        name={name}
        className={className ?? 'input'}
        aria-required={required || undefined}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy}
      />
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
