import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBodyOf, resultOf, UNEXPECTED_FAILURE } from './endpoint.ts';
import { ErrorBodySchema } from './errors.ts';

/** Answers near our error shape: right, wrong in one place, or something else entirely. */
const answer = fc.oneof(
  fc.record(
    {
      error: fc.record(
        {
          status: fc.oneof(fc.constantFrom('INVALID_ARGUMENT', 'NOT_FOUND'), fc.integer()),
          message: fc.oneof(fc.string(), fc.constant(null)),
          fields: fc.oneof(
            fc.dictionary(fc.string(), fc.string()),
            fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())),
            fc.array(fc.string()),
            fc.constant(null),
          ),
        },
        { requiredKeys: ['status', 'message'] },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

describe('errorBodyOf, the browser-side reading of our error shape', () => {
  it('accepts exactly what ErrorBodySchema accepts, and reads the same message and fields', () => {
    fc.assert(
      fc.property(answer, (body) => {
        const parsed = ErrorBodySchema.safeParse(body);
        const read = errorBodyOf(body);
        expect(read !== null).toBe(parsed.success);
        if (parsed.success) expect(read).toEqual(parsed.data.error);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a field named __proto__ as the schema does: checked, not kept', () => {
    const body = JSON.parse(
      '{"error":{"status":"INVALID_ARGUMENT","message":"","fields":{"__proto__":"","email":"x"}}}',
    );
    expect(errorBodyOf(body)).toEqual(ErrorBodySchema.parse(body).error);
    expect(errorBodyOf(body)?.fields).toEqual({ email: 'x' });
    expect(Object.getPrototypeOf(errorBodyOf(body)?.fields)).toBe(Object.prototype);
    expect(errorBodyOf(JSON.parse('{"error":{"status":"X","message":"","fields":{"__proto__":5}}}'))).toBeNull();
  });

  it('gives a refusal its message and fields, and anything else the general sentence', () => {
    const refusal = { error: { status: 'INVALID_ARGUMENT', message: 'Email is required.', fields: { email: 'x' } } };
    expect(resultOf(400, refusal)).toEqual({
      ok: false,
      status: 400,
      message: 'Email is required.',
      fields: { email: 'x' },
      fromServer: true,
    });
    expect(resultOf(502, '<html>Bad gateway</html>')).toMatchObject({
      ok: false,
      message: UNEXPECTED_FAILURE,
      fields: {},
      fromServer: false,
    });
    expect(resultOf(429, refusal, '30')).toMatchObject({ retryAfterSeconds: 30 });
  });
});
