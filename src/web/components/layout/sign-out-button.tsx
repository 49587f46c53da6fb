/**
 * A form, not a script: it ends the session on the server (routes/sign-out.tsx) and the redirect
 * reloads the home page, so every page forgets the user, with JavaScript or without.
 */
export function SignOutButton() {
  return (
    <form method="post" action="/sign-out" className="site-nav__form">
      <button type="submit" className="site-nav__link site-nav__button">
        Sign Out
      </button>
    </form>
  );
}
