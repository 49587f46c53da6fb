import type { StaffRole } from '../../src/contracts/roles.ts';
import { createUser, signIn, withCookie } from './accounts.ts';
import type { TestApp } from './test-app.ts';

/** A signed-in account and shortcuts to call the API as it (every verb the console uses). */
export async function apiClient(t: TestApp, options: { role?: 'user' | 'admin'; roles?: StaffRole[] } = {}) {
  const user = await createUser(t, {
    role: options.roles ? undefined : (options.role ?? 'admin'),
    roles: options.roles,
  });
  const cookie = await signIn(t, user.email, user.password);
  const headers = withCookie(t, cookie);
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    ...user,
    cookie,
    headers,
    get: (url: string) => send('GET', url),
    post: (url: string, payload: unknown = {}) => send('POST', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    del: (url: string) => send('DELETE', url),
  };
}
export type ApiClient = Awaited<ReturnType<typeof apiClient>>;

/** The audit entries about one record, newest first. */
export async function auditOf(admin: ApiClient, targetType: string, targetId: string | number) {
  const res = await admin.get(
    `/api/admin/audit?targetType=${targetType}&targetId=${encodeURIComponent(String(targetId))}`,
  );
  if (res.statusCode !== 200) throw new Error(`audit read failed: ${res.statusCode} ${res.body}`);
  return res.json().entries as Array<{
    action: string;
    actorEmail: string;
    targetType: string;
    targetId: string;
    details: Record<string, unknown>;
    at: string;
  }>;
}
