import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
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
  ) as { entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute & { parentId?: string }> };
  return { manifest, file: `/assets/${file}` };
}

/**
 * JavaScript a first visit to one route needs, from the build manifest alone: the manifest file,
 * the entry and its imports, and each route module (with imports) from the root down.
 */
export function manifestRouteBytes(clientDir: string, routeId: string): Sizes {
  const { manifest, file } = readManifest(clientDir);
  const files = new Set([file, manifest.entry.module, ...manifest.entry.imports]);
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    files.add(route.module);
    for (const f of route.imports ?? []) files.add(f);
  }
  let total = ZERO;
  for (const f of files) total = addSizes(total, sizesOf(fs.readFileSync(path.join(clientDir, f))));
  return total;
}
