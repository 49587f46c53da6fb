import { pathOf } from '../../contracts/endpoint.ts';

/**
 * Noticing a lost session without a reload. Two signals:
 * - this tab: a request to our API answered 401 (lib/api-client.ts), or a live stream was refused
 *   and its read answered 401 (lib/live.ts): `reportSessionLost()`;
 * - another tab signed out: its Sign Out announces it on a BroadcastChannel (the header's form, and
 *   the inline script of pages without the app); this tab confirms with the session endpoint (the
 *   announcement may arrive before the sign-out has committed) and then reports it.
 * The root layout listens (`onSessionLost`) and reloads the route data, so the page shows the
 * login screen in place of what the session showed.
 */
export const SESSION_CHANNEL = 'bagspace-session';
export const SIGNED_OUT = 'signed-out';
const LOST_EVENT = 'bagspace:session-lost';

export function reportSessionLost(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(LOST_EVENT));
}

/**
 * Set when this tab itself announced a sign-out: its own page already reads who is signed in with
 * the answer that ended the session (lib/revalidate.ts). Its SessionWatch must not act on its own
 * announcement (a BroadcastChannel delivers to the other channel objects of the same tab too): a
 * second reading of the route data would clear the action's answer, and the page that has just
 * closed the account showed 'Please sign in first' instead of the confirmation.
 */
let announcedHere = false;

export function announceSignOut(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  announcedHere = true;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage(SIGNED_OUT);
  channel.close();
}

/**
 * Asks the server until it says the session is gone (up to about 3 s), then reports it. The
 * accounts API's declarations load here, when another tab has signed out: the root layout, which
 * every page loads, does not carry them.
 */
async function confirmSignedOut(): Promise<void> {
  const { authApi } = await import('../../contracts/api/accounts.ts');
  for (let attempt = 0; attempt < 10; attempt++) {
    const res = await fetch(pathOf(authApi.session), { credentials: 'same-origin' }).catch(() => null);
    if (res?.status === 401) {
      reportSessionLost();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Calls `onLost` when this tab's session is found gone, or another tab signed out. Returns a stop function. */
export function onSessionLost(onLost: () => void): () => void {
  window.addEventListener(LOST_EVENT, onLost);
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === SIGNED_OUT && !announcedHere) void confirmSignedOut();
    };
  }
  return () => {
    window.removeEventListener(LOST_EVENT, onLost);
    channel?.close();
  };
}
