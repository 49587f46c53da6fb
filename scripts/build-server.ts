/**
 * The server's bundle (docs/decisions/158-server-bundle.md): `npm run build`, and `npm start` when
 * the bundle is missing or stale (scripts/ensure-build.js), bundle the server with esbuild from
 * src/server/main-bundle.ts into build/server-bundle/, with the pages' server build
 * (build/server/index.js) and the packages the server loads inside it: a start loads about 40 files
 * instead of about 1,750, each of which Node resolved, read, compiled and linked. What only some
 * starts use (a database's driver, the migrator, the S3 client) is in chunks of its own, loaded as
 * before when first used. `npm run dev`, the tests and the command line run the TypeScript sources.
 *
 * Outside the bundle, loaded from node_modules as before: packages with native or WebAssembly
 * files of their own (PGlite, sharp, argon2), Vite (development only), and the packages only a
 * rarer path loads (the mail readers, the S3 client, passkeys, QR codes, the holidays).
 * Every bundled file that names its own location (`import.meta.url`, `__dirname`, `__filename`)
 * is given the location of its source, so the migrations, the common passwords list and any
 * package's own files are read where they are.
 *
 * build/server-bundle/inputs.json lists what the bundle was built from, for the staleness check
 * (ensure-build.js).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type PluginBuild } from 'esbuild';
import { SERVER_BUNDLE, SERVER_BUNDLE_DIR } from './ensure-build.js';

const root = path.resolve(import.meta.dirname, '..');
/** The pages' server build, bundled in. */
const WEB_SERVER_BUILD = path.join(root, 'build', 'server', 'index.js');

/** Loaded from node_modules at run time, not bundled (see above). */
const EXTERNAL = [
  // Native code or WebAssembly, and files found beside them.
  '@electric-sql/*',
  'sharp',
  '@node-rs/*',
  'pg-native',
  // Development only.
  'vite',
  // Loaded at a rarer path's first use.
  '@aws-sdk/*',
  '@simplewebauthn/server',
  '@zone-eu/mailsplit',
  'date-holidays',
  'imapflow',
  'mailauth',
  'mailparser',
  'qrcode',
];

/** Gives each bundled file that names its own location the location of its source. */
function sourceLocations(outDir: string) {
  return {
    name: 'source-locations',
    setup(build: PluginBuild) {
      build.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!/import\.meta\.(url|dirname|filename)|__dirname|__filename/.test(text)) return undefined;
        // Relative to the bundle's folder, where every output file is: the project may be moved.
        const relative = JSON.stringify(path.relative(outDir, args.path).split(path.sep).join('/'));
        const file = `__bagspaceSourceFile(${relative})`;
        let contents = text
          .replaceAll('import.meta.url', `__bagspaceSourceUrl(${relative})`)
          .replaceAll('import.meta.filename', file)
          .replaceAll('import.meta.dirname', `__bagspaceDirname(${file})`);
        const declares = (name: string) => new RegExp(`\\b(var|let|const|function)\\s+${name}\\b`).test(text);
        const prefix = [
          /\b__dirname\b/.test(text) && !declares('__dirname') ? `var __dirname = __bagspaceDirname(${file});` : '',
          /\b__filename\b/.test(text) && !declares('__filename') ? `var __filename = ${file};` : '',
        ].join('');
        contents = prefix + contents;
        const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
        return { contents, loader };
      });
    },
  };
}

/** The pages' server build is imported from a path known only at run time; in the bundle, from itself. */
function webServerBuild() {
  return {
    name: 'web-server-build',
    setup(build: PluginBuild) {
      build.onLoad({ filter: /[\\/]src[\\/]server[\\/]web[\\/]server-build\.ts$/ }, () => ({
        contents: `export const importServerBuild = () => import(${JSON.stringify(WEB_SERVER_BUILD)});`,
        loader: 'ts',
      }));
    },
  };
}

/** Builds the bundle (the pages' server build must be there: `react-router build`). */
async function buildServerBundle(): Promise<void> {
  const startedAt = Date.now();
  const outDir = path.join(root, 'build', `.server-bundle-${process.pid}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { main: path.join(root, 'src', 'server', 'main-bundle.ts') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outdir: outDir,
    // What only some starts use (a database's driver, the migrator, the S3 client) in chunks of its own.
    splitting: true,
    chunkNames: '[name]-[hash]',
    external: EXTERNAL,
    metafile: true,
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    // CommonJS packages inside an ES module call `require` for Node's own modules and the packages left out.
    banner: {
      js: [
        "import { createRequire as __bagspaceCreateRequire } from 'node:module';",
        "import { dirname as __bagspaceDirname } from 'node:path';",
        "import { fileURLToPath as __bagspaceFileURLToPath } from 'node:url';",
        'const require = __bagspaceCreateRequire(import.meta.url);',
        'const __bagspaceSourceUrl = (relative) => new URL(relative, import.meta.url).href;',
        'const __bagspaceSourceFile = (relative) => __bagspaceFileURLToPath(__bagspaceSourceUrl(relative));',
      ].join('\n'),
    },
    plugins: [webServerBuild(), sourceLocations(SERVER_BUNDLE_DIR)],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .map((input) => path.relative(root, path.resolve(root, input)).split(path.sep).join('/'))
    .filter((input) => !input.split('/').includes('node_modules'));
  const manifest = { startedAt, inputs: [...new Set(inputs)].sort() };
  fs.writeFileSync(path.join(outDir, 'inputs.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  // Whole or not at all (another build may be moving its own in: the last one stays). Like the web
  // app's build, it is built again with no server running from it.
  for (let tries = 3; ; tries--) {
    fs.rmSync(SERVER_BUNDLE_DIR, { recursive: true, force: true });
    try {
      fs.renameSync(outDir, SERVER_BUNDLE_DIR);
      return;
    } catch (error) {
      if (tries === 1) throw error;
    }
  }
}

const started = performance.now();
await buildServerBundle();
console.log(`Server bundle: ${path.relative(root, SERVER_BUNDLE)} (${Math.round(performance.now() - started)} ms)`);
