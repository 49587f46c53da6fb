import { useSyncExternalStore } from 'react';

const noUpdates = () => () => {};

/**
 * False on the server and while the page hydrates, true once the app runs in the browser. A control
 * that only a script makes safe (a Send button disabled while its box is empty, a live status) is
 * rendered for the page without JavaScript as it works there: enabled, or not at all.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noUpdates,
    () => true,
    () => false,
  );
}
