/**
 * A row of switch buttons that put the choice in the URL (?name=value): linkable, and it works
 * without JavaScript because it is a plain GET form. The pages that use it do not hydrate: their
 * inline script puts the reader's scroll position back after the switch (lib/static-page.ts).
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
    <form method="get" className="switch" aria-label={label} role="group">
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
    </form>
  );
}
