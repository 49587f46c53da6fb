import { redirect } from 'react-router';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/sign-out';

/**
 * /sign-out: the header's Sign Out button is a form posting here, so it works on every page,
 * hydrated or not (static pages and /register never load the app). The session ends through the
 * same endpoint an API client calls, and the visitor lands on the home page signed out.
 */
export async function action({ context }: Route.ActionArgs) {
  const answer = await context.get(requestContext).services.callApi('POST', '/api/auth/logout', {});
  const headers = new Headers();
  for (const cookie of answer.setCookie) headers.append('set-cookie', cookie);
  return redirect('/', { status: 303, headers });
}

/** Only a form posts here; someone who opens the address is sent home. */
export function loader() {
  return redirect('/', 303);
}
