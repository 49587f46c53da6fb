/**
 * The pages' JavaScript budgets, checked after every `npm run build` (package.json): for each page,
 * the scripts a browser downloads to load and hydrate it, each as the server sends it, against the
 * page's budget. Prints every page; a page over its budget fails the build, named with its size.
 * Every page has a budget (docs/decisions/155-js-budgets-in-the-build.md, 159).
 *
 * What a page counts (the same files Chromium fetches on a first visit, docs/performance.md):
 * - a hydrated page: what React Router's <Scripts> asks for. The entry and its imports, and for the
 *   root and each route down to the page, its module, its split client action, loader and hydrate
 *   fallback modules, and the modules they import (the build manifest lists each route's static
 *   imports, all the way down). The manifest file itself only when routes are not discovered lazily:
 *   with lazy discovery (React Router's default, ours) the page carries the part of the manifest it
 *   needs inline, and the browser never asks for the file.
 * - a page that does not hydrate (`handle.hydrate === false`, src/web/lib/static-page.ts): none of
 *   the app's scripts; its own enhancement script and that script's imports, if it has one.
 * Not counted: scripts inline in the page (the hand-over of the page's data, the disclosure script
 * of a page without the app: they are the document's bytes), a module loaded by `import()` when
 * something happens (a form's schema on first use, the command palette, the login screen when it is
 * shown, a screen of a signed-out visitor), stylesheets, and what a page fetches once it runs
 * (`/__manifest`, its data and live streams).
 *
 * Each file counts as the server sends it: the brotli copy the build wrote beside it (quality 11,
 * vite.config.ts `precompress`), which @fastify/static sends to any browser that accepts br
 * (src/server/web/web-handler.ts, `preCompressed`); a file with no copy (one brotli cannot make
 * smaller) is sent as it is. Each file is compressed on its own, as it goes over the wire: the sum
 * of the files, not the compressed size of them all together.
 *
 * Budgets (kB = 1,000 bytes): the customer's pages 120 kB, every page outside the console included
 * (the public ones: those without hydration ship none of the app's scripts); the console's 150 kB,
 * every page of it (every page under /admin, and /setup): the inbox and the ticket page where the
 * team works, and the reports, settings and partner pages alike. A console page loads what it
 * shows; a form's schema and zod come when the form is first used, as on the customer's pages
 * (docs/decisions/159-console-pages-in-the-budget.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ManifestRoute {
  id: string;
  parentId?: string | undefined;
  path?: string | undefined;
  index?: boolean | undefined;
  module: string;
  imports?: string[] | undefined;
  clientActionModule?: string | undefined;
  clientLoaderModule?: string | undefined;
  clientMiddlewareModule?: string | undefined;
  hydrateFallbackModule?: string | undefined;
}

/** React Router's build manifest (the browser's `window.__reactRouterManifest`, the server build's `assets`). */
export interface Manifest {
  url: string;
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

/** What decides a route's scripts besides the manifest: whether it hydrates, and its own script if not. */
export interface RouteHandleFacts {
  hydrate?: false | undefined;
  enhance?: string | undefined;
}

export interface BuildFacts {
  manifest: Manifest;
  /** Routes discovered lazily (React Router's `routeDiscovery.mode` 'lazy'): the manifest file is never fetched. */
  lazyDiscovery: boolean;
  handles: Record<string, RouteHandleFacts | undefined>;
  /** build/enhancements.json: each enhancement's script and the chunks it imports (preloaded). */
  enhancements: Record<string, { src: string; imports: string[] }>;
  /** A file's bytes as the server sends it, by its URL path (/assets/…). */
  sizeOf(file: string): number;
}

export interface Budget {
  name: string;
  bytes: number;
}

export const CUSTOMER_BUDGET: Budget = { name: 'customer', bytes: 120_000 };
export const CONSOLE_BUDGET: Budget = { name: 'console', bytes: 150_000 };

/** The console: every page under /admin, and /setup, where the first admin starts it. */
const isConsole = (page: string) => page === '/admin' || page.startsWith('/admin/') || page === '/setup';

/** The budget a page is held to, by its path: the console's for a console page, the customer's for any other. */
export const budgetOf = (page: string): Budget => (isConsole(page) ? CONSOLE_BUDGET : CUSTOMER_BUDGET);

/** From the root down to the route. */
function chainOf(manifest: Manifest, routeId: string): ManifestRoute[] {
  const chain: ManifestRoute[] = [];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    chain.unshift(route);
  }
  return chain;
}

/** A page's path as its routes make it: /support/ticket/:ticketId; an index route has its parent's. */
export function pathOf(manifest: Manifest, routeId: string): string {
  const parts = chainOf(manifest, routeId).flatMap((route) => (route.path ? [route.path] : []));
  return `/${parts.join('/')}`.replace(/\/+/g, '/');
}

/** The pages: every route that is not another's parent (a layout is a page only through its children). */
export function pagesOf(manifest: Manifest): string[] {
  const parents = new Set(Object.values(manifest.routes).map((route) => route.parentId));
  return Object.keys(manifest.routes).filter((id) => !parents.has(id));
}

/** The scripts a browser downloads to load and hydrate the page of this route (the rule above). */
export function pageScripts(
  facts: Pick<BuildFacts, 'manifest' | 'lazyDiscovery' | 'handles' | 'enhancements'>,
  routeId: string,
): string[] {
  const { manifest } = facts;
  const chain = chainOf(manifest, routeId);
  const still = chain.map((route) => facts.handles[route.id]).find((handle) => handle?.hydrate === false);
  if (still) {
    if (!still.enhance) return [];
    const script = facts.enhancements[still.enhance];
    if (!script) throw new Error(`no enhancement ${still.enhance} in the build (route ${routeId})`);
    return [...new Set([script.src, ...script.imports])];
  }
  const files = new Set<string>(facts.lazyDiscovery ? [] : [manifest.url]);
  files.add(manifest.entry.module);
  for (const file of manifest.entry.imports) files.add(file);
  for (const route of chain) {
    for (const file of [
      route.module,
      route.clientActionModule,
      route.clientLoaderModule,
      route.clientMiddlewareModule,
      route.hydrateFallbackModule,
      ...(route.imports ?? []),
    ])
      if (file) files.add(file);
  }
  return [...files];
}

export interface PageFigure {
  routeId: string;
  page: string;
  bytes: number;
  files: number;
  hydrates: boolean;
  budget: Budget;
}

/** Every page's figure, and those over their budget. */
export function checkBudgets(
  facts: BuildFacts,
  budgetFor: (page: string) => Budget = budgetOf,
): { pages: PageFigure[]; over: PageFigure[] } {
  const pages = pagesOf(facts.manifest)
    .map((routeId): PageFigure => {
      const files = pageScripts(facts, routeId);
      const page = pathOf(facts.manifest, routeId);
      const hydrates = !chainOf(facts.manifest, routeId).some((route) => facts.handles[route.id]?.hydrate === false);
      const bytes = files.reduce((sum, file) => sum + facts.sizeOf(file), 0);
      return { routeId, page, bytes, files: files.length, hydrates, budget: budgetFor(page) };
    })
    .sort((a, b) => a.page.localeCompare(b.page));
  return { pages, over: pages.filter((p) => p.bytes > p.budget.bytes) };
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const bytes = (n: number) => n.toLocaleString('en-NZ');

/**
 * What the build prints: the pages by budget, largest first (the customer's, then the console's),
 * then one line for each page over its budget.
 */
export function report({ pages, over }: ReturnType<typeof checkBudgets>): string {
  const width = Math.max(...pages.map((p) => p.page.length));
  const line = (p: PageFigure) =>
    `  ${p.page.padEnd(width)}  ${kB(p.bytes).padStart(5)} kB  ${String(p.files).padStart(2)} files` +
    (p.hydrates ? '' : p.files ? '  (no hydration: its own script)' : '  (no hydration)') +
    (over.includes(p) ? '  OVER' : '');
  const lines = ['JavaScript each page loads, brotli as sent (scripts/check-js-budgets.ts)'];
  // The customer's budget first, then the console's.
  const rank = (p: PageFigure) => (p.budget === CUSTOMER_BUDGET ? 0 : 1);
  let title = '';
  for (const p of [...pages].sort((a, b) => rank(a) - rank(b) || b.bytes - a.bytes)) {
    const next = `${p.budget.name} pages, budget ${kB(p.budget.bytes)} kB:`;
    if (next !== title) lines.push((title = next));
    lines.push(line(p));
  }
  if (over.length === 0) lines.push('Every page is within its budget.');
  for (const p of over)
    lines.push(
      `✗ ${p.page} (${p.routeId}): ${bytes(p.bytes)} bytes of brotli JavaScript, over the ${p.budget.name} budget of ${bytes(p.budget.bytes)} by ${bytes(p.bytes - p.budget.bytes)}`,
    );
  return lines.join('\n');
}

/** The built app's facts: the server build (as the server loads it), enhancements.json and the client files. */
export async function readBuild(buildDir: string): Promise<BuildFacts> {
  const server = path.join(buildDir, 'server', 'index.js');
  if (!fs.existsSync(server)) throw new Error(`${server} is missing: run the build first`);
  const build = (await import(pathToFileURL(server).href)) as {
    assets: Manifest;
    routeDiscovery?: { mode: string };
    routes: Record<string, { module: { handle?: unknown } } | undefined>;
  };
  const clientDir = path.join(buildDir, 'client');
  const enhancementsFile = path.join(buildDir, 'enhancements.json');
  return {
    manifest: build.assets,
    lazyDiscovery: (build.routeDiscovery?.mode ?? 'lazy') === 'lazy',
    handles: Object.fromEntries(
      Object.entries(build.routes).map(([id, route]) => [id, route?.module.handle as RouteHandleFacts | undefined]),
    ),
    enhancements: fs.existsSync(enhancementsFile)
      ? (JSON.parse(fs.readFileSync(enhancementsFile, 'utf8')) as BuildFacts['enhancements'])
      : {},
    sizeOf(file) {
      const full = path.join(clientDir, file);
      const compressed = `${full}.br`;
      return fs.statSync(fs.existsSync(compressed) ? compressed : full).size;
    },
  };
}

if (import.meta.main) {
  const buildDir = path.resolve(process.argv[2] ?? 'build');
  const result = checkBudgets(await readBuild(buildDir));
  console.log(report(result));
  // The server build's modules keep timers and handles of their own: end here, with the verdict.
  process.exit(result.over.length > 0 ? 1 : 0);
}
