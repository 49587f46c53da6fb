/**
 * One word for one thing, wherever a person reads it: the console's pages, the reports and their
 * CSV, and mail. The rating is said in the customer's own words (they chose Good or Bad on the
 * ticket's page), a ticket nobody handles is Unassigned, and a due time (or a privacy request's
 * answer-by date) that has passed is Late. A ticket's reason is shown by its label
 * (support.ts reasonLabel: 'Incident Report'), never by the value stored.
 * docs/decisions/133-one-word-for-one-thing.md; tests/integration/desk/ticket-words.test.ts
 * compares the places.
 */
export const TICKET_WORDS = {
  good: 'Good',
  bad: 'Bad',
  unassigned: 'Unassigned',
  late: 'Late',
} as const;

/** The rating as the customer chose it: 'Good' or 'Bad'. */
export const ratingWord = (good: boolean) => (good ? TICKET_WORDS.good : TICKET_WORDS.bad);
