import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';
import { ENHANCEMENTS, type EnhancementFiles } from './src/web/lib/enhancements.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|html|webmanifest|map)$/;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text asset of the
 * client build, once, at build time. The server sends them to browsers that accept them
 * (@fastify/static `preCompressed`), so no CPU is spent compressing per request (change 2 in
 * bench/results/changes.json). A copy is written only when it is smaller than the file: the server
 * sends any copy it finds, and a file without one as it is. Small files count too: every hydrated
 * page loads a few scripts of well under 1 kB (the entry, the bundler's runtime), and the pages'
 * JavaScript budgets count the bytes as sent (scripts/check-js-budgets.ts).
 */
function precompress(): Plugin {
  return {
    name: 'bagspace:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (this.environment?.name !== 'client' || !options.dir) return;
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            const file = path.join(options.dir!, name);
            const bytes = await fs.promises.readFile(file);
            const [br, gz] = await Promise.all([
              brotli(bytes, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gzip(bytes, { level: 9 }),
            ]);
            await Promise.all([
              br.length < bytes.length ? fs.promises.writeFile(`${file}.br`, br) : null,
              gz.length < bytes.length ? fs.promises.writeFile(`${file}.gz`, gz) : null,
            ]);
          }),
      );
    },
  };
}

/**
 * Pages that do not hydrate but still need a little script (the register form's live validation)
 * get it as a separate entry of the client build, so it shares nothing with the app's bundle but
 * what it imports. The server finds each entry's file, and the chunks it imports, in
 * build/enhancements.json (src/web/lib/enhancements.ts).
 */
function enhancements(): Plugin {
  const refs = new Map<string, string>();
  return {
    name: 'bagspace:enhancements',
    apply: 'build',
    buildStart() {
      if (this.environment?.name !== 'client') return;
      for (const [name, file] of Object.entries(ENHANCEMENTS)) {
        refs.set(name, this.emitFile({ type: 'chunk', id: path.resolve(file), name: `enhance-${name}` }));
      }
    },
    async writeBundle(options, bundle) {
      if (this.environment?.name !== 'client' || !options.dir) return;
      const manifest: Record<string, EnhancementFiles> = {};
      for (const [name, ref] of refs) {
        const fileName = this.getFileName(ref);
        // Every chunk it imports, directly or not, is preloaded: no waterfall of module requests.
        const imports = new Set<string>();
        const visit = (file: string) => {
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk') return;
          for (const next of chunk.imports) {
            if (imports.has(next)) continue;
            imports.add(next);
            visit(next);
          }
        };
        visit(fileName);
        manifest[name] = { src: `/${fileName}`, imports: [...imports].map((file) => `/${file}`) };
      }
      await fs.promises.writeFile(path.join(options.dir, '..', 'enhancements.json'), JSON.stringify(manifest, null, 2));
    },
  };
}

/**
 * Writes build/client-chunks.json: the source modules in each file of the client build, by path
 * from the repository's root, with each module's rendered length (its bytes before minification).
 * The bench reads it to tell which modules a page loaded (console code must not reach a customer's
 * page) and what a page is made of, without a sourcemap.
 */
function chunkMap(): Plugin {
  return {
    name: 'bagspace:chunk-map',
    apply: 'build',
    async writeBundle(options, bundle) {
      if (this.environment?.name !== 'client' || !options.dir) return;
      const root = process.cwd() + path.sep;
      const map: Record<string, Record<string, number>> = {};
      for (const [name, chunk] of Object.entries(bundle)) {
        if (chunk.type !== 'chunk') continue;
        map[`/${name}`] = Object.fromEntries(
          Object.entries(chunk.modules)
            .filter(([, m]) => m.renderedLength > 0)
            .map(([id, m]) => [id.replace(root, '').replace(/\?.*$/, ''), m.renderedLength]),
        );
      }
      await fs.promises.writeFile(path.join(options.dir, '..', 'client-chunks.json'), JSON.stringify(map, null, 1));
    },
  };
}

/**
 * The browser's copy of the endpoint declarations (src/contracts/api): each endpoint's method and path,
 * which is all the browser's client sends with (src/web/lib/api-client.ts), without the schemas that
 * the server checks and answers with. Generated at build time from the one declaration, imported
 * here as the server imports it, so nothing is written twice; the page's bundle then needs no zod
 * for calling the API (docs/decisions/119-schemas-stay-on-the-server.md). Other exports of the folder
 * (a schema the server's routes share) are left out: a page importing one fails the build.
 */
function browserDeclarations(): Plugin {
  const API_MODULE = /[\\/]src[\\/]contracts[\\/]api[\\/][^\\/]+\.ts$/;
  return {
    name: 'bagspace:browser-declarations',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async load(id) {
      if (!API_MODULE.test(id) || id.endsWith(`${path.sep}index.ts`)) return undefined;
      const module = (await import(pathToFileURL(id).href)) as Record<string, unknown>;
      const exports: string[] = [];
      for (const [name, value] of Object.entries(module)) {
        const entries = Object.entries((value ?? {}) as Record<string, { method?: unknown; path?: unknown }>);
        const declarations = entries.every(([, d]) => typeof d?.method === 'string' && typeof d.path === 'string');
        if (!declarations || entries.length === 0) continue;
        const slim = Object.fromEntries(entries.map(([key, d]) => [key, { method: d.method, path: d.path }]));
        exports.push(`export const ${name} = ${JSON.stringify(slim)};`);
      }
      return exports.join('\n');
    },
  };
}

/** The screens src/web/features/auth/lazy-screens.tsx loads on demand, by the name it uses. */
const LAZY_SCREENS = {
  login: 'src/web/features/auth/login-screen.tsx',
  enrolment: 'src/web/features/auth/second-factor-enrolment.tsx',
};

/**
 * `virtual:lazy-screen-files`: for each lazy screen, its file in the client build and the files
 * that file imports. The client is built first, so the server's build gets the list, and a page
 * rendered with a lazy screen asks the browser to preload them (lazy-screens.tsx): the screen is
 * ready as soon as the rest of the page, with no second round trip. The browser's own copy is empty.
 * Read once the bundle is written: Vite has then dropped the chunks that only held CSS.
 */
function lazyScreenFiles(): Plugin {
  const ID = 'virtual:lazy-screen-files';
  let files: Record<string, string[]> = {};
  return {
    name: 'bagspace:lazy-screen-files',
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load(id) {
      if (id !== `\0${ID}`) return undefined;
      return `export default ${JSON.stringify(this.environment?.name === 'client' ? {} : files)};`;
    },
    writeBundle(_options, bundle) {
      if (this.environment?.name !== 'client') return;
      files = {};
      for (const [name, source] of Object.entries(LAZY_SCREENS)) {
        const id = path.resolve(source);
        const chunk = Object.values(bundle).find(
          (c) => c.type === 'chunk' && (c.facadeModuleId === id || id in c.modules),
        );
        if (chunk?.type !== 'chunk') continue;
        const found = new Set<string>([chunk.fileName]);
        const visit = (file: string) => {
          const next = bundle[file];
          if (next?.type !== 'chunk') return;
          for (const imported of next.imports) {
            if (found.has(imported)) continue;
            found.add(imported);
            visit(imported);
          }
        };
        visit(chunk.fileName);
        files[name] = [...found].map((file) => `/${file}`);
      }
    },
  };
}

/** A module of src/ whose path from src/, without its extension, is one of `paths`. */
const inSrc = (paths: string[]) => {
  const pattern = new RegExp(`/src/(${paths.join('|')})\\.tsx?$`);
  return (id: string) => pattern.test(id.replaceAll('\\', '/'));
};

/**
 * How the client build groups modules into files (docs/decisions/117-signed-in-chunks.md). Left to
 * itself, rolldown makes one file per set of routes that share a module: a signed-in page loaded
 * 30 to 46 files, most under 1 kB, and a phone's first visit spent its connections on them before
 * the stylesheets. Named groups, highest priority first:
 * - framework: React, React DOM and React Router, which every hydrated page loads together.
 * - zod: the validation library, for the pages that check with a schema as they render (the console,
 *   /register's own script) and, loaded when a form is first used, a customer's form
 *   (docs/decisions/119-schemas-stay-on-the-server.md).
 * - core: the API client, which the signed-in pages and /register's own script share.
 * - shared: what every signed-in page uses (layout helpers, form helpers, the small UI parts, the
 *   dates and privacy contracts).
 * - account: the account's contracts, for the account pages, sign-up and the console.
 * - support: the ticket lists' and pages' contracts, live updates and file picking (SUPPORT).
 * - thread: a ticket's conversation, on the customer's ticket page and the console's (THREAD).
 * A group takes every module its test matches that two routes or more use, whichever routes they
 * are: a module only the console uses stays out of the groups a customer's page loads, or every
 * such page loads it too. The pages' JavaScript budgets are checked after each build
 * (scripts/check-js-budgets.ts). A module not listed falls back to rolldown's own splitting.
 * `minShareCount: 2`: a module only one route uses stays with that route.
 */
/**
 * Modules that import a stylesheet stay out of the shared group: the root layout imports the group,
 * so its CSS would be linked on every page, the static public ones too.
 */
const withStylesheet = inSrc(['web/components/ui/message-box', 'web/components/ui/spinner']);

/**
 * The ticket lists' and pages' own, the customer's and the console's: their contracts, live updates,
 * and picking files for a new ticket, a reply or a claim's answer.
 */
const SUPPORT = [
  'contracts/support',
  'contracts/api/support',
  'contracts/attachments',
  'web/lib/live',
  'web/lib/upload',
  'web/lib/client-id',
  'web/lib/callable',
  'web/components/ui/icons',
  'web/features/support/attachment-picker',
  'web/features/support/live-indicator',
  'web/features/support/ticket-links',
  'web/features/support/waiting-badge',
];
/** A ticket's conversation: its thread and reply box, on the customer's ticket page and the console's. */
const THREAD = [
  'contracts/conversation',
  'contracts/ticket-words',
  'web/features/support/message-attachments',
  'web/features/support/mailed-words',
  'web/features/support/reply-box',
  'web/features/support/ticket-page',
  'web/features/support/ticket-thread',
  'web/features/support/use-ticket-thread',
];
/** The account's contracts: the account pages, sign-up and the console. */
const ACCOUNT = [
  'contracts/account',
  'contracts/account-deletion',
  'contracts/auth',
  'contracts/notifications',
  'contracts/second-factor',
  'contracts/users',
];
/** UI parts of a few lists (the inboxes, the console's tables): with their pages, not in every page's file. */
const LIST_PARTS = [
  'web/components/ui/data-table',
  'web/components/ui/notice',
  'web/components/ui/switch-buttons',
  'web/lib/use-now',
];
const grouped = inSrc([...SUPPORT, ...THREAD, ...ACCOUNT, ...LIST_PARTS]);

const CHUNK_GROUPS = [
  {
    name: 'framework',
    test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
    priority: 4,
  },
  {
    name: 'zod',
    test: (id: string) => /node_modules[\\/]zod[\\/]/.test(id) || inSrc(['contracts/zod'])(id),
    priority: 3,
  },
  {
    name: 'core',
    test: inSrc(['contracts/endpoint', 'contracts/field-errors', 'web/lib/api-client', 'web/lib/session-events']),
    priority: 3,
  },
  {
    name: 'shared',
    test: (id: string) =>
      (/[\\/]src[\\/]web[\\/](lib|components)[\\/]/.test(id) && !withStylesheet(id) && !grouped(id)) ||
      inSrc([
        'contracts/dates',
        'contracts/privacy',
        'contracts/api/privacy',
        'web/features/auth/lazy-screens',
        'web/features/auth/sign-in-forms',
      ])(id),
    minShareCount: 2,
    priority: 2,
  },
  { name: 'account', test: inSrc(ACCOUNT), minShareCount: 2, priority: 1 },
  { name: 'support', test: inSrc(SUPPORT), minShareCount: 2, priority: 1 },
  { name: 'thread', test: inSrc(THREAD), minShareCount: 2, priority: 1 },
];

export default defineConfig({
  plugins: [reactRouter(), browserDeclarations(), precompress(), enhancements(), chunkMap(), lazyScreenFiles()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // Fewer, larger files for the signed-in pages (docs/decisions/117-signed-in-chunks.md).
        codeSplitting: { groups: CHUNK_GROUPS },
      },
    },
  },
});
