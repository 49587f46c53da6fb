import { describe, expect, it } from 'vitest';
import { keepTickShape, keptTick } from './tick-shape.ts';

describe('the kept tick object', () => {
  it('is a tick that process.nextTick made, with its symbol-keyed properties, and stays kept', async () => {
    keepTickShape();
    await new Promise<void>((resolve) => process.nextTick(resolve));
    const tick = keptTick() as Record<string | symbol, unknown> | undefined;
    expect(tick).toBeTypeOf('object');
    // What nextTick's literal holds: the callback it was given, and its async ids under symbols.
    expect(tick!.callback).toBeTypeOf('function');
    const symbols = Object.getOwnPropertySymbols(tick!).map((s) => s.description);
    expect(symbols).toEqual(expect.arrayContaining(['async_id_symbol', 'trigger_async_id_symbol']));
    // Time is the subject: the kept tick outlives the turns of the event loop after it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(keptTick()).toBe(tick);
  });
});
