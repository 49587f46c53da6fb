import type { Permission } from './roles.ts';
import type { Faq, FaqType, LegalLinks } from './content.ts';
import type { AnswerOf, ApiClient, ApiResult, CallInput, EndpointDeclaration } from './endpoint.ts';

/**
 * What the server hands to route loaders (set per request by the Fastify web handler).
 * The web app sees services through this narrow interface, never the database. Both sides read
 * these types: the server builds the value (server/web/page-context.ts), the web app reads it
 * through React Router's context (web/lib/request-context.ts).
 */
export interface SiteInfo {
  companyName: string;
  publicBaseUrl: string;
  appStoreUrl: string;
  googlePlayUrl: string;
  /** The company's identity provider staff sign in with (decision 148), by its name; null when none is set up. */
  staffSignIn: string | null;
  /** The app answers about deliveries (DELIVERY_CONTEXT_URL): a ticket with a reference shows its card (decision 151). */
  deliveryCard: boolean;
}

/**
 * The one API client as the server hands it to route loaders and actions (in process, as the
 * visitor). `forward` sends a page's form with files on to its endpoint as it arrives.
 */
export interface ServerApiClient extends ApiClient {
  forward<E extends EndpointDeclaration>(
    declaration: E,
    input: Pick<CallInput<E>, 'params'>,
    form: Request,
  ): Promise<{ result: ApiResult<AnswerOf<E>>; fields: Record<string, string> }>;
}

export interface WebServices {
  /** Our API, called in process as this visitor: the way loaders read and actions write. */
  api: ServerApiClient;
  listFaqs(type: FaqType): Promise<Faq[]>;
  findLegalLinks(): Promise<LegalLinks | null>;
  /** The `companies/links` settings document, read once by the register page (docs/product.md §3); null when it cannot be read. */
  findCompanyLinks(): Promise<Record<string, unknown> | null>;
  /**
   * Signs in from a page's form (no JavaScript needed): the session cookie to set, or why not. The
   * code step of an admin's sign-in brings the ticket the password step answered with instead of
   * the password.
   */
  signIn(
    input: { email: string; password: string; otp?: string } | { ticket: string; otp: string },
  ): Promise<SignInOutcome>;
  /**
   * The first admin (/setup): whether a link's token works now, and creating the account with it,
   * signed in at once (`setCookie` starts its session; null if none could be issued).
   */
  setup: {
    isUsable(token: string): Promise<boolean>;
    createFirstAdmin(input: {
      token: string;
      email: string;
      password: string;
    }): Promise<
      | { ok: true; email: string; setCookie: string | null }
      | { ok: false; message: string; fields: Record<string, string> }
    >;
  };
  /** The one-click unsubscribe links of notification mail (no session needed). */
  notifications: {
    describeUnsubscribe(token: string): Promise<{ email: string; label: string } | null>;
    unsubscribe(token: string): Promise<{ email: string; label: string } | null>;
  };
}

export type SignInOutcome =
  | { ok: true; setCookie: string }
  | {
      ok: false;
      status: number;
      message: string;
      fields: Record<string, string>;
      unverified: boolean;
      /** The password was right and the code is still to come: the ticket that stands for it (five minutes, once). */
      ticket?: string;
    };

export interface SignedInUser {
  email: string;
  /** 'admin': a member of staff past the second factor; what they may do is `permissions`. */
  role: 'user' | 'admin';
  /** What the staff member's roles allow (src/contracts/roles.ts): the console shows only that. */
  permissions: readonly Permission[];
  emailVerified: boolean;
  /** An admin whose session has not passed the second factor: role is 'user' until it does (docs/product.md §2.15). */
  secondFactorPending?: boolean;
}

export interface RequestContextValue {
  site: SiteInfo;
  services: WebServices;
  nonce: string;
  user: SignedInUser | null;
  /** The scripts of pages that do not hydrate (ENHANCEMENTS below), as this build serves them. */
  enhancements: EnhancementManifest;
  /** Set when the server answers a request with an error page (a write the page does not take). */
  pageError?: { status: number; message: string };
}

/**
 * Scripts for pages that do not hydrate the app (docs/decisions/092-register-without-hydration.md):
 * each is a separate entry of the client build (vite.config.ts), loaded by the root layout when a
 * route's `handle.enhance` names it. In development Vite serves the source file itself.
 */
export const ENHANCEMENTS = { register: 'src/web/features/register/enhance.ts' } as const;

export type EnhancementName = keyof typeof ENHANCEMENTS;

/**
 * What a route module tells the server about itself through its `handle` export; the server reads
 * it from the build (server/web/route-needs.ts), so a page's needs are declared once, beside the page.
 * Whether a page takes a POST is not listed at all: it does when its module exports an `action`.
 */
export interface RouteHandle {
  /** The page is served without the app's JavaScript (docs/decisions/080-static-public-pages.md). */
  hydrate?: false;
  /** The small script of its own a page without hydration loads instead. */
  enhance?: EnhancementName;
  /** The same bytes for every anonymous visitor: kept whole in memory until content changes. */
  cacheForAnonymous?: true;
  /** The largest form the page's action takes, in bytes, where it is more than the usual 100 kB (forms with files). */
  formBytes?: number;
  /**
   * The page sends its first bytes before a slow part of it is ready (a promise in its loader's
   * data, drawn with `<Await>`): the part follows in the same response when it comes, and the page
   * is sent as it renders, not compressed whole (docs/decisions/151-delivery-card.md). Without the
   * page's script the part's fallback stays, so it must say where else to find what it waits for.
   */
  streams?: true;
}

/** Where the browser finds an enhancement: its module, and the chunks it imports (preloaded). */
export interface EnhancementFiles {
  src: string;
  imports: string[];
}

export type EnhancementManifest = Partial<Record<EnhancementName, EnhancementFiles>>;
