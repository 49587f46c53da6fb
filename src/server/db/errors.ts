/** The SQLSTATE codes inside a driver or ORM error (PGlite and node-postgres alike), outermost first. */
function sqlStatesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) codes.push(code);
  }
  return codes;
}

/** The Postgres unique-violation (SQLSTATE 23505) inside a driver or ORM error (PGlite and node-postgres alike). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStatesOf(error).includes('23505');
}

/**
 * A value the database will never take, however often it is tried: a data exception (SQLSTATE
 * class 22, e.g. a NUL byte in text) or a program limit (class 54, e.g. an index row too large).
 */
export function isUnstorableValue(error: unknown): boolean {
  return sqlStatesOf(error).some((code) => code.startsWith('22') || code.startsWith('54'));
}
