import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A short result line after an action: success or failure, announced to screen readers. */
export function Notice({ tone, children }: { tone: 'success' | 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p>{children}</p>
    </div>
  );
}

/** A page whose data could not be read: why, and a link that reads it again (no JavaScript needed). */
export function ReadFailed({ message, retryTo }: { message: string | null; retryTo: string }) {
  if (!message) return null;
  return (
    <Notice tone="error">
      {message}{' '}
      <Link to={retryTo} preventScrollReset>
        Try again
      </Link>
    </Notice>
  );
}
