/**
 * A ticket's thread opens at its end: the page jumps so the newest message and the reply box under it
 * are in view, and the thread's own list scrolls to its last message ('instant': the stylesheet's
 * smooth scrolling would glide there after the page was drawn).
 *
 * On a page the server drew, the jump is made by the page's script before it hydrates
 * (entry.client.tsx), not by the thread's first layout effect: hydrating a ticket takes a long task
 * (a second or more on a slow phone, or a busy machine), and a click made during it was handled after
 * the jump, where the page no longer was (84 px below the "More actions" a browser test clicked, on a
 * 720 px screen). Made before hydrating, the jump comes before the page's `load`, while nothing on
 * the page can be used yet.
 */
let arrivedBeforeHydrating = false;

/** Jumps to the thread's end. `thread` is the thread's list (its `.thread` element). */
export function arriveAtThreadEnd(thread: HTMLElement | null): void {
  if (!thread) return;
  thread.closest('.ticket')?.scrollIntoView({ block: 'end', behavior: 'instant' });
  thread.scrollTo({ top: thread.scrollHeight, behavior: 'instant' });
}

/** Before hydrating: the jump for a thread the server drew, if the page has one. */
export function arriveBeforeHydrating(): void {
  const thread = document.querySelector<HTMLElement>('.thread');
  if (!thread) return;
  arriveAtThreadEnd(thread);
  arrivedBeforeHydrating = true;
}

/** Whether the page's script already made the jump (once: the thread's first layout effect asks). */
export function takeArrival(): boolean {
  const arrived = arrivedBeforeHydrating;
  arrivedBeforeHydrating = false;
  return arrived;
}
