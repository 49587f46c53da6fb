/**
 * Scripts for pages that do not hydrate the app (docs/decisions/092-register-without-hydration.md):
 * each is a separate entry of the client build (vite.config.ts), loaded by the root layout when a
 * route's `handle.enhance` names it. In development Vite serves the source file itself.
 */
export const ENHANCEMENTS = { register: 'src/web/features/register/enhance.ts' } as const;

export type EnhancementName = keyof typeof ENHANCEMENTS;

/** Where the browser finds an enhancement: its module, and the chunks it imports (preloaded). */
export interface EnhancementFiles {
  src: string;
  imports: string[];
}

export type EnhancementManifest = Partial<Record<EnhancementName, EnhancementFiles>>;
