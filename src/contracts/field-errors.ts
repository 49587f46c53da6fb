/**
 * First message per field, for showing under each input, from a zod error's issues. In a module of
 * its own, without zod: the browser's form helpers use it, and a page loads zod only with a form's
 * schema (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export function fieldErrors(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
