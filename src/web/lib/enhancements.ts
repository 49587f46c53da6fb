/**
 * Scripts for pages that do not hydrate the app (docs/decisions/092-register-without-hydration.md).
 * The list and its types live in src/contracts/web-context.ts, because the server (which serves the
 * built files) reads them too; vite.config.ts and the web app keep importing them from here.
 */
export { ENHANCEMENTS, type EnhancementFiles, type EnhancementName } from '../../contracts/web-context.ts';
