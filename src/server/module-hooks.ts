import { enableCompileCache, registerHooks } from 'node:module';

/**
 * A start-up fix for Node's module loader, registered by the entry points (main.ts, scripts/cli.ts)
 * before the server's modules load. For every ES module file it loads from a package, Node 22 and
 * 24 read that package's package.json again and parse its whole "exports" map. drizzle-orm's is
 * 179 kB with 447 entries, and a start loads about 480 of its files: 0.4 s of CPU per start (a
 * fifth of a command-line run; measured in docs/decisions/101-start-up-cost.md). drizzle-orm's own
 * relative imports name their files ('./sql/index.js') in a package of ES modules, so they need no
 * lookup: this resolves them directly. Every other import goes through Node's resolution unchanged.
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
});

/**
 * Node's on-disk cache of compiled code (in the system's temporary directory, or NODE_COMPILE_CACHE;
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off): a start after the first compiles the modules it
 * loads from the cache instead of from source. Measured in docs/decisions/101-start-up-cost.md.
 */
enableCompileCache();
