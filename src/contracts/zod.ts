import { z } from 'zod';

/**
 * The one zod every contract uses. In the browser, zod must not probe for `new Function` (our CSP
 * has no 'unsafe-eval' and would report it), and it decides when each schema is built, so the
 * switch is set here, before any contract defines a schema. The server keeps zod's fast path.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };

/** First message per field, for showing under each input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
