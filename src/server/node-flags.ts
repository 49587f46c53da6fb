/**
 * What every way of starting the server tells Node (docs/decisions/125-async-context-without-hooks.md):
 * `npm start` and `npm run dev` (package.json), the tests' and the bench's servers
 * (tests/helpers/server-process.ts), the browser tests' server (playwright.config.ts) and the test
 * workers (vitest.config.ts) all read this list.
 *
 * `--experimental-async-context-frame`: Node 22 carries AsyncLocalStorage's values on async hooks
 * (an init hook for every tick, timer and request, and V8's promise hook for every promise) from the
 * first time any storage is used for as long as the process lives; React's server renderer uses one
 * on every page. With this flag the value rides on V8's own context frame instead, with no hook at
 * all: the same API and the same values, and the default from Node 24 on. Measured on the bench's
 * bare yardstick: using one storage once made each of its requests cost 16 µs (20%) more CPU.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--experimental-async-context-frame'];

/** The flags of SERVER_NODE_FLAGS this process was started without (on its command line or in NODE_OPTIONS). */
export function missingNodeFlags(
  execArgv: readonly string[] = process.execArgv,
  // Node's own setting, read as Node reads it; not the app's configuration (config.ts).
  // eslint-disable-next-line no-restricted-properties
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)]);
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flag));
}
