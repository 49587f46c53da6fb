import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { type Manifest, pageScripts } from '../../scripts/check-js-budgets.ts';
import { CHROMIUM_ARGS } from '../../tests/helpers/chromium.ts';
import { CHROMIUM_PATH } from './lighthouse.ts';
import { addSizes, type Sizes, sizesOf, ZERO } from './sizes.ts';

export interface RouteBytes {
  path: string;
  js: Sizes;
  css: Sizes;
  /** Bytes of scripts and stylesheets as they came over the wire (after the server's compression). */
  servedJs: number;
  servedCss: number;
  files: string[];
  requests: number;
  thirdParty: string[];
  /**
   * The longest chain of scripts and stylesheets the first visit fetched, document included: the
   * document is level 1, what it links or preloads level 2, a module fetched by another module's
   * import (static or dynamic) one level more than that module.
   */
  depth: number;
  /** That chain, as paths from the document down. */
  chain: string[];
  /** The same over every request (data and live streams a script starts too). */
  depthAll: number;
  chainAll: string[];
}

interface Sent {
  url: string;
  type: string | undefined;
  parent: string | undefined;
}

/**
 * Who asked for each request, from Chromium's network events: the document's parser, or the
 * script whose import (or call) started it (the innermost frame of its stack).
 */
function initiatorOf(initiator: {
  type: string;
  url?: string;
  stack?: { callFrames: Array<{ url: string }>; parent?: unknown };
}): string | undefined {
  if (initiator.url) return initiator.url;
  const frame = initiator.stack?.callFrames.find((f) => f.url);
  return frame?.url;
}

/** The longest chain ending in each request, over the requests `counted` keeps. */
function longestChain(sent: Sent[], documentUrl: string, counted: (s: Sent) => boolean): string[] {
  const byUrl = new Map<string, Sent>();
  for (const s of sent) if (!byUrl.has(s.url)) byUrl.set(s.url, s);
  const memo = new Map<string, string[]>();
  const chainOf = (url: string, seen: Set<string>): string[] => {
    if (url === documentUrl) return [url];
    const cached = memo.get(url);
    if (cached) return cached;
    const s = byUrl.get(url);
    // Anything not started by a script we saw hangs off the document.
    const parent = s?.parent && s.parent !== url && !seen.has(s.parent) && byUrl.has(s.parent) ? s.parent : documentUrl;
    const chain = [...chainOf(parent, new Set([...seen, url])), url];
    memo.set(url, chain);
    return chain;
  };
  let longest = [documentUrl];
  for (const s of byUrl.values()) {
    if (!counted(s)) continue;
    const chain = chainOf(s.url, new Set());
    if (chain.length > longest.length) longest = chain;
  }
  return longest.map((u) => (u.startsWith('http') ? new URL(u).pathname : u));
}

/**
 * Loads each page in a fresh Chromium context, as a first-time visitor would, and adds up every
 * script and stylesheet it fetched (hydration and route chunks included) until the network is
 * idle. Requests to any other origin are listed.
 */
export async function measureRouteBytes(
  base: string,
  paths: string[],
  headers?: Record<string, string>,
): Promise<RouteBytes[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const results: RouteBytes[] = [];
    for (const route of paths) {
      const context = await browser.newContext({ extraHTTPHeaders: headers });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const sent: Sent[] = [];
      cdp.on('Network.requestWillBeSent', (event) => {
        sent.push({ url: event.request.url, type: event.type, parent: initiatorOf(event.initiator) });
      });
      await cdp.send('Network.enable');
      const bodies: Array<Promise<{ kind: 'js' | 'css'; url: string; bytes: Buffer; served: number } | null>> = [];
      const thirdParty: string[] = [];
      let requests = 0;
      page.on('request', (request) => {
        requests++;
        if (!request.url().startsWith(base) && !request.url().startsWith('data:')) thirdParty.push(request.url());
      });
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (type !== 'script' && type !== 'stylesheet') return;
        bodies.push(
          Promise.all([response.body(), response.request().sizes()])
            .then(([bytes, sizes]) => ({
              kind: type === 'script' ? ('js' as const) : ('css' as const),
              url: response.url(),
              bytes,
              served: sizes.responseBodySize,
            }))
            .catch(() => null),
        );
      });
      const res = await page.goto(base + route, { waitUntil: 'networkidle' });
      if (!res || res.status() >= 400) throw new Error(`${route} answered ${res?.status()}`);
      const loaded = (await Promise.all(bodies)).filter((b) => b !== null);
      const documentUrl = sent.find((s) => s.type === 'Document')?.url ?? base + route;
      const chain = longestChain(sent, documentUrl, (s) => s.type === 'Script' || s.type === 'Stylesheet');
      const chainAll = longestChain(sent, documentUrl, () => true);
      let js = ZERO;
      let css = ZERO;
      let servedJs = 0;
      let servedCss = 0;
      for (const file of loaded) {
        if (file.kind === 'js') {
          js = addSizes(js, sizesOf(file.bytes));
          servedJs += file.served;
        } else {
          css = addSizes(css, sizesOf(file.bytes));
          servedCss += file.served;
        }
      }
      results.push({
        path: route,
        js,
        css,
        servedJs,
        servedCss,
        files: loaded.map((f) => new URL(f.url).pathname),
        requests,
        thirdParty,
        depth: chain.length,
        chain,
        depthAll: chainAll.length,
        chainAll,
      });
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}

interface ManifestRoute {
  id: string;
  module: string;
  imports?: string[];
  css?: string[];
}

/**
 * The files that only support and admin routes need, from React Router's build manifest: every
 * file those routes' modules import, less every file the entry, the root or a public route imports.
 */
export function supportOnlyFiles(clientDir: string, isPrivateRoute: (id: string) => boolean): Set<string> {
  const { manifest } = readManifest(clientDir);
  const closure = (r: { module: string; imports?: string[]; css?: string[] }) => [
    r.module,
    ...(r.imports ?? []),
    ...(r.css ?? []),
  ];
  const shared = new Set(closure(manifest.entry));
  const privateFiles = new Set<string>();
  for (const route of Object.values(manifest.routes)) {
    for (const f of closure(route)) (isPrivateRoute(route.id) ? privateFiles : shared).add(f);
  }
  for (const f of shared) privateFiles.delete(f);
  return privateFiles;
}

function readManifest(clientDir: string) {
  const assets = path.join(clientDir, 'assets');
  const file = fs.readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!file) throw new Error(`no React Router manifest in ${assets}`);
  const manifest = JSON.parse(
    fs
      .readFileSync(path.join(assets, file), 'utf8')
      .replace(/^window\.__reactRouterManifest=/, '')
      .replace(/;\s*$/, ''),
  ) as Manifest & { routes: Record<string, ManifestRoute & { parentId?: string }> };
  return { manifest };
}

/**
 * JavaScript a first visit to one route needs to hydrate it, from the build manifest alone, by the
 * rule the build's budget check counts with (scripts/check-js-budgets.ts, pageScripts): the entry and
 * its imports, and each route module from the root down with its split client modules and imports.
 * Not the manifest file: with React Router's lazy route discovery (its default, ours and the floor's)
 * the page carries its part of the manifest inline and the browser never fetches the file. Counted
 * as if the route hydrates (handles are not read here): the floor and our / are compared as apps.
 */
export function manifestRouteBytes(clientDir: string, routeId: string): Sizes {
  const { manifest } = readManifest(clientDir);
  const files = pageScripts({ manifest, lazyDiscovery: true, handles: {}, enhancements: {} }, routeId);
  let total = ZERO;
  for (const f of files) total = addSizes(total, sizesOf(fs.readFileSync(path.join(clientDir, f))));
  return total;
}

/** build/client-chunks.json (vite.config.ts): each client file's source modules and their rendered bytes. */
export function readChunkMap(clientDir: string): Record<string, Record<string, number>> {
  const file = path.join(clientDir, '..', 'client-chunks.json');
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, number>>;
}

/** Where a module comes from: its npm package, or its folder under src/. */
export function partOf(module: string): string {
  const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(module);
  if (pkg) return pkg[1]!.replace(/\\/g, '/');
  return path.dirname(module).replace(/\\/g, '/');
}

/** The rendered bytes of the loaded files' modules, added up by part, largest first. */
export function partsOf(files: string[], map: Record<string, Record<string, number>>): Array<[string, number]> {
  const parts = new Map<string, number>();
  for (const file of files)
    for (const [module, bytes] of Object.entries(map[file] ?? {}))
      parts.set(partOf(module), (parts.get(partOf(module)) ?? 0) + bytes);
  return [...parts].sort((a, b) => b[1] - a[1]);
}

/** The modules of the loaded files that `matches` picks. */
export function modulesIn(
  files: string[],
  map: Record<string, Record<string, number>>,
  matches: (module: string) => boolean,
): string[] {
  return [...new Set(files.flatMap((f) => Object.keys(map[f] ?? {}).filter(matches)))];
}
