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

/**
 * What a person already chose or typed in a server-rendered field before the page's JavaScript took
 * over (the forms work before it). React would set the field back to its initial state as it
 * hydrates, so the first render on the client reads the field itself: its value when it differs
 * from the one the server rendered, else `initial`. On the server, and for a field that is not on
 * the page yet (a client-side navigation), it is `initial`.
 */
export function valueBeforeHydration(id: string, initial: string): string {
  if (typeof document === 'undefined') return initial;
  const field = document.getElementById(id);
  if (field instanceof HTMLSelectElement) {
    const rendered = Array.from(field.options).find((option) => option.defaultSelected)?.value ?? '';
    return field.value === rendered ? initial : field.value;
  }
  if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) {
    return field.value === field.defaultValue ? initial : field.value;
  }
  return initial;
}
