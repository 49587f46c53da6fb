import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getCompileCacheDir, registerHooks, stripTypeScriptTypes } from 'node:module';
import { compileCaching } from './compile-cache.ts';

/**
 * Our TypeScript with its types stripped, kept beside the compile cache (whose folder is named for
 * the Node version, and so for the stripper Node bundles): Node strips every .ts file again at
 * each start, about 300 files and 1.7 MB for the server (half of them took 0.5 s of CPU to strip,
 * the stripper's own start included, on a busy 2-core machine), and its compile cache only starts
 * after that. A file whose text changed is stripped again.
 * Off with the compile cache, and with --enable-source-maps (Node then adds a source map we do not).
 */
const strippedDir = (() => {
  const dir = compileCaching && !process.sourceMapsEnabled ? getCompileCacheDir() : undefined;
  return dir ? `${dir}-stripped-ts` : undefined;
})();
const OWN_FILES = new URL('../../', import.meta.url).href;

/** What Node's loader itself makes of a .ts file (the same function; its sourceURL comment too). */
function strip(source: string, url: string): string {
  // The function warns once that it is experimental; the loader runs the same one without a word.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    return stripTypeScriptTypes(source, { sourceUrl: url });
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** One entry per file (named for its address), holding the hash of the text it was stripped from. */
function stripped(dir: string, url: string, source: string): string {
  const file = path.join(dir, `${createHash('sha1').update(url).digest('hex')}.js`);
  const hash = createHash('sha1').update(source).digest('hex');
  try {
    const kept = fs.readFileSync(file, 'utf8');
    if (kept.startsWith(`${hash}\n`)) return kept.slice(hash.length + 1);
  } catch {
    // not kept yet
  }
  const code = strip(source, url);
  try {
    fs.mkdirSync(dir, { recursive: true });
    // Whole or not at all: another process may read it meanwhile.
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, `${hash}\n${code}`);
    fs.renameSync(partial, file);
  } catch {
    // A read-only disk: strip again next time.
  }
  return code;
}

/**
 * A start-up fix for Node's module loader, registered by the entry points (main.ts, scripts/cli.ts)
 * before the server's modules load. For every ES module file it loads from a package, Node 22 and
 * 24 read that package's package.json again and parse its whole "exports" map. drizzle-orm's is
 * 179 kB with 447 entries, and a start loads about 480 of its files: 0.4 s of CPU per start (a
 * fifth of a command-line run; measured in docs/decisions/101-start-up-cost.md). drizzle-orm's own
 * relative imports name their files ('./sql/index.js') in a package of ES modules, so they need no
 * lookup: this resolves them directly. Every other import goes through Node's resolution unchanged.
 * Our own .ts files load stripped from the cache above.
 */
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (
      specifier.startsWith('.') &&
      specifier.endsWith('.js') &&
      context.parentURL?.includes('/node_modules/drizzle-orm/')
    ) {
      return { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    const loaded = nextLoad(url, context);
    const own = url.startsWith(OWN_FILES) && !url.includes('/node_modules/');
    if (!strippedDir || loaded.format !== 'module-typescript' || !own || !loaded.source) return loaded;
    const source = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
    return { format: 'module', source: stripped(strippedDir, url, source), shortCircuit: true };
  },
});
