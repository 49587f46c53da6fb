import { Form } from 'react-router';

/**
 * A row of switch buttons that put the choice in the URL (?name=value): linkable, and it works
 * without JavaScript because it is a GET form. `keep` carries the page's other filters (a search,
 * say) as hidden fields. In the app it navigates without a reload and keeps the scroll position;
 * on pages that do not hydrate (FAQ, Legal) it is a plain form, and their inline script puts the
 * reader's scroll position back after the load (lib/static-page.ts).
 */
export function SwitchButtons<T extends string>({
  name,
  label,
  options,
  value,
  keep = {},
}: {
  name: string;
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  keep?: Record<string, string | undefined>;
}) {
  return (
    <Form method="get" className="switch" aria-label={label} role="group" preventScrollReset replace>
      {Object.entries(keep).map(([key, kept]) =>
        kept ? <input key={key} type="hidden" name={key} value={kept} /> : null,
      )}
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
