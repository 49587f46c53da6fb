import { TICKET_WORDS } from './ticket-words.ts';

/** The console's words for due times, without zod: the inbox and the ticket page load them (decision 119). */

/** The three clocks of a ticket. */
export const TARGET_KINDS = [
  { key: 'firstResponse', label: 'First response' },
  { key: 'nextResponse', label: 'Next response' },
  { key: 'resolution', label: 'Resolution' },
] as const;
export type TargetKind = (typeof TARGET_KINDS)[number]['key'];

/** How far a due time is from now, in the console's words: 'due in 2 h', 'late by 35 min'. */
export function dueWords(dueAt: Date, now: Date): string {
  // Due or late by the instant itself, the span rounded: 20 s past a due time is "late by under a
  // minute" beside the Late mark, never "due in under a minute".
  const left = dueAt.getTime() - now.getTime();
  const minutes = Math.round(Math.abs(left) / 60_000);
  const span = (m: number) => {
    if (m < 1) return 'under a minute';
    if (m < 60) return `${m} min`;
    if (m < 48 * 60) {
      const h = Math.floor(m / 60);
      const rest = m % 60;
      return rest === 0 || h >= 10 ? `${h} h` : `${h} h ${rest} min`;
    }
    return `${Math.round(m / (24 * 60))} days`;
  };
  return left >= 0 ? `due in ${span(minutes)}` : `late by ${span(minutes)}`;
}

export const DUE_TEXT = {
  dueColumn: 'Due',
  late: TICKET_WORDS.late,
  dueToday: 'Due today',
  sortDue: 'Due first',
  notDue: 'Not due',
  warnedSoon: 'Due soon',
  warnedLate: TICKET_WORDS.late,
  targetOf: (kind: TargetKind) => TARGET_KINDS.find((k) => k.key === kind)!.label,
  /** The inbox's filter and order (admin-support.tsx). */
  filterLabel: 'Due',
  anyTime: 'Any time',
  sortLabel: 'Order',
  sortRecent: 'Newest message',
  noLate: 'No open ticket is late',
  noDueToday: 'Nothing more is due today',
  /** On a ticket, each due time's label. */
  dueLabel: {
    firstResponse: 'First answer due',
    nextResponse: 'Next answer due',
    resolution: 'Resolution due',
  } satisfies Record<TargetKind, string>,
  /** On a ticket, a due time: 'Mon 30 Nov, 10:30 (due in 2 h)', 'Mon 30 Nov, 10:30 (late by 35 min)'. */
  dueAt: (time: string, words: string) => `${time} (${words})`,
} as const;
