import { executionAsyncResource } from 'node:async_hooks';

/**
 * Keeps one of Node's tick objects for the life of the process (docs/decisions/126-kept-tick-shape.md).
 *
 * `process.nextTick` makes each tick as an object literal with three symbol-keyed properties. V8
 * remembers, weakly, the hidden class each of those properties was added to. While the server is
 * idle no tick object is alive, and after a few garbage collections V8 lets those hidden classes
 * go; the next tick finds its remembered class gone and V8 gives that site up for good
 * ("megamorphic"): every tick of the process from then on is made in V8's runtime, about ten times
 * slower, and a request makes several. One tick object kept alive keeps its classes alive, so the
 * remembered ones stay valid. Measured in a plain script: after five idle collections a tick cost
 * about 1,000 ns without it and 180-290 ns with it.
 */
let kept: object | undefined;

export function keepTickShape(): void {
  // Inside a tick's callback, the resource of the running async context is the tick object itself.
  process.nextTick(() => {
    kept = executionAsyncResource();
  });
}

/** The kept tick object once the first tick has run (for the test). */
export function keptTick(): object | undefined {
  return kept;
}
