import { type WaitingOn, type WaitingReader, waitingLabel } from '../../../contracts/support.ts';

/**
 * An open ticket's two-sided status. The user's pages say 'Waiting for us' (they wrote last) or
 * 'Waiting for you' (we did); the console, `to="staff"`, says 'Waiting on us' or 'Waiting on
 * customer', since there "you" would be the admin reading it.
 */
export function WaitingBadge({ waiting, to = 'customer' }: { waiting: WaitingOn | null; to?: WaitingReader }) {
  if (!waiting) return null;
  return <span className={`status-badge status-badge--${waiting}`}>{waitingLabel(waiting, to)}</span>;
}
