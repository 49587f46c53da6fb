import { lazy, Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { ADMIN_TEXT } from '../../contracts/admin.ts';
import { accountApi, authApi } from '../../contracts/api/accounts.ts';
import { KEYBOARD_FORM } from '../../contracts/shortcuts.ts';
import { AdminNav, sectionOf } from '../features/admin/admin-nav.tsx';
import { useConsoleShortcuts } from '../features/keyboard/use-shortcuts.ts';
import { EnrolmentScreen, LoginScreen } from '../features/auth/lazy-screens.tsx';
import { signInAction } from '../features/auth/sign-in-action.ts';
import { SIGN_IN_FORM } from '../features/auth/sign-in-forms.ts';
import { OIDC_TEXT } from '../../contracts/auth.ts';
import { confirmTotpAction, enrolmentOffer } from '../features/auth/second-factor-enrolment-action.ts';
import { ENROL_TOTP } from '../../contracts/second-factor.ts';
import { readForm } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { revalidateOnlyWhenAsked } from '../lib/revalidate.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Permission } from '../../contracts/roles.ts';
import type { Route } from './+types/admin';
// The login screen's styles (its code is loaded only when shown): linked with the page, not after it.
import '../styles/auth.css';
import '../styles/feedback.css';
import '../styles/admin.css';
import { Email } from '../components/ui/email.tsx';

/**
 * Every /admin route: the staff sign-in (the login screen's console variant) unless a verified
 * user is signed in, and for a signed-in user who is not an admin, a plain "not allowed" and nothing
 * else (no admin page mounts, so no admin API is even called). The role comes from the database on
 * every request.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, services, site } = context.get(requestContext);
  // A user whose address is (no longer) verified is signed out at once (docs/product.md §6).
  if (user && !user.emailVerified) await services.api.call(authApi.logout);
  // An admin whose session has not passed a second factor sets one up first (docs/product.md §2.15).
  const enrolment = user?.secondFactorPending ? await enrolmentOffer(services) : null;
  // The console's single-key shortcuts, as this staff member left them (decision 146).
  const keyboard =
    user?.role === 'admin' && !user.secondFactorPending ? await services.api.call(accountApi.keyboard) : null;
  return {
    user,
    enrolment,
    keyboardShortcuts: keyboard?.ok ? keyboard.data.keyboardShortcuts : true,
    provider: user ? null : providerSignIn(site.staffSignIn, request),
  };
}

/**
 * The company's identity provider on the login screen (decision 148): its button, why the last try
 * failed (?signIn=), and our own code step when the provider's sign-in waits for it (its ticket in
 * a cookie the callback set for /admin).
 */
function providerSignIn(name: string | null, request: Request) {
  if (!name) return null;
  const reason = new URL(request.url).searchParams.get('signIn');
  const refusal =
    reason && reason in OIDC_TEXT.refused ? OIDC_TEXT.refused[reason as keyof typeof OIDC_TEXT.refused] : null;
  const cookie = /(?:^|;\s*)oidc_code_step=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)/.exec(
    request.headers.get('cookie') ?? '',
  );
  const codeStep = cookie ? { ticket: cookie[1]!, email: Buffer.from(cookie[2]!, 'base64url').toString('utf8') } : null;
  return { name, refusal, codeStep };
}

export const shouldRevalidate = revalidateOnlyWhenAsked;

/** The login screen's forms (sign-in, a new verification email), and the second factor's enrolment form. */
export async function action({ request, context }: Route.ActionArgs) {
  const values = await readForm(request);
  const { services } = context.get(requestContext);
  if (values.intent === ENROL_TOTP) return confirmTotpAction(services, values);
  if (values.intent === KEYBOARD_FORM) {
    const kept = await services.api.call(accountApi.setKeyboard, {
      body: { keyboardShortcuts: values.keyboardShortcuts === 'true' },
    });
    return { form: KEYBOARD_FORM, ok: kept.ok, message: kept.ok ? null : kept.message, fields: {}, values: {} };
  }
  return signInAction(values, context, '/admin');
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: `${ADMIN_TEXT.title} | {company}`,
    description: 'The {company} support and operations console.',
    path: '/admin',
  }),
  { name: 'robots', content: 'noindex' },
];

/** Whether the staff member's roles open the console section of this address (every role opens /admin itself). */
const sectionOpen = (pathname: string, permissions: readonly Permission[]) => {
  const section = sectionOf(pathname);
  return !section || permissions.includes(section.needs);
};

export default function AdminLayout({ loaderData, actionData }: Route.ComponentProps) {
  const { user, enrolment, keyboardShortcuts, provider } = loaderData;
  const { pathname } = useLocation();
  const enrolled = actionData?.form === ENROL_TOTP ? actionData : undefined;
  if ((enrolled && 'recoveryCodes' in enrolled) || (user?.secondFactorPending && enrolment)) {
    return <EnrolmentScreen offer={enrolment ?? { ok: false, message: '' }} result={enrolled} />;
  }
  // The keyboard's choice is sent by a fetcher: its answer never reaches the page's forms.
  const signInResult = actionData?.form === ENROL_TOTP || actionData?.form === KEYBOARD_FORM ? undefined : actionData;
  if (!user || !user.emailVerified) {
    return (
      <LoginScreen
        area="/admin"
        result={
          signInResult ??
          (provider?.codeStep
            ? {
                ok: false,
                form: SIGN_IN_FORM,
                message: null,
                fields: {},
                values: { email: provider.codeStep.email, ticket: provider.codeStep.ticket },
              }
            : undefined)
        }
        signedInUnverified={user && !user.emailVerified ? user.email : undefined}
        provider={provider ? { name: provider.name, refusal: provider.refusal } : undefined}
      />
    );
  }
  if (user.role !== 'admin') {
    return (
      <section className="page page--narrow admin-denied" aria-labelledby="admin-denied-title">
        <p className="eyebrow">{ADMIN_TEXT.title}</p>
        <h1 id="admin-denied-title">{ADMIN_TEXT.notAllowedTitle}</h1>
        <p>{ADMIN_TEXT.notAllowed}</p>
        <p>
          Signed in as{' '}
          <strong>
            <Email address={user.email} />
          </strong>
          . Looking for help? <Link to="/support">Go to Support</Link>.
        </p>
      </section>
    );
  }
  return (
    <div className="admin-shell">
      <header className="admin-shell__header">
        <p className="eyebrow admin-shell__eyebrow">
          <Link to="/admin">{ADMIN_TEXT.title}</Link>
        </p>
        <p className="admin-shell__who">
          Signed in as{' '}
          <strong>
            <Email address={user.email} />
          </strong>
        </p>
      </header>
      <div className="admin-shell__body">
        <AdminNav permissions={user.permissions} />
        <div className="admin-shell__main">
          {sectionOpen(pathname, user.permissions) ? (
            <Outlet />
          ) : (
            <section className="admin-page" aria-labelledby="closed-title">
              <h1 id="closed-title">{ADMIN_TEXT.sectionClosedTitle}</h1>
              <p>{ADMIN_TEXT.sectionClosed}</p>
            </section>
          )}
        </div>
      </div>
      <ConsoleKeyboard stored={keyboardShortcuts} />
    </div>
  );
}

/** The palette's code is loaded the first time it opens (Ctrl+K, ⌘K or ?), never with the page. */
const CommandPalette = lazy(() => import('../features/keyboard/command-palette.tsx'));

/** The console's keyboard (docs/decisions/146-console-keyboard.md): shortcuts, and the palette once asked for. */
function ConsoleKeyboard({ stored }: { stored: boolean }) {
  const { palette, setPalette } = useConsoleShortcuts(stored);
  return palette ? (
    <Suspense fallback={null}>
      <CommandPalette mode={palette} onClose={() => setPalette(null)} />
    </Suspense>
  ) : null;
}
