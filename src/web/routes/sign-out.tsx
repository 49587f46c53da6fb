import { redirect } from 'react-router';
import { authApi } from '../../contracts/api/accounts.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/sign-out';

/**
 * /sign-out: the header's Sign Out button is a form posting here, so it works on every page,
 * hydrated or not (static pages and /register never load the app). The session ends through the
 * same endpoint an API client calls (its cleared cookie is passed on), and the visitor lands on the
 * home page signed out.
 */
export async function action({ context }: Route.ActionArgs) {
  await context.get(requestContext).services.api.call(authApi.logout);
  return redirect('/', 303);
}

/** Only a form posts here; someone who opens the address is sent home. */
export function loader() {
  return redirect('/', 303);
}
