import { z } from 'zod';

/**
 * The one zod every contract uses. In the browser, zod must not probe for `new Function` (our CSP
 * has no 'unsafe-eval' and would report it), and it decides when each schema is built, so the
 * switch is set here, before any contract defines a schema. The server keeps zod's fast path.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
