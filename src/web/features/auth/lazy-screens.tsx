import { type ComponentProps, lazy, type ReactNode, Suspense } from 'react';
import { preloadModule } from 'react-dom';
import files from 'virtual:lazy-screen-files';
import { useNonce } from '../../lib/request-context.ts';

/**
 * The screens a signed-in visitor never sees, loaded only when one is shown: the login screen of
 * /support and /admin, and the console's second-factor enrolment. A signed-in page then downloads
 * none of their code. The server renders the whole page before it sends it (entry.server.tsx,
 * onAllReady), so the HTML holds the screen and its forms work without JavaScript; it also asks
 * the browser to preload the screen's files (vite.config.ts, lazyScreenFiles), and the browser loads
 * them before it hydrates (loadScreensShown), so React hydrates the screen with the rest of the page.
 */
const load = {
  login: () => import('./login-screen.tsx').then((m) => m.LoginScreen),
  enrolment: () => import('./second-factor-enrolment.tsx').then((m) => m.EnrolmentScreen),
};
type Screen = keyof typeof load;
type Screens = { [name in Screen]: Awaited<ReturnType<(typeof load)[name]>> };

/** The screens loaded before hydrating (loadScreensShown): rendered as they are, never suspending. */
const loaded: Partial<Screens> = {};
const LazyLoginScreen = lazy(() => load.login().then((screen) => ({ default: screen })));
const LazyEnrolmentScreen = lazy(() => load.enrolment().then((screen) => ({ default: screen })));

/**
 * Before the browser hydrates a page: loads the code of the lazy screens the server drew on it
 * (their files are preloaded, so this waits for little). React then hydrates the screen in its first
 * pass, as it does the rest of the page, instead of leaving the server's copy in place until a
 * second pass: an update that reached the screen in between (under load, before its file arrived)
 * made React draw the screen again beside a hidden server copy, two forms with one set of ids.
 */
export async function loadScreensShown(): Promise<void> {
  await loadScreens(
    (Object.keys(load) as Screen[]).filter((name) => document.querySelector(`[data-screen="${name}"]`)),
  );
}

/**
 * The server loads every screen before its first page (entry.server.tsx): it then draws a screen
 * as the browser hydrates it, loaded and outside any Suspense boundary.
 */
export const loadAllScreens = () => loadScreens(Object.keys(load) as Screen[]);

async function loadScreens(names: Screen[]): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      Object.assign(loaded, { [name]: await load[name]() });
    }),
  );
}

/** The screen's files, preloaded with the response's nonce like every other script (the CSP). */
function usePreload(screen: Screen) {
  const nonce = useNonce();
  for (const href of files[screen] ?? []) preloadModule(href, { as: 'script', nonce: nonce || undefined });
}

/**
 * The screen in a marked box (display: contents) that says which screen the page shows. A loaded
 * screen is drawn as it is; only one still loading (a screen first shown after a navigation) waits
 * in a Suspense boundary. The server and a hydrating page always have theirs loaded, so no boundary
 * is hydrated apart from the page: a boundary React hydrates after the rest could be updated first
 * (any re-render above it gives it new children), and React then drew the screen again beside its
 * hidden server copy (two enrolment forms, one hidden: CI's who-answered failure, seen twice).
 */
function ScreenBox({ name, children, loading }: { name: Screen; children: ReactNode; loading: boolean }) {
  usePreload(name);
  return (
    <div className="lazy-screen" data-screen={name}>
      {loading ? <Suspense fallback={null}>{children}</Suspense> : children}
    </div>
  );
}

export function LoginScreen(props: ComponentProps<Screens['login']>) {
  const Loaded = loaded.login;
  return (
    <ScreenBox name="login" loading={!Loaded}>
      {Loaded ? <Loaded {...props} /> : <LazyLoginScreen {...props} />}
    </ScreenBox>
  );
}

export function EnrolmentScreen(props: ComponentProps<Screens['enrolment']>) {
  const Loaded = loaded.enrolment;
  return (
    <ScreenBox name="enrolment" loading={!Loaded}>
      {Loaded ? <Loaded {...props} /> : <LazyEnrolmentScreen {...props} />}
    </ScreenBox>
  );
}
