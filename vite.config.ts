import fs from 'node:fs';
import path from 'node:path';
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
 * (@fastify/static `preCompressed`), so no CPU is spent compressing per request (docs/performance.md).
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
            if (bytes.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(bytes, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gzip(bytes, { level: 9 }),
            ]);
            await Promise.all([fs.promises.writeFile(`${file}.br`, br), fs.promises.writeFile(`${file}.gz`, gz)]);
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

export default defineConfig({
  plugins: [reactRouter(), precompress(), enhancements()],
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // React, React DOM and React Router load on every page together: one chunk compresses
        // better than three and costs one request instead of three (docs/performance.md).
        advancedChunks: {
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
        },
      },
    },
  },
});
