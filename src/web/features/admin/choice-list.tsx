/**
 * A list of checkboxes with a legend, one choice per line, each its code and what it means (an API
 * key's scopes, a webhook's events): all sent under one name, read with `formData.getAll(name)`.
 */
export function ChoiceList<V extends string>({
  legend,
  name,
  options,
  checked,
  error,
}: {
  legend: string;
  name: string;
  options: ReadonlyArray<{ value: V; text: string }>;
  checked: (value: V) => boolean;
  error?: string | undefined;
}) {
  const errorId = `${name}-error`;
  return (
    <fieldset className="integration-choices" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="integration-choice">
          <input type="checkbox" name={name} value={option.value} defaultChecked={checked(option.value)} />{' '}
          <code>{option.value}</code>: {option.text}
        </label>
      ))}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
