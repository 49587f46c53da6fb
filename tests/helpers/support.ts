import type { TestApp } from './test-app.ts';
import { createUser, postJson, signIn, withCookie } from './accounts.ts';

/** A signed-in user (or admin) and shortcuts to call the support API as them. */
export async function supportUser(
  t: TestApp,
  options: { role?: 'user' | 'admin'; verified?: boolean; email?: string } = {},
) {
  const user = await createUser(t, { role: options.role, verified: options.verified ?? true, email: options.email });
  const cookie = await signIn(t, user.email, user.password);
  const headers = withCookie(t, cookie);
  return {
    ...user,
    cookie,
    headers,
    get: (url: string) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload: unknown = {}) => postJson(t, url, payload, headers),
    async createTicket(reason = 'General', message = 'My parcel has not arrived yet.') {
      const res = await postJson(t, '/api/functions/createSupportTicket', { data: { reason, message } }, headers);
      if (res.statusCode !== 200) throw new Error(`ticket creation failed: ${res.statusCode} ${res.body}`);
      return res.json().result as { ticketId: string; ticketNo: number };
    },
  };
}
export type SupportUser = Awaited<ReturnType<typeof supportUser>>;
