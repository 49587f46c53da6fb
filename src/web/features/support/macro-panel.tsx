import { Form, Link, useNavigation } from 'react-router';
import { MACRO_ACTION_TEXT } from '../../../contracts/macro-actions.ts';
import { MESSAGE_MAX_LENGTH } from '../../../contracts/support.ts';
import { SelectField, TextAreaField } from '../../components/ui/field.tsx';
import { Notice } from '../../components/ui/notice.tsx';

/** A macro as the ticket page previews it: its reply filled in for this ticket, and what it will do. */
export interface MacroPreview {
  id: string;
  title: string;
  text: string;
  lines: string[];
}

/** What the page's action answered to Apply or Undo when it refused: why, and the reply as typed. */
export interface MacroRefusal {
  message: string;
  messageBody?: string | undefined;
}

/**
 * The ticket page's macros (docs/decisions/145-macro-actions.md): choose one (a GET form: the page
 * comes back with its preview), read and finish its reply, then Apply, which does it all as one
 * change; after it, Undo. Plain forms: the same without JavaScript.
 */
export function MacroPanel({
  macros,
  preview,
  applied,
  refusal,
  page,
  seenVersion,
  clientId,
}: {
  macros: ReadonlyArray<{ id: string; title: string }>;
  preview: MacroPreview | null;
  applied: { undoId: string; title: string } | null;
  refusal: MacroRefusal | null;
  page: string;
  seenVersion: number | undefined;
  clientId: string;
}) {
  const busy = useNavigation().state !== 'idle';
  return (
    <details id="macro-panel" className="macro-panel" open={Boolean(preview || applied || refusal)}>
      <summary>{MACRO_ACTION_TEXT.panel}</summary>
      {applied ? (
        <Form method="post" action={page} className="macro-panel__applied">
          <Notice tone="success">
            {MACRO_ACTION_TEXT.applied(applied.title)} {MACRO_ACTION_TEXT.replyStays}
          </Notice>
          <input type="hidden" name="intent" value="undo-macro" />
          <input type="hidden" name="undoId" value={applied.undoId} />
          <button type="submit" className="button button--ghost" disabled={busy}>
            {MACRO_ACTION_TEXT.undo}
          </button>
        </Form>
      ) : null}
      {refusal && !preview ? <Notice tone="error">{refusal.message}</Notice> : null}
      {macros.length === 0 ? (
        <p className="empty-state">{MACRO_ACTION_TEXT.none}</p>
      ) : (
        <Form method="get" action={`${page}#macro-panel`} className="macro-panel__choose">
          <SelectField
            label={MACRO_ACTION_TEXT.choose}
            name="macro"
            defaultValue={preview?.id ?? macros[0]!.id}
            data-shortcut="m"
            data-shortcut-label={MACRO_ACTION_TEXT.panel}
          >
            {macros.map((macro) => (
              <option key={macro.id} value={macro.id}>
                {macro.title}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="button button--ghost">
            {MACRO_ACTION_TEXT.preview}
          </button>
        </Form>
      )}
      {preview ? (
        <Form
          key={preview.id}
          method="post"
          action={`${page}?macro=${encodeURIComponent(preview.id)}#macro-panel`}
          className="macro-panel__preview"
        >
          <h3>{MACRO_ACTION_TEXT.previewOf(preview.title)}</h3>
          <input type="hidden" name="intent" value="macro" />
          <input type="hidden" name="savedReplyId" value={preview.id} />
          <input type="hidden" name="clientId" value={clientId} />
          {seenVersion !== undefined ? <input type="hidden" name="seenVersion" value={seenVersion} /> : null}
          <TextAreaField
            label={MACRO_ACTION_TEXT.replyLabel}
            name="messageBody"
            rows={4}
            maxLength={MESSAGE_MAX_LENGTH}
            defaultValue={refusal?.messageBody ?? preview.text}
            error={refusal?.message}
          />
          <p>{MACRO_ACTION_TEXT.willDo}</p>
          <ul className="macro-panel__lines">
            {preview.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="macro-panel__buttons">
            <button type="submit" className="button button--primary" disabled={busy}>
              {MACRO_ACTION_TEXT.apply}
            </button>{' '}
            <Link to={page} className="button button--ghost">
              {MACRO_ACTION_TEXT.cancel}
            </Link>
          </p>
        </Form>
      ) : null}
    </details>
  );
}
