import { createContext as createReactContext, useContext } from 'react';
import { createContext } from 'react-router';
import type { Faq, FaqType, LegalLinks } from '../../contracts/content.ts';
import type { EnhancementManifest } from './enhancements.ts';
import type { NotificationKey, NotificationPreferences } from '../../contracts/notifications.ts';

/**
 * What the server hands to route loaders (set per request by the Fastify web handler).
 * The web app sees services through this narrow interface, never the database.
 */
export interface SiteInfo {
  companyName: string;
  publicBaseUrl: string;
  appStoreUrl: string;
  googlePlayUrl: string;
}

export interface WebServices {
  listFaqs(type: FaqType): Promise<Faq[]>;
  findLegalLinks(): Promise<LegalLinks | null>;
  /** The `companies/links` settings document, read once by the register page (spec §3); null when it cannot be read. */
  findCompanyLinks(): Promise<Record<string, unknown> | null>;
  /**
   * Calls one of our own API endpoints in process, as this visitor (address and cookie): what a
   * page's form action does, so it follows exactly the rules the JavaScript version meets.
   */
  callApi(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: unknown; setCookie: string[] }>;
  /**
   * Sends a page's multipart form on to one of our API endpoints as it arrives (a file is never
   * held in memory), as this visitor; hands back the answer and the form's text fields.
   */
  forwardMultipart(url: string, form: Request): Promise<{ status: number; body: unknown; fields: Record<string, string> }>;
  /** Signs in from a page's form (no JavaScript needed): the session cookie to set, or why not. */
  signIn(input: { email: string; password: string }): Promise<SignInOutcome>;
  /** Notification mail settings of the signed-in person (null when nobody is signed in), and unsubscribe links. */
  notifications: {
    preferences(): Promise<NotificationPreferences | null>;
    setPreferences(changes: Partial<Record<NotificationKey, boolean>>): Promise<NotificationPreferences | null>;
    describeUnsubscribe(token: string): Promise<{ email: string; label: string } | null>;
    unsubscribe(token: string): Promise<{ email: string; label: string } | null>;
  };
}

export type SignInOutcome =
  | { ok: true; setCookie: string }
  | { ok: false; status: number; message: string; fields: Record<string, string>; unverified: boolean };

export interface SignedInUser {
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
}

export interface RequestContextValue {
  site: SiteInfo;
  services: WebServices;
  nonce: string;
  user: SignedInUser | null;
  /** The scripts of pages that do not hydrate (lib/enhancements.ts), as this build serves them. */
  enhancements: EnhancementManifest;
  /** Set when the server answers a request with an error page (a write the page does not take). */
  pageError?: { status: number; message: string };
}

export const requestContext = createContext<RequestContextValue>();

/** The CSP nonce of this response; empty in the browser, where scripts are already trusted. */
export const NonceContext = createReactContext('');
export const useNonce = () => useContext(NonceContext);

/** The page scripts of this build, for the root layout of a page that does not hydrate (server only). */
export const EnhancementsContext = createReactContext<EnhancementManifest>({});
export const useEnhancements = () => useContext(EnhancementsContext);
