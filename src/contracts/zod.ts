import { config, z } from 'zod';

/**
 * The one zod every contract uses. In the browser, zod must not probe for `new Function` (our CSP
 * has no 'unsafe-eval' and would report it), and it decides when each schema is built, so the
 * switch is set here, before any contract defines a schema. The server keeps zod's fast path.
 *
 * Only schema modules import this one (`*.schemas.ts`, and errors.ts' error body): the modules of
 * texts and constants a page loads hold no schema, so no page loads zod before a form is used
 * (docs/decisions/119-schemas-stay-on-the-server.md, 159 for the console's pages).
 */
if (typeof document !== 'undefined') config({ jitless: true });

export { z };
