import { useEffect, useRef } from 'react';
import { Form, useNavigation } from 'react-router';
import { bulkApi } from '../../../contracts/api/bulk.ts';
import { BULK_TEXT, type BulkAction, bulkWords } from '../../../contracts/bulk.ts';
import type { BulkBody } from '../../../contracts/bulk.schemas.ts';
import type { ServerApiClient } from '../../../contracts/web-context.ts';
import { useHydrated } from '../../lib/hydrated.ts';

/** The bulk form's id: the rows' checkboxes belong to it wherever they stand in the table. */
export const BULK_FORM = 'bulk-form';

/** What the inbox's action answers for a bulk form: its words, and the action Undo takes back. */
export interface BulkOutcome {
  bulk: { words: string[]; bulkId: string | null; error: string | null };
}

/** The "Action" choice as the API's body: close, reopen, assign to me or nobody, or add a label. */
function bodyOf(choice: string): Omit<BulkBody, 'tickets'> {
  if (choice === 'assign-me') return { action: 'assign', assignee: 'me' };
  if (choice === 'unassign') return { action: 'assign', assignee: null };
  if (choice.startsWith('label:')) return { action: 'label', labelId: choice.slice('label:'.length) };
  if (choice.startsWith('macro:')) return { action: 'macro', savedReplyId: choice.slice('macro:'.length) };
  return { action: choice as BulkAction };
}

/**
 * The inbox's action for the bulk form (docs/decisions/143-bulk-actions.md): the ticked rows
 * (`ticket` = "<id>:<version>", as the list showed them), the chosen action, or an undo.
 */
export async function bulkAction(api: ServerApiClient, form: FormData): Promise<BulkOutcome> {
  if (form.get('intent') === 'bulk-undo') {
    const undone = await api.call(bulkApi.undo, { params: { bulkId: String(form.get('bulkId') ?? '') } });
    if (!undone.ok) return { bulk: { words: [], bulkId: null, error: undone.message } };
    const done = undone.data.results.filter((r) => r.outcome === 'done').length;
    const changed = undone.data.results.filter((r) => r.outcome === 'changed').map((r) => r.ticketNo);
    return {
      bulk: {
        words: [BULK_TEXT.undone(done), ...(changed.length > 0 ? [BULK_TEXT.changed(changed)] : [])],
        bulkId: null,
        error: null,
      },
    };
  }
  const tickets = form
    .getAll('ticket')
    .map(String)
    .map((value) => {
      const [id = '', version = ''] = value.split(':');
      return { id, version: Number(version) };
    });
  const result = await api.call(bulkApi.apply, {
    body: { ...bodyOf(String(form.get('bulkAction') ?? '')), tickets } as BulkBody,
  });
  if (!result.ok) {
    const error = Object.values(result.fields)[0] ?? result.message;
    return { bulk: { words: [], bulkId: null, error } };
  }
  return {
    bulk: { words: bulkWords(result.data.action, result.data.results), bulkId: result.data.bulkId, error: null },
  };
}

/** The bulk form's bar above the list: what to do with the ticked tickets, and Apply. */
export function BulkBar({
  open,
  labels,
  macros = [],
}: {
  open: boolean;
  labels: ReadonlyArray<{ id: string; name: string }>;
  /** Saved replies with actions: their actions apply, never their reply (decision 145). */
  macros?: ReadonlyArray<{ id: string; title: string }>;
}) {
  const busy = useNavigation().state === 'submitting';
  const hydrated = useHydrated();
  return (
    <Form method="post" id={BULK_FORM} className="bulk-bar">
      <input type="hidden" name="intent" value="bulk" />
      <label htmlFor="bulk-action">{BULK_TEXT.legend}</label>
      <select id="bulk-action" name="bulkAction" className="select" defaultValue="">
        <option value="" disabled>
          {BULK_TEXT.action}
        </option>
        {open ? (
          <option value="close">{BULK_TEXT.actions.close}</option>
        ) : (
          <option value="reopen">{BULK_TEXT.actions.reopen}</option>
        )}
        <option value="assign-me">{BULK_TEXT.assignMe}</option>
        <option value="unassign">{BULK_TEXT.unassign}</option>
        {labels.map((label) => (
          <option key={label.id} value={`label:${label.id}`}>
            {BULK_TEXT.actions.label}: {label.name}
          </option>
        ))}
        {macros.map((macro) => (
          <option key={macro.id} value={`macro:${macro.id}`}>
            {BULK_TEXT.actions.macro}: {macro.title}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--ghost" disabled={busy}>
        {BULK_TEXT.apply}
      </button>
      {hydrated ? <SelectAll /> : null}
    </Form>
  );
}

const ticks = () => [...document.querySelectorAll<HTMLInputElement>(`input.bulk-tick[form="${BULK_FORM}"]`)];

/**
 * Ticks every ticket the list shows, or none; it shows whether all, some (mixed) or none are ticked.
 * Only with JavaScript: without it each row is ticked by hand, as the plain form needs nothing more.
 */
function SelectAll() {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const follow = () => {
      const all = ticks();
      const ticked = all.filter((tick) => tick.checked).length;
      if (!box.current) return;
      box.current.checked = all.length > 0 && ticked === all.length;
      box.current.indeterminate = ticked > 0 && ticked < all.length;
    };
    follow();
    document.addEventListener('change', follow);
    // The live list adds and drops rows: the box follows those too.
    const rows = new MutationObserver(follow);
    rows.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('change', follow);
      rows.disconnect();
    };
  }, []);
  return (
    <label className="bulk-bar__all">
      <input
        ref={box}
        type="checkbox"
        onChange={(event) => {
          for (const tick of ticks()) tick.checked = event.currentTarget.checked;
          event.currentTarget.indeterminate = false;
        }}
      />{' '}
      {BULK_TEXT.selectAll}
    </label>
  );
}
