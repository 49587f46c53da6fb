import type { ReactNode } from 'react';

/** A short result line after an action: success or failure, announced to screen readers. */
export function Notice({ tone, children }: { tone: 'success' | 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p>{children}</p>
    </div>
  );
}
