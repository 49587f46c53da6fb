import { Form, useNavigation } from 'react-router';
import { ACCOUNT_MESSAGES } from '../../../contracts/account.ts';
import { InputField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadSetAccountNameRequestSchema = () =>
  import('../../../contracts/account.schemas.ts').then((m) => m.SetAccountNameRequestSchema);

/**
 * The name mail greets the person by, posted to /account (works without JavaScript). Optional:
 * saving it empty removes it.
 */
export function NameForm({ name, result }: { name: string | null; result: FormResult | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'set-name';
  const { errors, onSubmit, formRef } = useFormCheck(loadSetAccountNameRequestSchema, result);

  return (
    <Form
      key={name ?? ''}
      ref={formRef}
      method="post"
      action="/account"
      className="form"
      noValidate
      onSubmit={onSubmit}
      aria-label="Your name"
    >
      <input type="hidden" name="intent" value="set-name" />
      <InputField
        label={ACCOUNT_MESSAGES.nameLabel}
        name="name"
        type="text"
        autoComplete="name"
        hint={ACCOUNT_MESSAGES.nameHint}
        defaultValue={result?.values.name ?? name ?? ''}
        error={errors.name}
      />
      {result?.message ? (
        <div className="alert alert--error" role="alert">
          <p>{result.message}</p>
        </div>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save name'}
        </button>
      </div>
    </Form>
  );
}
