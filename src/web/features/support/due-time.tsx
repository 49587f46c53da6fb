import { formatNzDueTime } from '../../../contracts/dates.ts';
import { DUE_TEXT, dueWords } from '../../../contracts/due-times.ts';
import type { TicketDue } from '../../../contracts/support.schemas.ts';
import '../../styles/due.css';

/** Passed: the due time is now or earlier (as the server's filter 'late' counts it). */
export const isLate = (due: TicketDue, now: Date) => Date.parse(due.at) <= now.getTime();
const isMarked = (due: TicketDue, now: Date) => isLate(due, now) || due.warned === 'soon';

/**
 * A late or warned due time's mark: 'Late' (and a sign) once it has passed, 'Due soon' once the
 * team was warned. Words, not colour alone.
 */
export function DueMark({ due, now }: { due: TicketDue; now: Date }) {
  if (isLate(due, now))
    return (
      <span className="badge badge--danger due-mark">
        <span aria-hidden="true" className="due-mark__sign">
          !
        </span>
        {DUE_TEXT.late}
      </span>
    );
  if (due.warned === 'soon') return <span className="badge badge--waiting due-mark">{DUE_TEXT.warnedSoon}</span>;
  return null;
}

/** The inbox's Due cell: the mark, then 'due in 2 h' or 'late by 35 min' (its instant in New Zealand time on hover). */
export function DueCell({ due, now }: { due: TicketDue | null; now: Date }) {
  if (!due) return <span className="due due--none">{DUE_TEXT.notDue}</span>;
  return (
    <span className={`due${isLate(due, now) ? ' due--late' : ''}`}>
      {isMarked(due, now) ? (
        <>
          <DueMark due={due} now={now} />{' '}
        </>
      ) : null}
      <time className="due__words" dateTime={due.at} title={formatNzDueTime(due.at)}>
        {dueWords(new Date(due.at), now)}
      </time>
    </span>
  );
}

/** On a ticket, one due time after its label: 'Mon 30 Nov, 10:30 (late by 35 min)', marked Late once passed. */
export function DueAt({ due, now }: { due: TicketDue; now: Date }) {
  return (
    <span className={`due${isLate(due, now) ? ' due--late' : ''}`}>
      {isMarked(due, now) ? (
        <>
          <DueMark due={due} now={now} />{' '}
        </>
      ) : null}
      <time dateTime={due.at}>{DUE_TEXT.dueAt(formatNzDueTime(due.at), dueWords(new Date(due.at), now))}</time>
    </span>
  );
}
