import type { LiveStatus } from '../../lib/live.ts';

const LABELS: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
};

/** Says whether updates are arriving, so nobody mistakes a dropped connection for a quiet ticket. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <p className={`live-indicator live-indicator--${status}`} role="status" aria-live="polite">
      <span className="live-indicator__dot" aria-hidden="true" />
      {LABELS[status]}
    </p>
  );
}
