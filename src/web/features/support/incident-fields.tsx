import { CLAIM_KINDS, CLAIM_CUSTOMER_TEXT } from '../../../contracts/claims-customer.ts';

/** The incident's fields of the Contact us form, by their form names. */
export const INCIDENT_FIELDS = ['claimKind', 'deliveryReference', 'itemValue', 'deliveredOn'] as const;
export type IncidentField = (typeof INCIDENT_FIELDS)[number];
export type IncidentValues = Record<IncidentField, string>;

/**
 * What an Incident Report asks (docs/decisions/152-incident-claims.md): what happened, the delivery,
 * the item's value and when it was delivered. Without JavaScript the fieldset is always on the form
 * (its lead says it is for an Incident Report); with it, it shows once Incident Report is chosen.
 */
export function IncidentFields({
  id,
  values,
  onChange,
  errorOf,
  onLeave,
  shown,
}: {
  /** The fields' ids start with it (`${id}-claimKind`…), so the page can read what was typed before hydration. */
  id: string;
  values: IncidentValues;
  onChange: (name: IncidentField, value: string) => void;
  errorOf: (name: IncidentField) => string | undefined;
  onLeave: (name: IncidentField) => void;
  shown: boolean;
}) {
  const describedBy = (name: IncidentField, hint: boolean) =>
    [hint ? `${id}-${name}-hint` : '', errorOf(name) ? `${id}-${name}-error` : ''].filter(Boolean).join(' ') ||
    undefined;
  const error = (name: IncidentField) =>
    errorOf(name) ? (
      <p id={`${id}-${name}-error`} className="field__error">
        {errorOf(name)}
      </p>
    ) : null;
  const common = (name: IncidentField, hint: boolean) => ({
    id: `${id}-${name}`,
    name,
    value: values[name],
    'aria-invalid': Boolean(errorOf(name)),
    'aria-describedby': describedBy(name, hint),
    onBlur: () => onLeave(name),
  });
  return (
    <fieldset className="incident-fields" hidden={!shown}>
      <legend className="field__label">{CLAIM_CUSTOMER_TEXT.legend}</legend>
      <p className="field__hint">{CLAIM_CUSTOMER_TEXT.lead}</p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-claimKind`}>
          {CLAIM_CUSTOMER_TEXT.kind}
        </label>
        <select
          className="select"
          {...common('claimKind', false)}
          onChange={(event) => onChange('claimKind', event.target.value)}
        >
          <option value="">{CLAIM_CUSTOMER_TEXT.chooseKind}</option>
          {CLAIM_KINDS.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </select>
        {error('claimKind')}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-deliveryReference`}>
          {CLAIM_CUSTOMER_TEXT.delivery}
        </label>
        <input
          className="input"
          autoComplete="off"
          spellCheck={false}
          {...common('deliveryReference', true)}
          onChange={(event) => onChange('deliveryReference', event.target.value)}
        />
        <p id={`${id}-deliveryReference-hint`} className="field__hint">
          {CLAIM_CUSTOMER_TEXT.deliveryHint}
        </p>
        {error('deliveryReference')}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-itemValue`}>
          {CLAIM_CUSTOMER_TEXT.value}
        </label>
        <input
          className="input"
          inputMode="decimal"
          autoComplete="off"
          {...common('itemValue', true)}
          onChange={(event) => onChange('itemValue', event.target.value)}
        />
        <p id={`${id}-itemValue-hint`} className="field__hint">
          {CLAIM_CUSTOMER_TEXT.valueHint}
        </p>
        {error('itemValue')}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-deliveredOn`}>
          {CLAIM_CUSTOMER_TEXT.deliveredOn}
        </label>
        <input
          className="input"
          type="date"
          {...common('deliveredOn', true)}
          onChange={(event) => onChange('deliveredOn', event.target.value)}
        />
        <p id={`${id}-deliveredOn-hint`} className="field__hint">
          {CLAIM_CUSTOMER_TEXT.deliveredOnHint}
        </p>
        {error('deliveredOn')}
      </div>
    </fieldset>
  );
}
