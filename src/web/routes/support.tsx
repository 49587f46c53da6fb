import { Link, Outlet } from 'react-router';
import { authApi } from '../../contracts/api/accounts.ts';
import { privacyApi } from '../../contracts/api/privacy.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import { PRIVACY_TEXT } from '../../contracts/privacy.ts';
import { Email } from '../components/ui/email.tsx';
import { LoginScreen } from '../features/auth/lazy-screens.tsx';
import { signInAction } from '../features/auth/sign-in-action.ts';
import { readForm } from '../lib/form.ts';
import { revalidateOnlyWhenAsked } from '../lib/revalidate.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support';
// The login screen's styles (its code is loaded only when shown): linked with the page, not after it.
import '../styles/auth.css';
import '../styles/feedback.css';

/**
 * Every /support route (docs/product.md §2): the login screen unless a user with a verified email is signed
 * in. Who is signed in comes from the server (the session, read from the database per request).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { user, services } = context.get(requestContext);
  // A user whose address is (no longer) verified is signed out at once (docs/product.md §6).
  if (user && !user.emailVerified) await services.api.call(authApi.logout);
  return { user };
}

/** Who is signed in changes only with a sign-in or sign-out (a new page) or a lost session: not with each reply sent. */
export const shouldRevalidate = revalidateOnlyWhenAsked;

/** The login screen's forms (sign-in, and a new verification email), posted to this address. */
export async function action({ request, context }: Route.ActionArgs) {
  return signInAction(await readForm(request), context, '/support');
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...pageMeta(matches, {
    title: loaderData?.user?.emailVerified ? 'Support | {company}' : 'Sign in | {company}',
    description: 'Contact the {company} support team about deliveries, trips, payments and your account.',
    path: '/support',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function SupportLayout({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  if (!user || !user.emailVerified) {
    return (
      <LoginScreen
        area="/support"
        result={actionData}
        signedInUnverified={user && !user.emailVerified ? user.email : undefined}
      />
    );
  }
  return (
    <div className="support-shell">
      <header className="support-shell__header">
        <div>
          <h1>Support</h1>
          <p className="support-shell__welcome">
            Welcome back,{' '}
            <strong>
              <Email address={user.email} />
            </strong>
            .
          </p>
        </div>
        <nav className="support-shell__account" aria-label="Account">
          <Link to="/account/notifications">Email notifications</Link>
          <Link to="/account/password">Change password</Link>
          {/* A file (JSON) the browser saves, not a page. */}
          <a href={pathOf(privacyApi.exportData)} download title={PRIVACY_TEXT.downloadHint}>
            {PRIVACY_TEXT.downloadData}
          </a>
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
