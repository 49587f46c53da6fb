import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { DELETION_TEXT } from '../../contracts/account-deletion.ts';
import { longDate } from '../../contracts/dates.ts';
import { usersApi } from '../../contracts/api/accounts.ts';
import { privacyApi } from '../../contracts/api/privacy.ts';
import { formatNzDateTime } from '../../contracts/dates.ts';
import { ROLE_TEXT, STAFF_ROLES, type StaffRole } from '../../contracts/roles.ts';
import { INVITATION_DAYS, USER_MESSAGES } from '../../contracts/users.ts';
import type { AdminUser, Invitation } from '../../contracts/users.schemas.ts';
import { InputField } from '../components/ui/field.tsx';
import { DataTable } from '../components/ui/data-table.tsx';
import { Email } from '../components/ui/email.tsx';
import { Notice } from '../features/admin/notice.tsx';
import { SearchForm } from '../features/admin/search-form.tsx';
import { type FormResult, refused } from '../lib/form.ts';
import { privatePageMeta } from '../lib/page-meta.ts';
import { requestContext, type WebServices } from '../lib/request-context.ts';
import type { Route } from './+types/admin-users';
import '../styles/support.css';

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, 'admin', `${ADMIN_TEXT.nav.users} | ${ADMIN_TEXT.title}`);

const ACTIONS = ['resend-verification', 'sign-out', 'disable', 'enable', 'erase'] as const;
type Action = (typeof ACTIONS)[number];
const isAction = (value: string | null | undefined): value is Action => ACTIONS.includes(value as Action);
const COLUMNS = ['Email', 'Verified', 'Role', 'Status', 'Joined', 'Actions'] as const;

const CONFIRM: Partial<Record<Action, (email: string) => string>> = {
  disable: (email) =>
    `Disable ${email}? They are signed out everywhere at once and cannot sign in until enabled again.`,
  erase: (email) =>
    `Erase ${email} now? Their address, password, files and every ticket not kept for the record are gone for good.`,
};
const LABEL: Record<Action, string> = {
  'resend-verification': 'Resend verification',
  'sign-out': 'Sign out everywhere',
  disable: 'Disable',
  enable: 'Enable',
  erase: DELETION_TEXT.eraseNow,
};
const DONE: Record<Action, (email: string) => string> = {
  'resend-verification': (email) => `A new verification email is on its way to ${email}.`,
  'sign-out': (email) => `${email} is signed out everywhere; they can sign in again.`,
  disable: (email) => `${email} is disabled and signed out everywhere.`,
  enable: (email) => `${email} can sign in again.`,
  erase: (email) => DELETION_TEXT.eraseScheduled(email),
};

function actionsFor(user: AdminUser): Action[] {
  if (user.self) return [];
  // An account whose owner asked to be deleted: only erasing it sooner (docs/product.md §2.14).
  if (user.deletion) return user.deletion.erasedAt ? [] : ['erase'];
  const actions: Action[] = [];
  if (!user.emailVerified && !user.disabled) actions.push('resend-verification');
  // A disabled account has no sessions left to end.
  if (!user.disabled) actions.push('sign-out');
  actions.push(user.disabled ? 'enable' : 'disable');
  return actions;
}

/** The list's place: the search and the page, kept by every form and link of the page. */
function listPlace(q: string, page: number): Record<string, string> {
  return { ...(q ? { q } : {}), ...(page > 1 ? { page: String(page) } : {}) };
}

/** What a role is called on the page, and what it lets its holder do. */
const roleLabel = (role: StaffRole) => ROLE_TEXT[role].name;

function readPlace(values: { q?: string | null; page?: string | null }) {
  return {
    q: values.q?.trim() ?? '',
    page: Math.max(1, Number.parseInt(values.page ?? '1', 10) || 1),
  };
}

/**
 * One page of accounts (?q= finds by email, ?page=), and what the address says is open: the confirm
 * step of an action that needs one (?confirm=disable&user=…).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  const query = new URL(request.url).searchParams;
  const { q, page } = readPlace({ q: query.get('q'), page: query.get('page') });
  const confirm = query.get('confirm');
  const place = {
    q,
    page,
    confirming: isAction(confirm) && CONFIRM[confirm] ? { action: confirm, userId: query.get('user') ?? '' } : null,
    done: query.get('done'),
    /** The account whose roles are open for change (?roles=<id>). */
    editingRoles: query.get('roles'),
  };
  const manage = Boolean(user?.permissions.includes('users.manage'));
  const nothing = { ...place, manage, users: [], more: false, failed: null, roleOptions: null, invitations: null };
  // The layout shows the login screen or "not allowed" instead of this page.
  if (!user?.emailVerified || !user.permissions.includes('users.read')) return nothing;
  const [listed, invited] = await Promise.all([
    services.api.call(usersApi.list, { query: { page, ...(q ? { q } : {}) } }),
    services.api.call(usersApi.invitations),
  ]);
  return {
    invitations: invited.ok ? invited.data : null,
    ...place,
    manage,
    users: listed.ok ? listed.data.users : [],
    more: listed.ok && listed.data.more,
    failed: listed.ok ? null : listed.message,
    roleOptions: listed.ok ? listed.data.roleOptions : null,
  };
}

/** One action on one account, sent on to its endpoint as this admin; answers the account's address. */
async function send(api: WebServices['api'], action: Action, userId: string, email: string) {
  const params = { userId };
  const result =
    action === 'erase'
      ? await api.call(privacyApi.eraseNow, { params })
      : await api.call(
          usersApi[
            action === 'resend-verification' ? 'resendVerification' : action === 'sign-out' ? 'signOut' : action
          ],
          { params },
        );
  if (!result.ok) return result;
  return { ok: true as const, email: 'user' in result.data ? result.data.user.email : email };
}

/** Each row's actions: forms posted here (the confirm step's Yes too); then the list again, with what was done. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
  const { q, page } = readPlace(values);
  const intent = values.intent;
  const userId = values.userId ?? '';
  const { api } = context.get(requestContext).services;
  const back = (done: string) => redirect(`/admin/users?${new URLSearchParams({ ...listPlace(q, page), done })}`, 303);
  if (intent === 'roles' && userId) {
    const roles = form.getAll('roles').map(String) as StaffRole[];
    const result = await api.call(usersApi.setRoles, { params: { userId }, body: { roles } });
    if (!result.ok) return refused(result, {}, userId);
    return back(result.data.message ?? USER_MESSAGES.rolesSaved(result.data.user.email));
  }
  if (intent === 'invite') {
    const result = await api.call(usersApi.invite, {
      body: { email: values.inviteEmail ?? '', roles: form.getAll('inviteRoles').map(String) as StaffRole[] },
    });
    if (!result.ok)
      return data<FormResult>(
        {
          ok: false,
          form: 'invite',
          message: Object.keys(result.fields).length > 0 ? null : result.message,
          fields: { inviteEmail: result.fields.email ?? '', inviteRoles: result.fields.roles ?? '' },
          values: { inviteEmail: values.inviteEmail ?? '' },
        },
        { status: result.status },
      );
    return back(result.data.message);
  }
  if (intent === 'role-options') {
    const result = await api.call(usersApi.setRoleOptions, {
      body: { auditorReadsHeldMail: values.auditorReadsHeldMail === 'on' },
    });
    if (!result.ok) return refused(result, {}, 'role-options');
    return back(USER_MESSAGES.roleOptionsSaved);
  }
  if (!isAction(intent) || !userId) {
    return data<FormResult>(
      { ok: false, message: 'This form is out of date. Please reload the page and try again.', fields: {}, values: {} },
      { status: 400 },
    );
  }
  const sent = await send(api, intent, userId, values.email ?? '');
  if (!sent.ok) return refused(sent, {}, userId);
  return back(DONE[intent](sent.email));
}

/** A button that changes what the address says is open (a confirm step, or none): works without JavaScript. */
function StepButton({
  place,
  step,
  className,
  children,
}: {
  place: Record<string, string>;
  step?: { action: Action; userId: string } | { roles: string };
  className: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="get" className="admin-inline-form" preventScrollReset>
      {Object.entries(place).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {step && 'roles' in step ? <input type="hidden" name="roles" value={step.roles} /> : null}
      {step && 'action' in step ? (
        <>
          <input type="hidden" name="confirm" value={step.action} />
          <input type="hidden" name="user" value={step.userId} />
        </>
      ) : null}
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}

/** The roles an account holds, as checkboxes: sent to the page's action, all at once. */
function RolesForm({ place, user, disabled }: { place: Record<string, string>; user: AdminUser; disabled: boolean }) {
  return (
    <Form method="post" className="admin-roles-form" preventScrollReset>
      {Object.entries(place).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="intent" value="roles" />
      <input type="hidden" name="userId" value={user.id} />
      <fieldset>
        <legend>Roles of {user.email}</legend>
        {STAFF_ROLES.map((role) => (
          <label key={role} className="admin-roles-form__role">
            <input type="checkbox" name="roles" value={role} defaultChecked={user.roles.includes(role)} />
            <span>
              <strong>{ROLE_TEXT[role].name}</strong> <span className="support-muted">{ROLE_TEXT[role].does}</span>
            </span>
          </label>
        ))}
        <p className="support-muted">No role: a customer’s account, without the console.</p>
      </fieldset>
      <button type="submit" className="button button--primary admin-button--small" disabled={disabled}>
        Save roles
      </button>
      <StepButton place={place} className="button button--ghost admin-button--small">
        Cancel
      </StepButton>
    </Form>
  );
}

/** Invitations to the console (decision 148): the form that sends one, and those open or accepted. */
function Invitations({
  place,
  invitations,
  manage,
  busy,
  result,
}: {
  place: Record<string, string>;
  invitations: Invitation[];
  manage: boolean;
  busy: boolean;
  result: FormResult | undefined;
}) {
  return (
    <section className="admin-section" aria-labelledby="invite-title">
      <h2 id="invite-title">Invitations</h2>
      {manage ? (
        <Form method="post" className="form admin-roles-form" preventScrollReset>
          {Object.entries(place).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="intent" value="invite" />
          {result?.message ? <Notice tone="error">{result.message}</Notice> : null}
          <InputField
            label="Email of the person to invite"
            name="inviteEmail"
            type="email"
            required
            autoComplete="off"
            defaultValue={result?.values.inviteEmail ?? ''}
            error={result?.fields.inviteEmail || undefined}
          />
          <fieldset aria-describedby={result?.fields.inviteRoles ? 'invite-roles-error' : undefined}>
            <legend>Their roles</legend>
            {result?.fields.inviteRoles ? (
              <p id="invite-roles-error" className="field__error" role="alert">
                {result.fields.inviteRoles}
              </p>
            ) : null}
            {STAFF_ROLES.map((role) => (
              <label key={role} className="admin-roles-form__role">
                <input type="checkbox" name="inviteRoles" value={role} />
                <span>
                  <strong>{ROLE_TEXT[role].name}</strong> <span className="support-muted">{ROLE_TEXT[role].does}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <p className="support-muted">
            They get a mail, and sign in with the company account within {INVITATION_DAYS} days, once.
          </p>
          <button type="submit" className="button button--primary admin-button--small" disabled={busy}>
            Send invitation
          </button>
        </Form>
      ) : null}
      {invitations.length === 0 ? (
        <p className="empty-state">No invitations open.</p>
      ) : (
        <ul className="admin-invitations">
          {invitations.map((invitation) => (
            <li key={invitation.id}>
              <Email address={invitation.email} /> · {invitation.roles.map(roleLabel).join(', ')} ·{' '}
              {invitation.acceptedAt
                ? `joined ${formatNzDateTime(invitation.acceptedAt)}`
                : `open until ${formatNzDateTime(invitation.expiresAt)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A button that does an action on one account: a form posted to the page's action. */
function ActionButton({
  place,
  user,
  action,
  className,
  disabled,
  children,
}: {
  place: Record<string, string>;
  user: AdminUser;
  action: Action;
  className: string;
  disabled: boolean;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" className="admin-inline-form" preventScrollReset>
      {Object.entries(place).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="intent" value={action} />
      <input type="hidden" name="userId" value={user.id} />
      <input type="hidden" name="email" value={user.email} />
      <button type="submit" className={className} disabled={disabled}>
        {children}
      </button>
    </Form>
  );
}

/** /admin/users: find accounts by email; verify, disable, enable, sign out, and give or take roles. */
export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { q, page, users, more, failed, confirming, done, manage, editingRoles, roleOptions, invitations } = loaderData;
  const inviteResult = actionData?.form === 'invite' ? actionData : undefined;
  const busy = useNavigation().state !== 'idle';
  const place = listPlace(q, page);
  const pageLink = (to: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(to) }).toString()}`;
  const small = 'button button--ghost admin-button--small';
  const refusal =
    actionData && !actionData.ok && actionData.form !== 'invite'
      ? (actionData.message ?? Object.values(actionData.fields)[0])
      : null;

  return (
    <section className="admin-page" aria-labelledby="users-title">
      <div className="admin-page__header">
        <h1 id="users-title">{ADMIN_TEXT.nav.users}</h1>
      </div>
      <div className="admin-toolbar">
        <SearchForm label="Find accounts by email" value={q} placeholder="Email address" />
      </div>
      {done && !actionData ? <Notice tone="success">{done}</Notice> : null}
      {refusal ? <Notice tone="error">{refusal}</Notice> : null}
      {failed ? (
        <div className="alert alert--error" role="alert">
          <p>{failed}</p>
          <Link className={small} to={`?${new URLSearchParams(place).toString()}`}>
            Try again
          </Link>
        </div>
      ) : users.length === 0 ? (
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
                  {user.roles.length > 0
                    ? user.roles.map((role) => (
                        <span key={role} className="badge badge--open admin-role">
                          {roleLabel(role)}
                        </span>
                      ))
                    : 'Customer'}
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
                  {!manage ? (
                    <span className="support-muted">{user.self ? 'This is you' : 'Read only'}</span>
                  ) : editingRoles === user.id && !user.deletion ? (
                    <RolesForm place={place} user={user} disabled={busy} />
                  ) : user.self ? (
                    <div className="admin-row-actions">
                      <span className="support-muted">This is you</span>
                      <StepButton place={place} step={{ roles: user.id }} className={small}>
                        Roles<span className="visually-hidden"> {user.email}</span>
                      </StepButton>
                    </div>
                  ) : confirming?.userId === user.id && actionsFor(user).includes(confirming.action) ? (
                    <div
                      className="admin-confirm"
                      role="group"
                      aria-label={`Confirm: ${LABEL[confirming.action]} ${user.email}`}
                    >
                      <p>{CONFIRM[confirming.action]!(user.email)}</p>
                      <ActionButton
                        place={place}
                        user={user}
                        action={confirming.action}
                        className="button button--primary admin-button--small"
                        disabled={busy}
                      >
                        Yes, {LABEL[confirming.action].toLowerCase()}
                      </ActionButton>
                      <StepButton place={place} className="button button--ghost admin-button--small">
                        Cancel
                      </StepButton>
                    </div>
                  ) : (
                    <div className="admin-row-actions">
                      {actionsFor(user).map((action) => {
                        const className = `${small}${action === 'disable' || action === 'erase' ? ' admin-button--danger' : ''}`;
                        const label = (
                          <>
                            {LABEL[action]}
                            <span className="visually-hidden"> {user.email}</span>
                          </>
                        );
                        return CONFIRM[action] ? (
                          <StepButton
                            key={action}
                            place={place}
                            step={{ action, userId: user.id }}
                            className={className}
                          >
                            {label}
                          </StepButton>
                        ) : (
                          <ActionButton
                            key={action}
                            place={place}
                            user={user}
                            action={action}
                            className={className}
                            disabled={busy}
                          >
                            {label}
                          </ActionButton>
                        );
                      })}
                      {user.deletion ? null : (
                        <StepButton place={place} step={{ roles: user.id }} className={small}>
                          Roles<span className="visually-hidden"> {user.email}</span>
                        </StepButton>
                      )}
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
      )}
      {invitations?.available ? (
        <Invitations
          place={place}
          invitations={invitations.invitations}
          manage={manage}
          busy={busy}
          result={inviteResult}
        />
      ) : null}
      {roleOptions ? (
        <section className="admin-section" aria-labelledby="role-options-title">
          <h2 id="role-options-title">What auditors may read</h2>
          <Form method="post" preventScrollReset className="admin-roles-form">
            {Object.entries(place).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <input type="hidden" name="intent" value="role-options" />
            <label className="admin-roles-form__role">
              <input
                type="checkbox"
                name="auditorReadsHeldMail"
                defaultChecked={roleOptions.auditorReadsHeldMail}
                disabled={!manage}
              />
              <span>Auditors may read held mail whole (what it says and its files)</span>
            </label>
            {manage ? (
              <button type="submit" className="button button--ghost admin-button--small" disabled={busy}>
                Save
              </button>
            ) : null}
          </Form>
        </section>
      ) : null}
    </section>
  );
}
