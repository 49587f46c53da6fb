import { Form } from 'react-router';

/**
 * A row of switch buttons that put the choice in the URL (?name=value): linkable, and it works
 * without JavaScript because it is a plain GET form.
 */
export function SwitchButtons<T extends string>({
  name,
  label,
  options,
  value,
}: {
  name: string;
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
}) {
  return (
    <Form method="get" className="switch" aria-label={label} role="group" preventScrollReset replace>
      {options.map((option) => (
        <button
          key={option.value}
          type="submit"
          name={name}
          value={option.value}
          className="switch__button"
          aria-pressed={option.value === value}
        >
          {option.label}
        </button>
      ))}
    </Form>
  );
}
