import type { LiveStatus } from '../../lib/live.ts';
import { useHydrated } from '../../lib/hydrated.ts';

/** What the indicator says for each state of the connection. */
export const LIVE_LABELS: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
};

/**
 * Says whether updates are arriving, so nobody mistakes a dropped connection for a quiet ticket.
 * Only a script connects, so the page without JavaScript never shows it: it would say
 * 'Connecting…' for ever. The server's render holds its place (an empty box of the same size,
 * hidden from everyone, and gone when the browser runs no script: the `scripting` media query), so
 * the buttons beside it do not move when the page hydrates: a click in between would land on
 * whatever slid under the pointer. Its width fits the longest label, so a change of status moves
 * nothing either.
 */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  const hydrated = useHydrated();
  if (!hydrated) return <span className="live-indicator live-indicator--pending" aria-hidden="true" />;
  return (
    <p className={`live-indicator live-indicator--${status}`} role="status" aria-live="polite">
      <span className="live-indicator__dot" aria-hidden="true" />
      {LIVE_LABELS[status]}
    </p>
  );
}
