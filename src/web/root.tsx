import { type ReactNode, useEffect } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRevalidator,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import { SiteFooter } from './components/layout/site-footer.tsx';
import { SiteHeader } from './components/layout/site-header.tsx';
import { NotFound } from './components/layout/not-found.tsx';
import type { RootData } from './lib/page-meta.ts';
import { requestContext, useEnhancements, useNonce } from './lib/request-context.ts';
import { revalidateOnlyWhenAsked } from './lib/revalidate.ts';
import { onSessionLost } from './lib/session-events.ts';
import { staticPageHandle, useDisclosureScript } from './lib/static-page.ts';
import './styles/app.css';
import './styles/forms.css';

export function loader({ context }: Route.LoaderArgs): RootData {
  const { site, user, pageError } = context.get(requestContext);
  return { site, user, pageError: pageError ?? null };
}

// Root data (company name, who is signed in): see lib/revalidate.ts.
export const shouldRevalidate = revalidateOnlyWhenAsked;

/** A signed-in page shows the login screen as soon as the session is found gone (lib/session-events.ts). */
function SessionWatch({ signedIn }: { signedIn: boolean }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!signedIn) return;
    return onSessionLost(() => void revalidator.revalidate());
  }, [signedIn, revalidator]);
  return null;
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<RootData>('root');
  const companyName = data?.site.companyName ?? 'Bagspace';
  const matches = useMatches();
  const page = staticPageHandle(matches.map((m) => m.handle));
  const enhancements = useEnhancements();
  const disclosureScript = useDisclosureScript();
  const script = page?.enhance ? enhancements[page.enhance] : undefined;
  return (
    <html lang="en-NZ">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, interactive-widget=resizes-content" />
        <meta name="theme-color" content="#0b3a5b" />
        <Meta />
        <Links />
        <noscript>
          <link rel="stylesheet" href="/noscript.css" />
        </noscript>
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader companyName={companyName} signedIn={Boolean(data?.user)} isAdmin={data?.user?.role === 'admin'} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter companyName={companyName} />
        {page === null ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          <>
            {/* A constant, not content: the menu and FAQ answers of a page without the app. */}
            <script nonce={nonce} dangerouslySetInnerHTML={{ __html: disclosureScript }} />
            {script ? (
              <>
                {script.imports.map((href) => (
                  <link key={href} rel="modulepreload" href={href} nonce={nonce} />
                ))}
                <script type="module" src={script.src} nonce={nonce} />
              </>
            ) : null}
          </>
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // A request the page cannot take (a write to a page without a form, a form too large): a readable
  // page in the site's layout, with the status the server sends, never a JSON body in the browser.
  if (loaderData.pageError) {
    return (
      <section className="page page--narrow" aria-labelledby="page-error-title">
        <h1 id="page-error-title">That did not work</h1>
        <p>{loaderData.pageError.message}</p>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </section>
    );
  }
  return (
    <>
      <SessionWatch signedIn={loaderData.user !== null} />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <section className="page page--narrow">
      <h1>Something went wrong</h1>
      <p>We could not show this page. Please try again in a moment.</p>
    </section>
  );
}
