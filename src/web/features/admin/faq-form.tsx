import { Form, Link, useNavigation } from 'react-router';
import { FAQ_LIMITS } from '../../../contracts/content-admin.ts';
import { FAQ_TYPE_LABELS, FAQ_TYPES, type FaqType } from '../../../contracts/content.ts';
import { InputField, SelectField, TextAreaField } from '../../components/ui/field.tsx';
import { type FormResult, useFormCheck } from '../../lib/form.ts';

/** The form's schema, loaded when the form is first used (useFormCheck). */
const loadFaqInputSchema = () => import('../../../contracts/content-admin.schemas.ts').then((m) => m.FaqInputSchema);

/**
 * One FAQ entry's fields (Type, Title, Content) and Save: a form posted to the page's action. The
 * same schema checks it in the browser before it is sent and in the action; `result` is the action's
 * answer when it was this form's (the typed text stays in the form until it is saved).
 */
export function FaqForm({
  label,
  formId,
  initial,
  result,
  cancelTo,
}: {
  label: string;
  /** Which form the action's answer belongs to: 'add', or the edited entry's id. */
  formId: string;
  initial: { id?: number; type: FaqType; title: string; content: string };
  result: FormResult | undefined;
  /** Where Cancel leads (an edit only). */
  cancelTo?: string;
}) {
  const mine = result?.form === formId ? result : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(loadFaqInputSchema, mine);
  const saving = useNavigation().formData?.get('form') === formId;
  const value = (name: 'type' | 'title' | 'content') => mine?.values[name] ?? initial[name];

  return (
    <Form method="post" ref={formRef} className="form admin-faq-form" aria-label={label} noValidate onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={initial.id === undefined ? 'create' : 'update'} />
      <input type="hidden" name="form" value={formId} />
      {/* The list the form was opened from: where the admin lands again after saving. */}
      <input type="hidden" name="page" value={initial.type} />
      {initial.id === undefined ? null : <input type="hidden" name="id" value={initial.id} />}
      <SelectField label="Type" name="type" defaultValue={value('type')} error={errors.type}>
        {FAQ_TYPES.map((type) => (
          <option key={type} value={type}>
            {FAQ_TYPE_LABELS[type].button}
          </option>
        ))}
      </SelectField>
      <InputField
        label="Title"
        name="title"
        defaultValue={value('title')}
        maxLength={FAQ_LIMITS.titleMax}
        required
        error={errors.title}
      />
      <TextAreaField
        label="Content"
        name="content"
        defaultValue={value('content')}
        maxLength={FAQ_LIMITS.contentMax}
        required
        rows={4}
        className="textarea--grow"
        error={errors.content}
      />
      {errors._ || mine?.message ? (
        <p className="field__error" role="alert">
          {errors._ ?? mine?.message}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        {cancelTo ? (
          <Link to={cancelTo} className="button button--ghost" preventScrollReset>
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
