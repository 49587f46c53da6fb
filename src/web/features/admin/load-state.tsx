import type { ReactNode } from 'react';
import type { DataState } from './admin-api.ts';

/** What a console page shows until its data is there: a loading line, or the error and a retry. */
export function LoadState<T>({
  state,
  onRetry,
  children,
}: {
  state: DataState<T>;
  onRetry(): void;
  children(data: T): ReactNode;
}) {
  if (state.kind === 'loading') {
    return (
      <p className="support-muted" role="status">
        Loading...
      </p>
    );
  }
  if (state.kind === 'error') {
    return (
      <div className="alert alert--error" role="alert">
        <p>{state.message}</p>
        <button type="button" className="button button--ghost admin-button--small" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return <>{children(state.data)}</>;
}
