import type { ShouldRevalidateFunctionArgs } from 'react-router';

/**
 * For loaders whose data is who is signed in (the root, the support and admin layouts): it changes
 * only with a sign-in or a sign-out, which load a new page, or when the session is found gone, when
 * the root's SessionWatch asks for the same URL again (lib/session-events.ts). Navigations and
 * form posts leave it alone.
 */
export function revalidateOnlyWhenAsked({ currentUrl, nextUrl, formMethod }: ShouldRevalidateFunctionArgs): boolean {
  return !formMethod && currentUrl.href === nextUrl.href;
}
