/**
 * Merging tickets (docs/decisions/116-ticket-merge.md): an admin merges a ticket into another
 * ticket of the same customer; the messages of both make one thread in the target, and everything
 * addressed to the merged ticket afterwards reaches the target.
 */

export const MERGE_TEXT = {
  menuLabel: 'Merge into',
  hint: "This customer's other tickets. The messages of this ticket move into the one you choose, and this ticket closes.",
  submit: 'Merge',
  noTargets: 'This customer has no other ticket to merge into.',
  /** The lines written into both threads (the customer reads them too). */
  sourceLine: (targetNo: number) => `Merged into #${targetNo}`,
  targetLine: (sourceNo: number) => `#${sourceNo} was merged into this ticket`,
  done: (sourceNo: number, targetNo: number) => `#${sourceNo} was merged into #${targetNo}.`,
  undo: 'Undo the merge',
  undoSplit: 'Undo the split',
  undoHint: (sourceNo: number) =>
    `#${sourceNo} was merged into this ticket. Undoing it gives #${sourceNo} back its messages, as it was; messages written since stay here.`,
  undoSplitHint: (sourceNo: number, targetNo: number) =>
    `#${targetNo} was split from #${sourceNo}. Undoing it puts the messages back in #${sourceNo}; messages written since stay where they were written.`,
  /** Splitting (the console's More actions). */
  splitLabel: 'Split from message',
  splitReasonLabel: 'Reason of the new ticket',
  splitHint: "The customer's message you choose, and everything after it, move into a new ticket of theirs.",
  splitSubmit: 'Split',
  splitSourceLine: (newNo: number) => `Split into #${newNo}`,
  splitTargetLine: (sourceNo: number) => `Split from #${sourceNo}`,
  splitOption: (when: string, excerpt: string) => `${when}: ${excerpt}`,
  undone: (sourceNo: number, targetNo: number) => `The merge of #${sourceNo} into #${targetNo} is undone.`,
  /** A ticket to merge into: '#1004 · General Enquiry · open · My parcel to Napier has not arrived.' */
  option: (ticketNo: number, reasonLabel: string, open: boolean, firstLine: string) =>
    `#${ticketNo} · ${reasonLabel} · ${open ? 'open' : 'closed'}${firstLine ? ` · ${firstLine}` : ''}`,
} as const;

export const MERGE_MESSAGES = {
  chooseTarget: 'Choose the ticket to merge into',
  otherCustomer: "That ticket belongs to another customer: only a customer's own tickets can be merged.",
  sameTicket: 'A ticket cannot be merged into itself.',
  alreadyMerged: 'This ticket was already merged into another one.',
  targetMerged: 'That ticket was merged into another one: merge into that one instead.',
  targetMissing: 'That ticket does not exist.',
  undoMissing: 'That merge does not exist.',
  chooseMessage: "Choose the customer's message to split from",
  notCustomers: "Only a customer's own message can start a new ticket: choose one of theirs.",
  firstMessage: 'The first message is where this ticket starts: choose a later one.',
  undoneAlready: 'That merge was already undone.',
  undoTooOld: 'A merge can be undone for 30 days; this one is older.',
  undoTargetMerged: 'The ticket it was merged into was merged again since: undo that merge first.',
} as const;
