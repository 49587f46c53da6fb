import { Form, Link, redirect, useNavigation } from 'react-router';
import { notificationsApi } from '../../contracts/api/notifications.ts';
import { NOTIFICATION_SETTINGS, NOTIFICATION_TEXT, type NotificationKey } from '../../contracts/notifications.ts';
import { AuthCard, FormError, SignInFirst, SuccessPanel } from '../features/auth/auth-form.tsx';
import { readForm, refused } from '../lib/form.ts';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/account-notifications';
import '../styles/auth.css';

/**
 * /account/notifications: which notification mails the signed-in person gets. A plain form posted
 * to this page's action: it works the same with JavaScript on or off. A save answers with a redirect
 * (303) to the page, so reloading it afterwards does not send the form again; `?saved=1` tells the
 * page to say so (it stays true on a reload: the settings are saved).
 */
const PAGE = '/account/notifications';

export async function loader({ request, context }: Route.LoaderArgs) {
  const { api } = context.get(requestContext).services;
  const read = await api.call(notificationsApi.preferences);
  const preferences = read.ok ? read.data : null;
  return { preferences, saved: preferences !== null && new URL(request.url).searchParams.get('saved') === '1' };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { api } = context.get(requestContext).services;
  const values = await readForm(request);
  const current = await api.call(notificationsApi.preferences);
  // Nobody signed in (the session ended meanwhile): the page asks them to sign in.
  if (!current.ok) return redirect(PAGE, 303);
  // A box that is not ticked is not sent at all: every setting this person has is set from the form.
  const changes: Partial<Record<NotificationKey, boolean>> = {};
  for (const setting of NOTIFICATION_SETTINGS)
    if (current.data[setting.key] !== undefined) changes[setting.key] = values[setting.key] === 'on';
  const saved = await api.call(notificationsApi.setPreferences, { body: changes });
  return saved.ok ? redirect(`${PAGE}?saved=1`, 303) : refused(saved, values);
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, {
    title: `${NOTIFICATION_TEXT.title} | {company}`,
    description: 'Choose which notification mails {company} sends you.',
    path: PAGE,
  }),
  { name: 'robots', content: 'noindex' },
];

export default function AccountNotifications({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { preferences, saved } = loaderData;
  if (!preferences) {
    return <SignInFirst title={NOTIFICATION_TEXT.title} />;
  }
  const busy = navigation.state === 'submitting';
  return (
    <AuthCard eyebrow="Account" title={NOTIFICATION_TEXT.title} lead={NOTIFICATION_TEXT.lead}>
      {saved && !busy ? (
        <SuccessPanel title={NOTIFICATION_TEXT.saved}>
          <p>
            <Link to="/support">Back to Support</Link>
          </p>
        </SuccessPanel>
      ) : null}
      <FormError message={actionData && !actionData.ok ? actionData.message : null} />
      <Form method="post" action={PAGE} className="notification-settings">
        <fieldset className="notification-settings__group">
          <legend className="notification-settings__legend">Send me a mail about</legend>
          {NOTIFICATION_SETTINGS.filter((s) => preferences[s.key] !== undefined).map((setting) => (
            <div key={setting.key} className="notification-settings__option">
              <input
                id={`notify-${setting.key}`}
                type="checkbox"
                name={setting.key}
                defaultChecked={preferences[setting.key]}
                aria-describedby={`notify-${setting.key}-hint`}
              />
              <label htmlFor={`notify-${setting.key}`}>{setting.label}</label>
              <p id={`notify-${setting.key}-hint`} className="field__hint">
                {setting.hint}
              </p>
            </div>
          ))}
        </fieldset>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </Form>
    </AuthCard>
  );
}
