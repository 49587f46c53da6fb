import { Link, Outlet } from 'react-router';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { signInAction } from '../features/auth/sign-in-action.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/support';
import '../styles/auth.css';
import { Email } from '../components/ui/email.tsx';
import { PRIVACY_TEXT } from '../../contracts/privacy.ts';

/**
 * Every /support route (docs/product.md §2): the login screen unless a user with a verified email is signed
 * in. Who is signed in comes from the server (the session, read from the database per request).
 */
export function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(requestContext);
  return { user };
}

/** The login screen's form, sent without JavaScript (or before it loaded). */
export function action({ request, context }: Route.ActionArgs) {
  return signInAction(request, context, '/support');
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
          <a href="/api/account/export" download title={PRIVACY_TEXT.downloadHint}>
            {PRIVACY_TEXT.downloadData}
          </a>
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
