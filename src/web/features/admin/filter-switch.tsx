import { useId } from 'react';
import { Form } from 'react-router';

/**
 * Switch buttons that put a filter in the URL (?name=value) and keep the page's other filters
 * (a search, say) as hidden fields. A plain GET form: linkable, and it works without JavaScript.
 */
export function FilterSwitch<T extends string>({
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

/** A search box in the URL (?q=), keeping the page's other filters. */
export function SearchForm({
  label,
  value,
  placeholder,
  keep = {},
}: {
  label: string;
  value: string;
  placeholder?: string;
  keep?: Record<string, string | undefined>;
}) {
  const id = useId();
  return (
    <Form method="get" role="search" className="admin-search" aria-label={label} replace>
      {Object.entries(keep).map(([key, kept]) =>
        kept ? <input key={key} type="hidden" name={key} value={kept} /> : null,
      )}
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input admin-search__input"
        type="search"
        name="q"
        defaultValue={value}
        placeholder={placeholder}
        key={value}
      />
      <button type="submit" className="button button--ghost">
        Search
      </button>
    </Form>
  );
}
