import { constants, enableCompileCache } from 'node:module';

/**
 * Node's on-disk cache of compiled code (in the system's temporary directory, or NODE_COMPILE_CACHE;
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off): a start after the first compiles the modules it
 * loads from the cache instead of from source. Measured in docs/decisions/101-start-up-cost.md.
 * Turned on by the entry points before the server's modules load: main.ts (through module-hooks.ts),
 * main-bundle.ts and scripts/cli.ts.
 */
const compileCache = enableCompileCache();

/** Whether this process keeps and reads compiled code on disk. */
export const compileCaching =
  compileCache.status === constants.compileCacheStatus.ENABLED ||
  compileCache.status === constants.compileCacheStatus.ALREADY_ENABLED;
