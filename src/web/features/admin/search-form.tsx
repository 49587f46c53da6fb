import { useEffect, useId, useRef } from 'react';
import { Form } from 'react-router';

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
  // The box follows the address (back, forward, a filter link), except over words typed since the
  // last search: a search typed while the previous one loads is never replaced by it.
  const input = useRef<HTMLInputElement>(null);
  const shown = useRef(value);
  useEffect(() => {
    if (input.current && input.current.value === shown.current) input.current.value = value;
    shown.current = value;
  }, [value]);
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
        data-shortcut="/"
        data-shortcut-label={label}
        name="q"
        ref={input}
        defaultValue={value}
        placeholder={placeholder}
      />
      <button type="submit" className="button button--ghost">
        Search
      </button>
    </Form>
  );
}
