import { forgetAllDrafts } from '../../lib/drafts.ts';
import { announceSignOut } from '../../lib/session-events.ts';

/**
 * A form, not a script: it ends the session on the server (routes/sign-out.tsx) and the redirect
 * reloads the home page, so every page forgets the user, with JavaScript or without. With
 * JavaScript it also tells the site's other tabs, which then show the login screen, and forgets the
 * drafts this browser kept (lib/drafts.ts).
 */
export function SignOutButton() {
  return (
    <form
      method="post"
      action="/sign-out"
      className="site-nav__form"
      onSubmit={() => {
        forgetAllDrafts();
        announceSignOut();
      }}
    >
      <button type="submit" className="site-nav__link site-nav__button">
        Sign Out
      </button>
    </form>
  );
}
