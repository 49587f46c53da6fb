import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { DATE_TEXTS_ID, keepDateTexts } from '../contracts/dates.ts';
import { loadScreensShown } from './features/auth/lazy-screens.tsx';
import { arriveBeforeHydrating } from './lib/thread-arrival.ts';

// The dates the server wrote on this page: hydrating reads them instead of building a formatter
// (contracts/dates.ts). The element goes before hydrating, as the app never draws it.
const dateTexts = document.getElementById(DATE_TEXTS_ID);
if (dateTexts) {
  const kept = new Map(Object.entries(JSON.parse(dateTexts.textContent || '{}') as Record<string, string>));
  keepDateTexts(() => kept);
  dateTexts.remove();
}

// A ticket's thread opens at its end now, not when hydrated: a click made while the page hydrates
// lands where the page then is (lib/thread-arrival.ts).
arriveBeforeHydrating();

// A login or enrolment screen on the page is loaded first, so it hydrates with the rest of it.
void loadScreensShown().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
