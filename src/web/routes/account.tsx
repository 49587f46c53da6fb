import { Link } from 'react-router';
import { ACCOUNT_MESSAGES } from '../../contracts/account.ts';
import { privacyApi } from '../../contracts/api/privacy.ts';
import { pathOf } from '../../contracts/endpoint.ts';
import { PRIVACY_TEXT } from '../../contracts/privacy.ts';
import { Email } from '../components/ui/email.tsx';
import { SignInFirst, SuccessPanel } from '../features/auth/auth-form.tsx';
import { accountAction, loadAccount } from '../features/account/account-data.ts';
import { AccountSessions } from '../features/account/account-sessions.tsx';
import { ChangeEmailForm } from '../features/account/change-email-form.tsx';
import { NameForm } from '../features/account/name-form.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import type { Route } from './+types/account';
import '../styles/auth.css';
import '../styles/account.css';

/**
 * /account (docs/product.md §2.13): the signed-in person's account in one place: who they are,
 * password and email, where they are signed in, mail settings and their data. Every form on it
 * posts to this page's action (features/account/account-data.ts) and works without JavaScript.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return loadAccount(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return accountAction(request, context);
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: `${ACCOUNT_MESSAGES.title} | {company}`,
    description: 'Your {company} account: email, password, where you are signed in, and your data.',
    path: '/account',
  }),
  { name: 'robots', content: 'noindex' },
];

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { account, done } = loaderData;
  if (!account) return <SignInFirst title={ACCOUNT_MESSAGES.title} />;
  const result = actionData;
  return (
    <div className="account-page">
      <header className="account-page__header">
        <p className="eyebrow">Account</p>
        <h1>{ACCOUNT_MESSAGES.title}</h1>
      </header>
      {done ? (
        <SuccessPanel title="Done">
          <p>{done}</p>
        </SuccessPanel>
      ) : null}

      <section className="account-section" aria-labelledby="account-profile-title">
        <h2 id="account-profile-title" className="account-section__title">
          Profile
        </h2>
        <dl className="account-profile">
          <div>
            <dt>Name</dt>
            <dd>{account.name ?? 'Not given'}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>
              <Email address={account.email} />
            </dd>
          </div>
          <div>
            <dt>Verified</dt>
            <dd>{account.emailVerified ? 'Yes' : 'Not yet'}</dd>
          </div>
          <div>
            <dt>Member since</dt>
            <dd>{account.memberSince}</dd>
          </div>
        </dl>
        <NameForm name={account.name} result={result?.form === 'set-name' ? result : undefined} />
        <ul className="account-links" aria-label="Security">
          <li>
            <Link to="/account/password">Change password</Link>
          </li>
          <li>
            <Link to="/account/notifications">Email notifications</Link>
          </li>
        </ul>
      </section>

      <ChangeEmailForm
        email={account.email}
        pendingEmail={account.pendingEmail}
        result={result?.form === 'change-email' ? result : undefined}
      />

      <AccountSessions
        sessions={account.sessions}
        error={result?.form === 'sessions' ? (result.message ?? null) : null}
      />

      <section className="account-section" aria-labelledby="account-data-title">
        <h2 id="account-data-title" className="account-section__title">
          Your data
        </h2>
        <ul className="account-links">
          <li>
            {/* A file (JSON) the browser saves, not a page. */}
            <a href={pathOf(privacyApi.exportData)} download title={PRIVACY_TEXT.downloadHint}>
              {PRIVACY_TEXT.downloadData}
            </a>
          </li>
          <li>
            <Link to="/account/delete" className="account-links__danger">
              Delete my account
            </Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
