/** Section "bytes": JavaScript and CSS each page loads in Chromium, against an empty React Router app. */
import { manifestRouteBytes, measureRouteBytes, type RouteBytes, supportOnlyFiles } from '../lib/bytes.ts';
import { buildFloor } from '../lib/floor.ts';
import { kB } from '../lib/sizes.ts';
import { CLIENT_DIR, fixed, results, row, type Section } from './common.ts';
import type { ServerBench } from './server.ts';

export const bytesSection: Section<ServerBench> = {
  name: 'bytes',
  title: 'Bytes: JavaScript and CSS each page loads in Chromium (brotli is what the budget counts)',
  async run({ base, listTickets, listerSession, adminSession }) {
    const publicPages = ['/', '/about', '/faqs', '/legal', '/register'];
    const supportPages = ['/support', '/support/ticket/' + listTickets[0], '/support/create-ticket'];
    const adminPages = ['/admin', '/admin/support', '/admin/support/' + listTickets[0]];
    const measured: Array<RouteBytes & { area: string }> = [
      ...(await measureRouteBytes(base, publicPages)).map((r) => ({ ...r, area: 'public' })),
      ...(await measureRouteBytes(base, ['/support'])).map((r) => ({ ...r, area: 'support login screen' })),
      ...(await measureRouteBytes(base, supportPages, listerSession.bearer)).map((r) => ({
        ...r,
        area: 'support (signed in)',
      })),
      ...(await measureRouteBytes(base, adminPages, adminSession.bearer)).map((r) => ({ ...r, area: 'admin' })),
    ];
    const privateOnly = supportOnlyFiles(CLIENT_DIR, (id) => /^routes\/(support|admin)/.test(id));
    for (const r of measured) {
      const isPublic = r.area === 'public';
      const leaked = r.files.filter((f) => privateOnly.has(f));
      row(
        `JS ${r.area} ${r.path.replace(/[0-9a-f-]{36}/, ':id')}`,
        `${kB(r.js.brotli)} br`,
        isPublic ? '≤ 85 kB br' : '',
        isPublic ? r.js.brotli <= 85_000 : undefined,
        `${kB(r.js.raw)} raw, ${kB(r.js.gzip)} gz, ${kB(r.servedJs)} as served; CSS ${kB(r.css.raw)} raw, ${kB(r.css.gzip)} gz, ${kB(r.css.brotli)} br; ${r.files.length} files, ${r.requests} requests` +
          (isPublic ? `; support/admin-only files loaded: ${leaked.length}` : ''),
      );
    }
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
    results.bytes = { pages: measured, privateOnly: [...privateOnly], floor, homeByManifest: home };
  },
};
