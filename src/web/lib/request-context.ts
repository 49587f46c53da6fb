import { createContext as createReactContext, useContext } from 'react';
import { createContext } from 'react-router';
import type { EnhancementManifest, RequestContextValue } from '../../contracts/web-context.ts';

/**
 * What the server hands to route loaders, per request, through React Router's context. The types
 * are shared with the server (src/contracts/web-context.ts); web files keep importing them from here.
 */
export type { RequestContextValue, WebServices } from '../../contracts/web-context.ts';

export const requestContext = createContext<RequestContextValue>();

/** The CSP nonce of this response; empty in the browser, where scripts are already trusted. */
export const NonceContext = createReactContext('');
export const useNonce = () => useContext(NonceContext);

/** The page scripts of this build, for the root layout of a page that does not hydrate (server only). */
export const EnhancementsContext = createReactContext<EnhancementManifest>({});
export const useEnhancements = () => useContext(EnhancementsContext);
