/**
 * A macro's actions (docs/decisions/145-macro-actions.md), apart from the placeholders of
 * macros.ts: the console's pages load these, the customer's reply box never does.
 */

/**
 * What a macro does besides its reply (docs/decisions/145-macro-actions.md): a status, an assignee,
 * labels added, an internal note. All of it is applied as one change to one ticket, audited once,
 * and can be undone (the reply, once sent, stays: the customer may have read it).
 */
export interface MacroActions {
  status?: 'close' | 'reopen' | undefined;
  /** 'me': whoever applies it; 'nobody'; or an admin's id. */
  assignee?: string | undefined;
  labelIds?: string[] | undefined;
  /** An internal note; its variables are filled in for the ticket. */
  note?: string | undefined;
}
export const MACRO_NOTE_MAX = 2000;

export const hasMacroActions = (actions: MacroActions | undefined): boolean =>
  Boolean(actions?.status || actions?.assignee || actions?.labelIds?.length || actions?.note?.trim());

export const MACRO_ACTION_TEXT = {
  legend: 'Then, as one change (a macro)',
  status: 'Status',
  keep: 'Leave as it is',
  close: 'Close the ticket',
  reopen: 'Reopen the ticket',
  assignee: 'Assign',
  assignMe: 'To whoever applies it',
  unassign: 'To nobody',
  labels: 'Add labels',
  note: 'Internal note',
  noteHint: 'Only the team reads it. It may use the same variables as the reply, not questions.',
  noteAsks: 'A note cannot ask the agent a question: bulk actions apply it without one.',
  noteTooLong: `Notes in a macro can be at most ${MACRO_NOTE_MAX} characters long`,
  labelMissing: 'One of the labels no longer exists. Choose the labels again.',
  badge: 'Macro',
  // The ticket page's macro panel.
  panel: 'Apply a macro',
  choose: 'Macro',
  preview: 'Preview',
  previewOf: (title: string) => `Preview: ${title}`,
  replyLabel: 'Reply to the customer (leave it empty to send none)',
  noReply: 'No reply: only the actions below.',
  willDo: 'Applying it will:',
  send: 'Send the reply',
  apply: 'Apply',
  cancel: 'Cancel',
  none: 'No saved reply has actions yet. Give one a status, an assignee, labels or a note on Saved replies.',
  applied: (title: string) => `Applied “${title}”.`,
  replyStays: 'Undo puts the ticket back as it was; a reply already sent stays sent.',
  undo: 'Undo',
  undone: 'Undone: the ticket is as it was before the macro.',
} as const;

/** The lines a preview lists: what applying `actions` will do, in the order it is done. */
export function describeMacro(
  actions: MacroActions,
  names: { labels: ReadonlyMap<string, string>; agents: ReadonlyMap<string, string> },
  withReply: boolean,
): string[] {
  const lines: string[] = [];
  if (actions.status === 'reopen') lines.push(MACRO_ACTION_TEXT.reopen);
  if (withReply) lines.push(MACRO_ACTION_TEXT.send);
  if (actions.note?.trim()) lines.push('Add an internal note');
  for (const id of actions.labelIds ?? []) {
    const name = names.labels.get(id);
    if (name) lines.push(`Add the label “${name}”`);
  }
  if (actions.assignee === 'me') lines.push('Assign the ticket to you');
  else if (actions.assignee === 'nobody') lines.push('Unassign the ticket');
  else if (actions.assignee) lines.push(`Assign the ticket to ${names.agents.get(actions.assignee) ?? 'an admin'}`);
  if (actions.status === 'close') lines.push(MACRO_ACTION_TEXT.close);
  return lines;
}
