import type { BulkResult, BulkUndoResult } from './bulk.schemas.ts';

/**
 * Bulk actions on the inbox (docs/decisions/143-bulk-actions.md): close, reopen, assign or label
 * many tickets at once, each ticket with the version the agent saw, one result per ticket, and an
 * undo of the last one for 30 minutes. Every word the inbox shows about them lives here.
 */
export const BULK_MAX_TICKETS = 500;
export const BULK_UNDO_MINUTES = 30;
export const BULK_ACTIONS = ['close', 'reopen', 'assign', 'label', 'macro'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const BULK_TEXT = {
  legend: 'With the ticked tickets',
  select: (ticketNo: number) => `Select ticket #${ticketNo}`,
  action: 'Action',
  actions: {
    close: 'Close',
    reopen: 'Reopen',
    assign: 'Assign to',
    label: 'Add label',
    macro: 'Apply macro (its actions, no reply)',
  } satisfies Record<BulkAction, string>,
  assignMe: 'Assign to me',
  unassign: 'Unassign',
  apply: 'Apply to ticked',
  /** With JavaScript: ticks (or unticks) every ticket the list shows. */
  selectAll: 'Select all',
  noneTicked: 'Tick the tickets to change first.',
  tooMany: `Choose at most ${BULK_MAX_TICKETS} tickets at once.`,
  actionMissing: 'Choose what to do with the ticked tickets.',
  assigneeMissing: 'Choose who to assign the tickets to.',
  labelMissing: 'Choose a label from the list.',
  macroMissing: 'Choose a macro from the list.',
  macroLabel: 'Macro',
  done: (action: BulkAction, n: number) =>
    `${{ close: 'Closed', reopen: 'Reopened', assign: 'Assigned', label: 'Labelled', macro: 'Applied the macro to' }[action]} ${n} ${n === 1 ? 'ticket' : 'tickets'}.`,
  changed: (numbers: readonly number[]) =>
    `Left as they were, because they changed since you looked: ${numbers.map((n) => `#${n}`).join(', ')}.`,
  unchanged: (n: number) => `${n} already ${n === 1 ? 'was' : 'were'} that way.`,
  missing: (n: number) => `${n} no longer ${n === 1 ? 'exists' : 'exist'}.`,
  undo: 'Undo',
  undone: (n: number) => `Undone for ${n} ${n === 1 ? 'ticket' : 'tickets'}.`,
  undoGone: `Only your last bulk action or macro can be undone, within ${BULK_UNDO_MINUTES} minutes.`,
} as const;

/** What became of one ticket: done, left because it changed since, already so, or gone. */
export const BULK_OUTCOMES = ['done', 'changed', 'unchanged', 'missing'] as const;

/** The words of a bulk result: what was done, and each kind of ticket left alone. */
export function bulkWords(action: BulkAction, results: BulkResult['results'] | BulkUndoResult['results']): string[] {
  const of = (outcome: (typeof BULK_OUTCOMES)[number]) => results.filter((r) => r.outcome === outcome);
  const words = [BULK_TEXT.done(action, of('done').length)];
  const changed = of('changed').map((r) => r.ticketNo ?? 0);
  if (changed.length > 0) words.push(BULK_TEXT.changed(changed));
  if (of('unchanged').length > 0) words.push(BULK_TEXT.unchanged(of('unchanged').length));
  if (of('missing').length > 0) words.push(BULK_TEXT.missing(of('missing').length));
  return words;
}
