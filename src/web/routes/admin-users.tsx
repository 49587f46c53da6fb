import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { type AdminUser } from '../../contracts/users.ts';
import { DELETION_TEXT, longDate } from '../../contracts/account-deletion.ts';
import { formatNzDateTime } from '../../contracts/support.ts';
import { useApiData } from '../features/admin/admin-api.ts';
import { requestJson } from '../lib/api-client.ts';
import { SearchForm } from '../features/admin/search-form.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { LoadState } from '../features/admin/load-state.tsx';
import '../styles/support.css';
import { DataTable } from '../components/ui/data-table.tsx';
import { privatePageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/admin-users';
import { Email } from '../components/ui/email.tsx';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.users} | ${ADMIN_TEXT.title}`);

type Action = 'resend-verification' | 'disable' | 'enable' | 'make-admin' | 'remove-admin' | 'erase';
type Result = { tone: 'success' | 'error'; text: string };
const COLUMNS = ['Email', 'Verified', 'Role', 'Status', 'Joined', 'Actions'] as const;

const CONFIRM: Partial<Record<Action, (email: string) => string>> = {
  disable: (email) =>
    `Disable ${email}? They are signed out everywhere at once and cannot sign in until enabled again.`,
  'make-admin': (email) => `Make ${email} an admin? They can then see every ticket, application and account.`,
  erase: (email) =>
    `Erase ${email} now? Their address, password, files and every ticket not kept for the record are gone for good.`,
};
const LABEL: Record<Action, string> = {
  'resend-verification': 'Resend verification',
  disable: 'Disable',
  enable: 'Enable',
  'make-admin': 'Make admin',
  'remove-admin': 'Remove admin',
  erase: DELETION_TEXT.eraseNow,
};
const DONE: Record<Action, (email: string) => string> = {
  'resend-verification': (email) => `A new verification email is on its way to ${email}.`,
  disable: (email) => `${email} is disabled and signed out everywhere.`,
  enable: (email) => `${email} can sign in again.`,
  'make-admin': (email) => `${email} is now an admin.`,
  'remove-admin': (email) => `${email} is no longer an admin.`,
  erase: (email) => DELETION_TEXT.eraseScheduled(email),
};

function request(user: AdminUser, action: Action) {
  const base = `/api/admin/users/${user.id}`;
  if (action === 'make-admin' || action === 'remove-admin')
    return requestJson<{ user: AdminUser }>('POST', `${base}/role`, {
      role: action === 'make-admin' ? 'admin' : 'user',
    });
  return requestJson<{ user: AdminUser }>('POST', `${base}/${action}`);
}

function actionsFor(user: AdminUser): Action[] {
  if (user.self) return [];
  // An account whose owner asked to be deleted: only erasing it sooner (docs/product.md §2.14).
  if (user.deletion) return user.deletion.erasedAt ? [] : ['erase'];
  const actions: Action[] = [];
  if (!user.emailVerified && !user.disabled) actions.push('resend-verification');
  actions.push(user.disabled ? 'enable' : 'disable');
  actions.push(user.role === 'admin' ? 'remove-admin' : 'make-admin');
  return actions;
}

/** /admin/users: find accounts by email; verify, disable, enable, and change roles (never your own). */
export default function AdminUsers() {
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const { state, reload } = useApiData<{ users: AdminUser[]; more: boolean }>(
    `/api/admin/users?page=${page}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
  );
  const [confirming, setConfirming] = useState<{ userId: string; action: Action } | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function run(user: AdminUser, action: Action) {
    if (CONFIRM[action] && confirming?.userId !== user.id) {
      setConfirming({ userId: user.id, action });
      return;
    }
    setConfirming(null);
    setBusy(true);
    setResult(null);
    const res = await request(user, action);
    setBusy(false);
    setResult(res.ok ? { tone: 'success', text: DONE[action](user.email) } : { tone: 'error', text: res.message });
    reload();
  }

  const pageLink = (to: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(to) }).toString()}`;

  return (
    <section className="admin-page" aria-labelledby="users-title">
      <div className="admin-page__header">
        <h1 id="users-title">{ADMIN_TEXT.nav.users}</h1>
      </div>
      <div className="admin-toolbar">
        <SearchForm label="Find accounts by email" value={q} placeholder="Email address" />
      </div>
      {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      <LoadState state={state} onRetry={reload}>
        {({ users, more }) =>
          users.length === 0 ? (
            <p className="empty-state">{q ? 'No accounts match that email.' : 'There are no accounts yet.'}</p>
          ) : (
            <>
              <DataTable caption="Accounts, newest first" columns={COLUMNS} className="admin-table">
                {users.map((user) => (
                  <tr key={user.id}>
                    <td data-label={COLUMNS[0]} className="admin-table__email">
                      <Email address={user.email} />
                    </td>
                    <td data-label={COLUMNS[1]}>
                      {user.emailVerified ? 'Yes' : <span className="badge badge--waiting">No</span>}
                    </td>
                    <td data-label={COLUMNS[2]}>
                      {user.role === 'admin' ? <span className="badge badge--open">Admin</span> : 'User'}
                    </td>
                    <td data-label={COLUMNS[3]}>
                      {user.deletion ? (
                        <span className="badge badge--banned">
                          {user.deletion.erasedAt
                            ? DELETION_TEXT.erased
                            : DELETION_TEXT.requested(longDate(user.deletion.eraseAfter))}
                        </span>
                      ) : user.disabled ? (
                        <span className="badge badge--banned">Disabled</span>
                      ) : (
                        'Active'
                      )}
                    </td>
                    <td data-label={COLUMNS[4]}>{formatNzDateTime(user.createdAt)}</td>
                    <td data-label={COLUMNS[5]} className="admin-table__actions">
                      {user.self ? (
                        <span className="support-muted">This is you</span>
                      ) : confirming?.userId === user.id ? (
                        <div
                          className="admin-confirm"
                          role="group"
                          aria-label={`Confirm: ${LABEL[confirming.action]} ${user.email}`}
                        >
                          <p>{CONFIRM[confirming.action]!(user.email)}</p>
                          <button
                            type="button"
                            className="button button--primary admin-button--small"
                            disabled={busy}
                            onClick={() => void run(user, confirming.action)}
                          >
                            Yes, {LABEL[confirming.action].toLowerCase()}
                          </button>
                          <button
                            type="button"
                            className="button button--ghost admin-button--small"
                            onClick={() => setConfirming(null)}
                          >
                            Cancel
                          </button>
                        </div>
                      ) : (
                        <div className="admin-row-actions">
                          {actionsFor(user).map((action) => (
                            <button
                              key={action}
                              type="button"
                              className={`button button--ghost admin-button--small${action === 'disable' || action === 'erase' ? ' admin-button--danger' : ''}`}
                              disabled={busy}
                              onClick={() => void run(user, action)}
                            >
                              {LABEL[action]}
                              <span className="visually-hidden"> {user.email}</span>
                            </button>
                          ))}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </DataTable>
              <nav className="admin-pager" aria-label="Pages of accounts">
                {page > 1 ? <Link to={pageLink(page - 1)}>Previous page</Link> : null}
                {more ? <Link to={pageLink(page + 1)}>Next page</Link> : null}
              </nav>
            </>
          )
        }
      </LoadState>
    </section>
  );
}
