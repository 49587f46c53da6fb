import { AsyncLocalStorage } from 'node:async_hooks';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { type EntryContext, type RouterContextProvider, ServerRouter } from 'react-router';
import { DATE_TEXTS_ID, type DateTexts, keepDateTexts } from '../contracts/dates.ts';
import { loadAllScreens } from './features/auth/lazy-screens.tsx';
import type { RouteHandle } from '../contracts/web-context.ts';
import { DISCLOSURE_SCRIPT } from './lib/disclosure-script.ts';
import { EnhancementsContext, NonceContext, requestContext } from './lib/request-context.ts';
import { DisclosureScriptContext } from './lib/static-page.ts';
import { pageEdits } from './page-stream.ts';

// The Fastify web handler sets values under this key; exporting it from the server build gives the
// server the very same key object that the route modules read.
export { requestContext };

export const streamTimeout = 5_000;

// The dates each page is drawn with, kept per request (contracts/dates.ts): a render goes on across
// ticks, and a page must never carry another request's dates.
const pageDates = new AsyncLocalStorage<DateTexts>();
keepDateTexts(() => pageDates.getStore());

/**
 * The page's dates as a data block (never run: a script of type application/json), with `<` written
 * as an escape so no text in it can end the element.
 */
function dateTextsElement(texts: DateTexts, nonce: string | undefined): Buffer {
  const json = JSON.stringify(Object.fromEntries(texts)).replaceAll('<', '\\u003c');
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : '';
  return Buffer.from(`<script type="application/json" id="${DATE_TEXTS_ID}"${nonceAttribute}>${json}</script>`);
}

/** The lazy screens, loaded once: a page draws its screen as the browser will hydrate it (lazy-screens.tsx). */
const screensLoaded = loadAllScreens();

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, enhancements } = loadContext.get(requestContext);
  await screensLoaded;
  // Pages are rendered whole (onAllReady): the first byte already holds the content, for readers
  // without JavaScript and for crawlers alike. A page whose route says it streams (handle.streams:
  // the staff ticket page and its delivery card, docs/decisions/151-delivery-card.md) is sent once
  // its shell is ready, and its slow part follows in the same response.
  const streams = routerContext.staticHandlerContext.matches.some(
    (match) => (routerContext.routeModules[match.route.id]?.handle as RouteHandle | undefined)?.streams,
  );
  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const dates: DateTexts = new Map();
    const { pipe, abort } = pageDates.run(dates, () =>
      renderToPipeableStream(
        <NonceContext.Provider value={nonce}>
          <EnhancementsContext.Provider value={enhancements}>
            <DisclosureScriptContext.Provider value={DISCLOSURE_SCRIPT}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </DisclosureScriptContext.Provider>
          </EnhancementsContext.Provider>
        </NonceContext.Provider>,
        {
          nonce,
          ...(streams ? { onShellReady: send } : { onAllReady: send }),
          onShellError(error: unknown) {
            reject(error);
          },
          onError(error: unknown) {
            responseStatusCode = 500;
            console.error(error);
          },
        },
      ),
    );
    function send() {
      // The scripts' preloads at low priority, and the dates the page was drawn with, if it drew
      // any (page-stream.ts).
      const body = pageEdits({
        beforeBodyEnd: () => (dates.size ? dateTextsElement(dates, nonce) : null),
        onEnd: () => {
          clearTimeout(timeoutId);
          timeoutId = undefined;
        },
      });
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      pipe(body);
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
    }
  });
}
