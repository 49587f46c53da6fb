import { Form, useNavigation } from 'react-router';
import type { AccountView } from './account-data.ts';

/**
 * Where this account is signed in: each session with its browser and system, when it started and
 * was last seen, and its network; a small form per other session signs it out, one more signs out
 * every other session. Each is a plain form posted to /account (works without JavaScript).
 */
export function AccountSessions({ sessions, error }: { sessions: AccountView['sessions']; error: string | null }) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' ? navigation.formData : undefined;
  const busyId = sending?.get('intent') === 'end-session' ? sending.get('id') : null;
  const endingOthers = sending?.get('intent') === 'end-others';
  const others = sessions.filter((s) => !s.current).length;

  return (
    <section className="account-section" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title" className="account-section__title">
        Where you are signed in
      </h2>
      <p className="account-section__lead">
        Sign out any device you do not recognise or no longer use. Its open pages show the sign-in screen at once.
      </p>
      {error ? (
        <div className="alert alert--error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <ul className="account-sessions" aria-label="Sessions">
        {sessions.map((session) => (
          <li key={session.id} className="account-session" data-current={session.current || undefined}>
            <div className="account-session__what">
              <p className="account-session__device">
                <strong>{session.device}</strong>
                {session.current ? <span className="account-session__here">This device</span> : null}
              </p>
              <dl className="account-session__facts">
                <div>
                  <dt>Signed in</dt>
                  <dd>{session.createdAt}</dd>
                </div>
                <div>
                  <dt>Last seen</dt>
                  <dd>{session.lastSeenAt}</dd>
                </div>
                <div>
                  <dt>Network</dt>
                  <dd>{session.place ?? 'Unknown'}</dd>
                </div>
              </dl>
            </div>
            {session.current ? null : (
              <Form method="post" action="/account" className="account-session__form">
                <input type="hidden" name="intent" value="end-session" />
                <input type="hidden" name="id" value={session.id} />
                <button
                  type="submit"
                  className="button button--ghost"
                  disabled={busyId === session.id}
                  aria-label={`Sign out ${session.device}, signed in ${session.createdAt}`}
                >
                  {busyId === session.id ? 'Signing out…' : 'Sign out'}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Form method="post" action="/account" className="account-section__actions">
          <input type="hidden" name="intent" value="end-others" />
          <button type="submit" className="button button--primary" disabled={endingOthers}>
            {endingOthers ? 'Signing out…' : 'Sign out everywhere else'}
          </button>
        </Form>
      ) : (
        <p className="account-section__note">You are not signed in anywhere else.</p>
      )}
    </section>
  );
}
