/** Section "bytes": JavaScript and CSS each page loads in Chromium, against an empty React Router app. */
import { conversationTicket } from '../lib/fixtures.ts';
import {
  manifestRouteBytes,
  measureRouteBytes,
  modulesIn,
  partsOf,
  readChunkMap,
  type RouteBytes,
  supportOnlyFiles,
} from '../lib/bytes.ts';
import { buildFloor } from '../lib/floor.ts';
import { kB } from '../lib/sizes.ts';
import { CONSOLE_BUDGET, CUSTOMER_BUDGET } from '../../scripts/check-js-budgets.ts';
import { CLIENT_DIR, fixed, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const bytesSection: Section<ServerBench> = {
  name: 'bytes',
  title: 'Bytes: JavaScript and CSS each page loads in Chromium (brotli as sent is what the budget counts)',
  async run(bench) {
    const { base, adminSession } = bench;
    // A customer with a ticket of 30 messages, the same the Lighthouse section loads.
    const { ticketId, customer } = await conversationTicket(bench);
    const publicPages = ['/', '/about', '/faqs', '/legal', '/register'];
    const supportPages = ['/support', '/support/ticket/' + ticketId, '/support/create-ticket', '/account'];
    const adminPages = ['/admin', '/admin/support', '/admin/support/' + ticketId];
    const measured: Array<RouteBytes & { area: string }> = [
      ...(await measureRouteBytes(base, publicPages)).map((r) => ({ ...r, area: 'public' })),
      ...(await measureRouteBytes(base, ['/support'])).map((r) => ({ ...r, area: 'support login screen' })),
      ...(await measureRouteBytes(base, supportPages, customer.bearer)).map((r) => ({
        ...r,
        area: 'signed in',
      })),
      ...(await measureRouteBytes(base, adminPages, adminSession.bearer)).map((r) => ({ ...r, area: 'admin' })),
    ];
    // The budgets, counted as sent (the build's brotli files), as the build's check counts them
    // (scripts/check-js-budgets.ts): the public pages' own goal, the customer's pages, the console's.
    const budgetOf = (r: RouteBytes & { area: string }) => {
      if (r.area === 'public') return 85_000;
      if (r.area === 'signed in') return CUSTOMER_BUDGET.bytes;
      if (r.area === 'admin') return CONSOLE_BUDGET.bytes;
      return undefined;
    };
    const privateOnly = supportOnlyFiles(CLIENT_DIR, (id) => /^routes\/(support|admin)/.test(id));
    const consoleOnly = supportOnlyFiles(CLIENT_DIR, (id) => /^routes\/admin/.test(id));
    for (const r of measured) {
      const isPublic = r.area === 'public';
      const leaked = r.files.filter((f) => privateOnly.has(f));
      const budget = budgetOf(r);
      row(
        `JS ${r.area} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`,
        `${kB(r.servedJs)} br as sent`,
        budget ? `≤ ${budget / 1000} kB br` : '',
        budget ? r.servedJs <= budget : undefined,
        `${kB(r.js.raw)} raw, ${kB(r.js.gzip)} gz, ${kB(r.js.brotli)} br-11 per file; CSS ${kB(r.css.raw)} raw, ${kB(r.css.gzip)} gz, ${kB(r.css.brotli)} br; ${r.files.length} files, ${r.requests} requests` +
          (isPublic ? `; support/admin-only files loaded: ${leaked.length}` : ''),
      );
    }
    // Request waterfalls: how many round trips deep the first visit's scripts and stylesheets go.
    // The login screen is shown to visitors: its code is loaded only then, one level down.
    for (const r of measured.filter((m) => m.area !== 'public')) {
      const signedIn = r.area !== 'support login screen';
      row(
        `waterfall ${r.area} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`,
        String(r.depth),
        signedIn ? '≤ 2' : '',
        signedIn ? r.depth <= 2 : undefined,
        `${r.chain.slice(1).join(' → ') || 'the document alone'}; every request: ${r.depthAll} (${r.chainAll.slice(1).join(' → ')})`,
      );
    }
    // What the budgeted pages are made of: the largest parts, by npm package or source folder.
    const chunks = readChunkMap(CLIENT_DIR);
    for (const r of measured.filter((m) => budgetOf(m) && m.area !== 'public')) {
      const parts = partsOf(r.files, chunks);
      row(
        `parts of ${r.area} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`,
        `${parts.length} parts`,
        '',
        undefined,
        parts
          .slice(0, 8)
          .map(([part, bytes]) => `${part} ${kB(bytes)}`)
          .join(', ') + ' (bytes of rendered source, before minification)',
      );
    }
    // Modules no customer page may load on its first visit: each kind a row with the goal 0.
    const customerFiles = measured.filter((r) => r.area === 'signed in').flatMap((r) => r.files);
    const noneOnCustomerPages = (label: string, matches: (module: string) => boolean) => {
      const found = modulesIn(customerFiles, chunks, matches);
      row(label, String(found.length), '0', found.length === 0, found.slice(0, 4).join(', '));
    };
    // The console's own code: its routes and features (the reports' charts among them).
    noneOnCustomerPages('console modules in the customer pages', (m) =>
      /src[\\/]web[\\/](routes[\\/]admin|features[\\/](admin|reports|service-levels)[\\/])/.test(m),
    );
    // Schemas stay on the server (decision 119): a customer's first visit loads no zod and no schema
    // module; a form loads its schema when it is first used.
    noneOnCustomerPages('zod and schema modules in the customer pages', (m) =>
      /node_modules[\\/]zod[\\/]|src[\\/]contracts[\\/](zod|[\w-]+\.schemas)\.ts$/.test(m),
    );
    const customerLoadsConsole = customerFiles.filter((f) => consoleOnly.has(f));
    row(
      'console-only files loaded by the customer pages',
      String(customerLoadsConsole.length),
      '0',
      customerLoadsConsole.length === 0,
      `${consoleOnly.size} files in the build belong only to admin routes` +
        (customerLoadsConsole.length ? `: ${[...new Set(customerLoadsConsole)].slice(0, 3).join(', ')}` : ''),
    );
    const publicLeaks = measured
      .filter((r) => r.area === 'public')
      .flatMap((r) => r.files.filter((f) => privateOnly.has(f)));
    const privateLoaded = new Set(
      measured.filter((r) => r.area !== 'public').flatMap((r) => r.files.filter((f) => privateOnly.has(f))),
    );
    row(
      'support/admin-only files loaded by public pages',
      String(publicLeaks.length),
      '0',
      publicLeaks.length === 0,
      `${privateOnly.size} files in the build belong only to support/admin routes; their pages loaded ${privateLoaded.size} of them`,
    );
    const thirdParty = measured.flatMap((r) => r.thirdParty);
    row(
      'third-party requests (all pages above)',
      String(thirdParty.length),
      '0',
      thirdParty.length === 0,
      thirdParty.slice(0, 3).join(', '),
    );
    const floor = buildFloor();
    const home = manifestRouteBytes(CLIENT_DIR, 'routes/home');
    row(
      'floor: empty React Router 8 app, same versions and chunking',
      `${kB(floor.brotli)} br`,
      '',
      undefined,
      `${kB(floor.raw)} raw, ${kB(floor.gzip)} gz; built in this run from bench/floor`,
    );
    row(
      'our / by the same manifest count',
      `${kB(home.brotli)} br`,
      '',
      undefined,
      `${fixed(home.brotli / floor.brotli)}× the floor, +${kB(home.brotli - floor.brotli)} br of our own code`,
    );
    results.bytes = {
      pages: measured,
      consoleOnly: [...consoleOnly],
      privateOnly: [...privateOnly],
      floor,
      homeByManifest: home,
    };
  },
};
