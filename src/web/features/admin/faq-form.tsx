import { type FormEvent, useState } from 'react';
import { FAQ_LIMITS, type FaqInput, FaqInputSchema } from '../../../contracts/content-admin.ts';
import { FAQ_TYPE_LABELS, FAQ_TYPES, type FaqType } from '../../../contracts/content.ts';
import { InputField, SelectField, TextAreaField } from '../../components/ui/field.tsx';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

/**
 * One FAQ entry's fields (Type, Title, Content) and Save. Checked with the same schema as the
 * server before anything is sent; `onSave` says whether it was saved, with the server's field
 * errors if it was not (the typed text stays in the form either way until it is saved).
 */
export function FaqForm({
  label,
  initial,
  onSave,
  onCancel,
}: {
  label: string;
  initial: { type: FaqType; title: string; content: string };
  onSave(input: FaqInput): Promise<{ saved: boolean; fields?: Record<string, string> }>;
  onCancel?(): void;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = FaqInputSchema.safeParse({
      type: data.get('type'),
      title: data.get('title'),
      content: data.get('content'),
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    setSaving(true);
    const outcome = await onSave(parsed.data);
    setSaving(false);
    if (outcome.fields) {
      setErrors(outcome.fields);
      focusFirstInvalid(form);
    }
    if (outcome.saved && !onCancel) form.reset();
  }

  return (
    <form className="form admin-faq-form" aria-label={label} noValidate onSubmit={(e) => void submit(e)}>
      <SelectField label="Type" name="type" defaultValue={initial.type} error={errors.type}>
        {FAQ_TYPES.map((type) => (
          <option key={type} value={type}>
            {FAQ_TYPE_LABELS[type].button}
          </option>
        ))}
      </SelectField>
      <InputField
        label="Title"
        name="title"
        defaultValue={initial.title}
        maxLength={FAQ_LIMITS.titleMax}
        required
        error={errors.title}
      />
      <TextAreaField
        label="Content"
        name="content"
        defaultValue={initial.content}
        maxLength={FAQ_LIMITS.contentMax}
        required
        rows={4}
        className="textarea--grow"
        error={errors.content}
      />
      {errors._ ? (
        <p className="field__error" role="alert">
          {errors._}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        {onCancel ? (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
