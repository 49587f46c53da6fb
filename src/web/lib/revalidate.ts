import type { ShouldRevalidateFunctionArgs } from 'react-router';

/**
 * For loaders whose data is who is signed in (the root, the support and admin layouts): it changes
 * only with a sign-in or a sign-out, which load a new page, or when the session is found gone, when
 * the root's SessionWatch asks for the same URL again (lib/session-events.ts), or when a form's
 * action ended the session itself (`signedOut` in its answer: the account closed). Other
 * navigations and form posts leave it alone.
 *
 * The last case matters: a revalidation clears the action's answer, so the page that has just
 * closed the account must learn it is signed out together with that answer, not from SessionWatch
 * a moment later (which would replace the confirmation with 'Please sign in first').
 */
export function revalidateOnlyWhenAsked({
  currentUrl,
  nextUrl,
  formMethod,
  actionResult,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formMethod) return (actionResult as { signedOut?: unknown } | undefined)?.signedOut === true;
  return currentUrl.href === nextUrl.href;
}
