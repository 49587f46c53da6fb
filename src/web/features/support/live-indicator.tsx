import type { LiveStatus } from '../../lib/live.ts';
import { useHydrated } from '../../lib/hydrated.ts';

const LABELS: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
};

/**
 * Says whether updates are arriving, so nobody mistakes a dropped connection for a quiet ticket.
 * Only a script connects, so the page without JavaScript (and the server's render) shows none:
 * it would say 'Connecting…' for ever.
 */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <p className={`live-indicator live-indicator--${status}`} role="status" aria-live="polite">
      <span className="live-indicator__dot" aria-hidden="true" />
      {LABELS[status]}
    </p>
  );
}
