import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { createRequestListener } from '@react-router/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { ENHANCEMENTS, type EnhancementManifest, type RequestContextValue } from '../../contracts/web-context.ts';
import { AppError } from '../errors.ts';
import { preparedBody, sendPrepared } from '../plugins/prepared.ts';
import { type CachedPage, type PageCacheOptions, createPageCache, headersToSend } from './page-cache.ts';
import { routeNeeds } from './route-needs.ts';
import { importServerBuild } from './server-build.ts';

/**
 * Serves the React Router app (server-rendered pages) and its built assets from one Fastify
 * catch-all. Security headers set by Fastify hooks are copied onto the raw response before the
 * reply is handed to React Router.
 */
export interface WebHandlerOptions {
  /** The built server bundle, or a loader for it (Vite's in development). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** build/client, served as static files; absent in development, where Vite serves assets. */
  clientDir?: string;
  mode: 'production' | 'development';
  contextFor(request: FastifyRequest, reply: FastifyReply): Promise<Omit<RequestContextValue, 'enhancements'>>;
  /** Express-style middleware run before the app (Vite's dev server). */
  devMiddleware?: (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
    next: () => void,
  ) => void;
  /** Keeps whole anonymous pages of these paths in memory until content changes (page-cache.ts). */
  pageCache?: PageCacheOptions;
}

/** A browser navigation (it wants HTML), as opposed to a script or an API client. */
const isNavigation = (request: FastifyRequest) =>
  request.headers['sec-fetch-mode'] === 'navigate' || (request.headers.accept ?? '').includes('text/html');

type EntryWithContext = { requestContext: Parameters<RouterContextProvider['set']>[0] };

/**
 * Whether a page read with GET is sent compressed when it is not a kept page: a browser's
 * navigation that accepts brotli or gzip, started on this site or by the person (the address bar,
 * a bookmark). A navigation another site started (Sec-Fetch-Site cross-site or same-site), or
 * from a browser that does not say, is sent as is: a page of someone's own data, compressed, with
 * words of another site's choosing in it (a search), would let whoever watches the sizes guess at
 * the rest (BREACH). React Router's `.data` requests stream, and are left as they are.
 */
function compressible(request: FastifyRequest, pathname: string): boolean {
  if (request.method !== 'GET' || pathname.endsWith('.data') || !isNavigation(request)) return false;
  const site = request.headers['sec-fetch-site'];
  if (site !== 'same-origin' && site !== 'none') return false;
  return /\b(br|gzip)\b/.test(request.headers['accept-encoding'] ?? '');
}

export const BUILD_DIR = path.resolve('build');

export async function loadProductionBuild(buildDir = BUILD_DIR): Promise<ServerBuild> {
  const file = path.join(buildDir, 'server', 'index.js');
  if (!fs.existsSync(file)) {
    throw new Error(`The web app is not built (${file} is missing). Run "npm run build" or "npm start".`);
  }
  return importServerBuild(file);
}

/**
 * Where each page script of ENHANCEMENTS (src/contracts/web-context.ts) is: in a build, the hashed
 * files the build listed in enhancements.json beside the client directory; in development, the
 * source, which Vite serves.
 */
export function loadEnhancements(clientDir: string | undefined): EnhancementManifest {
  if (!clientDir) {
    return Object.fromEntries(
      Object.entries(ENHANCEMENTS).map(([name, file]) => [name, { src: `/${file}`, imports: [] }]),
    );
  }
  const file = path.join(clientDir, '..', 'enhancements.json');
  if (!fs.existsSync(file))
    throw new Error(`The web app build is incomplete (${file} is missing). Run "npm run build".`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as EnhancementManifest;
}

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`)
        : [`${prefix}/${entry.name}`],
    );
}

export async function webHandler(app: FastifyInstance, options: WebHandlerOptions) {
  const store = new AsyncLocalStorage<RequestContextValue>();
  const enhancements = loadEnhancements(options.clientDir);
  const contextFor = async (request: FastifyRequest, reply: FastifyReply): Promise<RequestContextValue> => ({
    ...(await options.contextFor(request, reply)),
    enhancements,
  });
  const loadBuild = typeof options.build === 'function' ? options.build : async () => options.build as ServerBuild;

  const listener = createRequestListener({
    mode: options.mode,
    build: loadBuild,
    getLoadContext: async () => {
      const build = await loadBuild();
      const value = store.getStore();
      if (!value) throw new Error('request context missing');
      const provider = new RouterContextProvider();
      provider.set((build.entry.module as unknown as EntryWithContext).requestContext, value);
      return provider;
    },
  });

  // Built assets: a fixed set, known at start-up; hashed files under /assets never change.
  const staticFiles = new Set(
    options.clientDir && fs.existsSync(options.clientDir) ? listFiles(options.clientDir) : [],
  );
  if (options.clientDir) {
    // The build writes .br and .gz beside each text asset (vite.config.ts); they are sent as is.
    await app.register(fastifyStatic, { root: options.clientDir, serve: false, preCompressed: true });
  }

  const pages = options.pageCache ? createPageCache(options.pageCache) : null;
  // A kept page is sent before any per-request work on its next request (plugins/prepared.ts).
  if (pages) app.preparedAnswers.add((url) => pages.peek(url));
  const renderToString = createRequestHandler(loadBuild, options.mode);
  /** Renders a page read with GET in full (not streamed): the entry renders it whole anyway (onAllReady). */
  const renderWhole = async (
    request: FastifyRequest,
    context: Omit<RequestContextValue, 'enhancements'> | RequestContextValue,
  ): Promise<Response> => {
    const build = await loadBuild();
    const provider = new RouterContextProvider();
    provider.set((build.entry.module as unknown as EntryWithContext).requestContext, { ...context, enhancements });
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
    return renderToString(new Request(url, { method: 'GET', headers }), provider);
  };
  /** Renders a page in full for the cache; the page's own nonce becomes a placeholder. */
  const renderForCache = async (request: FastifyRequest, reply: FastifyReply): Promise<CachedPage> =>
    pages!.fromResponse(await renderWhole(request, await contextFor(request, reply)), reply.cspNonce);

  // React Router reads a page's form body itself, from the raw request: Fastify leaves it unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  /** Which pages take a POST, how large, and which are kept whole: read from the route modules (route-needs.ts). */
  const needsOf = async () => routeNeeds(await loadBuild());

  /**
   * A request the page cannot take: a browser navigation gets the site's page with the message and
   * the status (never JSON in a browser); any other client the JSON error shape.
   */
  const refuse = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    code: string,
    message: string,
  ) => {
    if (!isNavigation(request)) return reply.code(status).send({ error: { status: code, message } });
    const build = await loadBuild();
    const provider = new RouterContextProvider();
    provider.set((build.entry.module as unknown as EntryWithContext).requestContext, {
      ...(await contextFor(request, reply)),
      pageError: { status, message },
    });
    const headers = new Headers({ accept: 'text/html' });
    const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
    const page = await renderToString(new Request(url, { method: 'GET', headers }), provider);
    return reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(await page.text());
  };

  // A refusal before the page (another site's form, a sign-in limit): a page for a browser too.
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AppError && isNavigation(request)) {
      if (error.headers) reply.headers(error.headers);
      return refuse(request, reply, error.httpStatus, error.code, error.message);
    }
    throw error;
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      // Pages only read, but for those whose route has an action: a POST to them (a plain form, or
      // React Router's `.data` fetch of the same page) reaches React Router, up to the page's limit.
      // Anything else is refused here, before React Router would answer with an error naming the
      // route and print its stack.
      const needs = await needsOf();
      const limit = request.method === 'POST' ? needs.formLimit(pathname) : null;
      const formPost = limit !== null;
      // No length and no chunks means no body; a chunked body of unknown length is refused.
      const declared = request.headers['content-length'] ?? (request.headers['transfer-encoding'] ? Infinity : 0);
      if (formPost && Number(declared) > limit) {
        return refuse(request, reply, 413, 'INVALID_ARGUMENT', 'This form is too large.');
      }
      if (request.method !== 'GET' && request.method !== 'HEAD' && !formPost) {
        reply.header('allow', 'GET, HEAD');
        return refuse(request, reply, 405, 'INVALID_ARGUMENT', 'This page can only be read.');
      }
      if (staticFiles.has(pathname)) {
        const immutable = pathname.startsWith('/assets/');
        return reply.sendFile(pathname.slice(1), {
          immutable,
          maxAge: immutable ? 31536000 * 1000 : 3600 * 1000,
          dotfiles: 'deny',
        });
      }
      if (!formPost && pages?.accepts(request, needs.cachedPaths)) {
        const page = await pages.get(request, () => renderForCache(request, reply));
        return pages.send(request, reply, page);
      }
      const context = await contextFor(request, reply);
      // A page that streams a slow part (handle.streams) goes out as it renders: compressed whole, it
      // would wait for that part, which is what streaming it is for (docs/decisions/151-delivery-card.md).
      if (compressible(request, pathname) && !needs.streams(pathname)) {
        // A page of someone's own (signed in, so not kept): rendered whole, then compressed.
        const response = await renderWhole(request, context);
        reply.status(response.status);
        if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) {
          // Not a page (a resource route's answer, perhaps bytes): sent as it came.
          for (const [name, value] of headersToSend(response)) reply.header(name, value);
          return reply.send(Buffer.from(await response.arrayBuffer()));
        }
        return sendPrepared(request, reply, {
          headers: headersToSend(response),
          ...preparedBody(Buffer.from(await response.arrayBuffer())),
          compress: true,
        });
      }
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.hijack();
      await store.run(context, async () => {
        const run = () =>
          new Promise<void>((resolve) => {
            reply.raw.once('close', () => resolve());
            listener(request.raw, reply.raw);
          });
        if (options.devMiddleware) {
          await new Promise<void>((resolve) => {
            options.devMiddleware!(request.raw, reply.raw, () => run().then(resolve));
            reply.raw.once('close', () => resolve());
          });
        } else {
          await run();
        }
      });
    },
  });
}
