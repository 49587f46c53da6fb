import { type ComponentProps, lazy, Suspense } from 'react';
import { preloadModule } from 'react-dom';
import files from 'virtual:lazy-screen-files';
import { useNonce } from '../../lib/request-context.ts';

/**
 * The screens a signed-in visitor never sees, loaded only when one is shown: the login screen of
 * /support and /admin, and the console's second-factor enrolment. A signed-in page then downloads
 * none of their code. The server renders the whole page before it sends it (entry.server.tsx,
 * onAllReady), so the HTML holds the screen and its forms work without JavaScript; it also asks
 * the browser to preload the screen's files (vite.config.ts, lazyScreenFiles), so React hydrates
 * the screen with the rest of the page.
 */
const LazyLoginScreen = lazy(() => import('./login-screen.tsx').then((m) => ({ default: m.LoginScreen })));
const LazyEnrolmentScreen = lazy(() =>
  import('./second-factor-enrolment.tsx').then((m) => ({ default: m.EnrolmentScreen })),
);

/** The screen's files, preloaded with the response's nonce like every other script (the CSP). */
function usePreload(screen: keyof typeof files) {
  const nonce = useNonce();
  for (const href of files[screen] ?? []) preloadModule(href, { as: 'script', nonce: nonce || undefined });
}

export function LoginScreen(props: ComponentProps<typeof LazyLoginScreen>) {
  usePreload('login');
  return (
    <Suspense fallback={null}>
      <LazyLoginScreen {...props} />
    </Suspense>
  );
}

export function EnrolmentScreen(props: ComponentProps<typeof LazyEnrolmentScreen>) {
  usePreload('enrolment');
  return (
    <Suspense fallback={null}>
      <LazyEnrolmentScreen {...props} />
    </Suspense>
  );
}
