import { type ComponentProps, type ReactNode, useId } from 'react';

/**
 * The one labelled field of the site: a label, the control, a hint and an error, wired for screen
 * readers (the control is described by its error, then its hint, and says aria-invalid). Three
 * controls share the frame: InputField, TextAreaField, SelectField.
 *
 * Options a form may need: `id` for a stable id (the register page's script finds its fields by
 * id), `hintFirst` to show the hint between the label and the control, and `mark` to say in the
 * label whether the field is required (a star) or optional.
 */
interface FrameOptions {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  id?: string;
  hintFirst?: boolean;
  mark?: 'required' | 'optional';
}

function useFieldIds(options: FrameOptions) {
  const generated = useId();
  const id = options.id ?? generated;
  const describedBy =
    [options.error ? `${id}-error` : null, options.hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return {
    id,
    control: {
      id,
      'aria-invalid': Boolean(options.error),
      'aria-describedby': describedBy,
      ...(options.mark === 'required' ? { 'aria-required': true } : {}),
    },
  };
}

function FieldFrame({
  id,
  label,
  hint,
  error,
  hintFirst,
  mark,
  children,
}: FrameOptions & { id: string; children: ReactNode }) {
  const hintLine = hint ? (
    <p className="field__hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {mark === 'required' ? (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        ) : mark === 'optional' ? (
          <>
            {' '}
            <span className="field__optional">(optional)</span>
          </>
        ) : null}
      </label>
      {hintFirst ? hintLine : null}
      {children}
      {hintFirst ? null : hintLine}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Props<E extends 'input' | 'textarea' | 'select'> = FrameOptions & Omit<ComponentProps<E>, 'id'>;

export function InputField({ label, hint, error, id, hintFirst, mark, className, ...input }: Props<'input'>) {
  const frame = { label, hint, error, id, hintFirst, mark };
  const ids = useFieldIds(frame);
  return (
    <FieldFrame {...frame} id={ids.id}>
      <input className={className ?? 'input'} {...ids.control} {...input} />
    </FieldFrame>
  );
}

export function TextAreaField({ label, hint, error, id, hintFirst, mark, className, ...input }: Props<'textarea'>) {
  const frame = { label, hint, error, id, hintFirst, mark };
  const ids = useFieldIds(frame);
  return (
    <FieldFrame {...frame} id={ids.id}>
      <textarea className={`textarea ${className ?? ''}`.trim()} {...ids.control} {...input} />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  hint,
  error,
  id,
  hintFirst,
  mark,
  className,
  children,
  ...input
}: Props<'select'>) {
  const frame = { label, hint, error, id, hintFirst, mark };
  const ids = useFieldIds(frame);
  return (
    <FieldFrame {...frame} id={ids.id}>
      <select className={className ?? 'select'} {...ids.control} {...input}>
        {children}
      </select>
    </FieldFrame>
  );
}
