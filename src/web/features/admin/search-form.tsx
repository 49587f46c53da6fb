import { useId } from 'react';
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
