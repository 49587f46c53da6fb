import { useState } from 'react';

/** Ends the session on the server, then reloads so every page forgets the user. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="site-nav__link site-nav__button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' });
        } finally {
          window.location.assign('/');
        }
      }}
    >
      Sign Out
    </button>
  );
}
