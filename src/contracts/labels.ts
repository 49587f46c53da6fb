/**
 * Labels (docs/decisions/141-labels.md): the team's own words for sorting tickets by topic ("Lost
 * bag", "Refund"). Staff only: the customer's pages, API, mail and export never show them.
 */
export const LABEL_NAME_MAX = 40;
/** The most labels a team keeps, and the most on one ticket. */
export const LABEL_LIMITS = { labels: 200, perTicket: 20 } as const;

export const LABEL_TEXT = {
  title: 'Labels',
  intro:
    'Sort tickets by topic. Put any number of labels on a ticket from its page; the inbox lists the tickets with a label.',
  nameLabel: 'Name',
  add: 'Add label',
  rename: 'Rename',
  remove: 'Remove',
  removeHint: (tickets: number) =>
    tickets === 0
      ? 'On no ticket.'
      : `On ${tickets} ${tickets === 1 ? 'ticket' : 'tickets'}: removing it takes it off them.`,
  none: 'No labels yet.',
  nameRequired: 'Enter a name for the label.',
  nameTooLong: `A label's name can be at most ${LABEL_NAME_MAX} characters.`,
  nameTaken: 'There is a label with that name already.',
  missing: 'That label no longer exists.',
  tooMany: `A team can keep at most ${LABEL_LIMITS.labels} labels.`,
  tooManyOnTicket: `A ticket can have at most ${LABEL_LIMITS.perTicket} labels.`,
  unknownLabel: 'One of those labels no longer exists.',
  /** The ticket page's part: the labels as checkboxes, and the button that sets them. */
  onTicket: 'Labels',
  save: 'Save labels',
  manage: 'Manage labels',
  /** The inbox's filter. */
  filter: 'Label',
  anyLabel: 'Any label',
  show: 'Show',
  saved: 'Labels saved.',
  added: (name: string) => `Added the label “${name}”.`,
  renamed: (name: string) => `Renamed the label to “${name}”.`,
  removed: (name: string) => `Removed the label “${name}”.`,
} as const;
