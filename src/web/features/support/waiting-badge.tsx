import { type WaitingOn, waitingLabel } from '../../../contracts/support.ts';

/**
 * An open ticket's two-sided status: 'Waiting for us' (the user wrote last) or 'Waiting for you'
 * (we did), the same words on the user's pages and in the console ("us" is Bagspace).
 */
export function WaitingBadge({ waiting }: { waiting: WaitingOn | null }) {
  if (!waiting) return null;
  return <span className={`status-badge status-badge--${waiting}`}>{waitingLabel(waiting)}</span>;
}
